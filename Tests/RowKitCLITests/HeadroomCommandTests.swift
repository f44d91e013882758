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

  /// `render --headroom`: the manifest carries every slot's headroom, the same numbers as
  /// `lint --headroom --json`, with the minimum; with `--lint` a slot below it is a finding of
  /// its row. Without the flag the manifest has no headroom.
  @Test func renderPutsEverySlotsHeadroomInTheManifest() async throws {
    let folder = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let document = folder.appendingPathComponent("table.yaml")
    try "table: { width: 320 }\nitems:\n  - { type: subtitle, text: Wireless network settings, subtitle: Short }\n"
      .write(to: document, atomically: true, encoding: .utf8)
    let rendered = try await CommandRunner.run(["render", document.path, "--manifest", "-", "--headroom"])
    #expect(rendered.status == 0, "\(rendered.stderr)")
    let manifest = try JSONSerialization.jsonObject(with: Data(rendered.stdout.utf8)) as! [String: Any]
    let headroom = try #require(manifest["headroom"] as? [String: Any])
    #expect(headroom["minimum"] as? Int == 30)
    let slots = try #require(headroom["slots"] as? [[String: Any]])
    #expect(slots.map { $0["label"] as? String } == ["text", "subtitle"])
    #expect(slots.map { $0["section"] as? Int } == [0, 0] && slots.map { $0["row"] as? Int } == [0, 0])
    #expect(slots[1]["percent"] as? Int == 100 && slots[1]["limit"] == nil)
    #expect(slots[0]["limit"] as? String == "truncated")

    let lint = try await CommandRunner.run(["lint", document.path, "--headroom", "--json"])
    let lintObject = try JSONSerialization.jsonObject(with: Data(lint.stdout.utf8)) as! [String: Any]
    let lintSlots = ((lintObject["headroom"] as! [[String: Any]])[0]["slots"] as! [[String: Any]])
    #expect(lintSlots.map { $0["percent"] as? Int } == slots.map { $0["percent"] as? Int })
    let titlePercent = try #require(slots[0]["percent"] as? Int)
    #expect(titlePercent >= 30 && titlePercent < 100 && titlePercent % 5 == 0)

    // A bar above the title's headroom: the title's row has the finding, named as lint names it.
    let strict = try await CommandRunner.run(
      ["render", document.path, "--manifest", "-", "--headroom", "--min-headroom", "100", "--lint"])
    #expect(strict.status == 0, "\(strict.stderr)")
    let strictManifest = try JSONSerialization.jsonObject(with: Data(strict.stdout.utf8)) as! [String: Any]
    let findings = try #require(((strictManifest["rows"] as! [[String: Any]])[0]["findings"]) as? [[String: Any]])
    #expect(findings.map { $0["rule"] as? String } == ["headroom"])
    #expect(findings[0]["label"] as? String == "text")
    #expect(findings[0]["message"] as? String == "truncates at +\(titlePercent + 5)% (large, 320 pt); needs +100%")

    let plain = try await CommandRunner.run(["render", document.path, "--manifest", "-"])
    let plainManifest = try JSONSerialization.jsonObject(with: Data(plain.stdout.utf8)) as! [String: Any]
    #expect(plainManifest["headroom"] == nil)
    for (arguments, message) in [
      (["--manifest", "-", "--min-headroom", "40"], "--min-headroom goes with --headroom"),
      (["-o", folder.appendingPathComponent("t.png").path, "--headroom"], "--headroom puts every text slot's headroom in the manifest: give --manifest FILE (or -)"),
    ] {
      let bad = try await CommandRunner.run(["render", document.path] + arguments)
      #expect(bad.status == 2 && bad.stderr.contains(message), "\(bad.stderr)")
      #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("t.png").path))
    }
  }

  /// `check --headroom`: report.json keeps each case's slots and minimum, the review page
  /// shows each case's tightest slots with those below the minimum marked, and with `--lint`
  /// a case with a slot below it fails.
  @Test func checkKeepsEachCasesHeadroomAndThePageShowsTheTightestSlots() async throws {
    let folder = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let cases = folder.appendingPathComponent("cases")
    try FileManager.default.createDirectory(at: cases, withIntermediateDirectories: true)
    try "table: { width: 320 }\nvariants: { textSize: [large, AX3] }\nitems:\n  - { type: subtitle, text: Wireless network settings, subtitle: Short }\n"
      .write(to: cases.appendingPathComponent("table.yaml"), atomically: true, encoding: .utf8)
    let refs = folder.appendingPathComponent("refs")
    let report = folder.appendingPathComponent("report")
    let first = try await CommandRunner.run(
      ["check", cases.path, "--snapshots", refs.path, "--record", "missing", "--headroom", "--report", report.path],
      environment: ["CI": ""])
    #expect(first.stdout.contains("2 cases: 0 passed, 0 failed, 2 new"), "\(first.stdout)\(first.stderr)")

    func caseHeadrooms() throws -> [String: [String: Any]] {
      let data = try Data(contentsOf: report.appendingPathComponent("report.json"))
      let object = try JSONSerialization.jsonObject(with: data) as! [String: Any]
      var byName: [String: [String: Any]] = [:]
      for item in object["cases"] as! [[String: Any]] {
        if let headroom = item["headroom"] as? [String: Any] { byName[item["name"] as! String] = headroom }
      }
      return byName
    }
    let headrooms = try caseHeadrooms()
    #expect(headrooms.keys.sorted() == ["table@AX3", "table@large"])
    func title(_ name: String) throws -> [String: Any] {
      let slots = try #require(headrooms[name]?["slots"] as? [[String: Any]])
      return try #require(slots.first { $0["label"] as? String == "text" })
    }
    let large = try #require(try title("table@large")["percent"] as? Int)
    #expect(large >= 30)
    let ax3 = try title("table@AX3")["percent"] as? Int ?? -5
    #expect(ax3 < 30, "AX3's larger font leaves the title less room than +30%")
    #expect(headrooms["table@AX3"]?["minimum"] as? Int == 30)

    let page = try String(contentsOf: report.appendingPathComponent("index.html"), encoding: .utf8)
    let ax3Phrase = ax3 < 0 ? "truncates as written" : "truncates at +\(ax3 + 5)%"
    #expect(page.contains("<li class=\"below\" data-slot=\"s0-r0 text\">s0-r0 text: \(ax3Phrase) <span class=\"tag\">below +30%</span></li>"), "\(page)")
    #expect(page.contains("<li data-slot=\"s0-r0 text\">s0-r0 text: truncates at +\(large + 5)%</li>"), "\(page)")
    #expect(page.contains("data-minimum=\"30\" data-below=\"1\"") && page.contains("data-minimum=\"30\" data-below=\"0\""))

    let linted = try await CommandRunner.run(
      ["check", cases.path, "--snapshots", refs.path, "--lint", "--headroom", "--report", report.path], environment: ["CI": "true"])
    #expect(linted.status == 1, "\(linted.stdout)\(linted.stderr)")
    #expect(linted.stdout.contains("2 cases: 1 passed, 1 failed"), "\(linted.stdout)")
    #expect(linted.stdout.contains("s0-r0 (subtitle) headroom [text]: \(ax3Phrase) (AX3, 320 pt); needs +30%"), "\(linted.stdout)")

    // Without --headroom nothing is measured, and the references pass.
    let plain = try await CommandRunner.run(
      ["check", cases.path, "--snapshots", refs.path, "--report", report.path], environment: ["CI": "true"])
    #expect(plain.status == 0, "\(plain.stdout)\(plain.stderr)")
    #expect(try caseHeadrooms().isEmpty)
  }
}
