import Foundation
import RowKitGraphics
import RowKitTestSupport
import Testing

/// The review workflow in CI, through the built `rowkit` binary: orphaned references,
/// accepting changes from a report, JUnit and Markdown summaries, compact review pages,
/// design previews as cases, and `check`'s edge cases. Merged shards are in ReviewTests
/// (their page is opened in Chromium). Serialized: each test runs `rowkit` several times,
/// and seven of them at once would crowd a 2-core machine's other tests.
@Suite(.serialized) struct ReviewWorkflowTests {
  /// A folder with `tables/` of `count` small documents (`case-0.yaml`, …).
  func suite(_ count: Int = 3) throws -> URL {
    let folder = try TestSupport.temporaryDirectory()
    let tables = folder.appendingPathComponent("tables")
    try FileManager.default.createDirectory(at: tables, withIntermediateDirectories: true)
    for index in 0..<count {
      try Data("items:\n  - { type: subtitle, text: Case \(index), subtitle: Sub \(index) }\n".utf8)
        .write(to: tables.appendingPathComponent("case-\(index).yaml"))
    }
    return folder
  }

  func change(_ folder: URL, _ index: Int) throws {
    try Data("items:\n  - { type: subtitle, text: Case \(index) changed, subtitle: Sub }\n".utf8)
      .write(to: folder.appendingPathComponent("tables/case-\(index).yaml"))
  }

  /// `rowkit check tables --snapshots refs`; failure images of runs without `--report` go
  /// to the test's folder unless `ownArtifacts` asks for the default folder.
  func check(_ folder: URL, _ flags: [String] = [], ci: Bool = false, ownArtifacts: Bool = false) async throws -> CommandRunner.Result {
    var environment = ["CI": ci ? "true" : "", "ROWKIT_RECORD": ""]
    if !ownArtifacts { environment["ROWKIT_SNAPSHOT_ARTIFACTS"] = folder.appendingPathComponent("artifacts").path }
    return try await CommandRunner.run(["check", "tables", "--snapshots", "refs"] + flags, in: folder, environment: environment)
  }

  func run(_ arguments: [String], in folder: URL, ci: Bool = false) async throws -> CommandRunner.Result {
    try await CommandRunner.run(arguments, in: folder, environment: ["CI": ci ? "true" : "", "ROWKIT_RECORD": ""])
  }

  func json(_ url: URL) throws -> [String: Any] {
    try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as! [String: Any]
  }

  /// Every file under `folder` with its bytes, to show that nothing changed.
  func contents(_ folder: URL) -> [String: Data] {
    let paths = FileManager.default.enumerator(atPath: folder.path)?.allObjects as? [String] ?? []
    return Dictionary(uniqueKeysWithValues: paths.compactMap { path in
      FileManager.default.contents(atPath: folder.appendingPathComponent(path).path).map { (path, $0) }
    })
  }

  @Test func orphanedReferencesAreListedCountedAndFailOnlyWhenAsked() async throws {
    let folder = try suite()
    defer { try? FileManager.default.removeItem(at: folder) }
    _ = try await check(folder)
    // A deleted document leaves its reference behind.
    try FileManager.default.removeItem(at: folder.appendingPathComponent("tables/case-2.yaml"))
    let orphan = folder.appendingPathComponent("refs/case-2.png").standardizedFileURL.path
    let listed = try await check(folder, ["--report", "report"], ci: true)
    #expect(listed.status == 0, "orphans alone do not fail: \(listed.stdout)")
    #expect(listed.stdout.contains("ORPHAN \(orphan): no case checks it"), "\(listed.stdout)")
    // Nothing changed since the references were recorded: both pass from the render cache.
    #expect(listed.stdout.contains("2 cases: 2 passed (2 cached), 0 failed, 0 new, 0 missing, 0 errors, 1 orphaned reference"))
    let report = try json(folder.appendingPathComponent("report/report.json"))
    #expect(report["orphans"] as? [String] == ["case-2.png"])
    #expect((report["summary"] as? [String: Int])?["orphans"] == 1)
    let page = try String(contentsOf: folder.appendingPathComponent("report/index.html"), encoding: .utf8)
    #expect(page.contains(#"data-orphans="1""#) && page.contains(#"<li data-orphan="case-2.png">"#))

    #expect(try await check(folder, ["--fail-on-orphans"], ci: true).status == 1)
    // Each shard knows the whole suite: a reference of another shard's case is no orphan.
    let shard = try await check(folder, ["--shard", "1/2"], ci: true)
    #expect(shard.stdout.components(separatedBy: "ORPHAN").count == 2, "only case-2: \(shard.stdout)")

    let refused = try await check(folder, ["--prune"], ci: true)
    #expect(refused.status == 2 && refused.stderr.contains("--prune") && refused.stderr.contains("CI"), "\(refused.stderr)")
    #expect(FileManager.default.fileExists(atPath: orphan), "nothing deleted under CI")
    let pruned = try await check(folder, ["--prune"])
    #expect(pruned.status == 0 && pruned.stdout.contains("PRUNED \(orphan)"), "\(pruned.stdout)")
    #expect(!FileManager.default.fileExists(atPath: orphan))
    #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("refs/case-2.inputs.json").path), "its inputs go with it")
    #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("refs/case-1.png").path))
    #expect(try await check(folder, ["--fail-on-orphans"], ci: true).status == 0)
  }

  @Test func acceptingTwoFailedCasesMakesTheNextCheckPassAndIsRefusedUnderCI() async throws {
    let folder = try suite(4)
    defer { try? FileManager.default.removeItem(at: folder) }
    _ = try await check(folder)
    try change(folder, 1)
    try change(folder, 3)
    let failing = try await check(folder, ["--report", "report"], ci: true)
    #expect(failing.status == 1 && failing.stdout.contains("4 cases: 2 passed (2 cached), 2 failed"), "\(failing.stdout)")
    // The review page shows each failed case's command, with a copy button.
    let page = try String(contentsOf: folder.appendingPathComponent("report/index.html"), encoding: .utf8)
    for name in ["case-1", "case-3"] {
      #expect(page.contains(#"<code class="command">rowkit accept report -- \#(name)</code> <button class="copy" type="button" data-command="rowkit accept report -- \#(name)">"#))
    }
    #expect(!page.contains("rowkit accept report -- case-0"), "a passed case has nothing to accept")

    let before = contents(folder.appendingPathComponent("refs"))
    let underCI = try await run(["accept", "report", "--", "case-1", "case-3"], in: folder, ci: true)
    #expect(underCI.status == 2 && underCI.stderr.contains("CI is set"), "\(underCI.stderr)")
    let unknown = try await run(["accept", "report", "--", "case-1", "nope"], in: folder)
    #expect(unknown.status == 2 && unknown.stderr.contains("report.json: no case named 'nope'"), "\(unknown.stderr)")
    let passed = try await run(["accept", "report", "--", "case-1", "case-0"], in: folder)
    #expect(passed.status == 2 && passed.stderr.contains("case 'case-0' passed"), "\(passed.stderr)")
    #expect(contents(folder.appendingPathComponent("refs")) == before, "a refused accept writes nothing")

    let accepted = try await run(["accept", "report", "--", "case-1", "case-3"], in: folder)
    #expect(accepted.status == 0 && accepted.stdout.contains("2 references accepted"), "\(accepted.stderr)")
    let reference = try PNG.decode(contentsOf: folder.appendingPathComponent("refs/case-1.png"))
    #expect(reference == (try PNG.decode(contentsOf: folder.appendingPathComponent("report/cases/case-1/actual.png"))))
    // The render cache's proof of the replaced image goes with it: the accepted cases render.
    #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("refs/case-1.inputs.json").path))
    #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("refs/case-0.inputs.json").path))
    let next = try await check(folder, ci: true)
    #expect(next.status == 0 && next.stdout.contains("4 cases: 4 passed (2 cached)"), "\(next.stdout)")
    // A check that may write (not under CI) keeps the new proofs; then all four are cached.
    _ = try await check(folder)
    let cached = try await check(folder, ci: true)
    #expect(cached.stdout.contains("4 cases: 4 passed (4 cached)"), "\(cached.stdout)")
    let files = (FileManager.default.enumerator(atPath: folder.appendingPathComponent("refs").path)?.allObjects as? [String]) ?? []
    #expect(!files.contains { $0.hasSuffix(".tmp") }, "no temporary file left: \(files)")
  }

  @Test func acceptAllRefusesImagesOfAnotherEnvironment() async throws {
    let folder = try suite(2)
    defer { try? FileManager.default.removeItem(at: folder) }
    _ = try await check(folder)
    try change(folder, 0)
    _ = try await check(folder, ["--report", "report"], ci: true)
    // The references were recorded elsewhere since: the report's images do not belong.
    let url = folder.appendingPathComponent("refs/environment.json")
    var fingerprint = try json(url)
    var libraries = fingerprint["libraries"] as! [String: String]
    libraries["pango"] = "0.0.1"
    fingerprint["libraries"] = libraries
    try JSONSerialization.data(withJSONObject: fingerprint).write(to: url)
    let before = contents(folder.appendingPathComponent("refs"))
    let refused = try await run(["accept", "report", "--all"], in: folder)
    #expect(refused.status == 2 && refused.stderr.contains("another environment") && refused.stderr.contains("pango 0.0.1"), "\(refused.stderr)")
    #expect(contents(folder.appendingPathComponent("refs")) == before)
  }

  @Test func junitValidatesAgainstTheSchemaAndTheSummaryListsTheFailure() async throws {
    let folder = try suite(3)
    defer { try? FileManager.default.removeItem(at: folder) }
    _ = try await check(folder)
    try change(folder, 1)
    try FileManager.default.copyItem(
      at: folder.appendingPathComponent("refs/case-0.png"), to: folder.appendingPathComponent("refs/gone.png"))
    let result = try await check(
      folder, ["--report", "report", "--junit", "out/junit.xml", "--summary", "out/summary.md", "--fail-on-orphans"], ci: true)
    #expect(result.status == 1)
    let xml = try String(contentsOf: folder.appendingPathComponent("out/junit.xml"), encoding: .utf8)
    #expect(xml.contains(#"<testsuites name="rowkit check" tests="4" failures="2" errors="0">"#), "\(xml)")
    #expect(xml.contains(#"<testcase name="case-0" classname="rowkit.check"/>"#))
    #expect(xml.contains(#"<testcase name="orphan gone.png" classname="rowkit.check.orphans">"#))
    #expect(xml.contains("actual: report/cases/case-1/actual.png") && xml.contains("accept: rowkit accept report -- case-1"))
    #expect(xml.range(of: #"differing pixels: \d+ of \d+"#, options: .regularExpression) != nil)

    // A bad document is an <error>.
    try Data("items:\n  - { type: txt }\n".utf8).write(to: folder.appendingPathComponent("tables/bad.yaml"))
    let bad = try await check(folder, ["--junit", "out/errors.xml"], ci: true)
    #expect(bad.status == 2)
    let errors = try String(contentsOf: folder.appendingPathComponent("out/errors.xml"), encoding: .utf8)
    #expect(errors.contains(#"<error message=""#) && errors.contains("bad.yaml:2:"), "\(errors)")

    // Both validate against the JUnit schema CI systems read, with xmlschema from PyPI.
    let python = TestSupport.repositoryRoot.appendingPathComponent(".venv/bin/python")
    try #require(FileManager.default.isExecutableFile(atPath: python.path), "bash scripts/setup.sh --tests makes .venv")
    let validation = try await CommandRunner.runProgram(
      python, [TestSupport.repositoryRoot.appendingPathComponent("scripts/check-junit.py").path, "out/junit.xml", "out/errors.xml"],
      in: folder)
    #expect(validation.status == 0, "\(validation.stdout)\(validation.stderr)")
    #expect(validation.stdout == "valid out/junit.xml\nvalid out/errors.xml\n")
    // And the validator does refuse what the schema forbids.
    try Data(xml.replacingOccurrences(of: #"<testcase name="case-0""#, with: #"<testcase title="case-0""#).utf8)
      .write(to: folder.appendingPathComponent("out/broken.xml"))
    let broken = try await CommandRunner.runProgram(
      python, [TestSupport.repositoryRoot.appendingPathComponent("scripts/check-junit.py").path, "out/broken.xml"], in: folder)
    #expect(broken.status == 1 && broken.stdout.contains("missing required attribute 'name'"), "\(broken.stdout)")

    // report.json is what its JSON Schema says.
    let schemaCheck = try await CommandRunner.runProgram(python, [
      "-c",
      "import json, sys, jsonschema; jsonschema.Draft202012Validator(json.load(open(sys.argv[1]))).validate(json.load(open(sys.argv[2]))); print('valid')",
      TestSupport.repositoryRoot.appendingPathComponent("Schemas/check-report.schema.json").path, "report/report.json",
    ], in: folder)
    #expect(schemaCheck.stdout == "valid\n", "\(schemaCheck.stderr)")

    let summary = try String(contentsOf: folder.appendingPathComponent("out/summary.md"), encoding: .utf8)
    #expect(summary.hasPrefix("## RowKit snapshots: 1 of 3 to review\n"), "\(summary)")
    #expect(summary.contains("| 3 | 2 | 1 | 0 | 0 | 0 | 1 |"))
    #expect(summary.contains("- **`case-1`** (failed): ") && summary.contains("diff `report/cases/case-1/diff.png`"))
    #expect(summary.contains("accept: `rowkit accept report -- case-1`") && summary.contains("- `gone.png`"))
    #expect(summary.split(separator: "\n").count < 25, "short enough for a step summary")
  }

  @Test func aCompactReportShowsOnlyWhatToReview() async throws {
    let folder = try suite(3)
    defer { try? FileManager.default.removeItem(at: folder) }
    _ = try await check(folder)
    try change(folder, 2)
    let result = try await check(folder, ["--report", "report", "--report-only-failures"], ci: true)
    #expect(result.status == 1)
    let page = try String(contentsOf: folder.appendingPathComponent("report/index.html"), encoding: .utf8)
    #expect(page.contains(#"data-name="case-2" data-status="failed""#))
    #expect(!page.contains(#"data-name="case-0""#) && page.contains("2 passed cases are not shown"))
    #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("report/cases/case-0").path))
    let report = try json(folder.appendingPathComponent("report/report.json"))
    #expect((report["cases"] as? [Any])?.count == 3, "report.json keeps every case")
    #expect(try await check(folder, ["--report-only-failures"]).status == 2, "it goes with --report")
  }

  @Test func designPreviewsAreCheckedAsCases() async throws {
    let folder = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let flags = [
      "check", "--designs", TestSupport.assets.appendingPathComponent("Designs").path,
      "--stylesheet", TestSupport.assets.appendingPathComponent("Designs/styles.yaml").path,
      "--assets", TestSupport.assets.path, "--snapshots", "refs",
      // person's second preview shows a missing photo's default on purpose.
      "--lint-off", "imageFailed",
    ]
    let first = try await run(flags, in: folder)
    #expect(first.status == 1, "\(first.stderr)")
    #expect(first.stdout.contains("NEW person/preview-1:") && first.stdout.contains("NEW person/preview-1-selected:"), "\(first.stdout)")
    #expect(first.stdout.contains("16 cases: 0 passed, 0 failed, 16 new"), "\(first.stdout)")
    let normal = try PNG.decode(contentsOf: folder.appendingPathComponent("refs/person/preview-1.png"))
    let selected = try PNG.decode(contentsOf: folder.appendingPathComponent("refs/person/preview-1-selected.png"))
    #expect(normal.width == 750 && normal.height == selected.height && normal != selected)
    let second = try await run(flags, in: folder, ci: true)
    #expect(second.status == 0 && second.stdout.contains("16 cases: 16 passed"), "\(second.stdout)")
  }

  @Test func checksEdgeCasesAsANewcomerMeetsThem() async throws {
    let folder = try suite(1)
    defer { try? FileManager.default.removeItem(at: folder) }
    // An empty folder fails, unless allowed.
    try FileManager.default.createDirectory(at: folder.appendingPathComponent("empty"), withIntermediateDirectories: true)
    let empty = try await run(["check", "empty", "--snapshots", "refs"], in: folder)
    #expect(empty.status == 1 && empty.stderr.contains("empty: no table documents to check; pass --allow-empty"), "\(empty.stderr)")
    let allowed = try await run(["check", "empty", "--snapshots", "refs", "--allow-empty"], in: folder)
    #expect(allowed.status == 0 && allowed.stdout.contains("0 cases"))

    // A manifest written beside the documents is not a document.
    let render = try await run(
      ["render", "tables/case-0.yaml", "-o", "case-0.png", "--manifest", "tables/case-0.manifest.json"], in: folder)
    #expect(render.status == 0, "\(render.stderr)")
    let recorded = try await check(folder)
    #expect(recorded.stdout.contains("1 case: 0 passed, 0 failed, 1 new"), "\(recorded.stdout)")

    // Under CI an explicit record mode is overridden, and that is said.
    let ci = try await check(folder, ["--record", "all"], ci: true)
    #expect(ci.status == 0 && ci.stderr.contains("CI is set, so references are never recorded: --record all is ignored"), "\(ci.stderr)")

    // Without --report, failure images go to a folder of these references' own.
    try change(folder, 0)
    let failed = try await check(folder, ci: true, ownArtifacts: true)
    #expect(failed.status == 1)
    let line = try #require(failed.stdout.split(separator: "\n").last)
    let marker = "; failure images in "
    let artifacts = try #require(line.range(of: marker)).upperBound
    let path = String(line[artifacts...])
    defer { try? FileManager.default.removeItem(atPath: path) }
    #expect(path.contains("rowkit-snapshot-artifacts/refs-") && FileManager.default.fileExists(atPath: path + "/case-0/actual.png"), "\(line)")
  }
}
