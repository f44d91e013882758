/// An item with a text and a caption: the family of Three20's `TTTableCaptionItem`.
public protocol CaptionedItem: TextContentItem {
  /// The caption that labels the text.
  var caption: String { get }
}

/// A text with a caption, in a role: ``CaptionItem``, ``RightCaptionItem``, ``SubtextItem``
/// and ``SettingsItem`` are its roles (Three20's `TTTableCaptionItem` and its subclasses),
/// each drawn by a cell of its own.
public struct CaptionContent<Role: ContentRole>: CaptionedItem {
  /// The role's name (`settings`), the name documents give this item type.
  public static var typeName: String { Role.typeName }
  /// The value (the bold text, for a subtext row).
  public var text: String
  /// The key that labels the value (the smaller text below, for a subtext row).
  public var caption: String
  /// The row's link, selection state and backgrounds.
  public var options: ItemOptions

  /// A row of `text` labelled by `caption`, in the role.
  public init(text: String, caption: String, options: ItemOptions = ItemOptions()) {
    self.text = text
    self.caption = caption
    self.options = options
  }
}

/// The roles of ``CaptionContent``, each with the name documents give it.
public enum CaptionRoles {
  /// The caption in a narrow right-aligned column, the text beside it (`caption`;
  /// `TTTableCaptionItem`), drawn by ``CaptionCell``.
  public enum Caption: ContentRole {
    /// `caption`.
    public static let typeName = "caption"
  }

  /// The text on the left, the caption right-aligned in a column on the right
  /// (`rightCaption`; `TTTableRightCaptionItem`), drawn by ``RightCaptionCell``.
  public enum RightCaption: ContentRole {
    /// `rightCaption`.
    public static let typeName = "rightCaption"
  }

  /// Bold text with a smaller gray text below it (`subtext`; `TTTableSubtextItem`), drawn
  /// by ``SubtextCell``.
  public enum Subtext: ContentRole {
    /// `subtext`.
    public static let typeName = "subtext"
  }

  /// The caption on the left, the value right-aligned (`settings`; `TTTableSettingsItem`),
  /// drawn by ``SettingsCell``.
  public enum Settings: ContentRole {
    /// `settings`.
    public static let typeName = "settings"
  }
}

/// "Key: value": the caption in a narrow right-aligned column, the text beside it
/// (`TTTableCaptionItem`).
public typealias CaptionItem = CaptionContent<CaptionRoles.Caption>
/// The mirror of the caption row: the text on the left, the caption right-aligned in a
/// column on the right (`TTTableRightCaptionItem`, which Three20 left unfinished).
public typealias RightCaptionItem = CaptionContent<CaptionRoles.RightCaption>
/// Bold text with a smaller gray text below it (`TTTableSubtextItem`).
public typealias SubtextItem = CaptionContent<CaptionRoles.Subtext>
/// A settings row: the caption on the left, the value right-aligned (`TTTableSettingsItem`).
public typealias SettingsItem = CaptionContent<CaptionRoles.Settings>
