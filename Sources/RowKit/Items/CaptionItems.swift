/// An item with a text and a caption: the family of Three20's `TTTableCaptionItem`.
public protocol CaptionedItem: TextContentItem {
  /// The caption that labels the text.
  var caption: String { get }
}

/// "Key: value": the caption in a narrow right-aligned column, the text beside it
/// (`TTTableCaptionItem`).
public struct CaptionItem: CaptionedItem {
  /// `caption`, the name documents give this item type.
  public static let typeName = "caption"
  /// The value, beside the caption.
  public var text: String
  /// The key, in the narrow column at the left.
  public var caption: String
  /// The row's link, selection state and backgrounds.
  public var options: ItemOptions

  /// A row of `text` labelled by `caption`.
  public init(text: String, caption: String, options: ItemOptions = ItemOptions()) {
    self.text = text
    self.caption = caption
    self.options = options
  }
}

/// The mirror of the caption row: the text on the left, the caption right-aligned in a
/// column on the right (`TTTableRightCaptionItem`, which Three20 left unfinished).
public struct RightCaptionItem: CaptionedItem {
  /// `rightCaption`, the name documents give this item type.
  public static let typeName = "rightCaption"
  /// The value, on the left.
  public var text: String
  /// The key, in the column on the right.
  public var caption: String
  /// The row's link, selection state and backgrounds.
  public var options: ItemOptions

  /// A row of `text` labelled by `caption` on its right.
  public init(text: String, caption: String, options: ItemOptions = ItemOptions()) {
    self.text = text
    self.caption = caption
    self.options = options
  }
}

/// Bold text with a smaller gray text below it (`TTTableSubtextItem`).
public struct SubtextItem: CaptionedItem {
  /// `subtext`, the name documents give this item type.
  public static let typeName = "subtext"
  /// The bold text on top.
  public var text: String
  /// The smaller text shown below.
  public var caption: String
  /// The row's link, selection state and backgrounds.
  public var options: ItemOptions

  /// A row of bold `text` over the smaller `caption`.
  public init(text: String, caption: String, options: ItemOptions = ItemOptions()) {
    self.text = text
    self.caption = caption
    self.options = options
  }
}

/// A settings row: the caption on the left, the value right-aligned (`TTTableSettingsItem`).
public struct SettingsItem: CaptionedItem {
  /// `settings`, the name documents give this item type.
  public static let typeName = "settings"
  /// The value, drawn on the right.
  public var text: String
  /// The setting's name, drawn on the left.
  public var caption: String
  /// The row's link, selection state and backgrounds.
  public var options: ItemOptions

  /// A settings row named `caption` with the value `text`.
  public init(text: String, caption: String, options: ItemOptions = ItemOptions()) {
    self.text = text
    self.caption = caption
    self.options = options
  }
}
