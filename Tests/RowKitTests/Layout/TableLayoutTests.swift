import RowKitGraphics
import RowKitTestSupport
import Testing

@testable import RowKit

@Suite struct TableLayoutTests {
  let sections = SectionedDataSource(sections: [
    TableSection(header: "First", footer: "A footer", items: [TextItem(text: "a"), TextItem(text: "b"), TextItem(text: "c")]),
    TableSection(header: "Second", items: [TextItem(text: "d")]),
    TableSection(items: [TextItem(text: "e"), TextItem(text: "f")]),
  ])

  @Test func plainTablesStackRowsUnderTwentyTwoPointHeaders() throws {
    let table = try TestSupport.renderer().layout(sections)
    #expect(table.sections[0].header?.frame == Rect(x: 0, y: 0, width: 375, height: 22))
    #expect(table.rows[0].frame == Rect(x: 0, y: 22, width: 375, height: 44))
    #expect(table.rows[0].cellFrame == table.rows[0].frame)
    #expect(table.sections[2].header == nil, "an untitled plain header takes no space")
    var y = 0.0
    for section in table.sections {
      if let header = section.header {
        #expect(header.frame.y == y)
        y += header.frame.height
      }
      for index in section.rows {
        #expect(table.rows[index].y == y)
        y += table.rows[index].height
      }
      if let footer = section.footer {
        #expect(footer.frame.y == y)
        y += footer.frame.height
      }
    }
    #expect(table.size.height == y)
  }

  @Test func groupedTablesInsetCellsAndUseThreeTwentysHeaderHeights() throws {
    let table = try TestSupport.renderer(TableConfiguration(style: .grouped)).layout(sections)
    #expect(table.sections[0].header?.frame.height == 46, "first titled section")
    #expect(table.sections[1].header?.frame.height == 36, "later titled sections")
    #expect(table.sections[2].header?.frame.height == 10, "an untitled section still stands apart")
    #expect(table.sections[1].footer?.frame.height == 10)
    for row in table.rows {
      #expect(row.cellFrame.x == 10)
      #expect(row.cellFrame.width == 355)
      #expect(row.layout.size.width == 355)
      #expect(row.frame.width == 375)
    }
    #expect(table.rows.map(\.position) == [.first, .middle, .last, .only, .first, .last])
  }

  @Test func fixedRowHeightGivesEveryRowThatHeightWithContentCentered() throws {
    let long = String(repeating: "A long text wraps. ", count: 10)
    let source = ListDataSource(items: [TextItem(text: "short"), TextItem(text: long), SubtitleItem(text: "x", subtitle: "y")])
    let table = try TestSupport.renderer(TableConfiguration(rowHeight: 60)).layout(source)
    #expect(table.rows.map(\.height) == [60, 60, 60])
    let short = try #require(table.rows[0].layout.label("text"))
    #expect(abs(short.frame.midY - 30) <= 0.5)
  }

  @Test func everyHeightAndPositionIsOnThePixelGrid() throws {
    for scale in [1.0, 2.0, 3.0] {
      let table = try TableRenderer(configuration: TableConfiguration(scale: scale, style: .grouped))
        .layout(Catalog.dataSource())
      for row in table.rows {
        #expect(abs((row.y * scale).rounded() - row.y * scale) < 1e-6)
        #expect(abs((row.height * scale).rounded() - row.height * scale) < 1e-6)
      }
    }
  }

  @Test func outOfRangeConfigurationsAreRefused() throws {
    for configuration in [
      TableConfiguration(width: 1e9), TableConfiguration(scale: 1000), TableConfiguration(width: 4000, scale: 4),
      TableConfiguration(rowHeight: 0), TableConfiguration(width: .nan),
    ] {
      #expect(configuration.problem != nil)
      #expect(throws: (any Error).self) { try TestSupport.renderer(configuration).layout(self.sections) }
    }
  }
}
