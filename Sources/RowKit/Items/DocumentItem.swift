/// An item of a type that a document names and a cell design file draws: a type name and
/// its fields, bound by name in the design.
public struct DocumentItem: TableItem {
  public static let typeName = "DocumentItem"
  public let typeName: String
  /// Field values as text (numbers and true/false as written).
  public var fields: [String: String]
  public var options: ItemOptions

  public init(typeName: String, fields: [String: String], options: ItemOptions = ItemOptions()) {
    self.typeName = typeName
    self.fields = fields
    self.options = options
  }
}
