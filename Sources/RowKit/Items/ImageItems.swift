import Foundation

/// A bold title with a subtitle below and an optional square image (`TTTableSubtitleItem`).
public struct SubtitleItem: TextContentItem {
  public static let typeName = "subtitle"
  public var text: String
  public var subtitle: String?
  public var imageURL: String?
  public var defaultImage: String?
  public var options: ItemOptions

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
  public static let typeName = "moreButton"
  public var text: String
  public var subtitle: String?
  public var isLoading: Bool
  public var options: ItemOptions

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
  public static let typeName = "message"
  public var title: String?
  public var caption: String?
  /// The body text.
  public var text: String
  public var timestamp: Date?
  public var imageURL: String?
  public var defaultImage: String?
  public var options: ItemOptions

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

/// An image on the left of a text (`TTTableImageItem`).
public struct ImageItem: TextContentItem {
  public static let typeName = "image"
  public var text: String
  public var imageURL: String?
  public var defaultImage: String?
  /// A stylesheet style for the image, e.g. `rounded`.
  public var imageStyle: String?
  public var options: ItemOptions

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

/// A centered text with an image on its right, never with an accessory
/// (`TTTableRightImageItem`).
public struct RightImageItem: TextContentItem {
  public static let typeName = "rightImage"
  public var text: String
  public var imageURL: String?
  public var defaultImage: String?
  public var imageStyle: String?
  public var options: ItemOptions

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

/// A caption and a control drawn as it would look: a switch, a text field or a slider
/// (`TTTableControlItem`).
public struct ControlItem: TableItem {
  public static let typeName = "control"

  /// The kind of control the row shows.
  public enum Control: Hashable, Sendable {
    case toggle(isOn: Bool)
    /// A text field showing its placeholder, or its text when `text` is set.
    case textField(placeholder: String, text: String?)
    /// A slider at a value from 0 to 1.
    case slider(value: Double)
  }

  public var caption: String?
  public var control: Control
  public var options: ItemOptions

  public init(caption: String?, control: Control, options: ItemOptions = ItemOptions()) {
    self.caption = caption
    self.control = control
    self.options = options
  }
}
