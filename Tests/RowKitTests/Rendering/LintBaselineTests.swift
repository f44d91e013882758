import Foundation
import RowKit
import RowKitGraphics
import RowKitTestSupport
import Testing

/// The lint baseline: findings matched by document, variant, row (type, title, occurrence),
/// element and rule, never by line or row number; its file deterministic and checked.
@Suite struct LintBaselineTests {
  static let gray = "stylesheet: { vars: { tableSubTextColor: \"#999999\" } }\n"

  /// The reports of `yaml` linted as `table.yaml`.
  func reports(_ yaml: String) async throws -> [LintReport] {
    let folder = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let url = folder.appendingPathComponent("table.yaml")
    try yaml.write(to: url, atomically: true, encoding: .utf8)
    let document = try TableDocument.load(url, fontFamilies: try TextEnvironment.standard.fontSet().families)
    return try await document.lint(with: document.makeRenderer(), name: "table.yaml")
  }

  @Test func aRowIsKnownByItsTypeTitleAndOccurrence() async throws {
    let reports = try await reports(
      Self.gray + "items:\n  - { type: text, text: Top }\n  - { type: subtext, text: Body, caption: One }\n"
        + "  - { type: subtext, text: Body, caption: Two }\n")
    let entries = reports.flatMap(\.baselineEntries)
    #expect(entries.map(\.title) == ["Body", "Body"])
    #expect(entries.map(\.occurrence) == [1, 2])
    #expect(entries.map(\.element) == ["caption", "caption"])
    #expect(entries.map(\.rule) == [.contrast, .contrast])
    #expect(entries.allSatisfy { $0.document == "table.yaml" && $0.type == "subtext" && $0.variant == nil })
    // A key–value row is known by its key, not by its value.
    let settings = try await self.reports(
      "variants: { textSize: [AX5] }\nitems:\n  - { type: settings, caption: Storage, text: 12.4 GB, url: \"app://s\" }\n")
    let truncated = settings.flatMap(\.baselineEntries).filter { $0.rule == .truncated }
    #expect(!truncated.isEmpty)
    #expect(truncated.allSatisfy { $0.title == "Storage" && $0.type == "settings" && $0.variant == "AX5" })
  }

  @Test func oldFindingsPassNewOnesFailGoneOnesAreFixed() async throws {
    let old = try await reports(Self.gray + "items:\n  - { type: subtext, text: Body, caption: Caption }\n")
    let baseline = LintBaseline(reports: old)
    #expect(baseline.findings.count == 1)
    // The same finding: known.
    let same = baseline.compare(old)
    #expect(same.known.count == 1 && same.new.isEmpty && same.fixed.isEmpty)
    // A row added above it, and the row itself moved below another: still known.
    let moved = try await reports(
      Self.gray + "items:\n  - { type: text, text: New row }\n  - { type: text, text: Another }\n"
        + "  - { type: subtext, text: Body, caption: Caption }\n")
    let afterMove = baseline.compare(moved)
    #expect(moved.flatMap(\.rows).map(\.row) == [2])
    #expect(afterMove.known.count == 1 && afterMove.new.isEmpty && afterMove.fixed.isEmpty)
    // A second gray row: new.
    let more = try await reports(
      Self.gray + "items:\n  - { type: subtext, text: Body, caption: Caption }\n  - { type: subtext, text: Tail, caption: Caption }\n")
    let withNew = baseline.compare(more)
    #expect(withNew.known.count == 1)
    #expect(withNew.new.map(\.title) == ["Tail"])
    // The gray color fixed: the accepted finding is reported fixed.
    let fixed = try await reports("items:\n  - { type: subtext, text: Body, caption: Caption }\n")
    let afterFix = baseline.compare(fixed)
    #expect(afterFix.known.isEmpty && afterFix.new.isEmpty)
    #expect(afterFix.fixed == baseline.findings)
    // Updating takes the current findings of the tables linted, and keeps others'.
    let other = LintBaseline.Entry(
      document: "other.yaml", variant: "dark", type: "text", title: "X", occurrence: 1, element: nil, rule: .tapTarget,
      message: "short")
    let mixed = LintBaseline(findings: baseline.findings + [other])
    #expect(mixed.compare(fixed).fixed.count == 1)
    #expect(mixed.updated(with: fixed).findings == [other])
    #expect(mixed.updated(with: more).findings.count == 3)
  }

  /// The message (a ratio, a frame) is not matched: a nudged color keeps the finding known.
  @Test func theMessageIsNotMatched() async throws {
    let baseline = LintBaseline(reports: try await reports(Self.gray + "items:\n  - { type: subtext, text: Body, caption: C }\n"))
    let nudged = try await reports(
      "stylesheet: { vars: { tableSubTextColor: \"#9A9A9A\" } }\nitems:\n  - { type: subtext, text: Body, caption: C }\n")
    #expect(nudged.flatMap(\.baselineEntries).map(\.message) != baseline.findings.map(\.message))
    #expect(baseline.compare(nudged).known.count == 1)
  }

  @Test func theFileIsDeterministicAndRoundTrips() throws {
    let entries = [
      LintBaseline.Entry(
        document: "b.yaml", variant: nil, type: "text", title: "B", occurrence: 1, element: "text", rule: .truncated,
        message: "cut"),
      LintBaseline.Entry(
        document: "a.yaml", variant: "dark,AX5", type: "subtitle", title: "A", occurrence: 2, element: nil,
        rule: .tapTarget, message: "short"),
    ]
    let forward = try LintBaseline(findings: entries).bytes()
    #expect(try LintBaseline(findings: entries.reversed()).bytes() == forward)
    let folder = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("baseline.json")
    try Data(forward).write(to: file)
    let loaded = try LintBaseline.load(file.path)
    #expect(loaded.findings.map(\.document) == ["a.yaml", "b.yaml"])
    #expect(try loaded.bytes() == forward)
    let text = String(decoding: forward, as: UTF8.self)
    #expect(text.hasPrefix("{\n  \"findings\" : [\n"))
    #expect(text.hasSuffix("\"version\" : 1\n}\n"))
  }

  @Test(arguments: [
    ("{ \"version\": 1, \"findings\": [", "not JSON"),
    ("[]", "not a lint baseline"),
    ("{ \"version\": 1 }", "findings: not a lint baseline: the key is missing"),
    ("{ \"version\": 1, \"findings\": [{ \"document\": \"a\" }] }", "findings[0].type: not a lint baseline: the key is missing"),
    (
      "{ \"version\": 1, \"findings\": [{ \"document\": \"a\", \"type\": \"t\", \"title\": \"x\", \"occurrence\": 1, \"rule\": \"loud\", \"message\": \"m\" }] }",
      "findings[0].rule: not a lint baseline"
    ),
    (
      "{ \"version\": 1, \"findings\": [{ \"document\": \"a\", \"type\": \"t\", \"title\": \"x\", \"occurrence\": 0, \"rule\": \"contrast\", \"message\": \"m\" }] }",
      "findings[0].occurrence: must be 1 or more"
    ),
    ("{ \"version\": 2, \"findings\": [] }", "version: version 2 is not 1"),
    // Well-formed JSON, but no whole number: not called "not JSON".
    (
      "{ \"version\": 1, \"findings\": [{ \"document\": \"a\", \"type\": \"t\", \"title\": \"x\", \"occurrence\": 1e300, \"rule\": \"contrast\", \"message\": \"m\" }] }",
      "a number in it does not fit its field"
    ),
    ("{ \"version\": 1.5, \"findings\": [] }", "a number in it does not fit its field"),
    // YAML, not JSON: its numbers are not blamed.
    ("{ version: 1, findings: [] }", "not JSON"),
  ])
  func aBadFileIsAnErrorNamingTheFileAndThePlace(text: String, expected: String) throws {
    let folder = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("bad-baseline.json")
    try text.write(to: file, atomically: true, encoding: .utf8)
    let error = #expect(throws: DocumentError.self) { try LintBaseline.load(file.path) }
    let message = error.map { "\($0)" } ?? ""
    #expect(message.hasPrefix(file.path + ": "), "\(message)")
    #expect(message.contains(expected), "\(message)")
  }
}
