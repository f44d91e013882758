import Foundation
import RowKitGraphics
import RowKitTestSupport
import Testing

@testable import RowKit

/// The one renderer: files and bitmaps in memory with the same pixels and manifest, the same
/// bytes with any number of workers, tiles, the layout cache kept by the pool, and clean
/// failure.
@Suite struct TableRendererTests {
  let families = ["DejaVu Sans", "DejaVu Sans Mono", "Inter"]

  func document(_ name: String) throws -> TableDocument {
    try TableDocument.load(TestSupport.assets.appendingPathComponent("Samples/\(name).yaml"), fontFamilies: families)
  }

  /// Every tile of `manifest`'s table, decoded and stacked.
  func tableImage(_ url: URL, tiles: [Manifest.Tile]?) throws -> Bitmap {
    let files = tiles.map { $0.map { url.deletingLastPathComponent().appendingPathComponent($0.file) } } ?? [url]
    let parts = try files.map { try PNG.decode(contentsOf: $0, maximumPixels: 100_000_000) }
    return Bitmap(width: parts[0].width, height: parts.map(\.height).reduce(0, +), pixels: parts.flatMap(\.pixels))
  }

  func stream(
    _ document: TableDocument, workers: Int, maximumHeight: Int = 1_000_000, rows: Bool = true, chunk: Int = 256
  ) async throws -> (folder: URL, report: TableRenderer.Report) {
    let folder = try TestSupport.temporaryDirectory()
    var renderer = document.makeRenderer(pool: RenderPool(workers: workers))
    renderer.maximumTilePixels = maximumHeight
    renderer.chunkSize = chunk
    let report = try await document.render(
      with: renderer,
      to: TableRenderer.Destination(
        table: folder.appendingPathComponent("table.png"), rowsDirectory: rows ? folder.appendingPathComponent("rows") : nil,
        manifest: folder.appendingPathComponent("table.json")))
    return (folder, report)
  }

  @Test(arguments: ["features", "photos", "people", "settings"])
  func filesHoldTheMemoryRendersPixelsAndManifest(name: String) async throws {
    let document = try document(name)
    let whole = try await document.render(with: document.makeRenderer(), outputs: [.table, .rows])
    // Small chunks, so that chunks, sections and workers interleave.
    let (folder, report) = try await stream(document, workers: 2, chunk: 3)
    defer { try? FileManager.default.removeItem(at: folder) }
    let table = folder.appendingPathComponent("table.png")
    #expect(try PNG.decode(contentsOf: table) == whole.tiles[0].bitmap)
    var expected = whole.manifest
    for index in expected.rows.indices { expected.rows[index].file = Manifest.rowFileName(section: expected.rows[index].section, row: expected.rows[index].row) }
    #expect(report.manifest == expected)
    let written = try JSONDecoder().decode(Manifest.self, from: Data(contentsOf: folder.appendingPathComponent("table.json")))
    #expect(written == expected)
    for (row, image) in zip(expected.rows, whole.rowImages) {
      #expect(try PNG.decode(contentsOf: folder.appendingPathComponent("rows/\(row.file!)")) == image, "\(row.file!)")
    }
    #expect(report.rows == whole.manifest.rows.count)
    #expect(report.heightPixels == whole.image.height)
  }

  @Test func anyNumberOfWorkersWritesTheSameBytes() async throws {
    let document = try document("features")
    var outputs: [[UInt8]] = []
    for workers in [1, 2, 3, 5] {
      let (folder, _) = try await stream(document, workers: workers, chunk: 4)
      defer { try? FileManager.default.removeItem(at: folder) }
      let table = try [UInt8](Data(contentsOf: folder.appendingPathComponent("table.png")))
      let manifest = try [UInt8](Data(contentsOf: folder.appendingPathComponent("table.json")))
      let rows = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("rows").path).sorted()
        .map { try [UInt8](Data(contentsOf: folder.appendingPathComponent("rows/\($0)"))) }
      outputs.append(table + manifest + rows.flatMap { $0 })
    }
    #expect(outputs.allSatisfy { $0 == outputs[0] })
  }

  @Test func aTableTallerThanTheLimitIsSplitIntoTilesThatStack() async throws {
    let document = try document("features")
    let whole = try await document.render(with: document.makeRenderer())
    let (folder, report) = try await stream(document, workers: 2, maximumHeight: 500, rows: false)
    defer { try? FileManager.default.removeItem(at: folder) }
    let tiles = try #require(report.manifest.tiles)
    #expect(tiles.map(\.file) == (1...tiles.count).map { "table-\($0).png" })
    #expect(tiles.count == (whole.image.height + 499) / 500)
    #expect(try tiles.dropLast().allSatisfy { try PNG.header([UInt8](Data(contentsOf: folder.appendingPathComponent($0.file)))).height == 500 })
    #expect(try tableImage(folder.appendingPathComponent("table.png"), tiles: tiles) == whole.tiles[0].bitmap)
    #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("table.png").path))
    #expect(tiles.map(\.y) == tiles.indices.map { Double($0 * 500) / 2 })
  }

  @Test func identicalRowsAreShapedOnceWhicheverWorkerDrawsThem() async throws {
    let distinct = (0..<10).map { SubtitleItem(text: "Row \($0)", subtitle: "The same ten rows, over and over") }
    let items: [any TableItem] = (0..<300).map { distinct[$0 % 10] }
    let folder = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    var renderer = TableRenderer(pool: RenderPool(workers: 3))
    renderer.chunkSize = 64
    let report = try await renderer.render(
      ListDataSource(items: items), to: .init(table: folder.appendingPathComponent("t.png")))
    #expect(report.cacheMisses == 10)
    #expect(report.cacheHits == 290)
    #expect(report.labelsShaped == 20, "a title and a subtitle for each distinct row")
    // A layout cache lives for one render: a design file edited between two renders keeps
    // its cell's name, and must be laid out anew.
    let again = try await renderer.render(ListDataSource(items: items), to: .init(table: folder.appendingPathComponent("t.png")))
    #expect(again.cacheMisses == 10 && again.labelsShaped == 20)
  }

  /// Renders of different text environments share the pool's workers, each environment with
  /// its own shaper: a brand-new environment never sees another's layouts.
  @Test func rendersOfTwoEnvironmentsOnOnePoolKeepTheirOwnLayouts() async throws {
    let pool = RenderPool(workers: 2)
    let item = TextItem(text: "日本語と中文")
    let japanese = TableRenderer(configuration: TableConfiguration(language: "ja"), pool: pool)
    let chinese = TableRenderer(configuration: TableConfiguration(), pool: pool)
    let a = try await japanese.render(ListDataSource(items: [item]))
    let b = try await chinese.render(ListDataSource(items: [item]))
    let a2 = try await japanese.render(ListDataSource(items: [item]))
    #expect(a.image != b.image, "Japanese and Simplified Chinese glyph forms differ")
    #expect(a.image == a2.image)
  }

  /// The key holds the environment: a cache shared by engines of two stylesheets gives each
  /// its own layout of the same item at the same width.
  @Test func aSharedCacheKeepsEachEnvironmentsLayouts() throws {
    let shaper = try TextEnvironment.standard.makeShaper()
    let cache = LayoutCache()
    var large = Stylesheet.default
    large.variables["tableFont"] = .font(Font(family: "Inter", size: 30, weight: 700))
    let item = TextItem(text: "The same item")
    let source = ListDataSource(items: [item, item])
    let engine = TableLayoutEngine(configuration: TableConfiguration(), stylesheet: .default, shaper: shaper, cache: cache)
    let other = TableLayoutEngine(configuration: TableConfiguration(), stylesheet: large, shaper: shaper, cache: cache)
    let first = try engine.layout(source)
    let second = try other.layout(source)
    #expect(cache.misses == 2 && cache.hits == 2, "one miss and one hit per engine: \(cache.misses) misses, \(cache.hits) hits")
    #expect(first.rows[0].height == 44)
    #expect(second.rows[0].height > 44, "the 30-point title's own layout")
    #expect(try engine.layout(source).rows.map(\.height) == first.rows.map(\.height))
    #expect(cache.misses == 2)
  }

  @Test func aFailingRowLeavesNoFilesAndNamesTheRow() async throws {
    struct Exploding: TableItem {
      var fails: Bool
    }
    var mapping = CellMapping()
    mapping.register(
      ClosureCell<Exploding>(name: "ExplodingCell") { item, context in
        if item.fails { throw StyleError("this row cannot be drawn") }
        return RowLayout(cellName: "ExplodingCell", size: Size(width: context.cellWidth, height: 44))
      }, for: Exploding.self)
    let items = (0..<500).map { Exploding(fails: $0 == 400) }
    let folder = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    var renderer = TableRenderer()
    renderer.chunkSize = 50
    await #expect {
      _ = try await renderer.render(
        ListDataSource(items: items, cellMapping: mapping),
        to: .init(
          table: folder.appendingPathComponent("t.png"), rowsDirectory: folder.appendingPathComponent("rows"),
          manifest: folder.appendingPathComponent("t.json")))
    } throws: { error in
      guard let error = error as? RowLayoutError else { return false }
      return error.section == 0 && error.row == 400 && "\(error.underlying)".contains("cannot be drawn")
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty, "files were left behind")
  }

  @Test func progressIsReportedAfterEachChunk() async throws {
    final class Calls: @unchecked Sendable {
      let lock = NSLock()
      var values: [Int] = []
    }
    let calls = Calls()
    let items = (0..<100).map { TextItem(text: "Row \($0)") }
    var renderer = TableRenderer()
    renderer.chunkSize = 25
    renderer.progress = { done, total in
      #expect(total == 100)
      calls.lock.withLock { calls.values.append(done) }
    }
    _ = try await renderer.render(ListDataSource(items: items), to: .init())
    // Each chunk of 25 strips holds the header band, then rows: the counts climb to 100.
    #expect(calls.values == calls.values.sorted() && calls.values.last == 100 && calls.values.count == 5)
  }

  /// The painter fills an opaque table background once (the clear) and leaves out the cell
  /// background that only repeats it; a translucent one it still lays over itself, as it
  /// always did: cleared to the color, filled with it, then the cell's fill of it on top.
  @Test(arguments: ["#33669980", "#336699"])
  func aBackgroundIsPaintedOverItselfOnlyWhereThatShows(color: String) async throws {
    let source = try TableDocument.decode(
      Array(
        """
        stylesheet:
          vars: { tablePlainBackgroundColor: "\(color)", backgroundColor: "\(color)" }
        items:
          - { type: text, text: A }
        """.utf8), as: TestSupport.assets.appendingPathComponent("background.yaml"), fontFamilies: families)
    let row = try await source.render(with: source.makeRenderer()).tiles[0].bitmap
    let background = Color(hex: color)!
    let replayed = try Canvas.bitmap(pixelWidth: row.width, pixelHeight: row.height, scale: 2) { canvas in
      canvas.clear(background)
      if background.alpha < 1 {
        canvas.fill(Rect(x: 0, y: 0, width: canvas.size.width, height: canvas.size.height), color: background)
        canvas.fill(Rect(x: 0, y: 0, width: canvas.size.width, height: canvas.size.height), color: background)
      }
    }
    // Top left, away from the label and the separator.
    let pixel = Array(row.pixels[(row.width + 2) * 4..<(row.width + 3) * 4])
    #expect(pixel == Array(replayed.pixels[(row.width + 2) * 4..<(row.width + 3) * 4]))
    #expect((pixel[3] == 255) == (background.alpha == 1))
  }

  @Test func translucentStylesOnAnOpaqueTableAreKept() async throws {
    let source = try TableDocument.decode(
      Array(
        """
        stylesheet:
          styles:
            hole:
              - blend: clear
              - fill: "#000000"
        items:
          - { type: text, text: A row with a hole, background: hole }
          - { type: text, text: An ordinary row }
        """.utf8), as: TestSupport.assets.appendingPathComponent("hole.yaml"), fontFamilies: families)
    let whole = try await source.render(with: source.makeRenderer())
    #expect(!whole.tiles[0].bitmap.isOpaque)
    let folder = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    _ = try await source.render(with: source.makeRenderer(), to: .init(table: folder.appendingPathComponent("t.png")))
    let png = try [UInt8](Data(contentsOf: folder.appendingPathComponent("t.png")))
    #expect(png[25] == 6, "RGBA")
    #expect(try PNG.decode(png) == PNG.decode(PNG.encode(whole.tiles[0].bitmap)))
  }
}

/// Text of many scripts painted by two workers. Cairo 1.16 shares what it keeps per font
/// file between threads with too little locking: with shared fonts and no lock, a crash or a
/// glyph drawn wrong came in about one render in eight of the world sample. Workers draw
/// from FreeType faces of their own, and take turns at text calls under the text lock.
@Suite struct ParallelTextTests {
  @Test func workersHaveFacesOfTheirOwnWhenThereAreSeveral() async throws {
    let document = try TableDocument.load(
      TestSupport.assets.appendingPathComponent("Samples/world.yaml"), fontFamilies: TextEnvironment.standard.fontSet().families)
    let pool = RenderPool(workers: 2)
    _ = try await document.render(with: document.makeRenderer(pool: pool))
    // With the hooks refused (ROWKIT_PANGO_HOOKS=off, as scripts/test.sh runs the text
    // tests once), every worker shares the fonts under the lock instead.
    #expect(try await pool.shapersWithOwnFaces() == (PangoHooks.refused ? 0 : 2))
    // One worker has nobody to draw in parallel with: it shares Cairo's fonts under the lock.
    let single = RenderPool(workers: 1)
    _ = try await document.render(with: document.makeRenderer(pool: single))
    #expect(try await single.shapersWithOwnFaces() == 0)
  }

  /// Workers with FreeType faces of their own draw the same pixels as one worker sharing the
  /// process's fonts, every time, with both workers rendering at once.
  @Test func workersWithFacesOfTheirOwnDrawTheWorldSampleAsOneWorkerDoes() async throws {
    let document = try TableDocument.load(
      TestSupport.assets.appendingPathComponent("Samples/world.yaml"), fontFamilies: TextEnvironment.standard.fontSet().families)
    let reference = try await document.render(with: document.makeRenderer(pool: RenderPool(workers: 1))).image
    for _ in 0..<12 {
      // A fresh pool each time, so each render's workers make their font maps and Cairo fonts
      // anew, as a process's do; small chunks, so both workers lay out and paint at once all
      // along.
      var renderer = document.makeRenderer(pool: RenderPool(workers: 2))
      renderer.chunkSize = 4
      let image = try await document.render(with: renderer).image
      #expect(image == reference)
    }
  }
}
