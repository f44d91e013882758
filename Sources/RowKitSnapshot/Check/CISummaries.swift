import Foundation
import RowKit

/// What CI systems read besides the review page: a JUnit XML file (one test case per
/// snapshot) and a Markdown summary short enough for a GitHub step summary or a pull-request
/// comment. Both are made from a ``SnapshotCheck/Report``; image paths are given under
/// `reportPath` (the report folder as the user named it) when the run wrote a report.
package enum CISummaries {
  /// What a command reads or writes, which its JUnit and summary files must not overwrite:
  /// a file or a folder, each with what it is (`the references`), and for a folder the
  /// extensions of its files that count (a documents folder's `.yaml`, `.yml`, `.json`: its
  /// `build/junit.xml` is none of them); nil: everything in it (the references and reports,
  /// which RowKit writes whole).
  public struct Input: Sendable {
    var what: String
    var url: URL
    var extensions: Set<String>?

    /// `url`, which is `what`; only its files of `extensions` count, when given.
    public init(_ what: String, _ url: URL, extensions: Set<String>? = nil) {
      (self.what, self.url, self.extensions) = (what, url, extensions)
    }

    /// The extensions of the files a check reads as documents.
    public static let documentExtensions: Set<String> = ["yaml", "yml", "json"]
  }

  /// Refuses, before a check or a merge writes anything, JUnit and summary files it could
  /// not write at its end, or must not: a folder at either path, one file for both, a path
  /// that is a link in a loop or under something that is not a folder, or a path that is
  /// one of `inputs` or counts inside one, which the file would overwrite: a document, a
  /// reference (under CI too), a report. Found late, the report folder and new references
  /// were already written when the command failed.
  public static func checkTargets(junit: String?, summary: String?, inputs: [Input] = []) throws {
    for (option, path) in [("--junit", junit), ("--summary", summary)] {
      guard let path else { continue }
      let url = URL(fileURLWithPath: path)
      guard let resolved = ContainedPath.resolved(url) else {
        throw SnapshotError("cannot write \(path) for \(option): the symbolic links on the way lead in a loop; nothing is written")
      }
      var isFolder: ObjCBool = false
      if FileManager.default.fileExists(atPath: resolved, isDirectory: &isFolder), isFolder.boolValue {
        throw SnapshotError("cannot write \(path) for \(option): a folder is there; nothing is written")
      }
      let counted = inputs.first { input in
        ContainedPath.isInside(url, folder: input.url)
          && (input.extensions.map { $0.contains(url.pathExtension.lowercased()) } ?? true
            || ContainedPath.resolved(input.url) == resolved)
      }
      if let counted {
        throw SnapshotError(
          "cannot write \(path) for \(option): it is \(ContainedPath.resolved(counted.url) == resolved ? "" : "inside ")"
            + "\(counted.what) \(counted.url.path), which this command reads or writes; nothing is written")
      }
      // A file already there is replaced only when RowKit wrote it: a document's own
      // stylesheet, a cell design, an image or a font named by mistake is read by the check,
      // but no option names it, so it is known by its bytes.
      let opening: [UInt8]?
      do {
        opening = try Self.opening(ofRegularFile: resolved)
      } catch {
        throw SnapshotError("cannot write \(path) for \(option): the file there cannot be read to tell whether RowKit wrote it; nothing is written")
      }
      if let opening, !opening.isEmpty,
        !opening.starts(with: Array((option == "--junit" ? Self.junitOpening : Self.summaryOpening).utf8))
      {
        throw SnapshotError(
          "cannot write \(path) for \(option): the file there is not \(option == "--junit" ? "a JUnit file" : "a summary") RowKit wrote, "
            + "and a check replaces only its own; remove it or name another file; nothing is written")
      }
      // The folders on the way are made at the end; something else on the way fails then.
      if let file = OutputWriter.nonFolderOnTheWay(to: URL(fileURLWithPath: resolved)) {
        throw SnapshotError("cannot write \(path) for \(option): \(file.path) is not a folder; nothing is written")
      }
      // The file is written beside itself and renamed: the nearest folder there is must
      // take new files, or the check would find out at its end, its references written.
      var folder = URL(fileURLWithPath: resolved).deletingLastPathComponent()
      while !FileManager.default.fileExists(atPath: folder.path), folder.path != "/" { folder.deleteLastPathComponent() }
      if access(folder.path, W_OK | X_OK) != 0 {
        throw SnapshotError(
          "cannot write \(path) for \(option): the folder \(folder.path) cannot be written (\(String(cString: strerror(errno)))); nothing is written")
      }
    }
    if let junit, let summary,
      ContainedPath.resolved(URL(fileURLWithPath: junit)) == ContainedPath.resolved(URL(fileURLWithPath: summary))
    {
      throw SnapshotError("--junit and --summary both name \(summary); nothing is written")
    }
  }

  /// How every JUnit file and every summary RowKit writes begins.
  static let junitOpening = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"rowkit check\""
  static let summaryOpening = "## RowKit snapshots"

  /// The first bytes of the regular file at `path` (after its links), enough to tell what
  /// wrote it; nil when no regular file is there (nothing, or a FIFO or device written
  /// through). A regular file that cannot be read throws: what wrote it cannot be told.
  private static func opening(ofRegularFile path: String) throws -> [UInt8]? {
    var info = stat()
    guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
    guard let handle = FileHandle(forReadingAtPath: path) else { throw SnapshotError("\(path): cannot be read") }
    defer { try? handle.close() }
    return [UInt8](try handle.read(upToCount: 128) ?? Data())
  }

  /// Writes the JUnit file to `junit` and the Markdown summary to `summary`, when given,
  /// each atomically, their folders made as needed (CI jobs name files in folders of their
  /// own, such as `build/junit.xml`).
  public static func write(_ report: SnapshotCheck.Report, reportPath: String?, junit: String?, summary: String?) throws {
    for (path, text) in [(junit, { Self.junit(report, reportPath: reportPath) }), (summary, { markdown(report, reportPath: reportPath) })] {
      guard let path else { continue }
      let url = URL(fileURLWithPath: path)
      try OutputWriter.createFolder(url.deletingLastPathComponent())
      try OutputWriter.write(Array(text().utf8), to: url)
    }
  }

  /// The report as JUnit XML, in the form Jenkins, GitLab, GitHub's test reporters and
  /// Azure read (Jenkins' JUnit schema): one `<testsuite>` with one `<testcase>` per case;
  /// failed, new and missing cases carry a `<failure>` with the numbers and the artifact
  /// paths, bad documents an `<error>`. Orphaned references are listed in `<system-out>`,
  /// and are failed test cases of their own with `--fail-on-orphans`; so is the line saying
  /// that references have no layout record.
  public static func junit(_ report: SnapshotCheck.Report, reportPath: String?) -> String {
    var cases: [String] = []
    var failures = 0
    var errors = 0
    let suiteName = "rowkit check " + report.snapshots
    if let mismatch = report.environmentMismatch {
      failures += 1
      cases.append(testcase("environment", classname: "rowkit.check", failure: ("failure", "environment mismatch", mismatch)))
    }
    for item in report.cases {
      let classname = "rowkit.check" + (item.name.contains("/") ? "." + item.name.split(separator: "/").dropLast().joined(separator: ".") : "")
      switch item.status {
      case .passed:
        cases.append(testcase(item.name, classname: classname, failure: nil))
      case .error:
        errors += 1
        cases.append(testcase(item.name, classname: classname, failure: ("error", item.message ?? "error", details(item, reportPath))))
      case .failed, .new, .missing:
        failures += 1
        cases.append(testcase(
          item.name, classname: classname, failure: ("failure", headline(item) + layoutHeadline(item), details(item, reportPath))))
      }
    }
    if report.failsOnOrphans {
      for orphan in report.orphans {
        failures += 1
        cases.append(testcase(
          "orphan " + orphan, classname: "rowkit.check.orphans",
          failure: ("failure", "orphaned reference", "\(report.snapshots)/\(orphan) has no case; delete it or run rowkit check --prune")))
      }
    }
    let total = cases.count
    var xml = junitOpening + " tests=\"\(total)\" failures=\"\(failures)\" errors=\"\(errors)\">\n"
    xml += "  <testsuite name=\"\(escape(suiteName))\" tests=\"\(total)\" failures=\"\(failures)\" errors=\"\(errors)\" skipped=\"0\">\n"
    xml += "    <properties>\n"
    var properties = [("snapshots", report.snapshots), ("recordMode", report.recordMode.rawValue), ("run", report.run)]
    if let shard = report.shard { properties.append(("shard", shard)) }
    for (name, value) in properties {
      xml += "      <property name=\"\(escape(name))\" value=\"\(escape(value))\"/>\n"
    }
    xml += "    </properties>\n"
    xml += cases.joined()
    let notes = report.orphans.map { "ORPHAN \(report.snapshots)/\($0)" } + (report.missingLayoutRecordsLine.map { [$0] } ?? [])
    if !notes.isEmpty { xml += "    <system-out>\(escape(notes.joined(separator: "\n")))</system-out>\n" }
    xml += "  </testsuite>\n</testsuites>\n"
    return xml
  }

  private static func testcase(_ name: String, classname: String, failure: (tag: String, message: String, text: String)?) -> String {
    var xml = "    <testcase name=\"\(escape(name))\" classname=\"\(escape(classname))\""
    guard let failure else { return xml + "/>\n" }
    xml += ">\n      <\(failure.tag) message=\"\(escape(failure.message))\" type=\"snapshot\">\(escape(failure.text))</\(failure.tag)>\n"
    return xml + "    </testcase>\n"
  }

  /// One line: what happened to the case, with its numbers.
  static func headline(_ item: SnapshotCheck.CaseResult) -> String {
    switch item.status {
    // A reference recorded again over a failure (`ROWKIT_RECORD=failed`) is new as well: the
    // message, which follows, says which.
    case .new: return "new: the actual image was recorded as the reference"
    case .missing: return "missing: no reference"
    case .failed: return item.result.map { $0.summary } ?? (item.message ?? "failed")
    case .passed: return "passed"
    case .error: return item.message ?? "error"
    }
  }

  /// The first few layout sentences of a case, after a `; `: what a reader of the failure's
  /// one line most needs.
  static func layoutHeadline(_ item: SnapshotCheck.CaseResult, limit: Int = 3) -> String {
    let sentences = item.layoutSentences
    guard !sentences.isEmpty else { return "" }
    let more = sentences.count > limit ? "; and \(sentences.count - limit) more layout changes" : ""
    return "; " + sentences.prefix(limit).joined(separator: "; ") + more
  }

  /// The numbers, the message and the image paths of a case, one per line.
  static func details(_ item: SnapshotCheck.CaseResult, _ reportPath: String?) -> String {
    var lines: [String] = []
    if let message = item.message { lines.append(message) }
    if let result = item.result, item.status != .passed {
      lines.append(
        "differing pixels: \(result.differentPixels) of \(result.totalPixels) (antialiasing \(result.antialiasedPixels))"
          + (result.largestCluster.map { "; largest cluster \($0.pixels) px at \($0.box)" } ?? ""))
      if result.sizeMismatch { lines.append("sizes: reference \(result.referenceSize), actual \(result.actualSize)") }
    }
    for sentence in item.layoutSentences { lines.append("layout: \(sentence)") }
    for warning in item.warnings ?? [] { lines.append("warning: \(warning)") }
    for (role, path) in [("reference", item.reference), ("actual", item.actual), ("diff", item.diff), ("composite", item.composite)] {
      guard let path else { continue }
      lines.append("\(role): \(reportPath.map { "\($0)/\(path)" } ?? path)")
    }
    if let reportPath, ReportFolder.isAcceptable(item) {
      lines.append("accept: " + ReportFolder.acceptCommand(reportPath: reportPath, name: item.name))
    }
    return lines.joined(separator: "\n")
  }

  /// The report as Markdown: a title with the verdict, the counts as a table, then each
  /// failure with its numbers and paths (the first `limit`; the rest are counted), and the
  /// orphaned references.
  ///
  /// The summary is meant for pull-request comments, and names and messages come from the
  /// pull request's own documents: each is a code span nothing in it can end
  /// (`codeSpan(_:)`), or text with every character Markdown or HTML would read escaped
  /// (`markdownText(_:)`), so no name or message becomes markup, a link, an image or HTML.
  public static func markdown(_ report: SnapshotCheck.Report, reportPath: String?, limit: Int = 30) -> String {
    let s = report.summary
    let toReview = s.failed + s.new + s.missing + s.errors
    let verdict: String
    if report.environmentMismatch != nil {
      verdict = "references of another environment: \(s.rasterizationOnly ?? 0) of \(toReview) differ in rasterization only"
    } else if report.exitStatus == 0 {
      verdict = "all \(s.total) passed"
    } else {
      verdict = "\(toReview) of \(s.total) to review"
    }
    var text = summaryOpening + ": \(verdict)\(report.shard.map { " (shard \(markdownText($0)))" } ?? "")\n\n"
    // The rasterization-only column only where there are some: after a toolchain upgrade.
    let (head, rule, count) = s.rasterizationOnly.map { (" rasterization only |", "---:|", " \($0) |") } ?? ("", "", "")
    text += "| cases | passed | failed |\(head) new | missing | errors | orphaned references |\n"
    text += "|---:|---:|---:|\(rule)---:|---:|---:|---:|\n"
    text += "| \(s.total) | \(s.passed) | \(s.failed) |\(count) \(s.new) | \(s.missing) | \(s.errors) | \(s.orphans) |\n"
    if let mismatch = report.environmentMismatch { text += "\n> \(markdownText(mismatch))\n" }
    if let line = report.missingLayoutRecordsLine, toReview > 0 { text += "\n> \(markdownText(line))\n" }
    if let count = s.rasterizationOnly {
      let command = reportPath.map { ReportFolder.acceptRasterizationOnlyCommand(reportPath: $0) } ?? "rowkit accept REPORT --rasterization-only"
      text += "\n\(count) failed \(count == 1 ? "case differs" : "cases differ") in rasterization only (layout unchanged, "
        + "every differing pixel inside glyphs): \(codeSpan(command)) accepts them.\n"
    }
    let review = report.cases.filter { $0.status != .passed }
    if !review.isEmpty {
      text += "\n### To review\n\n"
      for item in review.prefix(limit) {
        // The comparison's numbers are RowKit's own words; a message quotes the document.
        let what = item.status == .error || (item.status == .failed && item.result == nil)
          ? codeSpan(headline(item)) : markdownText(headline(item))
        let status = item.rasterizationOnly == true ? "failed, rasterization only" : item.status.rawValue
        text += "- **\(codeSpan(item.name))** (\(status)): \(what)\n"
        // A new case's headline cannot say why it was recorded: no reference, or one it
        // differed from (`ROWKIT_RECORD=failed`). Its message does.
        if item.status == .new, let message = item.message { text += "  - \(markdownText(message))\n" }
        // Sentences quote the document's text: escaped, as messages are.
        let sentences = item.layoutSentences
        for sentence in sentences.prefix(10) { text += "  - \(markdownText(sentence))\n" }
        if sentences.count > 10 { text += "  - … and \(sentences.count - 10) more layout changes\n" }
        // Why the sentences are missing (a layout record that cannot be read), or a warning
        // the case passed on to its reader: said where the failure is read.
        for warning in (item.warnings ?? []).prefix(5) { text += "  - warning: \(markdownText(warning))\n" }
        var paths: [String] = []
        for (role, path) in [("diff", item.diff), ("actual", item.actual), ("reference", item.reference)] {
          guard let path else { continue }
          paths.append("\(role) \(codeSpan(reportPath.map { "\($0)/\(path)" } ?? path))")
        }
        if !paths.isEmpty { text += "  - " + paths.joined(separator: " · ") + "\n" }
        if let reportPath, ReportFolder.isAcceptable(item) {
          text += "  - accept: \(codeSpan(ReportFolder.acceptCommand(reportPath: reportPath, name: item.name)))\n"
        }
      }
      if review.count > limit { text += "- … and \(review.count - limit) more: see the review page\n" }
    }
    if !report.orphans.isEmpty {
      text += "\n### Orphaned references\n\n"
      for orphan in report.orphans.prefix(limit) { text += "- \(codeSpan(orphan))\n" }
      if report.orphans.count > limit { text += "- … and \(report.orphans.count - limit) more\n" }
      text += "\n" + (report.failsOnOrphans ? "They fail the check." : "They do not fail the check (`--fail-on-orphans` makes them).")
        + " `rowkit check --prune` deletes them.\n"
    }
    if let reportPath { text += "\nReview page: \(codeSpan("\(reportPath)/index.html"))\n" }
    return text
  }

  /// `text` as one Markdown code span on one line that nothing in it can end: fenced with
  /// one backtick more than its longest run of them, and padded with a space when it starts
  /// or ends with a backtick (Markdown strips that space again). Inside, nothing is markup.
  static func codeSpan(_ text: String) -> String {
    let line = oneLine(text)
    var (longest, run) = (0, 0)
    for character in line {
      run = character == "`" ? run + 1 : 0
      longest = max(longest, run)
    }
    let fence = String(repeating: "`", count: longest + 1)
    let padded = line.hasPrefix("`") || line.hasSuffix("`") || (line.hasPrefix(" ") && line.hasSuffix(" ")) || line.isEmpty
    return padded ? "\(fence) \(line) \(fence)" : fence + line + fence
  }

  /// `text` as literal Markdown text on one line: the punctuation Markdown reads
  /// (emphasis, code, links and images, headings, tables, strikethrough, math)
  /// backslash-escaped, and `<`, `>` and `&` as HTML entities, so that it shows as written.
  static func markdownText(_ text: String) -> String {
    var result = ""
    for character in oneLine(text) {
      switch character {
      case "&": result += "&amp;"
      case "<": result += "&lt;"
      case ">": result += "&gt;"
      case "\\", "`", "*", "_", "[", "]", "(", ")", "#", "!", "|", "~", "$": result += "\\\(character)"
      default: result.append(character)
      }
    }
    return result
  }

  /// `text` with its line breaks made spaces: one Markdown line.
  private static func oneLine(_ text: String) -> String {
    String(text.map { $0.isNewline ? " " : $0 })
  }

  static func escape(_ text: String) -> String {
    var result = ""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "&": result += "&amp;"
      case "<": result += "&lt;"
      case ">": result += "&gt;"
      case "\"": result += "&quot;"
      case "\n", "\t": result.unicodeScalars.append(scalar)
      // Control characters are not allowed in XML 1.0 at all.
      case _ where scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF: result += "?"
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result
  }
}
