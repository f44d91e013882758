import Foundation
import RowKitGraphics
import RowKitTestSupport
import Testing

/// `rowkit diff` on crafted images: every exit status and every tolerance flag.
@Suite struct DiffCommandTests {
  let folder: URL
  let base: URL

  init() throws {
    folder = try TestSupport.temporaryDirectory()
    base = folder.appendingPathComponent("base.png")
    try save(CraftedImages.card(), "base.png")
  }

  @discardableResult
  func save(_ bitmap: Bitmap, _ name: String) throws -> String {
    let url = folder.appendingPathComponent(name)
    try Data(PNG.encode(bitmap)).write(to: url)
    return url.path
  }

  func diff(_ other: String, _ flags: [String] = []) async throws -> CommandRunner.Result {
    try await CommandRunner.run(["diff", base.path, other] + flags)
  }

  @Test func identicalImagesExitZero() async throws {
    let result = try await diff(base.path)
    #expect(result.status == 0)
    #expect(result.stdout == "identical (64×48, 3072 pixels)\n")
  }

  @Test func onePixelChangedExitsOneUnlessAllowed() async throws {
    let image = try CraftedImages.card()
    let changed = try save(CraftedImages.painting(image, [(5, 5)], .black), "one.png")
    let strict = try await diff(changed)
    #expect(strict.status == 1)
    #expect(strict.stdout.hasPrefix("1 of 3072 pixels differ (0.0326%), 0 allowed; largest cluster 1 pixels at x 5–5, y 5–5"))
    #expect(try await diff(changed, ["--max-diff-pixels", "1"]).status == 0)
    #expect(try await diff(changed, ["--max-diff-ratio", "0.001"]).status == 0)
    #expect(try await diff(changed, ["--max-diff-ratio", "0.0001"]).status == 1)
    #expect(try await diff(changed, ["--ignore", "4,4,2,2"]).status == 0)
  }

  @Test func aBlockFailsTheClusterLimitWhileTheCountPasses() async throws {
    let image = try CraftedImages.card()
    let block = try save(CraftedImages.block(image, x: 10, y: 36, width: 5, height: 5, .black), "block.png")
    #expect(try await diff(block, ["--max-diff-pixels", "100"]).status == 0)
    let clustered = try await diff(block, ["--max-diff-pixels", "100", "--max-cluster-pixels", "10"])
    #expect(clustered.status == 1)
    #expect(clustered.stdout.contains("largest cluster 25 pixels at x 10–14, y 36–40 (limit 10)"))
  }

  @Test func antialiasingAndThresholdFlags() async throws {
    let shifted = try save(CraftedImages.card(shift: 0.3), "shifted.png")
    #expect(try await diff(shifted).status == 1)
    let ignored = try await diff(shifted, ["--ignore-antialiasing"])
    #expect(ignored.status == 0)
    #expect(ignored.stdout.contains("antialiasing pixels ignored"))
    let image = try CraftedImages.card()
    let faint = try save(CraftedImages.painting(image, [(1, 1)], Color(r: 252, g: 252, b: 252)), "faint.png")
    #expect(try await diff(faint).status == 1)
    #expect(try await diff(faint, ["--threshold", "0.1"]).status == 0)
  }

  @Test func aSizeChangeIsADifferenceWithBothSizes() async throws {
    let bigger = try save(CraftedImages.card(width: 70, height: 40), "bigger.png")
    let result = try await diff(bigger, ["--max-diff-pixels", "1000000"])
    #expect(result.status == 1)
    #expect(result.stdout == "sizes differ: reference 64×48, actual 70×40\n")
  }

  @Test func unreadableInputExitsTwo() async throws {
    let text = folder.appendingPathComponent("notes.png")
    try Data("not a png".utf8).write(to: text)
    let notPNG = try await diff(text.path)
    #expect(notPNG.status == 2)
    #expect(notPNG.stderr.contains("notes.png: not a PNG file"))
    #expect(try await diff(folder.appendingPathComponent("missing.png").path).status == 2)
    var truncated = try PNG.encode(CraftedImages.card())
    truncated.removeLast(truncated.count / 2)
    #expect(try await diff(save(Bitmap(width: 1, height: 1, color: .white), "x.png")).status == 1)
    try Data(truncated).write(to: folder.appendingPathComponent("truncated.png"))
    #expect(try await diff(folder.appendingPathComponent("truncated.png").path).status == 2)
    #expect(try await diff(base.path, ["--threshold", "3"]).status == 2)
    #expect(try await diff(base.path, ["--ignore", "1,2,3"]).status == 2)
  }

  @Test func writesTheDiffCompositeAndJSON() async throws {
    let image = try CraftedImages.card()
    let changed = try save(CraftedImages.block(image, x: 0, y: 0, width: 3, height: 3, .black), "changed.png")
    let diffURL = folder.appendingPathComponent("diff.png")
    let compositeURL = folder.appendingPathComponent("composite.png")
    let result = try await diff(changed, ["-o", diffURL.path, "--composite", compositeURL.path, "--json"])
    #expect(result.status == 1)
    let json = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as! [String: Any]
    #expect(json["differentPixels"] as? Int == 9)
    #expect(json["status"] as? String == "different")
    let diffImage = try PNG.decode(contentsOf: diffURL)
    #expect(diffImage.color(x: 1, y: 1) == Color(r: 255, g: 0, b: 0))
    #expect(try PNG.decode(contentsOf: compositeURL).width == 64 * 3 + 16)
  }
}

/// `rowkit check`: record modes, CI, sharding, reports and the environment guard.
@Suite struct CheckCommandTests {
  /// A folder of three small table documents plus a stylesheet that is not a case.
  func documents() throws -> URL {
    let folder = try TestSupport.temporaryDirectory()
    let tables = folder.appendingPathComponent("tables")
    try FileManager.default.createDirectory(at: tables.appendingPathComponent("nested"), withIntermediateDirectories: true)
    try Data("items:\n  - { type: text, text: One }\n".utf8).write(to: tables.appendingPathComponent("one.yaml"))
    try Data("items:\n  - { type: subtitle, text: Two, subtitle: Sub }\n".utf8).write(to: tables.appendingPathComponent("two.yaml"))
    try Data(#"{"items": [{"type": "caption", "text": "Three", "caption": "3"}]}"#.utf8)
      .write(to: tables.appendingPathComponent("nested/three.json"))
    try Data("vars: { textColor: \"#FF0000\" }\n".utf8).write(to: tables.appendingPathComponent("theme.yaml"))
    return folder
  }

  func check(_ folder: URL, _ flags: [String] = [], ci: Bool = false) async throws -> CommandRunner.Result {
    try await CommandRunner.run(
      ["check", "tables", "--snapshots", "refs"] + flags, in: folder,
      environment: ["CI": ci ? "true" : "", "ROWKIT_RECORD": ""])
  }

  @Test func underCIAMissingReferenceFailsAndNothingIsWritten() async throws {
    let folder = try documents()
    let result = try await check(folder, ["--record", "all"], ci: true)
    #expect(result.status == 1)
    #expect(result.stdout.contains("3 cases: 0 passed, 0 failed, 0 new, 3 missing, 0 errors"))
    #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("refs").path))
  }

  @Test func recordsMissingReferencesThenPasses() async throws {
    let folder = try documents()
    let first = try await check(folder)
    #expect(first.status == 1)
    #expect(first.stdout.contains("3 cases: 0 passed, 0 failed, 3 new"))
    for path in ["refs/one.png", "refs/two.png", "refs/nested/three.png", "refs/environment.json"] {
      #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent(path).path), "\(path)")
    }
    #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("refs/theme.png").path))
    let second = try await check(folder, ci: true)
    #expect(second.status == 0, "\(second.stdout)")
    #expect(second.stdout.contains("3 cases: 3 passed"))
  }

  @Test func aChangedDocumentFailsWithAReport() async throws {
    let folder = try documents()
    _ = try await check(folder)
    try Data("items:\n  - { type: text, text: Changed }\n".utf8).write(to: folder.appendingPathComponent("tables/one.yaml"))
    let result = try await check(folder, ["--report", "report"], ci: true)
    #expect(result.status == 1)
    #expect(result.stdout.contains("FAILED one:"))
    let report = try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent("report/report.json"))) as! [String: Any]
    let summary = report["summary"] as! [String: Int]
    #expect(summary == ["total": 3, "passed": 2, "failed": 1, "new": 0, "missing": 0, "errors": 0])
    let cases = report["cases"] as! [[String: Any]]
    let failed = try #require(cases.first { $0["status"] as? String == "failed" })
    for key in ["reference", "actual", "diff", "composite"] {
      let path = try #require(failed[key] as? String, "\(key)")
      #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("report").appendingPathComponent(path).path))
    }
    let passed = try #require(cases.first { $0["status"] as? String == "passed" })
    #expect(passed["reference"] is String)
    #expect((failed["result"] as? [String: Any])?["differentPixels"] as? Int ?? 0 > 0)
  }

  @Test func shardsSplitTheSuiteWithoutOverlap() async throws {
    let folder = try documents()
    _ = try await check(folder)
    var names: [String] = []
    for shard in ["1/2", "2/2"] {
      let result = try await check(folder, ["--shard", shard], ci: true)
      #expect(result.status == 0)
      names += result.stdout.split(separator: "\n").filter { $0.hasPrefix("PASSED") }.map(String.init)
    }
    #expect(names.sorted() == ["PASSED nested/three", "PASSED one", "PASSED two"])
    #expect(try await check(folder, ["--shard", "3/2"]).status == 2)
  }

  @Test func anotherEnvironmentGivesOneMessage() async throws {
    let folder = try documents()
    _ = try await check(folder)
    let url = folder.appendingPathComponent("refs/environment.json")
    var json = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as! [String: Any]
    var libraries = json["libraries"] as! [String: String]
    libraries["cairo"] = "1.18.0"
    json["libraries"] = libraries
    try JSONSerialization.data(withJSONObject: json).write(to: url)
    let result = try await check(folder, ci: true)
    #expect(result.status == 1)
    #expect(result.stderr.split(separator: "\n").count == 1)
    #expect(result.stderr.contains("recorded in another environment (cairo 1.18.0 → "))
    #expect(!result.stdout.contains("FAILED"))
  }

  @Test func anUnknownRecordModeInTheEnvironmentIsRefused() async throws {
    let folder = try documents()
    let result = try await CommandRunner.run(
      ["check", "tables", "--snapshots", "refs"], in: folder, environment: ["CI": "", "ROWKIT_RECORD": "bogus"])
    #expect(result.status == 2)
    #expect(result.stderr.contains("ROWKIT_RECORD=bogus is not a record mode"), "\(result.stderr)")
    #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("refs").path), "a typo started recording")
  }

  @Test func aBadDocumentExitsTwo() async throws {
    let folder = try documents()
    _ = try await check(folder)
    try Data("items:\n  - { type: txt, text: Bad }\n".utf8).write(to: folder.appendingPathComponent("tables/one.yaml"))
    let result = try await check(folder, ci: true)
    #expect(result.status == 2)
    #expect(result.stdout.contains("ERROR") && result.stdout.contains("one.yaml:2:"))
    let errors = result.stderr.split(separator: "\n")
    #expect(errors.count == 1 && errors[0].contains("one.yaml:2:") && errors[0].contains("unknown item type"), "\(result.stderr)")
  }
}
