import Foundation
import RowKit
import RowKitGraphics

/// A report folder: `report.json`, the review page `index.html`, and the case images under
/// `cases/`. Written by `rowkit check --report` and `rowkit merge-reports`, read by
/// `merge-reports` and `rowkit accept`.
package enum ReportFolder {
  /// The report's file name inside the folder.
  public static let reportFile = "report.json"
  /// The largest `report.json` read: twice a report of 100,000 failed cases (a failed case
  /// takes about 2.3 KB of it).
  static let maximumReportBytes = 512 << 20
  /// The review page's file name inside the folder.
  public static let pageFile = "index.html"
  /// The subfolder that holds the cases' images.
  public static let casesFolder = "cases"
  /// The log of `rowkit review`'s accepts, rejects and undos.
  package static let reviewLogFile = "review-log.json"
  /// The folder of the bytes `rowkit review`'s undo puts back.
  package static let reviewUndoFolder = "review-undo"

  /// Writes `report.json` and `index.html` into `folder` (made if missing), both renamed
  /// into place together. `pathForCommands` is how the page names the folder in the
  /// `rowkit accept` commands it shows.
  public static func write(_ report: SnapshotCheck.Report, to folder: URL, pathForCommands: String, onlyFailures: Bool) throws {
    try OutputWriter.createFolder(folder)
    let files = AtomicFiles()
    try files.stage(try encode(report), as: folder.appendingPathComponent(reportFile))
    let page = ReviewReport.html(for: report, reportPath: pathForCommands, onlyFailures: onlyFailures)
    try files.stage(Array(page.utf8), as: folder.appendingPathComponent(pageFile))
    try files.commit()
  }

  /// The bytes of `report.json`: pretty-printed JSON with sorted keys and a final newline.
  public static func encode(_ report: SnapshotCheck.Report) throws -> [UInt8] {
    try DeterministicJSON.bytes(report)
  }

  /// Reads the report in `folder`; the error names the folder and what is wrong. A report
  /// comes from outside (a pull request controls its own CI run's report), so every image
  /// path in it must be a plain relative path inside the folder (``isContainedPath(_:)``).
  public static func read(_ folder: URL) throws -> SnapshotCheck.Report {
    let report = try decode(folder)
    let file = folder.appendingPathComponent(reportFile)
    var names = Set<String>()
    for (index, item) in report.cases.enumerated() {
      // Accept and review find a case by its name: a second case of the same name would be
      // one the reviewer never saw.
      // Names are printed: one that holds an escape or a newline would drive the terminal or
      // forge lines, so none is printed as it is before it is known to hold none.
      let name = SnapshotCheck.escaped(item.name)
      if let invisible = SnapshotCheck.invisibleCharacter(in: item.name) {
        throw SnapshotError(
          "\(file.path): cases[\(index)]: '\(name)' holds the invisible character U+\(String(format: "%04X", invisible.value)); "
            + "rowkit check never names a case so")
      }
      guard names.insert(item.name).inserted else {
        throw SnapshotError("\(file.path): cases[\(index)]: a second case named '\(name)'; a report names each case once")
      }
      // A case names its reference (`suite/name`): `/000` or `a//000` would be another name
      // for the reference of `000` or `a/000`, and `..` one outside the references.
      guard !item.name.split(separator: "/", omittingEmptySubsequences: false).contains(where: { ["", ".", ".."].contains($0) }) else {
        throw SnapshotError(
          "\(file.path): cases[\(index)]: '\(name)' has an empty part, '.' or '..' between its slashes; no case is named so")
      }
      for (role, path) in [("reference", item.reference), ("actual", item.actual), ("diff", item.diff), ("composite", item.composite)] {
        guard let path, !isContainedPath(path) else { continue }
        throw SnapshotError(
          "\(file.path): cases[\(index)] ('\(name)'): its \(role) image '\(SnapshotCheck.escaped(path))' is not a path inside the report folder")
      }
    }
    return report
  }

  private static func decode(_ folder: URL) throws -> SnapshotCheck.Report {
    var file = folder.appendingPathComponent(reportFile)
    var isFolder: ObjCBool = false
    guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder) else {
      throw SnapshotError("\(folder.path): no such report folder")
    }
    guard isFolder.boolValue else {
      throw SnapshotError("\(folder.path): a file, not a report folder (rowkit check --report writes a folder)")
    }
    var info = stat()
    guard lstat(file.path, &info) == 0 else {
      throw SnapshotError("\(folder.path): no \(reportFile) (not a report of rowkit check --report)")
    }
    // Never through a link (the folder may come from anyone), and never more than a report
    // can hold before it is read whole.
    file = try self.file(reportFile, in: folder, what: "the report")
    guard info.st_size <= maximumReportBytes else {
      throw SnapshotError(
        "\(file.path): \(info.st_size) bytes, more than a report of rowkit check holds (\(maximumReportBytes >> 20) MB); not read")
    }
    let data: [UInt8]
    do {
      data = try InputFile.read(file.path)
    } catch {
      throw SnapshotError("\(file.path): \(error)")
    }
    do {
      return try JSONDecoder().decode(SnapshotCheck.Report.self, from: Data(data))
    } catch {
      throw SnapshotError("\(file.path): not a RowKit report: \(DocumentError.decodingProblem(error, in: data))")
    }
  }

  /// Whether `path` is to be read as a report folder rather than as documents to check: it
  /// holds a `report.json` of any kind (a link too, refused when it is read, never taken
  /// for a folder of documents, whose check would record references from it). A folder
  /// that is otherwise a report (a `cases` folder, and an `index.html` that is RowKit's
  /// review page) but has no `report.json` is an error: a report folder that lost its
  /// report, never documents.
  public static func isReport(_ path: String) throws -> Bool {
    let folder = URL(fileURLWithPath: path)
    var info = stat()
    // The folder as the command line names it (a link to it too); what is in it, as it is.
    guard stat(folder.path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else { return false }
    if lstat(folder.appendingPathComponent(reportFile).path, &info) == 0 { return true }
    let page = folder.appendingPathComponent(pageFile)
    let laidOut = lstat(folder.appendingPathComponent(casesFolder).path, &info) == 0
      && lstat(page.path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
      && (try? FileHandle(forReadingFrom: page).read(upToCount: 4096)).flatMap { $0 }
        .map { String(decoding: $0, as: UTF8.self).contains(ReviewReport.pageTitlePrefix) } == true
    if laidOut {
      throw SnapshotError(
        "\(path): it holds the \(pageFile) and \(casesFolder) of a report folder but no \(reportFile); "
          + "a report folder is reviewed from its \(reportFile), and its files are never checked as documents")
    }
    return false
  }

  /// The shell command that accepts `name` from the report in `reportPath`. The name comes
  /// after `--`, so that a case named `--all` or `-rf` is a name, never a flag; a report
  /// path that starts with `-` is given as `./-…` for the same reason.
  public static func acceptCommand(reportPath: String, name: String) -> String {
    acceptCommand(reportPath: reportPath, names: [name])
  }

  /// The shell command that accepts every one of `names` from the report in `reportPath`.
  public static func acceptCommand(reportPath: String, names: [String]) -> String {
    "rowkit accept \(shellWord(reportPath: reportPath)) -- " + names.map(shellQuoted).joined(separator: " ")
  }

  /// The shell command that accepts the cases of the report in `reportPath` that differ in
  /// rasterization only.
  public static func acceptRasterizationOnlyCommand(reportPath: String) -> String {
    "rowkit accept \(shellWord(reportPath: reportPath)) --rasterization-only"
  }

  private static func shellWord(reportPath: String) -> String {
    shellQuoted(reportPath.hasPrefix("-") ? "./" + reportPath : reportPath)
  }

  /// `text` as one shell word: as it is when it is plain, else in single quotes.
  static func shellQuoted(_ text: String) -> String {
    let plain = !text.isEmpty && text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "/._-+:=@%,".contains($0)) }
    return plain ? text : "'" + text.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
  }

  /// How a report names the references folder `url`: relative to the working folder when it
  /// is inside it (`Snapshots/Check`), so that a report made in CI names the same folder in
  /// a reviewer's checkout of the project; absolute otherwise.
  public static func referencesPath(for url: URL) -> String {
    let (path, here) = (url.standardizedFileURL.path, workingFolder.path)
    if path == here { return "." }
    return path.hasPrefix(here == "/" ? "/" : here + "/") ? String(path.dropFirst(here == "/" ? 1 : here.count + 1)) : path
  }

  /// The folder a report's `snapshots` names (``referencesPath(for:)``), from the working
  /// folder.
  public static func referencesFolder(named path: String) -> URL {
    (path.hasPrefix("/") ? URL(fileURLWithPath: path) : workingFolder.appendingPathComponent(path)).standardizedFileURL
  }

  /// The folder `rowkit` runs in: the project's.
  static var workingFolder: URL { URL(fileURLWithPath: FileManager.default.currentDirectoryPath).standardizedFileURL }

  /// The characters besides ASCII letters and digits that a part of a contained path may
  /// have (``isContainedPath(_:)``; `+` is in tiles' names); the check report schema's
  /// pattern is made of them.
  package static let pathPunctuation = "._-@,+"

  /// Whether `path` is a plain relative path inside a report folder, as RowKit writes them
  /// (`cases/settings/wifi/actual.png`): parts of ASCII letters, digits, `.`, `_`, `-`, `@`,
  /// `,` and `+`, none of them `.` or `..`. That leaves out absolute paths, `..`, and every
  /// address a browser would fetch (`http:`, `//host`, `data:`).
  public static func isContainedPath(_ path: String) -> Bool {
    !path.isEmpty
      && path.split(separator: "/", omittingEmptySubsequences: false).allSatisfy { part in
        !part.isEmpty && part != "." && part != ".."
          && part.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || pathPunctuation.contains($0)) }
      }
  }

  /// The file a report names `path` (relative to the report folder `folder`, as report.json
  /// gives it): a regular file inside the folder, reached without following a symbolic link.
  /// Anything else is refused with an error naming `what` the file is.
  public static func file(_ path: String, in folder: URL, what: String) throws -> URL {
    guard isContainedPath(path) else {
      throw SnapshotError("\(folder.appendingPathComponent(reportFile).path): \(what) '\(path)' is not a path inside the report folder")
    }
    let parts = path.split(separator: "/")
    var url = folder
    for (index, part) in parts.enumerated() {
      url.appendPathComponent(String(part))
      var info = stat()
      guard lstat(url.path, &info) == 0 else { throw SnapshotError("\(url.path): \(what) is missing from the report") }
      let type = info.st_mode & S_IFMT
      if type == S_IFLNK {
        throw SnapshotError("\(url.path): \(what) is a symbolic link; a report's files are never followed out of it")
      }
      guard type == (index == parts.count - 1 ? S_IFREG : S_IFDIR) else {
        throw SnapshotError("\(url.path): \(what) is not a regular file")
      }
    }
    return url
  }

  /// Nothing when a report may be written at `folder`: it does not exist, is an empty
  /// folder, or is a report folder (a `report.json` that reads as a report, beside nothing
  /// but `index.html` and a `cases` folder). Anything else is refused, naming what is
  /// there, so that a report never replaces a folder RowKit did not write. `option` is how
  /// the command line named the folder.
  public static func checkReplaceable(_ folder: URL, option: String) throws {
    var info = stat()
    guard lstat(folder.path, &info) == 0 else {
      if errno == ENOENT { return }
      throw SnapshotError("\(folder.path): \(String(cString: strerror(errno)))")
    }
    let advice = "give \(option) a new folder, an empty one, or an earlier report"
    switch info.st_mode & S_IFMT {
    case S_IFDIR: break
    case S_IFLNK: throw SnapshotError("\(folder.path): is a symbolic link, not a report folder; \(advice)")
    default: throw SnapshotError("\(folder.path): exists and is not a folder; \(advice)")
    }
    let contents: [String]
    do {
      contents = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    } catch {
      throw SnapshotError("\(folder.path): cannot list the folder: \(error.localizedDescription)")
    }
    guard !contents.isEmpty else { return }
    // `rowkit review` keeps its log and the bytes that undo needs beside the report.
    let ours: Set<String> = [reportFile, pageFile, casesFolder, reviewLogFile, reviewUndoFolder]
    let foreign = contents.filter { !ours.contains($0) }
    var cases = stat()
    let casesIsFolder = lstat(folder.appendingPathComponent(casesFolder).path, &cases) != 0 || cases.st_mode & S_IFMT == S_IFDIR
    guard foreign.isEmpty, casesIsFolder, contents.contains(reportFile), (try? decode(folder)) != nil else {
      let holding = foreign.isEmpty
        ? (contents.contains(reportFile) ? "its \(reportFile) is not a RowKit report" : "it has no \(reportFile)")
        : "it holds " + foreign.prefix(3).joined(separator: ", ") + (foreign.count > 3 ? ", …" : "")
      throw SnapshotError("\(folder.path): exists and is not a report folder (\(holding)); nothing was written: \(advice)")
    }
  }

  /// A report folder being written beside the one it replaces, swapped in whole by
  /// ``commit()``: an interrupted run leaves the earlier report or none, never half of one,
  /// and a folder that is not a report (``checkReplaceable(_:option:)``) is never touched.
  public final class Staging {
    /// The report folder it replaces.
    public let target: URL
    /// The folder the report is written in until the commit.
    public let folder: URL
    private let files = AtomicFiles()

    /// A staging folder for the report at `target`; refused when `target` is not a report
    /// folder (`option` names it in the error).
    public init(replacing target: URL, option: String) throws {
      let target = target.standardizedFileURL
      try ReportFolder.checkReplaceable(target, option: option)
      self.target = target
      // Checked again at the commit: the folder may have been filled meanwhile (by this
      // very run, when it is also the references folder).
      folder = try files.replacement(for: target) { try ReportFolder.checkReplaceable(target, option: option) }
    }

    /// The folder of the case images.
    public var casesFolder: URL { folder.appendingPathComponent(ReportFolder.casesFolder) }

    /// `report` with the paths in its messages naming the report's files where they will be
    /// after the commit; the failure artifacts' `result.json` files likewise.
    public func relocated(_ report: SnapshotCheck.Report) -> SnapshotCheck.Report {
      let (from, to) = (folder.path + "/", target.path + "/")
      var report = report
      for index in report.cases.indices {
        report.cases[index].message = report.cases[index].message?.replacingOccurrences(of: from, with: to)
      }
      let results = FileManager.default.enumerator(at: casesFolder, includingPropertiesForKeys: nil)?.allObjects ?? []
      for case let url as URL in results where url.lastPathComponent == "result.json" {
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { continue }
        try? Data(text.replacingOccurrences(of: from, with: to).utf8).write(to: url)
      }
      return report
    }

    /// Puts the staged report in place of the old one, which is then removed.
    public func commit() throws { try files.commit() }

    /// Removes the staged report; the old one stays.
    public func discard() { files.discard() }
  }

  /// Whether a case's actual image can be accepted as its reference.
  package static func isAcceptable(_ item: SnapshotCheck.CaseResult) -> Bool {
    [.failed, .new, .missing].contains(item.status) && item.actual != nil
  }
}
