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

  /// An item of type `typeName` with its `fields`.
  public init(typeName: String, fields: [String: String], options: ItemOptions = ItemOptions()) {
    self.typeName = typeName
    self.fields = fields
    self.options = options
  }
}
