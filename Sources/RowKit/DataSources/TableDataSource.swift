/// A section of a table: an optional header and footer around its items.
public struct TableSection: Sendable {
  public var header: String?
  public var footer: String?
  public var items: [any TableItem]

  public init(header: String? = nil, footer: String? = nil, items: [any TableItem]) {
    self.header = header
    self.footer = footer
    self.items = items
  }
}

/// Holds the sections of a table and decides which cell draws each item.
public protocol TableDataSource: Sendable {
  var sections: [TableSection] { get }
  var cellMapping: CellMapping { get }
}

extension TableDataSource {
  /// The item at a section and row, or nil out of range.
  public func item(section: Int, row: Int) -> (any TableItem)? {
    guard sections.indices.contains(section), sections[section].items.indices.contains(row) else { return nil }
    return sections[section].items[row]
  }

  public var numberOfRows: Int { sections.reduce(0) { $0 + $1.items.count } }
}

/// One section of items without a header (Three20's `TTListDataSource`).
public struct ListDataSource: TableDataSource {
  public var items: [any TableItem]
  public var cellMapping: CellMapping

  public init(items: [any TableItem], cellMapping: CellMapping = CellMapping()) {
    self.items = items
    self.cellMapping = cellMapping
  }

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
  public var sections: [TableSection]
  public var cellMapping: CellMapping

  public init(sections: [TableSection], cellMapping: CellMapping = CellMapping()) {
    self.sections = sections
    self.cellMapping = cellMapping
  }

  public mutating func register<Cell: TableCell, Item: TableItem>(_ cell: Cell, for type: Item.Type) {
    cellMapping.register(cell, for: type)
  }

  public mutating func register<Cell: TableCell, Family>(_ cell: Cell, forFamily family: Family.Type) {
    cellMapping.register(cell, forFamily: family)
  }
}
