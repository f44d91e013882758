/// An item whose row shows one paragraph of text: the family of Three20's `TTTableTextItem`
/// and its marker subclasses. Register a cell for `(any TextContentItem).self` to draw them
/// all; a registration for one concrete type still wins for that type.
public protocol TextContentItem: TableItem {
  var text: String { get }
}

/// A row of bold text (Three20's `TTTableTextItem`).
public struct TextItem: TextContentItem {
  public static let typeName = "text"
  public var text: String
  public var options: ItemOptions

  public init(text: String, options: ItemOptions = ItemOptions()) {
    self.text = text
    self.options = options
  }
}

/// A row of bold text in the link color (`TTTableLink`).
public struct LinkItem: TextContentItem {
  public static let typeName = "link"
  public var text: String
  public var options: ItemOptions

  public init(text: String, options: ItemOptions = ItemOptions()) {
    self.text = text
    self.options = options
  }
}

/// A centered button title in the link color, never with an accessory (`TTTableButton`).
public struct ButtonItem: TextContentItem {
  public static let typeName = "button"
  public var text: String
  public var options: ItemOptions

  public init(text: String, options: ItemOptions = ItemOptions()) {
    self.text = text
    self.options = options
  }
}

/// Several lines of regular text (`TTTableLongTextItem`).
public struct LongTextItem: TextContentItem {
  public static let typeName = "longText"
  public var text: String
  public var options: ItemOptions

  public init(text: String, options: ItemOptions = ItemOptions()) {
    self.text = text
    self.options = options
  }
}

/// Regular text in the sub-text gray (`TTTableGrayTextItem`).
public struct GrayTextItem: TextContentItem {
  public static let typeName = "grayText"
  public var text: String
  public var options: ItemOptions

  public init(text: String, options: ItemOptions = ItemOptions()) {
    self.text = text
    self.options = options
  }
}

/// A centered summary line, such as "24 photos" at the end of a list (`TTTableSummaryItem`).
public struct SummaryItem: TextContentItem {
  public static let typeName = "summary"
  public var text: String
  public var options: ItemOptions

  public init(text: String, options: ItemOptions = ItemOptions()) {
    self.text = text
    self.options = options
  }
}

/// A row that shows a spinner and a message (`TTTableActivityItem`).
public struct ActivityItem: TextContentItem {
  public static let typeName = "activity"
  public var text: String
  public var options: ItemOptions

  public init(text: String, options: ItemOptions = ItemOptions()) {
    self.text = text
    self.options = options
  }
}

/// A row of text with a checkmark when checked, as in Settings (Three20 PR #724).
public struct CheckmarkItem: TextContentItem {
  public static let typeName = "checkmark"
  public var text: String
  public var isChecked: Bool
  public var options: ItemOptions

  public init(text: String, isChecked: Bool, options: ItemOptions = ItemOptions()) {
    self.text = text
    self.isChecked = isChecked
    self.options = options
  }
}

/// Text with markup: `b`, `strong`, `i`, `em`, `u`, `span`, `div`, `p`, `br` and `a href=`
/// (`TTTableStyledTextItem`). The markup is checked when the item is decoded.
public struct StyledTextItem: TextContentItem {
  public static let typeName = "styledText"
  /// The markup source.
  public var text: String
  public var options: ItemOptions

  public init(text: String, options: ItemOptions = ItemOptions()) {
    self.text = text
    self.options = options
  }
}

/// A sample of a stylesheet style: a label saying what it shows, and a box drawn with the
/// style, with a caption inside it. The style catalog is made of these.
public struct StyleItem: TextContentItem {
  public static let typeName = "style"
  /// What the sample shows, drawn beside the box.
  public var text: String
  /// The stylesheet style to draw.
  public var style: String
  /// Text drawn inside the box, in the style's text font and color.
  public var caption: String?
  /// The box's size; without it the box fits the caption, as Three20's `sizeThatFits:`.
  public var width: Double?
  public var height: Double?
  public var options: ItemOptions

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
