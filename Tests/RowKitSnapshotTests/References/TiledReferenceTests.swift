import Foundation
import RowKit
import RowKitGraphics
import RowKitTestSupport
import Testing

@testable import RowKitSnapshot

/// References and artifacts of images taller than one PNG a decoder opens: recorded as
/// tiles (`name.png`, `name+2.png`, …), read back, compared strip by strip, and left as
/// tiles when a case fails; single-file references keep working.
@Suite struct TiledReferenceTests {
  /// Strips of `width` pixels, `rows` rows each, in bands of seven colors.
  static func strips(width: Int, rows: Int, count: Int) -> [Bitmap] {
    let colors = (0..<7).map { Bitmap(width: width, height: rows, color: Color(r: 30 * $0, g: 200 - 20 * $0, b: 90)) }
    return (0..<count).map { colors[$0 % 7] }
  }

  /// A render that hands `strips` over one by one, as a table's render does.
  static func render(_ strips: [Bitmap]) -> (any TableImageReceiver) async throws -> Void {
    { receiver in for strip in strips { try receiver.receive(strip) } }
  }

  func store(_ folder: URL, _ limits: ReferenceStore.Limits = .init(), record: String? = nil) -> ReferenceStore {
    ReferenceStore(
      root: folder.appendingPathComponent("Snapshots"), artifactsRoot: folder.appendingPathComponent("artifacts"),
      environment: .standard, processEnvironment: record.map { ["ROWKIT_RECORD": $0] } ?? [:], limits: limits)
  }

  func exists(_ url: URL) -> Bool { FileManager.default.fileExists(atPath: url.path) }

  /// 4000 × 10,050 pixels is more than a PNG RowKit decodes whole (40 million): recorded as
  /// a tile of 10,000 rows and one of 50, each decodable, then read back and passed.
  @Test func aReferenceOverThePixelLimitIsRecordedAsTilesReadBackAndPasses() async throws {
    let folder = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let strips = Self.strips(width: 4000, rows: 150, count: 67)
    #expect(4000 * 150 * 67 > PNG.defaultMaximumPixels)
    let recorded = try await store(folder).check(suite: "S", name: "tall", rendering: Self.render(strips))
    guard case .recorded(let path, _) = recorded else { Issue.record("not recorded: \(recorded)"); return }
    let first = URL(fileURLWithPath: path)
    let second = TiledPNG.tileURL(first, index: 1)
    #expect(second.lastPathComponent == "tall+2.png")
    #expect(try PNG.header(contentsOf: first) == (4000, 10_000))
    #expect(try PNG.header(contentsOf: second) == (4000, 50))
    #expect(!exists(TiledPNG.tileURL(first, index: 2)))
    let checked = try await store(folder).check(suite: "S", name: "tall", rendering: Self.render(strips))
    guard case .matched(let result) = checked else { Issue.record("did not pass: \(checked)"); return }
    #expect(result.status == .identical && result.totalPixels == 4000 * 10_050)
    let store = store(folder)
    #expect(store.orphanedReferences(keeping: ["S/tall"]).isEmpty, "a tile goes with its reference")
    #expect(store.orphanedReferences(keeping: []) == ["S/tall+2.png", "S/tall.png"])
    #expect(!exists(folder.appendingPathComponent("artifacts")), "a passing check leaves no folder")
  }

  /// Where the folder a large render spills into cannot be made (an unwritable `TMPDIR`),
  /// the render is kept in memory, as a small one is: a new case is recorded and a changed
  /// one fails, rather than the case being an error for a folder it did not need.
  @Test func aLargeRenderIsKeptInMemoryWhereItsFolderCannotBeMade() async throws {
    let folder = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    // A file where the artifacts folder goes: nothing can be made under it.
    try Data().write(to: folder.appendingPathComponent("artifacts"))
    let limits = ReferenceStore.Limits(tilePixels: 2000, memoryPixels: 1500)
    let strips = Self.strips(width: 40, rows: 10, count: 13)
    let recorded = try await store(folder, limits).check(suite: "S", name: "tall", rendering: Self.render(strips))
    guard case .recorded = recorded else { Issue.record("not recorded: \(recorded)"); return }
    let passed = try await store(folder, limits).check(suite: "S", name: "tall", rendering: Self.render(strips))
    #expect(passed.passed, "\(passed)")
    var changed = strips
    changed[7] = CraftedImages.block(strips[7], x: 5, y: 2, width: 4, height: 3, .black)
    let failed = try await store(folder, limits).check(suite: "S", name: "tall", rendering: Self.render(changed))
    guard case .failed(_, let result?, _) = failed else { Issue.record("expected a failure: \(failed)"); return }
    #expect(result.differentPixels == 12)
  }

  /// With small limits: a reference of three tiles, a change in the second, a render let go
  /// while it equals the reference and then rebuilt from it, and artifacts in tiles.
  @Test func aChangedTallCaseLeavesTiledArtifactsOfTheWholeImages() async throws {
    let folder = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let limits = ReferenceStore.Limits(tilePixels: 2000, memoryPixels: 1500)
    let strips = Self.strips(width: 40, rows: 10, count: 13)
    _ = try await store(folder, limits).check(suite: "S", name: "tall", rendering: Self.render(strips))
    let reference = folder.appendingPathComponent("Snapshots/S/tall.png")
    #expect(TiledPNG.files(of: reference).map(\.lastPathComponent) == ["tall.png", "tall+2.png", "tall+3.png"])
    var changed = strips
    changed[7] = CraftedImages.block(strips[7], x: 5, y: 2, width: 4, height: 3, .black)
    let outcome = try await store(folder, limits).check(suite: "S", name: "tall", rendering: Self.render(changed))
    guard case .failed(let message, let result?, let artifacts?) = outcome else { Issue.record("expected a failure: \(outcome)"); return }
    #expect(result.differentPixels == 12 && result.changedBox == PixelRect(x: 5, y: 72, width: 4, height: 3), "\(message)")
    let directory = URL(fileURLWithPath: artifacts.directory)
    // Tiles of at most 2000 pixels: 50 rows of the images, 14 of the composite (136 wide).
    for (name, tiles) in [("actual", 3), ("reference", 3), ("diff", 3), ("composite", 10)] {
      let files = TiledPNG.files(of: directory.appendingPathComponent("\(name).png"))
      #expect(files.count == tiles, "\(name): \(files.map(\.lastPathComponent))")
    }
    let actual = try ImageComparison.compare(
      TiledPNG.rows(of: directory.appendingPathComponent("actual.png")), BitmapRows(changed, width: 40))
    #expect(actual.status == .identical, "the actual image, rebuilt from the reference's rows where it was let go")
    let diff = try PNG.decode(contentsOf: directory.appendingPathComponent("diff+2.png"))
    #expect(diff.color(x: 6, y: 72 - 50) == Color(r: 255, g: 0, b: 0))
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).allSatisfy { !$0.hasPrefix(".") }, "no temporary file")

    // Re-recorded shorter, the reference loses the tiles it no longer has.
    let short = Array(strips.prefix(6))
    let rerecorded = try await store(folder, limits, record: "all").check(suite: "S", name: "tall", rendering: Self.render(short))
    guard case .recorded = rerecorded else { Issue.record("not re-recorded: \(rerecorded)"); return }
    #expect(TiledPNG.files(of: reference).count == 2)
    #expect(!exists(folder.appendingPathComponent("Snapshots/S/tall+3.png")))
  }

  /// Rows handed over in strips of any height come out as strips of the writer's own
  /// height, cut into tiles where the tile height says, and read back as they went in.
  @Test func theWriterJoinsAndCutsStripsWhereverTheyEnd() throws {
    let folder = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let strips = (0..<9).map { index in
      CraftedImages.block(Bitmap(width: 37, height: 3 + index, color: .white), x: index, y: 1, width: 5, height: 2, .black)
    }
    let writer = TiledPNGWriter(for: folder.appendingPathComponent("image.png"), width: 37, color: .rgb, tileHeight: 20, stripPixels: 37 * 6)
    for strip in strips { try writer.append(strip) }
    try writer.finish()
    try writer.commit(removingStaleTiles: true)
    let files = TiledPNG.files(of: folder.appendingPathComponent("image.png"))
    #expect(try files.map { try PNG.header(contentsOf: $0).height } == [20, 20, 20, 3])
    let image = try TiledPNG.rows(of: folder.appendingPathComponent("image.png"))
    #expect(try ImageComparison.compare(image, BitmapRows(strips, width: 37)).status == .identical)
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).count == 4, "no temporary file is left")
  }

  /// A table checked by `SnapshotCheck`, rendered strip by strip into the check: recorded as
  /// tiles, its report's images in tiles, and accepted back over the reference, tiles and
  /// all, the reference's extra tiles removed when the accepted image is shorter.
  @Test func aTallTableIsCheckedReportedAndAcceptedInTiles() async throws {
    let folder = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let tables = folder.appendingPathComponent("tables")
    try FileManager.default.createDirectory(at: tables, withIntermediateDirectories: true)
    func write(_ texts: [String]) throws {
      let items = texts.map { "  - { type: text, text: \($0) }" }.joined(separator: "\n")
      try Data("items:\n\(items)\n".utf8).write(to: tables.appendingPathComponent("long.yaml"))
    }
    let report = folder.appendingPathComponent("report")
    // Tiles of 100 rows of the table's 750 pixels; renders over 150 rows go to files.
    let limits = ReferenceStore.Limits(tilePixels: 750 * 100, memoryPixels: 750 * 150)
    func run() async throws -> SnapshotCheck.Report {
      // As `rowkit check --report` makes it: the artifacts in the report.
      let store = ReferenceStore(
        root: folder.appendingPathComponent("Snapshots"), artifactsRoot: report.appendingPathComponent("cases"),
        environment: .standard, processEnvironment: [:], limits: limits)
      let check = SnapshotCheck(folder: tables, store: store, reportDirectory: report)
      return try await check.run(try SnapshotCheck.discover(in: tables), fontFamilies: try TextEnvironment.standard.fontSet().families)
    }
    try write(["One", "Two", "Three", "Four", "Five"])
    #expect(try await run().cases.map(\.status) == [.new])
    let reference = folder.appendingPathComponent("Snapshots/long.png")
    let tiles = TiledPNG.files(of: reference).count
    #expect(tiles >= 4, "\(tiles) tiles")
    #expect(try await run().cases.map(\.status) == [.passed])
    try write(["One", "Two", "Three", "Changed"])
    let failed = try await run()
    #expect(failed.cases.map(\.status) == [.failed])
    let actual = report.appendingPathComponent(try #require(failed.cases.first?.actual))
    #expect(TiledPNG.files(of: actual).count == tiles - 1)
    let accepted = try ReferenceAcceptance.accept(
      report: report, names: ["long"], all: false, snapshots: folder.appendingPathComponent("Snapshots"), processEnvironment: [:])
    #expect(accepted.map(\.name) == ["long"])
    #expect(TiledPNG.files(of: reference).count == tiles - 1, "the accepted image has a tile fewer")
    #expect(try ImageComparison.compare(TiledPNG.rows(of: reference), TiledPNG.rows(of: actual)).status == .identical)
    #expect(try await run().cases.map(\.status) == [.passed])
  }

  /// A reference written as one file before references had tiles, however tall, still
  /// reads: it is decoded a few rows at a time.
  @Test func aSingleFileReferenceOfATallImageStillPasses() async throws {
    let folder = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let strips = Self.strips(width: 40, rows: 10, count: 13)
    let reference = folder.appendingPathComponent("Snapshots/S/old.png")
    try FileManager.default.createDirectory(at: reference.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(PNG.encode(Bitmap(width: 40, height: 130, pixels: strips.flatMap(\.pixels)))).write(to: reference)
    let limits = ReferenceStore.Limits(tilePixels: 2000, memoryPixels: 1500)
    let outcome = try await store(folder, limits).check(suite: "S", name: "old", rendering: Self.render(strips))
    #expect(outcome.passed, "\(outcome)")
  }

  /// A translucent strip after opaque ones that were written without alpha: the file
  /// starts again with alpha, and keeps every pixel.
  @Test func aTranslucentStripAfterOpaqueOnesKeepsItsAlpha() async throws {
    let folder = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    var strips = Self.strips(width: 40, rows: 10, count: 9)
    strips[6] = Bitmap(width: 40, height: 10, color: Color(r: 200, g: 0, b: 0, a: 0.5))
    let limits = ReferenceStore.Limits(tilePixels: 2000, memoryPixels: 1500)
    let outcome = try await store(folder, limits).check(suite: "S", name: "alpha", rendering: Self.render(strips))
    guard case .recorded(let path, _) = outcome else { Issue.record("not recorded: \(outcome)"); return }
    let recorded = try TiledPNG.rows(of: URL(fileURLWithPath: path))
    #expect(try ImageComparison.compare(recorded, BitmapRows(strips, width: 40)).status == .identical)
  }

  /// Two renders that differ past the part kept in memory are still told apart.
  @Test func tallRendersThatDifferAreNotDeterministic() async throws {
    let folder = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let strips = Self.strips(width: 40, rows: 10, count: 13)
    var renders = 0
    let outcome = try await store(folder, .init(tilePixels: 2000, memoryPixels: 1500)).check(suite: "S", name: "flaky") { receiver in
      renders += 1
      var strips = strips
      if renders == 2 { strips[11] = Bitmap(width: 40, height: 10, color: .white) }
      for strip in strips { try receiver.receive(strip) }
    }
    guard case .error(let message) = outcome else { Issue.record("expected an error: \(outcome)"); return }
    #expect(message.contains("rendering is not deterministic: two renders differ (400 of 5200 pixels differ"), "\(message)")
    #expect(!exists(folder.appendingPathComponent("Snapshots/S/flaky.png")))
    #expect(!exists(folder.appendingPathComponent("artifacts")), "no temporary file is left")
  }
}
