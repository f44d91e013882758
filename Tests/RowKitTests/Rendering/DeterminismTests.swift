import Foundation
import RowKitGraphics
import RowKitTestSupport
import Testing

@testable import RowKit

/// The same input gives the same pixels: twice in a row, row by row, alone or in the table.
@Suite struct DeterminismTests {
  @Test func renderingTwiceGivesIdenticalBytes() async throws {
    func render() async throws -> ([UInt8], [UInt8]) {
      let renderer = try TestSupport.catalogRenderer(style: .grouped)
      let rendered = try await renderer.render(Catalog.dataSource())
      return (try PNG.encode(rendered.tiles[0].bitmap), try rendered.manifest.jsonBytes())
    }
    let first = try await render()
    let second = try await render()
    #expect(first.0 == second.0)
    #expect(first.1 == second.1)
  }

  @Test(arguments: [TableStyle.plain, .grouped])
  func rowsRenderTheSameInAnyOrderAndOneAtATime(style: TableStyle) async throws {
    let renderer = try TestSupport.catalogRenderer(style: style)
    let rendered = try await renderer.render(Catalog.dataSource(), outputs: [.table, .rows])
    let table = rendered.tiles[0].bitmap
    let grid = PixelGrid(scale: 2)

    // Each row's own image is exactly its strip of the whole table.
    for (row, image) in zip(rendered.manifest.rows, rendered.rowImages) {
      let top = grid.pixels(row.y)
      #expect(table.cropping(rows: top..<(top + image.height)) == image, "s\(row.section)-r\(row.row)")
    }

    // One at a time: each row alone in its own table.
    let source = Catalog.dataSource()
    for (index, row) in rendered.manifest.rows.enumerated() where style == .plain {
      let alone = try TestSupport.catalogRenderer(style: style)
      let single = SectionedDataSource(sections: [TableSection(items: [source.sections[row.section].items[row.row]])])
      let one = try await alone.render(single, outputs: [.rows])
      #expect(one.rowImages[0] == rendered.rowImages[index], "s\(row.section)-r\(row.row) alone")
    }
  }

  @Test func parallelRenderersMatchASerialOne() async throws {
    let serial = try await TestSupport.catalogRenderer(style: .plain).render(Catalog.dataSource()).tiles[0].bitmap
    let results = try await withThrowingTaskGroup(of: Bitmap.self) { group in
      for _ in 0..<4 {
        group.addTask {
          try await TestSupport.catalogRenderer(style: .plain).render(Catalog.dataSource()).tiles[0].bitmap
        }
      }
      return try await group.reduce(into: []) { $0.append($1) }
    }
    #expect(results.count == 4)
    #expect(results.allSatisfy { $0 == serial })
  }

  /// Rows of Devanagari and Latin whose lines break inside a word longer than the line, laid
  /// out by two workers at once: the same bytes as one worker, every time. Pango measures a
  /// font the first time its metrics are asked for, under one flag for the whole process; a
  /// font measured while the other worker measured kept no approximate character width, and
  /// the word ran one letter past the line's end on most renders of this table. Nothing here
  /// times anything: the renders run on the pools' worker threads, off the cooperative pool.
  @Test func twoWorkersBreakMixedScriptLinesAsOneWorkerDoes() async throws {
    let document = try TableDocument.load(
      TestSupport.repositoryRoot.appendingPathComponent("Tests/Fixtures/determinism/mixed-script-rows.yaml"),
      fontFamilies: TextEnvironment.standard.fontSet().families)
    let reference = try PNG.encode(try await document.render(with: document.makeRenderer(pool: RenderPool(workers: 1))).image)
    for _ in 0..<10 {
      // A fresh pool each time: its workers make font maps of their own and measure every font
      // anew, as a new process's do.
      let image = try await document.render(with: document.makeRenderer(pool: RenderPool(workers: 2))).image
      #expect(try PNG.encode(image) == reference)
    }
  }

  @Test func plainTextIsNeverReadAsMarkup() async throws {
    let renderer = try TestSupport.renderer()
    let layout = try renderer.layout(ListDataSource(items: [TextItem(text: "<b>x</b>"), TextItem(text: "x")]))
    let markup = try #require(layout.rows[0].layout.label("text"))
    let plain = try #require(layout.rows[1].layout.label("text"))
    #expect(markup.text.text == "<b>x</b>")
    #expect(markup.text.style.font == plain.text.style.font)
    #expect(markup.frame.width > 4 * plain.frame.width, "the tags are drawn as typed")
  }
}
