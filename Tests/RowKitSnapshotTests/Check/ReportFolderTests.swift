import Foundation
import RowKit
import RowKitGraphics
import RowKitTestSupport
import Testing

@testable import RowKitSnapshot

/// Report folders as untrusted input (issue 24): what the Markdown summary and the review
/// page make of hostile names, messages and paths; where `accept` may write; how a report
/// folder is replaced; and how paths are resolved through links.
@Suite struct ReportFolderTests {
  static let environment = EnvironmentFingerprint.current(.standard)

  func report(_ cases: [SnapshotCheck.CaseResult], snapshots: String = "refs") -> SnapshotCheck.Report {
    var report = SnapshotCheck.Report(run: "run", snapshots: snapshots, recordMode: .never, options: .exact, environment: Self.environment)
    report.cases = cases
    report.summary.total = cases.count
    for item in cases { report.summary.count(item) }
    return report
  }

  /// The Markdown `text` as CommonMark reads its code spans: their contents, and the text
  /// outside them (where a backslash escapes the next character).
  func codeSpans(_ text: String) -> (spans: [String], outside: String) {
    let characters = Array(text)
    var (spans, outside, index) = ([String](), "", 0)
    func run(at start: Int) -> Int {
      var end = start
      while end < characters.count && characters[end] == "`" { end += 1 }
      return end - start
    }
    while index < characters.count {
      if characters[index] == "\\", index + 1 < characters.count {
        outside += String(characters[index...(index + 1)])
        index += 2
        continue
      }
      guard characters[index] == "`" else {
        outside.append(characters[index])
        index += 1
        continue
      }
      let opening = run(at: index)
      var close = index + opening
      while close < characters.count {
        let length = characters[close] == "`" ? run(at: close) : 0
        if length == opening { break }
        close += max(length, 1)
      }
      guard close < characters.count else {
        outside += String(repeating: "`", count: opening)
        index += opening
        continue
      }
      var content = String(characters[(index + opening)..<close])
      if content.hasPrefix(" ") && content.hasSuffix(" ") && content.contains(where: { $0 != " " }) {
        content = String(content.dropFirst().dropLast())
      }
      spans.append(content)
      index = close + opening
    }
    return (spans, outside)
  }

  /// Issue 24, item 4: names and messages from documents are code spans nothing in them can
  /// end, or escaped text; none becomes HTML, emphasis, a link or an image, or breaks a line.
  @Test func theMarkdownSummaryEscapesEveryFieldAndKeepsCodeSpansWhole() {
    let hostile = "<img src=x> **bold** `tick` ``two`` [link](http://x)\nsecond line"
    var report = report([
      SnapshotCheck.CaseResult(name: "<img src=x>", document: "a.yaml", status: .error, message: hostile),
      SnapshotCheck.CaseResult(name: "**bold**", document: "b.yaml", status: .failed, message: hostile, actual: "cases/b/actual.png"),
      SnapshotCheck.CaseResult(name: "a`b``c", document: "c.yaml", status: .new, actual: "cases/c/actual.png"),
      SnapshotCheck.CaseResult(name: "[link](http://x)", document: "d.yaml", status: .missing, actual: "cases/d/actual.png"),
      SnapshotCheck.CaseResult(name: "`", document: "e.yaml", status: .missing),
    ])
    report.orphans = ["<b>orphan</b>.png"]
    report.environmentMismatch = "the references in " + hostile
    let markdown = CISummaries.markdown(report, reportPath: "report")
    let (spans, outside) = codeSpans(markdown)
    for name in ["<img src=x>", "**bold**", "a`b``c", "[link](http://x)", "`", "<b>orphan</b>.png"] {
      #expect(spans.contains(name), "\(name) is one whole code span: \(spans)")
    }
    #expect(spans.contains(hostile.replacingOccurrences(of: "\n", with: " ")), "a message is one code span on one line")
    #expect(spans.contains("rowkit accept report -- 'a`b``c'"))
    // Outside the code spans, the mismatch message is escaped text.
    #expect(outside.contains(#"&lt;img src=x&gt; \*\*bold\*\* \`tick\` \`\`two\`\` \[link\]\(http://x\) second line"#), "\(outside)")
    #expect(!outside.contains("<") && !outside.contains("](") && !outside.contains("**bold**"))
    let lines = markdown.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(lines.filter { $0.hasPrefix("- **") }.count == 5, "one line per case: \(markdown)")
    #expect(!lines.contains { $0.hasPrefix("second line") })
    #expect(CISummaries.codeSpan("`a`") == "`` `a` ``" && CISummaries.codeSpan("x ``` y") == "````x ``` y````")
  }

  /// A case recorded again over its failing reference (`ROWKIT_RECORD=failed`) is new, but
  /// had a reference: the JUnit file and the summary say the recording, and the message why.
  /// Why a failure has no sentences (a record that cannot be read, references with none) is
  /// said wherever the failure is read: JUnit, the summary and the review page.
  @Test func whatACaseNeedsToBeReadIsInEveryOutput() {
    var recordedAgain = SnapshotCheck.CaseResult(name: "list", document: "docs/list.yaml", status: .new)
    recordedAgain.message = "list: 295 of 66000 pixels differ: recorded refs/list.png; look at it, then run again"
    var unexplained = SnapshotCheck.CaseResult(name: "feed", document: "docs/feed.yaml", status: .failed)
    unexplained.warnings = ["refs/feed.layout.json is not a RowKit layout record: not JSON; what changed cannot be told"]
    var report = report([recordedAgain, unexplained])
    report.referencesWithoutLayoutRecord = 2
    let outputs = [
      CISummaries.junit(report, reportPath: "report"), CISummaries.markdown(report, reportPath: "report"),
      ReviewReport.html(for: report, reportPath: "report"),
    ]
    for text in outputs {
      #expect(text.contains("295 of 66000 pixels differ"), "\(text)")
      #expect(text.contains("is not a RowKit layout record: not JSON"), "\(text)")
      #expect(text.contains("2 references have no layout record, so failures cannot say what changed"), "\(text)")
    }
    for text in outputs.prefix(2) {
      #expect(!text.contains("no reference"), "\(text)")
      #expect(text.contains("new: the actual image was recorded as the reference"), "\(text)")
    }
  }

  /// Issue 24, item 2: a merged or shard report.json may name any address; the review page
  /// shows only images inside the report folder, and reading such a report is refused.
  @Test func theReviewPageShowsOnlyImagesInsideTheReport() throws {
    let outside = ["http://127.0.0.1:9/r.png", "//example.com/a.png", "data:image/png;base64,iVBORw0KGgo=", "/etc/passwd", "../x.png", "cases/../../x.png", "https:x.png"]
    let cases = [
      SnapshotCheck.CaseResult(
        name: "remote", document: "a.yaml", status: .failed, reference: outside[0], actual: outside[1], diff: outside[2]),
      SnapshotCheck.CaseResult(name: "absolute", document: "b.yaml", status: .new, actual: outside[3]),
      SnapshotCheck.CaseResult(name: "climbing", document: "c.yaml", status: .missing, reference: outside[4], actual: outside[5]),
      SnapshotCheck.CaseResult(name: "scheme", document: "d.yaml", status: .passed, reference: outside[6]),
      SnapshotCheck.CaseResult(
        name: "good", document: "e.yaml", status: .failed, reference: "cases/good/reference.png", actual: "cases/good/actual.png",
        diff: "cases/good/diff.png"),
    ]
    let page = ReviewReport.html(for: report(cases))
    for address in outside { #expect(!page.contains("src=\"\(ReviewReport.escape(address))\""), "\(address)") }
    #expect(!page.contains("example.com") && !page.contains("127.0.0.1") && !page.contains("src=\"data:"))
    for role in ["reference", "actual", "diff"] { #expect(page.contains(#"<img src="cases/good/\#(role).png""#)) }

    let folder = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    for (index, item) in cases.prefix(4).enumerated() {
      try Data(try ReportFolder.encode(report([item]))).write(to: folder.appendingPathComponent("report.json"))
      #expect(throws: SnapshotError.self, "case \(index)") { try ReportFolder.read(folder) }
    }
    try Data(try ReportFolder.encode(report([cases[4]]))).write(to: folder.appendingPathComponent("report.json"))
    #expect(try ReportFolder.read(folder).cases.count == 1)
  }

  /// A report names each case once (accept and review find a case by its name, so a second
  /// one of the same name would be accepted unseen); its `report.json` is never read through
  /// a link, nor when it is larger than any report RowKit writes.
  @Test func aReportIsReadOnlyWithOneCaseAName() throws {
    let folder = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("report.json")
    // A file given as the folder (a document given to `review` without --snapshots) is
    // said to be a file, not to be missing.
    try Data("{}".utf8).write(to: file)
    #expect {
      try ReportFolder.read(file)
    } throws: { error in
      "\(error)" == "\(file.path): a file, not a report folder (rowkit check --report writes a folder)"
    }
    let seen = SnapshotCheck.CaseResult(
      name: "row", document: "a.yaml", status: .failed, reference: "cases/row/reference.png", actual: "cases/row/actual.png")
    var unseen = seen
    unseen.actual = "cases/other/actual.png"
    try Data(try ReportFolder.encode(report([unseen, seen]))).write(to: file)
    #expect {
      try ReportFolder.read(folder)
    } throws: { error in
      "\(error)" == "\(file.path): cases[1]: a second case named 'row'; a report names each case once"
    }

    // A name with an empty part is another name for a reference (`/row` is `row`'s).
    var slashed = seen
    slashed.name = "/row"
    try Data(try ReportFolder.encode(report([slashed]))).write(to: file)
    #expect {
      try ReportFolder.read(folder)
    } throws: { error in
      "\(error)" == "\(file.path): cases[0]: '/row' has an empty part, '.' or '..' between its slashes; no case is named so"
    }
    // `..` would name a reference outside the references, and an escape in a name would
    // drive the terminal that prints it: both refused, the name printed escaped.
    for (name, expected) in [
      ("../../etc/passwd", "'../../etc/passwd' has an empty part, '.' or '..' between its slashes; no case is named so"),
      ("x\u{1B}]0;PWNED\u{7}", "'x\\u{1B}]0;PWNED\\u{7}' holds the invisible character U+001B; rowkit check never names a case so"),
    ] {
      var hostile = seen
      hostile.name = name
      try Data(try ReportFolder.encode(report([hostile]))).write(to: file)
      #expect {
        try ReportFolder.read(folder)
      } throws: { error in
        "\(error)" == "\(file.path): cases[0]: \(expected)"
      }
    }

    // report.json a link to a report elsewhere: refused, though that report is good.
    let elsewhere = folder.appendingPathComponent("elsewhere.json")
    try Data(try ReportFolder.encode(report([seen]))).write(to: elsewhere)
    try FileManager.default.removeItem(at: file)
    try FileManager.default.createSymbolicLink(at: file, withDestinationURL: elsewhere)
    #expect {
      try ReportFolder.read(folder)
    } throws: { error in
      "\(error)".contains("the report is a symbolic link")
    }

    // Larger than a report is: refused before it is read (a sparse file, nothing on disk).
    try FileManager.default.removeItem(at: file)
    #expect(FileManager.default.createFile(atPath: file.path, contents: nil))
    let handle = try FileHandle(forWritingTo: file)
    try handle.truncate(atOffset: UInt64(ReportFolder.maximumReportBytes + 1))
    try handle.close()
    #expect {
      try ReportFolder.read(folder)
    } throws: { error in
      "\(error)" == "\(file.path): \(ReportFolder.maximumReportBytes + 1) bytes, more than a report of rowkit check holds (512 MB); not read"
    }
    try Data(try ReportFolder.encode(report([seen]))).write(to: file)
    #expect(try ReportFolder.read(folder).cases.map(\.name) == ["row"])
  }

  /// The served page holds its first cases as HTML and the others, in the report's order
  /// and by status, as JSON that no name or message can end early (`</script>`, `<!--`).
  @Test func theServedPageHoldsItsLaterCasesAsTextThatCannotEndItsScript() throws {
    let hostile = "</script><script>alert(1)</script><!--"
    var cases = (0..<5).map { index in
      SnapshotCheck.CaseResult(
        name: "failed-\(index)", document: "f.yaml", status: .failed, message: index == 3 ? hostile : nil,
        reference: "cases/failed-\(index)/reference.png", actual: "cases/failed-\(index)/actual.png")
    }
    cases += (0..<3).map { SnapshotCheck.CaseResult(name: "passed-\($0)", document: "p.yaml", status: .passed, reference: "cases/p\($0).png") }
    let page = ReviewReport.html(
      for: report(cases), reportPath: "report", onlyFailures: false, servedScript: nil, onlyNearView: true, shownAtOnce: 2)
    #expect(page.components(separatedBy: "<section class=\"case\"").count - 1 == 2)
    #expect(page.contains(#"id="case-failed-1""#) && !page.contains(#"id="case-failed-2""#))
    // One slot per status with cases left, where the page's script adds them.
    #expect(page.contains(#"<div class="later" id="later-0"></div>"#))
    #expect(page.contains(#"<div class="later" id="later-1"></div>"#))
    #expect(page.components(separatedBy: "</script>").count - 1 == 2, "only the JSON's and the page script's own ends")
    #expect(!page.contains("<!--"))

    let start = try #require(page.range(of: #"<script type="application/json" id="later-cases">"#))
    let end = try #require(page.range(of: "</script>", range: start.upperBound..<page.endIndex))
    struct Later: Decodable {
      var slot: String
      var names: [String]
      var cases: [String]
    }
    let later = try JSONDecoder().decode([Later].self, from: Data(page[start.upperBound..<end.lowerBound].utf8))
    #expect(later.map(\.slot) == ["later-0", "later-1"])
    #expect(later.map(\.names) == [["failed-2", "failed-3", "failed-4"], ["passed-0", "passed-1", "passed-2"]])
    #expect(later[0].cases[1].contains(ReviewReport.escape(hostile)))
    #expect(later[0].cases.allSatisfy { $0.hasPrefix("\n<section class=\"case\"") && $0.contains(#"loading="lazy""#) })

    // The page on disk holds every case as HTML, and no JSON.
    let onDisk = ReviewReport.html(for: report(cases))
    #expect(onDisk.components(separatedBy: "<section class=\"case\"").count - 1 == 8 && !onDisk.contains(#"id="later-cases""#))
  }

  /// Issue 24, item 2: `"snapshots": "/"` wrote `/keep-me.png`; accept now writes only into
  /// the references the report was checked against, and only the project's own by default.
  @Test func acceptChoosesNoFolderAReportNames() throws {
    let project = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: project) }
    let refs = project.appendingPathComponent("refs")
    try FileManager.default.createDirectory(at: refs, withIntermediateDirectories: true)
    for snapshots in ["/", "/etc", "../../..", refs.path] {
      #expect(throws: SnapshotError.self, "\(snapshots)") {
        try ReferenceAcceptance.referencesFolder(of: report([], snapshots: snapshots), file: "report.json", given: nil)
      }
    }
    #expect(throws: SnapshotError.self) {
      try ReferenceAcceptance.referencesFolder(of: report([], snapshots: "/"), file: "report.json", given: refs)
    }
    #expect(try ReferenceAcceptance.referencesFolder(of: report([], snapshots: refs.path), file: "report.json", given: refs) == refs)
    #expect(ReportFolder.referencesPath(for: ReportFolder.workingFolder.appendingPathComponent("Snapshots/Check")) == "Snapshots/Check")
    #expect(ReportFolder.referencesPath(for: URL(fileURLWithPath: "/elsewhere/refs")) == "/elsewhere/refs")
  }

  /// Issue 24, item 1: a report replaces only a report, whole.
  @Test func aReportIsBuiltBesideTheOneItReplacesAndSwappedInWhole() throws {
    let folder = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let target = folder.appendingPathComponent("report")
    func files() -> [String] { (FileManager.default.enumerator(atPath: folder.path)?.allObjects as? [String] ?? []).sorted() }
    func write(_ staging: ReportFolder.Staging, image: String) throws {
      try OutputWriter.createFolder(staging.casesFolder.appendingPathComponent(image))
      try Data("png".utf8).write(to: staging.casesFolder.appendingPathComponent("\(image)/actual.png"))
      try ReportFolder.write(report([]), to: staging.folder, pathForCommands: "report", onlyFailures: false)
    }
    let first = try ReportFolder.Staging(replacing: target, option: "--report")
    try write(first, image: "old")
    #expect(!FileManager.default.fileExists(atPath: target.path), "nothing at the target before the commit")
    try first.commit()
    #expect(files() == ["report", "report/cases", "report/cases/old", "report/cases/old/actual.png", "report/index.html", "report/report.json"])

    // An interrupted run (discarded, never committed) leaves the earlier report as it was.
    let interrupted = try ReportFolder.Staging(replacing: target, option: "--report")
    try write(interrupted, image: "new")
    #expect(files().contains("report/cases/old/actual.png") && !files().contains("report/cases/new/actual.png"))
    interrupted.discard()
    #expect(files() == ["report", "report/cases", "report/cases/old", "report/cases/old/actual.png", "report/index.html", "report/report.json"])

    let second = try ReportFolder.Staging(replacing: target, option: "--report")
    try write(second, image: "new")
    try second.commit()
    #expect(files() == ["report", "report/cases", "report/cases/new", "report/cases/new/actual.png", "report/index.html", "report/report.json"])

    // Filled with something else meanwhile, it is not replaced at the commit either.
    let third = try ReportFolder.Staging(replacing: target, option: "--report")
    try Data("mine".utf8).write(to: target.appendingPathComponent("notes.txt"))
    #expect(throws: SnapshotError.self) { try third.commit() }
    third.discard()
    #expect(files().contains("report/notes.txt") && files().contains("report/cases/new/actual.png"))
    #expect(throws: SnapshotError.self) { try ReportFolder.Staging(replacing: target, option: "--report") }
    #expect(!files().contains { $0.hasPrefix(".") }, "no staging folder left: \(files())")
  }

  @Test func pathsAreResolvedThroughEveryLinkAsTheKernelFollowsThem() throws {
    let folder = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let root = folder.appendingPathComponent("root")
    try FileManager.default.createDirectory(at: root.appendingPathComponent("inner"), withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(atPath: root.appendingPathComponent("out").path, withDestinationPath: "../elsewhere/a/b")
    try FileManager.default.createSymbolicLink(atPath: root.appendingPathComponent("in").path, withDestinationPath: "inner")
    try FileManager.default.createSymbolicLink(
      atPath: root.appendingPathComponent("dangling.png").path, withDestinationPath: folder.appendingPathComponent("nowhere/x.png").path)
    try FileManager.default.createSymbolicLink(atPath: root.appendingPathComponent("loop").path, withDestinationPath: "loop")
    let real = ContainedPath.resolved(folder)!
    #expect(ContainedPath.resolved(root.appendingPathComponent("out/c.png")) == real + "/elsewhere/a/b/c.png", "a link to a missing folder")
    #expect(ContainedPath.resolved(root.appendingPathComponent("dangling.png")) == real + "/nowhere/x.png", "a link to a missing file")
    #expect(!ContainedPath.isInside(root.appendingPathComponent("out/../x.png"), folder: root), "`..` after a link climbs from its target")
    #expect(ContainedPath.isInside(root.appendingPathComponent("in/x.png"), folder: root))
    #expect(!ContainedPath.isInside(root.appendingPathComponent("dangling.png"), folder: root))
    #expect(ContainedPath.resolved(root.appendingPathComponent("loop/x")) == nil)
    #expect(!ContainedPath.isInside(root.appendingPathComponent("loop/x"), folder: root))
  }
}
