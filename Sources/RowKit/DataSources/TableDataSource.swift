/// A section of a table: an optional header and footer around its items.
public struct TableSection: Sendable {
  /// The text above the section, or nil for none.
  public var header: String?
  /// The text below the section, or nil for none.
  public var footer: String?
  /// The section's items, one row each, in order.
  public var items: [any TableItem]

  /// A section of `items`, with a header and a footer when given.
  public init(header: String? = nil, footer: String? = nil, items: [any TableItem]) {
    self.header = header
    self.footer = footer
    self.items = items
  }
}

/// Holds the sections of a table and decides which cell draws each item.
public protocol TableDataSource: Sendable {
  /// The table's sections, top to bottom.
  var sections: [TableSection] { get }
  /// Which cell draws each item.
  var cellMapping: CellMapping { get }
}

extension TableDataSource {
  /// The item at a section and row, or nil out of range.
  public func item(section: Int, row: Int) -> (any TableItem)? {
    guard sections.indices.contains(section), sections[section].items.indices.contains(row) else { return nil }
    return sections[section].items[row]
  }

  /// The number of items in all sections together.
  public var numberOfRows: Int { sections.reduce(0) { $0 + $1.items.count } }
}

/// One section of items without a header (Three20's `TTListDataSource`).
public struct ListDataSource: TableDataSource {
  /// The items, one row each, in order.
  public var items: [any TableItem]
  /// Which cell draws each item.
  public var cellMapping: CellMapping

  /// A list of `items`, drawn by the cells of `cellMapping`.
  public init(items: [any TableItem], cellMapping: CellMapping = CellMapping()) {
    self.items = items
    self.cellMapping = cellMapping
  }

  /// One section without a header or footer, holding ``items``.
  public var sections: [TableSection] { [TableSection(items: items)] }

  /// Draws items of `type` with `cell`.
  public mutating func register<Cell: TableCell, Item: TableItem>(_ cell: Cell, for type: Item.Type) {
    cellMapping.register(cell, for: type)
  }

  /// Draws items of a family (a protocol existential) with `cell`.
  public mutating func register<Cell: TableCell, Family>(_ cell: Cell, forFamily family: Family.Type) {
    cellMapping.register(cell, forFamily: family)
  }
}

/// Sections of items, each with an optional header and footer (Three20's
/// `TTSectionedDataSource` with `TTTableSection`).
public struct SectionedDataSource: TableDataSource {
  /// The sections, top to bottom.
  public var sections: [TableSection]
  /// Which cell draws each item.
  public var cellMapping: CellMapping

  /// A data source of `sections`, drawn by the cells of `cellMapping`.
  public init(sections: [TableSection], cellMapping: CellMapping = CellMapping()) {
    self.sections = sections
    self.cellMapping = cellMapping
  }

  /// Draws items of `type` with `cell`.
  public mutating func register<Cell: TableCell, Item: TableItem>(_ cell: Cell, for type: Item.Type) {
    cellMapping.register(cell, for: type)
  }

  /// Draws items of a family (a protocol existential) with `cell`.
  public mutating func register<Cell: TableCell, Family>(_ cell: Cell, forFamily family: Family.Type) {
    cellMapping.register(cell, forFamily: family)
  }
}
