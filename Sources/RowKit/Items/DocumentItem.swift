/// An item of a type that a document names and a cell design file draws: a type name and
/// its fields, bound by name in the design.
public struct DocumentItem: TableItem {
  /// `DocumentItem`: a document's item names its own type instead.
  public static let typeName = "DocumentItem"
  /// The type name the document gives the item, which picks its design.
  public let typeName: String
  /// Field values as text (numbers and true/false as written).
  public var fields: [String: String]
  /// The row's link, selection state and backgrounds.
  public var options: ItemOptions
  /// The fields its design's labels show, in the order it shows them
  /// (``DesignTemplate/shownFields``): the first is the row's title in lint findings and
  /// baselines when no field is named `text`, `title`, `name` or `caption`.
  public var shownFields: [String]

  /// An item of type `typeName` with its `fields`, which its design shows in the order
  /// `shownFields` (empty: unknown).
  public init(typeName: String, fields: [String: String], options: ItemOptions = ItemOptions(), shownFields: [String] = []) {
    self.typeName = typeName
    self.fields = fields
    self.options = options
    self.shownFields = shownFields
  }
}
