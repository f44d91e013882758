import Foundation
import RowKit
import RowKitGraphics
import RowKitSnapshot
import RowKitTestSupport
import Testing

/// A toolchain upgrade through the built `rowkit` binary: references recorded with glyphs
/// drawn one bit per pixel (another rasterization, as a FreeType or font package upgrade
/// makes) are checked in RowKit's own environment; the unchanged cases are rasterization
/// only and `accept --rasterization-only` takes exactly those, the changed one keeps failing.
@Suite(.serialized) struct RasterizationOnlyAcceptTests {
  @Test func acceptRasterizationOnlyTakesExactlyTheCasesWhoseLayoutIsUnchanged() async throws {
    let folder = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let tables = folder.appendingPathComponent("tables")
    try FileManager.default.createDirectory(at: tables, withIntermediateDirectories: true)
    var monochrome = TextEnvironment.standard
    monochrome.antialiasing = .none
    let refs = folder.appendingPathComponent("refs")
    let store = ReferenceStore(root: refs, environment: monochrome, processEnvironment: [:])
    for index in 0..<3 {
      let file = tables.appendingPathComponent("case-\(index).yaml")
      try Data("items:\n  - { type: subtitle, text: Case \(index), subtitle: Sub \(index) }\n".utf8).write(to: file)
      let document = try TableDocument.load(file, fontFamilies: try TextEnvironment.standard.fontSet().families)
      var renderer = document.makeRenderer()
      renderer.environment = monochrome
      let outcome = try await store.check(suite: "", name: "case-\(index)", record: .all) { recordsLayout in
        renderer.recordsLayout = recordsLayout
        let table = try await document.render(with: renderer)
        return RenderedSnapshot(image: table.image, layout: table.layoutRecord)
      }
      guard case .recorded = outcome.outcome else { Issue.record("not recorded: \(outcome.outcome)"); return }
    }
    // One real change besides the upgrade.
    try Data("items:\n  - { type: subtitle, text: Case 1 changed, subtitle: Sub 1 }\n".utf8)
      .write(to: tables.appendingPathComponent("case-1.yaml"))
    let environment = ["CI": "", "ROWKIT_RECORD": "", "ROWKIT_SNAPSHOT_ARTIFACTS": folder.appendingPathComponent("artifacts").path]
    func run(_ arguments: [String]) async throws -> CommandRunner.Result {
      try await CommandRunner.run(arguments, in: folder, environment: environment)
    }

    let checked = try await run(["check", "tables", "--snapshots", "refs", "--report", "report", "--summary", "summary.md"])
    #expect(checked.status == 1)
    #expect(checked.stderr.contains("font options antialias=none hint-style=none hint-metrics=off → antialias=gray"), "\(checked.stderr)")
    #expect(checked.stdout.contains("3 cases: 0 passed, 3 failed (2 rasterization only),"), "\(checked.stdout)")
    #expect(checked.stdout.contains(#"s0-r0 text "Case 1" → "Case 1 changed""#), "\(checked.stdout)")
    #expect(checked.stdout.components(separatedBy: "  rasterization only\n").count == 3)
    #expect(checked.stdout.contains("rowkit accept report --rasterization-only accepts the 2 cases"))
    let report = try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent("report/report.json"))) as! [String: Any]
    let cases = report["cases"] as! [[String: Any]]
    #expect(cases.map { $0["rasterizationOnly"] as? Bool } == [true, nil, true])
    #expect((report["summary"] as! [String: Any])["rasterizationOnly"] as? Int == 2)

    let markdown = try String(contentsOf: folder.appendingPathComponent("summary.md"), encoding: .utf8)
    #expect(markdown.contains("| 3 | 0 | 3 | 2 | 0 | 0 | 0 | 0 |"), "\(markdown)")
    #expect(markdown.contains("2 failed cases differ in rasterization only") && markdown.contains("(failed, rasterization only)"))

    // Without the flag, a report of another environment is refused, and nothing changes.
    let refused = try await run(["accept", "report", "--all"])
    #expect(refused.status == 2 && refused.stderr.contains("--rasterization-only"), "\(refused.stderr)")

    let accepted = try await run(["accept", "report", "--rasterization-only"])
    #expect(accepted.status == 0, "\(accepted.stderr)")
    #expect(accepted.stdout.contains("ACCEPTED case-0") && accepted.stdout.contains("ACCEPTED case-2"))
    #expect(!accepted.stdout.contains("case-1") && accepted.stdout.contains("2 references accepted"))

    // The references are now of this environment: the unchanged cases pass, the changed one
    // fails with its sentence, as a plain failure.
    let again = try await run(["check", "tables", "--snapshots", "refs"])
    #expect(again.status == 1 && again.stderr.isEmpty, "\(again.stderr)")
    #expect(again.stdout.contains("3 cases: 2 passed, 1 failed, 0 new"), "\(again.stdout)")
    #expect(again.stdout.contains(#"s0-r0 text "Case 1" → "Case 1 changed""#))
  }
}
