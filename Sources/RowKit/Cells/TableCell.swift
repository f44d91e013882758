import RowKitGraphics

/// A cell: the design that turns one kind of item into a ``RowLayout``.
///
/// A cell computes the whole layout in one pass: shape each label once, place it, and
/// return. There is no separate height function to drift from the frames.
///
/// ```swift
/// struct ProductCell: TableCell {
///   func layout(_ item: ProductItem, in context: LayoutContext) throws -> RowLayout {
///     let width = context.contentWidth - 20
///     let title = try context.shape(item.title, font: "tableFont", width: width, lines: 1)
///     ...
///   }
/// }
/// ```
///
/// For most custom cells ``DesignedCell`` is shorter: describe stacks of labels and images,
/// and the stack engine lays them out.
public protocol TableCell<Item>: Sendable {
  /// The type of item the cell draws.
  associatedtype Item
  /// The name manifests show for rows this cell draws.
  var name: String { get }
  /// The accessory a row shows. The default follows Three20: `url` and `accessoryURL` give a
  /// detail button, `url` alone a chevron.
  func accessory(for item: Item) -> Accessory?
  /// Lays out one row. `context.contentWidth` already excludes the accessory.
  func layout(_ item: Item, in context: LayoutContext) throws -> RowLayout
}

extension TableCell {
  /// The cell type's name, for manifests.
  public var name: String { String(describing: Self.self) }

  /// Three20's accessory for a ``TableItem``'s options (see ``Accessory/standard(for:)``); none for other items.
  public func accessory(for item: Item) -> Accessory? {
    guard let item = item as? any TableItem else { return nil }
    return Accessory.standard(for: item.options)
  }
}

/// A cell made of one closure, for a one-off row.
///
/// ```swift
/// dataSource.register(ClosureCell<Banner>(name: "BannerCell") { banner, context in
///   ...
/// }, for: Banner.self)
/// ```
public struct ClosureCell<Item>: TableCell {
  /// The name manifests show for the rows it draws.
  public let name: String
  private let body: @Sendable (Item, LayoutContext) throws -> RowLayout

  /// A cell named `name` that lays out each row with `body`.
  public init(name: String = "ClosureCell", _ body: @escaping @Sendable (Item, LayoutContext) throws -> RowLayout) {
    self.name = name
    self.body = body
  }

  /// Lays out the row by calling the closure.
  public func layout(_ item: Item, in context: LayoutContext) throws -> RowLayout {
    try body(item, context)
  }
}

/// A cell of any item type, as the cell mapping stores them.
public struct AnyTableCell: Sendable {
  /// The wrapped cell's name.
  public let name: String
  private let accessoryBody: @Sendable (any TableItem) -> Accessory??
  private let layoutBody: @Sendable (any TableItem, LayoutContext) throws -> RowLayout?

  /// Wraps `cell`, which then draws only items of its own item type.
  public init<Cell: TableCell>(_ cell: Cell) {
    name = cell.name
    accessoryBody = { item in (item as? Cell.Item).map { cell.accessory(for: $0) } }
    layoutBody = { item, context in
      guard let typed = item as? Cell.Item else { return nil }
      return try cell.layout(typed, in: context)
    }
  }

  /// Whether this cell can draw `item`.
  public func accepts(_ item: any TableItem) -> Bool {
    accessoryBody(item) != nil
  }

  /// The wrapped cell's accessory for `item`; nil also when the cell does not accept it.
  public func accessory(for item: any TableItem) -> Accessory? {
    accessoryBody(item) ?? nil
  }

  /// The layout, or nil when `item` is not of the cell's item type.
  public func layout(_ item: any TableItem, in context: LayoutContext) throws -> RowLayout? {
    try layoutBody(item, context)
  }
}
