/// An item with a text and a caption: the family of Three20's `TTTableCaptionItem`.
public protocol CaptionedItem: TextContentItem {
  var caption: String { get }
}

/// "Key: value": the caption in a narrow right-aligned column, the text beside it
/// (`TTTableCaptionItem`).
public struct CaptionItem: CaptionedItem {
  public static let typeName = "caption"
  public var text: String
  public var caption: String
  public var options: ItemOptions

  public init(text: String, caption: String, options: ItemOptions = ItemOptions()) {
    self.text = text
    self.caption = caption
    self.options = options
  }
}

/// The mirror of the caption row: the text on the left, the caption right-aligned in a
/// column on the right (`TTTableRightCaptionItem`, which Three20 left unfinished).
public struct RightCaptionItem: CaptionedItem {
  public static let typeName = "rightCaption"
  public var text: String
  public var caption: String
  public var options: ItemOptions

  public init(text: String, caption: String, options: ItemOptions = ItemOptions()) {
    self.text = text
    self.caption = caption
    self.options = options
  }
}

/// Bold text with a smaller gray text below it (`TTTableSubtextItem`).
public struct SubtextItem: CaptionedItem {
  public static let typeName = "subtext"
  public var text: String
  /// The smaller text shown below.
  public var caption: String
  public var options: ItemOptions

  public init(text: String, caption: String, options: ItemOptions = ItemOptions()) {
    self.text = text
    self.caption = caption
    self.options = options
  }
}

/// A settings row: the caption on the left, the value right-aligned (`TTTableSettingsItem`).
public struct SettingsItem: CaptionedItem {
  public static let typeName = "settings"
  /// The value, drawn on the right.
  public var text: String
  /// The setting's name, drawn on the left.
  public var caption: String
  public var options: ItemOptions

  public init(text: String, caption: String, options: ItemOptions = ItemOptions()) {
    self.text = text
    self.caption = caption
    self.options = options
  }
}
