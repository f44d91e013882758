import RowKitGraphics

/// A whole table laid out: every row's layout and position, section headers and footers.
/// Positions are in points from the table's top-left corner, on the device-pixel grid.
public final class TableLayout {
  /// The configuration the table was laid out for.
  public let configuration: TableConfiguration
  /// The table's colors, styles and metrics, resolved from the stylesheet.
  public let look: TableLook
  /// The table's size in points.
  public let size: Size
  /// Every section, in order.
  public let sections: [SectionLayout]
  /// Every row, placed, section by section.
  public let rows: [PlacedRow]

  init(configuration: TableConfiguration, look: TableLook, size: Size, sections: [SectionLayout], rows: [PlacedRow]) {
    self.configuration = configuration
    self.look = look
    self.size = size
    self.sections = sections
    self.rows = rows
  }

  /// The table's height in device pixels.
  public var pixelHeight: Int { configuration.grid.pixels(size.height) }

  /// Every label the table holds: rows, headers and footers.
  public var allLabels: [RowLabel] {
    rows.flatMap(\.layout.labels) + sections.flatMap { [$0.header, $0.footer].compactMap { $0?.label } }
  }
}

/// Where a row sits in its section, which decides a grouped row's rounded corners.
public enum RowPosition: String, Hashable, Sendable {
  /// The section's only row.
  case only
  /// The first of several rows.
  case first
  /// Neither the first nor the last row.
  case middle
  /// The last of several rows.
  case last

  init(index: Int, count: Int) {
    if count == 1 {
      self = .only
    } else if index == 0 {
      self = .first
    } else if index == count - 1 {
      self = .last
    } else {
      self = .middle
    }
  }

  /// Whether a grouped row rounds its top corners: it is first in its section.
  public var roundsTop: Bool { self == .only || self == .first }
  /// Whether a grouped row rounds its bottom corners: it is last in its section.
  public var roundsBottom: Bool { self == .only || self == .last }
}

/// A row in its table.
public struct PlacedRow {
  /// The row's section, from 0.
  public var section: Int
  /// The row's index in its section, from 0.
  public var row: Int
  /// The item the row shows.
  public var item: any TableItem
  /// The row's layout, in the cell's coordinates.
  public var layout: RowLayout
  /// The row's band across the whole table width.
  public var frame: Rect
  /// The cell's rectangle in table coordinates (inside a grouped table's margins).
  public var cellFrame: Rect
  /// Where the row sits in its section.
  public var position: RowPosition

  /// The row's top in points.
  public var y: Double { frame.y }
  /// The row's height in points.
  public var height: Double { frame.height }

  mutating func moveTo(y: Double) {
    frame.origin.y = y
    cellFrame.origin.y = y
  }
}

/// A section's place in the table.
public struct SectionLayout {
  /// The section's index, from 0.
  public var index: Int
  /// The header band, or nil when the section has none.
  public var header: SectionBand?
  /// The footer band, or nil when the section has none.
  public var footer: SectionBand?
  /// The indices into ``TableLayout/rows`` of this section's rows.
  public var rows: Range<Int>
}

/// A header or footer band: its frame across the table, and its title label if it has one.
public struct SectionBand {
  /// Whether a band is a section's header or its footer.
  public enum Kind: String, Codable, Hashable, Sendable, CaseIterable {
    /// Above the section's rows.
    case header
    /// Below the section's rows.
    case footer
  }

  /// Whether this is a header or a footer.
  public var kind: Kind
  /// The header's or footer's text; nil for a band without one.
  public var title: String?
  /// The band across the table, in points.
  public var frame: Rect
  /// The title, placed in the band (from the band's top-left corner), so the band paints
  /// the same wherever it sits.
  public var label: RowLabel?
}

/// A failure to lay out one row: which row, and why.
public struct RowLayoutError: Error, CustomStringConvertible {
  /// The row's section, from 0.
  public var section: Int
  /// The row's index in its section, from 0.
  public var row: Int
  /// The error the row's cell threw.
  public var underlying: any Error

  /// The row's place in the document (`sections[0].items[2]`) and the error.
  public var description: String { "sections[\(section)].items[\(row)]: \(underlying)" }
}

/// Lays out a data source as a table: asks each row's cell for its layout once, then stacks
/// rows, headers and footers.
package struct TableLayoutEngine {
  /// The table's size and style.
  public let configuration: TableConfiguration
  /// The fonts, colors and styles the cells name.
  public let stylesheet: Stylesheet
  /// The shaper the rows' text is shaped with.
  public let shaper: TextShaper
  /// Layouts of rows laid out before, for identical rows; it must belong to `shaper`'s thread.
  public let cache: LayoutCache?

  /// The cache key's environment, made once.
  private let cacheEnvironment: LayoutCache.Environment?

  /// An engine; with a cache, identical rows are laid out once.
  public init(configuration: TableConfiguration, stylesheet: Stylesheet, shaper: TextShaper, cache: LayoutCache? = nil) {
    self.configuration = configuration
    self.stylesheet = stylesheet
    self.shaper = shaper
    self.cache = cache
    cacheEnvironment = cache.map { _ in
      LayoutCache.Environment(configuration: configuration, stylesheet: stylesheet, text: shaper.environment)
    }
  }

  /// Lays out every row of `dataSource` and stacks the rows, headers and footers; throws for a bad configuration, too many rows or a row that fails.
  public func layout(_ dataSource: any TableDataSource) throws -> TableLayout {
    if let problem = configuration.problem { throw StyleError(problem) }
    guard dataSource.numberOfRows <= TableConfiguration.maximumRows else {
      throw StyleError("the table has \(dataSource.numberOfRows) rows, more than \(TableConfiguration.maximumRows)")
    }
    let look = try TableLook(style: configuration.style, stylesheet: stylesheet)
    let grid = configuration.grid
    // Positions add up in whole device pixels, so no rounding error builds up down the table.
    var yPixels = 0
    var y: Double { Double(yPixels) / configuration.scale }
    var rows: [PlacedRow] = []
    var sections: [SectionLayout] = []
    for (sectionIndex, section) in dataSource.sections.enumerated() {
      var header = try band(.header, title: section.header, first: sectionIndex == 0, look: look)
      header?.frame.origin.y = y
      yPixels += grid.pixels(header?.frame.height ?? 0)
      let firstRow = rows.count
      for (rowIndex, item) in section.items.enumerated() {
        var row = try placedRow(
          item, section: sectionIndex, row: rowIndex, of: section.items.count, mapping: dataSource.cellMapping, look: look)
        row.moveTo(y: y)
        rows.append(row)
        yPixels += grid.pixels(row.height)
      }
      var footer = try band(.footer, title: section.footer, first: false, look: look)
      footer?.frame.origin.y = y
      yPixels += grid.pixels(footer?.frame.height ?? 0)
      sections.append(SectionLayout(index: sectionIndex, header: header, footer: footer, rows: firstRow..<rows.count))
    }
    return TableLayout(
      configuration: configuration, look: look, size: Size(width: configuration.width, height: y),
      sections: sections, rows: rows)
  }

  /// One row laid out at the table's top (y = 0), for a row `row` of `count` in its section;
  /// an error names the row.
  func placedRow(
    _ item: any TableItem, section: Int, row: Int, of count: Int, mapping: CellMapping, look: TableLook
  ) throws -> PlacedRow {
    let cellX = look.groupedMargin
    let cellWidth = configuration.width - 2 * cellX
    do {
      let layout = try cachedRowLayout(item, cellWidth: cellWidth, mapping: mapping, look: look)
      return PlacedRow(
        section: section, row: row, item: item, layout: layout,
        frame: Rect(x: 0, y: 0, width: configuration.width, height: layout.height),
        cellFrame: Rect(x: cellX, y: 0, width: cellWidth, height: layout.height),
        position: configuration.style == .grouped ? RowPosition(index: row, count: count) : .middle)
    } catch {
      throw RowLayoutError(section: section, row: row, underlying: error)
    }
  }

  /// The layout of `item`: from the cache when an identical item was laid out before.
  private func cachedRowLayout(
    _ item: any TableItem, cellWidth: Double, mapping: CellMapping, look: TableLook
  ) throws -> RowLayout {
    let cell = mapping.cell(for: item)
    guard let cache, let cacheEnvironment else { return try rowLayout(item, cell: cell, cellWidth: cellWidth, look: look) }
    let key = LayoutCache.Key(item: AnyHashable(item), cell: cell.name, width: cellWidth, environment: cacheEnvironment)
    if let layout = cache.layout(for: key) { return layout }
    let layout = try rowLayout(item, cell: cell, cellWidth: cellWidth, look: look)
    cache.insert(layout, for: key)
    return layout
  }

  private func rowLayout(
    _ item: any TableItem, cell: AnyTableCell, cellWidth: Double, look: TableLook
  ) throws -> RowLayout {
    let accessory = cell.accessory(for: item)
    let options = item.options
    let context = LayoutContext(
      cellWidth: cellWidth, accessory: accessory, tableStyle: configuration.style, scale: configuration.scale,
      isSelected: options.isSelected, stylesheet: stylesheet, shaper: shaper, now: configuration.now,
      metrics: look.metrics, direction: configuration.direction, pseudoLocale: configuration.pseudoLocale,
      textGrowth: configuration.textGrowth)
    guard var layout = try cell.layout(item, in: context) else {
      throw StyleError("cell \(cell.name) cannot draw a \(item.typeName) item")
    }
    let grid = configuration.grid
    layout.size.width = cellWidth
    if let fixed = configuration.rowHeight {
      let height = grid.ceil(fixed)
      layout.shiftContent(by: grid.round((height - layout.height) / 2))
      layout.height = height
    } else {
      layout.height = grid.ceil(layout.height)
    }
    guard layout.height <= Bounds.maximumLaidOutRowHeight else {
      throw StyleError(
        "the row lays out \(Bounds.format(layout.height)) points tall, more than \(Bounds.format(Bounds.maximumLaidOutRowHeight))")
    }
    layout.isSelected = options.isSelected
    if let name = options.background { layout.background = try stylesheet.style(name) }
    if let name = options.selectedBackground { layout.selectedBackground = try stylesheet.style(name) }
    if let accessory {
      let selected = options.isSelected
      let color: Color
      switch accessory {
      case .disclosureIndicator: color = selected ? look.highlightedText : look.disclosure
      case .detailDisclosureButton: color = look.detailButton
      case .checkmark: color = selected ? look.highlightedText : look.checkmark
      }
      layout.accessory = AccessoryLayout(
        kind: accessory, frame: accessory.glyphFrame(in: layout.size, grid: grid), color: color,
        glyphColor: .white)
    }
    if configuration.direction.isRightToLeft { layout = layout.mirrored(in: cellWidth) }
    return layout
  }

  /// A header or footer laid out at the table's top (y = 0). Three20's header heights: plain
  /// 22; grouped 46 for the first section and 36 for the others. Untitled grouped headers
  /// and footers leave a 10-point gap, so sections stand apart; untitled plain ones take no
  /// space.
  func band(_ kind: SectionBand.Kind, title: String?, first: Bool, look: TableLook) throws -> SectionBand? {
    var band = try unmirroredBand(kind, title: title, first: first, look: look)
    if configuration.direction.isRightToLeft, let label = band?.label {
      band?.label = label.mirrored(in: configuration.width)
    }
    return band
  }

  /// The band before a right-to-left table mirrors its title.
  private func unmirroredBand(
    _ kind: SectionBand.Kind, title: String?, first: Bool, look: TableLook
  ) throws -> SectionBand? {
    let y = 0.0
    let grid = configuration.grid
    let width = configuration.width
    let grouped = configuration.style == .grouped
    guard let title, !title.isEmpty else {
      let gap = look.metrics.sectionGap
      return grouped ? SectionBand(kind: kind, title: nil, frame: Rect(x: 0, y: y, width: width, height: gap)) : nil
    }
    let context = LayoutContext(
      cellWidth: width, accessory: nil, tableStyle: configuration.style, scale: configuration.scale,
      isSelected: false, stylesheet: stylesheet, shaper: shaper, metrics: look.metrics,
      direction: configuration.direction, pseudoLocale: configuration.pseudoLocale,
      textGrowth: configuration.textGrowth)
    let metrics = look.metrics
    switch (kind, grouped) {
    case (.header, false):
      let x = 12.0
      let text = try context.shape(title, font: "tableHeaderPlainFont", width: width - 2 * x, lines: 1)!
      let height = grid.ceil(max(metrics.plainHeaderHeight, text.size.height + 2))
      let label = RowLabel(
        name: "header", text: text, color: look.headerText,
        boxOrigin: Point(x: x, y: y + grid.round((height - text.size.height) / 2)), shadow: look.headerShadow)
      return SectionBand(kind: kind, title: title, frame: Rect(x: 0, y: y, width: width, height: height), label: label)
    case (.header, true):
      let x = look.groupedMargin + metrics.padding
      let text = try context.shape(title, font: "tableHeaderGroupedFont", width: width - 2 * x)!
      let bottomGap = 8.0
      let height = grid.ceil(
        max(first ? metrics.groupedFirstHeaderHeight : metrics.groupedHeaderHeight, text.size.height + bottomGap + 6))
      let label = RowLabel(
        name: "header", text: text, color: look.groupedHeaderText,
        boxOrigin: Point(x: x, y: y + height - bottomGap - text.size.height), shadow: look.groupedHeaderShadow)
      return SectionBand(kind: kind, title: title, frame: Rect(x: 0, y: y, width: width, height: height), label: label)
    case (.footer, _):
      let x = look.groupedMargin + metrics.padding
      let text = try context.shape(title, font: "tableFooterFont", width: width - 2 * x, alignment: .center)!
      let top = 6.0
      let bottom = grouped ? 10.0 : 6.0
      let height = grid.ceil(text.size.height + top + bottom)
      let label = RowLabel(
        name: "footer", text: text, color: look.footerText, boxOrigin: Point(x: x, y: y + top),
        shadow: grouped ? look.groupedHeaderShadow : nil)
      return SectionBand(kind: kind, title: title, frame: Rect(x: 0, y: y, width: width, height: height), label: label)
    }
  }
}
