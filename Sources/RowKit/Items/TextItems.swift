/// An item whose row shows one paragraph of text: the family of Three20's `TTTableTextItem`
/// and its marker subclasses. Register a cell for `(any TextContentItem).self` to draw them
/// all; a registration for one concrete type still wins for that type.
public protocol TextContentItem: TableItem {
  /// The paragraph the row shows.
  var text: String { get }
}

/// A row of bold text (Three20's `TTTableTextItem`).
public struct TextItem: TextContentItem {
  /// `text`, the name documents give this item type.
  public static let typeName = "text"
  /// The row's text.
  public var text: String
  /// The row's link, selection state and backgrounds.
  public var options: ItemOptions

  /// A row of `text`.
  public init(text: String, options: ItemOptions = ItemOptions()) {
    self.text = text
    self.options = options
  }
}

/// A row of bold text in the link color (`TTTableLink`).
public struct LinkItem: TextContentItem {
  /// `link`, the name documents give this item type.
  public static let typeName = "link"
  /// The link's text.
  public var text: String
  /// The row's link, selection state and backgrounds.
  public var options: ItemOptions

  /// A link row of `text`; its destination is `options.url`.
  public init(text: String, options: ItemOptions = ItemOptions()) {
    self.text = text
    self.options = options
  }
}

/// A centered button title in the link color, never with an accessory (`TTTableButton`).
public struct ButtonItem: TextContentItem {
  /// `button`, the name documents give this item type.
  public static let typeName = "button"
  /// The button's title.
  public var text: String
  /// The row's link, selection state and backgrounds.
  public var options: ItemOptions

  /// A button row titled `text`.
  public init(text: String, options: ItemOptions = ItemOptions()) {
    self.text = text
    self.options = options
  }
}

/// Several lines of regular text (`TTTableLongTextItem`).
public struct LongTextItem: TextContentItem {
  /// `longText`, the name documents give this item type.
  public static let typeName = "longText"
  /// The paragraph, wrapped onto as many lines as it needs.
  public var text: String
  /// The row's link, selection state and backgrounds.
  public var options: ItemOptions

  /// A long-text row of `text`.
  public init(text: String, options: ItemOptions = ItemOptions()) {
    self.text = text
    self.options = options
  }
}

/// Regular text in the sub-text gray (`TTTableGrayTextItem`).
public struct GrayTextItem: TextContentItem {
  /// `grayText`, the name documents give this item type.
  public static let typeName = "grayText"
  /// The gray paragraph.
  public var text: String
  /// The row's link, selection state and backgrounds.
  public var options: ItemOptions

  /// A gray-text row of `text`.
  public init(text: String, options: ItemOptions = ItemOptions()) {
    self.text = text
    self.options = options
  }
}

/// A centered summary line, such as "24 photos" at the end of a list (`TTTableSummaryItem`).
public struct SummaryItem: TextContentItem {
  /// `summary`, the name documents give this item type.
  public static let typeName = "summary"
  /// The centered summary.
  public var text: String
  /// The row's link, selection state and backgrounds.
  public var options: ItemOptions

  /// A summary row of `text`.
  public init(text: String, options: ItemOptions = ItemOptions()) {
    self.text = text
    self.options = options
  }
}

/// A row that shows a spinner and a message (`TTTableActivityItem`).
public struct ActivityItem: TextContentItem {
  /// `activity`, the name documents give this item type.
  public static let typeName = "activity"
  /// The message beside the spinner.
  public var text: String
  /// The row's link, selection state and backgrounds.
  public var options: ItemOptions

  /// An activity row showing `text`.
  public init(text: String, options: ItemOptions = ItemOptions()) {
    self.text = text
    self.options = options
  }
}

/// A row of text with a checkmark when checked, as in Settings (Three20 PR #724).
public struct CheckmarkItem: TextContentItem {
  /// `checkmark`, the name documents give this item type.
  public static let typeName = "checkmark"
  /// The row's text.
  public var text: String
  /// Whether the row shows a checkmark.
  public var isChecked: Bool
  /// The row's link, selection state and backgrounds.
  public var options: ItemOptions

  /// A row of `text`, checked or not.
  public init(text: String, isChecked: Bool, options: ItemOptions = ItemOptions()) {
    self.text = text
    self.isChecked = isChecked
    self.options = options
  }
}

/// Text with markup: `b`, `strong`, `i`, `em`, `u`, `span`, `div`, `p`, `br` and `a href=`
/// (`TTTableStyledTextItem`). The markup is checked when the item is decoded.
public struct StyledTextItem: TextContentItem {
  /// `styledText`, the name documents give this item type.
  public static let typeName = "styledText"
  /// The markup source.
  public var text: String
  /// The row's link, selection state and backgrounds.
  public var options: ItemOptions

  /// A styled-text row of the markup `text`.
  public init(text: String, options: ItemOptions = ItemOptions()) {
    self.text = text
    self.options = options
  }
}

/// A sample of a stylesheet style: a label saying what it shows, and a box drawn with the
/// style, with a caption inside it. The style catalog is made of these.
public struct StyleItem: TextContentItem {
  /// `style`, the name documents give this item type.
  public static let typeName = "style"
  /// What the sample shows, drawn beside the box.
  public var text: String
  /// The stylesheet style to draw.
  public var style: String
  /// Text drawn inside the box, in the style's text font and color.
  public var caption: String?
  /// The box's size; without it the box fits the caption, as Three20's `sizeThatFits:`.
  public var width: Double?
  /// The box's height; with ``width`` unset as well, the box fits the caption.
  public var height: Double?
  /// The row's link, selection state and backgrounds.
  public var options: ItemOptions

  /// A sample of `style`, labelled by `text`, its box fitting `caption` unless a size is given.
  public init(
    text: String, style: String, caption: String? = nil, width: Double? = nil, height: Double? = nil,
    options: ItemOptions = ItemOptions()
  ) {
    self.text = text
    self.style = style
    self.caption = caption
    self.width = width
    self.height = height
    self.options = options
  }
}
