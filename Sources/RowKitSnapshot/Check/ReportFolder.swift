import Foundation
import RowKit

/// A report folder: `report.json`, the review page `index.html`, and the case images under
/// `cases/`. Written by `rowkit check --report` and `rowkit merge-reports`, read by
/// `merge-reports` and `rowkit accept`.
public enum ReportFolder {
  /// The report's file name inside the folder.
  public static let reportFile = "report.json"
  /// The review page's file name inside the folder.
  public static let pageFile = "index.html"
  /// The subfolder that holds the cases' images.
  public static let casesFolder = "cases"

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
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    return Array(try encoder.encode(report)) + [0x0A]
  }

  /// Reads the report in `folder`; the error names the folder and what is wrong.
  public static func read(_ folder: URL) throws -> SnapshotCheck.Report {
    let file = folder.appendingPathComponent(reportFile)
    var isFolder: ObjCBool = false
    guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder), isFolder.boolValue else {
      throw SnapshotError("\(folder.path): no such report folder")
    }
    guard let data = FileManager.default.contents(atPath: file.path) else {
      throw SnapshotError("\(folder.path): no \(reportFile) (not a report of rowkit check --report)")
    }
    do {
      return try JSONDecoder().decode(SnapshotCheck.Report.self, from: data)
    } catch let DecodingError.keyNotFound(key, context) {
      throw SnapshotError("\(file.path): not a RowKit report: no key '\(keyPath(context.codingPath + [key]))'")
    } catch let DecodingError.typeMismatch(_, context), let DecodingError.valueNotFound(_, context),
      let DecodingError.dataCorrupted(context)
    {
      throw SnapshotError("\(file.path): not a RowKit report: at '\(keyPath(context.codingPath))': \(context.debugDescription)")
    } catch {
      throw SnapshotError("\(file.path): not a RowKit report: \(error)")
    }
  }

  private static func keyPath(_ path: [any CodingKey]) -> String {
    path.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined().drop { $0 == "." }.description
  }

  /// The shell command that accepts `name` from the report in `reportPath`.
  public static func acceptCommand(reportPath: String, name: String) -> String {
    "rowkit accept \(shellQuoted(reportPath)) \(shellQuoted(name))"
  }

  /// `text` as one shell word: as it is when it is plain, else in single quotes.
  static func shellQuoted(_ text: String) -> String {
    let plain = !text.isEmpty && text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "/._-+:=@%,".contains($0)) }
    return plain ? text : "'" + text.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
  }

  /// Whether a case's actual image can be accepted as its reference.
  static func isAcceptable(_ item: SnapshotCheck.CaseResult) -> Bool {
    [.failed, .new, .missing].contains(item.status) && item.actual != nil
  }
}
