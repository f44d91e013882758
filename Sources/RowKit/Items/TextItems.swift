/// An item whose row shows one paragraph of text: the family of Three20's `TTTableTextItem`
/// and its marker subclasses. Register a cell for `(any TextContentItem).self` to draw them
/// all; a registration for one concrete type still wins for that type.
public protocol TextContentItem: TableItem {
  /// The paragraph the row shows.
  var text: String { get }
}

/// What a row of one of the built-in content shapes is for, as UIKit's one
/// `UIListContentConfiguration` is a `cell()`, a `subtitleCell()` or a `valueCell()`: the name
/// documents and manifests give such rows. Three20 made a class of each; their data was the
/// same, only their cells' styles differed.
///
/// A role of your own gives rows of an existing shape a name of their own, which a
/// ``CellMapping`` can draw with a cell of their own:
///
/// ```swift
/// enum Warning: ContentRole { static let typeName = "warning" }
/// let row = TextContent<Warning>(text: "The disk is almost full")
/// ```
public protocol ContentRole: Sendable {
  /// The name documents and manifests give rows of this role (`link`).
  static var typeName: String { get }
}

/// One paragraph of text, in a role: ``TextItem``, ``LinkItem``, ``ButtonItem``,
/// ``LongTextItem``, ``GrayTextItem``, ``SummaryItem``, ``ActivityItem`` and ``StyledTextItem``
/// are its roles (Three20's `TTTableTextItem` and its subclasses).
public struct TextContent<Role: ContentRole>: TextContentItem {
  /// The role's name (`link`), the name documents give this item type.
  public static var typeName: String { Role.typeName }
  /// The paragraph the row shows.
  public var text: String
  /// The row's link, selection state and backgrounds.
  public var options: ItemOptions

  /// A row of `text` in the role.
  public init(text: String, options: ItemOptions = ItemOptions()) {
    self.text = text
    self.options = options
  }
}

/// The roles of ``TextContent``, each with the name documents give it.
public enum TextRoles {
  /// Bold text (`text`; Three20's `TTTableTextItem`).
  public enum Plain: ContentRole {
    /// `text`.
    public static let typeName = "text"
  }

  /// Bold text in the link color (`link`; `TTTableLink`).
  public enum Link: ContentRole {
    /// `link`.
    public static let typeName = "link"
  }

  /// A centered button title in the link color, never with an accessory (`button`;
  /// `TTTableButton`).
  public enum Button: ContentRole {
    /// `button`.
    public static let typeName = "button"
  }

  /// Several lines of regular text (`longText`; `TTTableLongTextItem`).
  public enum LongText: ContentRole {
    /// `longText`.
    public static let typeName = "longText"
  }

  /// Regular text in the sub-text gray (`grayText`; `TTTableGrayTextItem`).
  public enum GrayText: ContentRole {
    /// `grayText`.
    public static let typeName = "grayText"
  }

  /// A centered summary line, such as "24 photos" at the end of a list (`summary`;
  /// `TTTableSummaryItem`).
  public enum Summary: ContentRole {
    /// `summary`.
    public static let typeName = "summary"
  }

  /// A spinner and a message (`activity`; `TTTableActivityItem`), drawn by ``ActivityCell``.
  public enum Activity: ContentRole {
    /// `activity`.
    public static let typeName = "activity"
  }

  /// Text with markup (`styledText`; `TTTableStyledTextItem`), drawn by ``StyledTextCell``:
  /// `b`, `strong`, `i`, `em`, `u`, `span`, `div`, `p`, `br` and `a href=`. The markup is
  /// checked when the item is decoded.
  public enum StyledText: ContentRole {
    /// `styledText`.
    public static let typeName = "styledText"
  }
}

/// A row of bold text (Three20's `TTTableTextItem`).
public typealias TextItem = TextContent<TextRoles.Plain>
/// A row of bold text in the link color (`TTTableLink`); its destination is `options.url`.
public typealias LinkItem = TextContent<TextRoles.Link>
/// A centered button title in the link color, never with an accessory (`TTTableButton`).
public typealias ButtonItem = TextContent<TextRoles.Button>
/// Several lines of regular text (`TTTableLongTextItem`).
public typealias LongTextItem = TextContent<TextRoles.LongText>
/// Regular text in the sub-text gray (`TTTableGrayTextItem`).
public typealias GrayTextItem = TextContent<TextRoles.GrayText>
/// A centered summary line, such as "24 photos" at the end of a list (`TTTableSummaryItem`).
public typealias SummaryItem = TextContent<TextRoles.Summary>
/// A row that shows a spinner and a message (`TTTableActivityItem`).
public typealias ActivityItem = TextContent<TextRoles.Activity>

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
public typealias StyledTextItem = TextContent<TextRoles.StyledText>

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
