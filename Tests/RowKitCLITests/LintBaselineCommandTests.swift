import Foundation
import RowKitTestSupport
import Testing

/// `rowkit lint --baseline` and `rowkit check --lint --baseline`, run as a user runs them.
@Suite struct LintBaselineCommandTests {
  static let gray = "stylesheet: { vars: { tableSubTextColor: \"#999999\" } }\n"
  static let grayRow = "  - { type: subtext, text: Body, caption: Caption }\n"

  @Test func lintPassesOldFindingsFailsNewOnesAndReportsFixedOnes() async throws {
    let folder = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let document = folder.appendingPathComponent("table.yaml")
    let baseline = folder.appendingPathComponent("lint-baseline.json")
    func lint(_ yaml: String, _ extra: [String] = [], environment: [String: String] = ["CI": ""]) async throws -> CommandRunner.Result {
      try yaml.write(to: document, atomically: true, encoding: .utf8)
      return try await CommandRunner.run(["lint", document.path, "--baseline", baseline.path] + extra, environment: environment)
    }
    // No baseline yet: refused, nothing written.
    let missing = try await lint(Self.gray + "items:\n" + Self.grayRow)
    #expect(missing.status == 2)
    #expect(missing.stderr.contains(baseline.path + ": cannot read the lint baseline"), "\(missing.stderr)")
    #expect(missing.stdout.isEmpty)
    // Under CI the baseline is never written.
    let underCI = try await lint(Self.gray + "items:\n" + Self.grayRow, ["--update-baseline"], environment: ["CI": "true"])
    #expect(underCI.status == 2)
    #expect(underCI.stderr.contains("--update-baseline rewrites the lint baseline, and CI is set"), "\(underCI.stderr)")
    #expect(!FileManager.default.fileExists(atPath: baseline.path))
    // Written.
    let update = try await lint(Self.gray + "items:\n" + Self.grayRow, ["--update-baseline"])
    #expect(update.status == 0, "\(update.stdout)\(update.stderr)")
    let written = try Data(contentsOf: baseline)
    #expect(String(decoding: written, as: UTF8.self).contains("\"title\" : \"Body\""))
    #expect(update.stdout.contains("updated \(baseline.path)"), "\(update.stdout)")
    // Updated again with the same findings: the file is left as it is (not even replaced), and said so.
    let inodeBefore = try FileManager.default.attributesOfItem(atPath: baseline.path)[.systemFileNumber] as? Int
    let again = try await lint(Self.gray + "items:\n" + Self.grayRow, ["--update-baseline", "--json"])
    #expect(again.status == 0, "\(again.stdout)\(again.stderr)")
    let againObject = try JSONSerialization.jsonObject(with: Data(again.stdout.utf8)) as! [String: Any]
    #expect((againObject["baseline"] as! [String: Any])["updated"] as? Bool == false)
    let unchanged = try await lint(Self.gray + "items:\n" + Self.grayRow, ["--update-baseline"])
    #expect(unchanged.stdout.contains("\(baseline.path) already holds these findings: unchanged"), "\(unchanged.stdout)")
    #expect(!unchanged.stdout.contains("updated"), "\(unchanged.stdout)")
    #expect(try FileManager.default.attributesOfItem(atPath: baseline.path)[.systemFileNumber] as? Int == inodeBefore)
    #expect(try Data(contentsOf: baseline) == written)
    // The old finding passes, with the row moved below two new rows.
    let moved = try await lint(Self.gray + "items:\n  - { type: text, text: First }\n  - { type: text, text: Second }\n" + Self.grayRow)
    #expect(moved.status == 0, "\(moved.stdout)\(moved.stderr)")
    #expect(moved.stdout.contains("1 in the baseline, 0 new, 0 fixed"), "\(moved.stdout)")
    // A new finding fails.
    let new = try await lint(Self.gray + "items:\n" + Self.grayRow + "  - { type: subtext, text: Tail, caption: Caption }\n")
    #expect(new.status == 1, "\(new.stdout)\(new.stderr)")
    #expect(new.stdout.contains("new: \(document.path): subtext \"Tail\" [caption] contrast:"), "\(new.stdout)")
    #expect(!new.stdout.contains("\"Body\""), "\(new.stdout)")
    // A fixed finding is reported, and the run passes.
    let fixed = try await lint("items:\n" + Self.grayRow)
    #expect(fixed.status == 0, "\(fixed.stdout)\(fixed.stderr)")
    #expect(fixed.stdout.contains("fixed: \(document.path): subtext \"Body\" [caption] contrast:"), "\(fixed.stdout)")
    #expect(fixed.stdout.contains("0 in the baseline, 0 new, 1 fixed"), "\(fixed.stdout)")
    #expect(try Data(contentsOf: baseline) == written)
    // JSON says the same.
    let json = try await lint("items:\n" + Self.grayRow, ["--json"])
    let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as! [String: Any]
    let summary = object["baseline"] as! [String: Any]
    #expect((summary["fixed"] as! [[String: Any]]).map { $0["title"] as? String } == ["Body"])
    #expect(summary["known"] as? Int == 0)
    // Updating shrinks the baseline.
    let shrink = try await lint("items:\n" + Self.grayRow, ["--update-baseline"])
    #expect(shrink.status == 0, "\(shrink.stdout)\(shrink.stderr)")
    #expect(shrink.stdout.contains("updated \(baseline.path)"), "\(shrink.stdout)")
    #expect(String(decoding: try Data(contentsOf: baseline), as: UTF8.self) == "{\n  \"findings\" : [\n\n  ],\n  \"version\" : 1\n}\n")
  }

  @Test(arguments: [
    ("{ \"version\": 1, \"findings\": ", "not JSON"),
    ("{ \"findings\": [] }", "version: not a lint baseline: the key is missing"),
    ("{ \"version\": 1, \"findings\": {} }", "findings: not a lint baseline"),
  ])
  func aBadBaselineIsExitTwoNamingTheFile(text: String, expected: String) async throws {
    let folder = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let document = folder.appendingPathComponent("table.yaml")
    try (Self.gray + "items:\n" + Self.grayRow).write(to: document, atomically: true, encoding: .utf8)
    let baseline = folder.appendingPathComponent("broken.json")
    try text.write(to: baseline, atomically: true, encoding: .utf8)
    for arguments in [
      ["lint", document.path, "--baseline", baseline.path],
      ["lint", document.path, "--baseline", baseline.path, "--update-baseline"],
      ["check", folder.path, "--snapshots", folder.appendingPathComponent("refs").path, "--lint", "--baseline", baseline.path],
    ] {
      let result = try await CommandRunner.run(arguments, environment: ["CI": ""])
      #expect(result.status == 2, "\(arguments[0]): \(result.stdout)\(result.stderr)")
      #expect(result.stderr.contains("\(baseline.path): \(expected)"), "\(arguments[0]): \(result.stderr)")
      #expect(result.stdout.isEmpty, "\(arguments[0]): \(result.stdout)")
      #expect(try String(contentsOf: baseline, encoding: .utf8) == text)
    }
    #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("refs").path))
  }

  /// A design file's row is known by the first field its labels show, a stock by its symbol,
  /// so that data that changes every day (its price change) keeps its findings matched; the
  /// field whose name sorts first (`change`) made every finding new and fixed at once.
  @Test func aDesignRowIsKnownByWhatItShowsFirst() async throws {
    let folder = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    try FileManager.default.copyItem(at: TestSupport.assets, to: folder.appendingPathComponent("Assets"))
    let document = folder.appendingPathComponent("Assets/Samples/stocks.yaml")
    let baseline = folder.appendingPathComponent("lint-baseline.json")
    let update = try await CommandRunner.run(
      ["lint", document.path, "--baseline", baseline.path, "--update-baseline"], environment: ["CI": ""])
    #expect(update.status == 0, "\(update.stdout)\(update.stderr)")
    let written = try String(contentsOf: baseline, encoding: .utf8)
    #expect(written.contains("\"title\" : \"AAPL\"") && written.contains("\"title\" : \"GOOG\""), "\(written)")
    #expect(!written.contains("\"title\" : \"+1.32\""), "\(written)")

    // A baseline an older RowKit wrote, which knew these rows by their change, still passes
    // (until --update-baseline writes the titles they are known by now).
    let older = written.replacingOccurrences(of: "\"title\" : \"AAPL\"", with: "\"title\" : \"+1.32\"")
      .replacingOccurrences(of: "\"title\" : \"GOOG\"", with: "\"title\" : \"+0.45\"")
    try older.write(to: baseline, atomically: true, encoding: .utf8)
    let againstOlder = try await CommandRunner.run(["lint", document.path, "--baseline", baseline.path], environment: ["CI": ""])
    #expect(againstOlder.status == 0, "\(againstOlder.stdout)\(againstOlder.stderr)")
    #expect(againstOlder.stdout.contains("0 new, 0 fixed"), "\(againstOlder.stdout)")
    try written.write(to: baseline, atomically: true, encoding: .utf8)

    let text = try String(contentsOf: document, encoding: .utf8)
    #expect(text.contains(#"change: "+1.32""#))
    try text.replacingOccurrences(of: #"change: "+1.32""#, with: #"change: "+1.40""#)
      .write(to: document, atomically: true, encoding: .utf8)
    let lint = try await CommandRunner.run(["lint", document.path, "--baseline", baseline.path], environment: ["CI": ""])
    #expect(lint.status == 0, "\(lint.stdout)\(lint.stderr)")
    #expect(lint.stdout.contains("0 new, 0 fixed"), "\(lint.stdout)")
  }

  @Test func checkFailsACaseOnlyForNewFindings() async throws {
    let folder = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let cases = folder.appendingPathComponent("cases")
    try FileManager.default.createDirectory(at: cases, withIntermediateDirectories: true)
    let document = cases.appendingPathComponent("gray.yaml")
    try (Self.gray + "variants: { appearance: [light] }\nitems:\n" + Self.grayRow).write(to: document, atomically: true, encoding: .utf8)
    let refs = folder.appendingPathComponent("refs")
    let record = try await CommandRunner.run(["check", cases.path, "--snapshots", refs.path, "--record", "all"], environment: ["CI": ""])
    #expect(record.status == 1, "\(record.stdout)\(record.stderr)")
    let baseline = folder.appendingPathComponent("lint-baseline.json")
    try """
      { "version": 1, "findings": [ { "document": "gray", "variant": "light", "type": "subtext", "title": "Body",
        "occurrence": 1, "element": "caption", "rule": "contrast", "message": "accepted" },
        { "document": "gray", "variant": "light", "type": "text", "title": "Gone", "occurrence": 1, "rule": "tapTarget",
        "message": "accepted" } ] }
      """.write(to: baseline, atomically: true, encoding: .utf8)
    let withoutBaseline = try await CommandRunner.run(["check", cases.path, "--snapshots", refs.path, "--lint"], environment: ["CI": "true"])
    #expect(withoutBaseline.status == 1, "\(withoutBaseline.stdout)")
    let known = try await CommandRunner.run(
      ["check", cases.path, "--snapshots", refs.path, "--lint", "--baseline", baseline.path], environment: ["CI": "true"])
    #expect(known.status == 0, "\(known.stdout)\(known.stderr)")
    #expect(known.stderr.contains("warning: fixed lint finding, still in the baseline: gray@light: text \"Gone\" tapTarget"), "\(known.stderr)")
    // A second gray row is new: the case fails, naming it.
    try (Self.gray + "variants: { appearance: [light] }\nitems:\n" + Self.grayRow + "  - { type: subtext, text: Tail, caption: C }\n")
      .write(to: document, atomically: true, encoding: .utf8)
    let new = try await CommandRunner.run(
      ["check", cases.path, "--snapshots", refs.path, "--lint", "--baseline", baseline.path], environment: ["CI": "true"])
    #expect(new.status == 1, "\(new.stdout)\(new.stderr)")
    #expect(new.stdout.contains("new: gray@light: subtext \"Tail\" [caption] contrast"), "\(new.stdout)")
    let withoutLint = try await CommandRunner.run(
      ["check", cases.path, "--snapshots", refs.path, "--baseline", baseline.path], environment: ["CI": "true"])
    #expect(withoutLint.status == 2)
    #expect(withoutLint.stderr.contains("--baseline goes with --lint"), "\(withoutLint.stderr)")
  }

  /// The documented workflow: `rowkit lint` writes the baseline, `rowkit check --lint` reads
  /// it. Both name a document by its path from the working folder (`./cases/…` too), so the
  /// findings lint accepted pass in check; a baseline naming the case (written by hand
  /// before) still matches, as `checkFailsACaseOnlyForNewFindings` shows.
  @Test func aBaselineLintWroteServesCheck() async throws {
    let folder = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let cases = folder.appendingPathComponent("cases")
    try FileManager.default.createDirectory(at: cases, withIntermediateDirectories: true)
    try (Self.gray + "variants: { appearance: [light] }\nitems:\n" + Self.grayRow)
      .write(to: cases.appendingPathComponent("gray.yaml"), atomically: true, encoding: .utf8)
    let written = try await CommandRunner.run(
      ["lint", "./cases/gray.yaml", "--baseline", "lint-baseline.json", "--update-baseline"], in: folder, environment: ["CI": ""])
    #expect(written.status == 0, "\(written.stdout)\(written.stderr)")
    let baseline = try String(contentsOf: folder.appendingPathComponent("lint-baseline.json"), encoding: .utf8)
    #expect(baseline.contains(#""document" : "cases/gray.yaml""#), "\(baseline)")
    let record = try await CommandRunner.run(["check", "cases", "--snapshots", "refs", "--record", "all"], in: folder, environment: ["CI": ""])
    #expect(record.status == 1, "\(record.stdout)\(record.stderr)")
    let checked = try await CommandRunner.run(
      ["check", "cases", "--snapshots", "refs", "--lint", "--baseline", "lint-baseline.json"], in: folder, environment: ["CI": "true"])
    #expect(checked.status == 0, "\(checked.stdout)\(checked.stderr)")
    let relinted = try await CommandRunner.run(["lint", "cases/gray.yaml", "--baseline", "lint-baseline.json"], in: folder)
    #expect(relinted.status == 0, "\(relinted.stdout)\(relinted.stderr)")
  }
}
