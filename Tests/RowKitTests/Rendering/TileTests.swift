import Foundation
import RowKitGraphics
import RowKitTestSupport
import Testing

@testable import RowKit

/// The one tiling rule, in memory and in files: a table image is cut every
/// ``TableRenderer/maximumTilePixels`` pixels, and the tiles stack to the whole table.
@Suite struct TileTests {
  @Test func aTallTableSplitsIntoTilesThatStackToTheWholeTable() async throws {
    var renderer = try TestSupport.catalogRenderer(style: .grouped)
    let whole = try await renderer.render(Catalog.dataSource())
    #expect(whole.tiles.count == 1)
    renderer.maximumTilePixels = 1000
    let tiled = try await renderer.render(Catalog.dataSource())
    #expect(tiled.tiles.count == (whole.image.height + 999) / 1000)
    #expect(tiled.tiles.dropLast().allSatisfy { $0.bitmap.height == 1000 })
    for tile in tiled.tiles {
      let expected = whole.image.cropping(rows: tile.topPixel..<(tile.topPixel + tile.bitmap.height))
      #expect(tile.bitmap == expected, "tile at \(tile.topPixel)")
    }
    #expect(tiled.image == whole.image)
  }

  /// A receiver takes the table's strips in order, stacking to the image a render in memory
  /// makes, and on the render's workers: its work (a check's decoding and comparing) is
  /// part of what `--jobs` bounds, not extra threads' work.
  @Test func aReceiverTakesTheStripsInOrderOnTheRendersWorkers() async throws {
    final class Receiver: TableImageReceiver {
      var strips: [Bitmap] = []
      var threads: Set<String> = []
      func receive(_ strip: Bitmap) throws {
        strips.append(strip)
        threads.insert((try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? "unnamed")
      }
    }
    var renderer = try TestSupport.catalogRenderer(style: .grouped)
    renderer.pool = RenderPool(workers: 2)
    let whole = try await renderer.render(Catalog.dataSource()).image
    let receiver = Receiver()
    _ = try await renderer.render(Catalog.dataSource(), into: receiver)
    #expect(receiver.strips.count > 10)
    #expect(BitmapRows(receiver.strips, width: whole.width).height == whole.height)
    #expect(try BitmapRows(receiver.strips, width: whole.width).readMatching(whole, rows: 0..<whole.height))
    #expect(!receiver.threads.isEmpty && receiver.threads.allSatisfy { $0.hasPrefix("rowkit-worker-") }, "\(receiver.threads)")
  }

  @Test func tilesAreNumberedAfterTheOutputName() {
    let output = URL(fileURLWithPath: "/out/table.png")
    #expect(OutputWriter.tileURLs(for: output, count: 1) == [output])
    #expect(OutputWriter.tileURLs(for: output, count: 3).map(\.lastPathComponent) == ["table-1.png", "table-2.png", "table-3.png"])
  }

  @Test func theRuleSplitsAStripWhereATileEnds() {
    let rule = TileRule(maximumHeight: 100)
    #expect(rule.pieces(of: 30, at: 0) == [0..<30])
    #expect(rule.pieces(of: 30, at: 80) == [0..<20, 20..<30])
    #expect(rule.pieces(of: 250, at: 90) == [0..<10, 10..<110, 110..<210, 210..<250])
  }

  /// A table taller than Cairo's tallest surface: each strip is painted on its own canvas, so
  /// the table is one image, and written with tiles of Cairo's height it stacks back.
  @Test func aTableTallerThanCairosLimitIsWrittenAsTiles() async throws {
    let items: [any TableItem] = (0..<400).map { LongTextItem(text: "Row \($0): " + String(repeating: "tall text ", count: 20)) }
    var renderer = try TestSupport.renderer()
    renderer.maximumTilePixels = Canvas.maximumPixelSide
    let rendered = try await renderer.render(ListDataSource(items: items))
    let height = Int(rendered.manifest.height * 2)
    #expect(height > Canvas.maximumPixelSide)
    let expectedTiles = (height + Canvas.maximumPixelSide - 1) / Canvas.maximumPixelSide
    #expect(rendered.tiles.count == expectedTiles && expectedTiles > 1)
    let folder = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    try rendered.write(to: folder.appendingPathComponent("t.png"), manifest: folder.appendingPathComponent("t.json"))
    let manifest = try JSONDecoder().decode(Manifest.self, from: Data(contentsOf: folder.appendingPathComponent("t.json")))
    #expect(manifest.tiles?.map(\.file) == (1...expectedTiles).map { "t-\($0).png" })
    let heights = try manifest.tiles!.map { try PNG.decode(contentsOf: folder.appendingPathComponent($0.file)).height }
    #expect(heights.reduce(0, +) == height)
    #expect(heights[0] == Canvas.maximumPixelSide)
    let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    #expect(files == (1...expectedTiles).map { "t-\($0).png" } + ["t.json"])
  }

  /// One file writer: a table rendered to memory and then written is, file for file and byte
  /// for byte, what the same render writes to files (tiles, each row's PNG, the manifest).
  @Test func aTableWrittenFromMemoryIsTheSameFilesAsARenderToFiles() async throws {
    var renderer = try TestSupport.catalogRenderer(style: .grouped)
    renderer.maximumTilePixels = 700
    let folder = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let direct = folder.appendingPathComponent("direct")
    let written = folder.appendingPathComponent("written")
    for side in [direct, written] { try FileManager.default.createDirectory(at: side, withIntermediateDirectories: true) }
    _ = try await renderer.render(
      Catalog.dataSource(),
      to: RenderDestination(
        table: direct.appendingPathComponent("table.png"), rowsDirectory: direct.appendingPathComponent("rows"),
        manifest: direct.appendingPathComponent("table.json")))
    let rendered = try await renderer.render(Catalog.dataSource(), outputs: [.table, .rows])
    #expect(rendered.tiles.count > 2)
    try rendered.write(
      to: written.appendingPathComponent("table.png"), rowsDirectory: written.appendingPathComponent("rows"),
      manifest: written.appendingPathComponent("table.json"))

    func files(in side: URL) throws -> [String] {
      let top = try FileManager.default.contentsOfDirectory(atPath: side.path)
      let rows = try FileManager.default.contentsOfDirectory(atPath: side.appendingPathComponent("rows").path)
      return (top.filter { $0 != "rows" } + rows.map { "rows/" + $0 }).sorted()
    }
    let names = try files(in: direct)
    #expect(names == (try files(in: written)))
    // A rows folder asked of a render that made no rows is an error, and nothing is written
    // (it wrote the table and the manifest, and no row).
    let tableOnly = try await renderer.render(Catalog.dataSource())
    let refused = folder.appendingPathComponent("refused")
    #expect {
      try tableOnly.write(to: refused.appendingPathComponent("t.png"), rowsDirectory: refused, manifest: nil)
    } throws: { error in
      "\(error)".contains("the render made no row images (render with outputs: [.table, .rows])")
    }
    #expect(!FileManager.default.fileExists(atPath: refused.path))
    #expect(names.filter { $0.hasPrefix("table-") }.count == rendered.tiles.count)
    #expect(names.filter { $0.hasPrefix("rows/") }.count == rendered.rowImages.count && !rendered.rowImages.isEmpty)
    for name in names {
      let bytes = try Data(contentsOf: direct.appendingPathComponent(name))
      #expect(bytes == (try Data(contentsOf: written.appendingPathComponent(name))), "\(name)")
    }
  }
}
