import Foundation
import RowKitGraphics
import RowKitTestSupport
import Testing

@testable import RowKit

/// Issue 24, item 8: renders that stage into one set of files (`rowkit render`'s variants)
/// are put in place together; a render that fails removes only what it staged.
@Suite struct SharedStagingTests {
  @Test func aFailedRenderRemovesOnlyItsOwnFiles() async throws {
    let folder = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let files = AtomicFiles()
    let renderer = TableRenderer(configuration: TableConfiguration())
    let good = ListDataSource(items: [TextItem(text: "Drawn")])
    _ = try await renderer.render(
      good, to: RenderDestination(
        table: folder.appendingPathComponent("good.png"), rowsDirectory: folder.appendingPathComponent("good-rows"),
        manifest: folder.appendingPathComponent("good.json"), stagingIn: files))
    // Nothing is in place before the commit.
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).allSatisfy { $0.hasPrefix(".") })

    var strict = renderer
    strict.failsOnMissingGlyphs = true
    let missing = ListDataSource(items: [TextItem(text: "\u{F0000}")])
    await #expect(throws: MissingGlyphsError.self) {
      _ = try await strict.render(
        missing, to: RenderDestination(
          table: folder.appendingPathComponent("bad.png"), rowsDirectory: folder.appendingPathComponent("bad-rows"),
          manifest: folder.appendingPathComponent("bad.json"), stagingIn: files))
    }
    try files.commit()
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["good-rows", "good.json", "good.png"])
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("good-rows").path) == ["s0-r0.png"])
  }
}
