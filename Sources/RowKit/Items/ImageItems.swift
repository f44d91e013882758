import Foundation

/// A bold title with a subtitle below and an optional square image (`TTTableSubtitleItem`).
public struct SubtitleItem: TextContentItem {
  /// `subtitle`, the name documents give this item type.
  public static let typeName = "subtitle"
  /// The bold title.
  public var text: String
  /// The smaller text below the title; nil for none.
  public var subtitle: String?
  /// The image's URL; nil for no image of its own.
  public var imageURL: String?
  /// The URL of the image shown while there is none from ``imageURL`` (none given, failed, or not waited for).
  public var defaultImage: String?
  /// The row's link, selection state and backgrounds.
  public var options: ItemOptions

  /// A subtitle row; without an image URL or default image it has no image slot.
  public init(
    text: String, subtitle: String? = nil, imageURL: String? = nil, defaultImage: String? = nil,
    options: ItemOptions = ItemOptions()
  ) {
    self.text = text
    self.subtitle = subtitle
    self.imageURL = imageURL
    self.defaultImage = defaultImage
    self.options = options
  }
}

/// A "Load more" row, with a spinner while it loads (`TTTableMoreButton`).
public struct MoreButtonItem: TextContentItem {
  /// `moreButton`, the name documents give this item type.
  public static let typeName = "moreButton"
  /// The button's text (`Load more`).
  public var text: String
  /// Smaller text below the button's text; nil for none.
  public var subtitle: String?
  /// Whether a spinner shows that more is loading.
  public var isLoading: Bool
  /// The row's link, selection state and backgrounds.
  public var options: ItemOptions

  /// A more-button row, not loading unless told.
  public init(
    text: String, subtitle: String? = nil, isLoading: Bool = false, options: ItemOptions = ItemOptions()
  ) {
    self.text = text
    self.subtitle = subtitle
    self.isLoading = isLoading
    self.options = options
  }
}

/// A mail or feed row: title, caption, two lines of body text, a timestamp and an optional
/// avatar (`TTTableMessageItem`).
public struct MessageItem: TextContentItem {
  /// `message`, the name documents give this item type.
  public static let typeName = "message"
  /// The bold title on the first line; nil for none.
  public var title: String?
  /// The line below the title; nil for none.
  public var caption: String?
  /// The body text.
  public var text: String
  /// When the message was sent, shown at the title's right; nil for none.
  public var timestamp: Date?
  /// The avatar's URL; nil for no image of its own.
  public var imageURL: String?
  /// The URL of the avatar shown while there is none from ``imageURL``.
  public var defaultImage: String?
  /// The row's link, selection state and backgrounds.
  public var options: ItemOptions

  /// A message row of body `text`, with whichever of the other parts are given.
  public init(
    title: String? = nil, caption: String? = nil, text: String, timestamp: Date? = nil,
    imageURL: String? = nil, defaultImage: String? = nil, options: ItemOptions = ItemOptions()
  ) {
    self.title = title
    self.caption = caption
    self.text = text
    self.timestamp = timestamp
    self.imageURL = imageURL
    self.defaultImage = defaultImage
    self.options = options
  }
}

/// A text with an image, in a role: ``ImageItem`` (the image on the left) and
/// ``RightImageItem`` (the text centered, the image on the right) are its roles (Three20's
/// `TTTableImageItem` and `TTTableRightImageItem`), each drawn by a cell of its own.
public struct ImageContent<Role: ContentRole>: TextContentItem {
  /// The role's name (`rightImage`), the name documents give this item type.
  public static var typeName: String { Role.typeName }
  /// The text beside the image.
  public var text: String
  /// The image's URL; nil for no image of its own.
  public var imageURL: String?
  /// The URL of the image shown while there is none from ``imageURL``.
  public var defaultImage: String?
  /// A stylesheet style for the image, e.g. `rounded`.
  public var imageStyle: String?
  /// The row's link, selection state and backgrounds.
  public var options: ItemOptions

  /// A row of `text` with the image and style when given, in the role.
  public init(
    text: String, imageURL: String? = nil, defaultImage: String? = nil, imageStyle: String? = nil,
    options: ItemOptions = ItemOptions()
  ) {
    self.text = text
    self.imageURL = imageURL
    self.defaultImage = defaultImage
    self.imageStyle = imageStyle
    self.options = options
  }
}

/// The roles of ``ImageContent``, each with the name documents give it.
public enum ImageRoles {
  /// The image on the left of the text (`image`; `TTTableImageItem`), drawn by
  /// ``ImageCell``.
  public enum Image: ContentRole {
    /// `image`.
    public static let typeName = "image"
  }

  /// The text centered, the image on its right, never with an accessory (`rightImage`;
  /// `TTTableRightImageItem`), drawn by ``RightImageCell``.
  public enum RightImage: ContentRole {
    /// `rightImage`.
    public static let typeName = "rightImage"
  }
}

/// An image on the left of a text (`TTTableImageItem`).
public typealias ImageItem = ImageContent<ImageRoles.Image>

/// A centered text with an image on its right, never with an accessory
/// (`TTTableRightImageItem`).
public typealias RightImageItem = ImageContent<ImageRoles.RightImage>

/// A caption and a control drawn as it would look: a switch, a text field or a slider
/// (`TTTableControlItem`).
public struct ControlItem: TableItem {
  /// `control`, the name documents give this item type.
  public static let typeName = "control"

  /// The kind of control the row shows.
  public enum Control: Hashable, Sendable {
    /// A switch, on or off.
    case toggle(isOn: Bool)
    /// A text field showing its placeholder, or its text when `text` is set.
    case textField(placeholder: String, text: String?)
    /// A slider at a value from 0 to 1.
    case slider(value: Double)
  }

  /// The text on the left; nil for none.
  public var caption: String?
  /// The control and its state.
  public var control: Control
  /// The row's link, selection state and backgrounds.
  public var options: ItemOptions

  /// A row showing `control` beside `caption`.
  public init(caption: String?, control: Control, options: ItemOptions = ItemOptions()) {
    self.caption = caption
    self.control = control
    self.options = options
  }
}
