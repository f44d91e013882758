import Foundation
import RowKitTestSupport
import Testing

/// `rowkit lint --headroom`: every text slot's room to grow, and findings for slots with
/// less than `--min-headroom`.
@Suite struct HeadroomCommandTests {
  @Test func lintReportsSlotsWithTooLittleHeadroom() async throws {
    let folder = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let document = folder.appendingPathComponent("table.yaml")
    try "table: { width: 320 }\nvariants: { textSize: [large, AX3] }\nitems:\n  - { type: subtitle, text: Wireless network settings, subtitle: Short }\n"
      .write(to: document, atomically: true, encoding: .utf8)
    let text = try await CommandRunner.run(["lint", document.path, "--headroom"])
    #expect(text.status == 1, "\(text.stdout)\(text.stderr)")
    #expect(text.stdout.contains("@AX3: s0-r0 (subtitle) headroom [text]: truncates"), "\(text.stdout)")
    #expect(text.stdout.contains("(AX3, 320 pt); needs +30%"), "\(text.stdout)")
    #expect(!text.stdout.contains("@large: s0-r0 (subtitle) headroom"), "\(text.stdout)")

    let json = try await CommandRunner.run(["lint", document.path, "--headroom", "--json"])
    let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as! [String: Any]
    let tables = object["headroom"] as! [[String: Any]]
    #expect(tables.map { $0["variant"] as? String } == ["large", "AX3"])
    let large = tables[0]["slots"] as! [[String: Any]]
    #expect(large.map { $0["label"] as? String } == ["text", "subtitle"])
    let titleAtLarge = try #require(large[0]["percent"] as? Int)
    #expect(titleAtLarge >= 30 && titleAtLarge % 5 == 0)
    #expect(large[1]["percent"] as? Int == 100 && large[1]["limit"] == nil)

    // A lower bar: the large title passes it, and so does the run when nothing is below it.
    let lenient = try await CommandRunner.run(["lint", document.path, "--headroom", "--min-headroom", "0", "--variant-text-size", "large"])
    #expect(lenient.status == 0, "\(lenient.stdout)\(lenient.stderr)")

    for (arguments, message) in [
      (["--headroom", "--min-headroom", "101"], "--min-headroom: 101 is not a percentage from 0 to 100"),
      (["--min-headroom", "20"], "--min-headroom goes with --headroom"),
    ] {
      let bad = try await CommandRunner.run(["lint", document.path] + arguments)
      #expect(bad.status == 2)
      #expect(bad.stderr.contains(message), "\(bad.stderr)")
      #expect(bad.stdout.isEmpty)
    }
  }
}
