import Foundation
import RowKit

/// `rowkit merge-reports`: joins the report folders of the shards of one run
/// (`rowkit check --shard i/n --report DIR`) into one report folder whose `report.json` is
/// the one the unsharded run would have written (the same cases in the same order, the same
/// results and summary; only the paths of failure images in messages name the merged
/// folder), with one review page over all cases.
package enum ReportMerging {
  /// Reads and checks the shards in `folders`, and returns the merged report. Nothing is
  /// written. Errors name the folders: a folder that is not a shard, shards of different
  /// runs (other cases, references, record mode, options or environment), the same shard
  /// twice, or a shard missing.
  public static func merge(_ folders: [URL], into output: URL) throws -> SnapshotCheck.Report {
    guard !folders.isEmpty else { throw SnapshotError("no report folders to merge") }
    var shards: [(folder: URL, report: SnapshotCheck.Report, index: Int, count: Int)] = []
    for folder in folders {
      let report = try ReportFolder.read(folder)
      // Refused here, not only by the plan that reads the merged report's timings later.
      for item in report.cases { _ = try ShardPlan.checkedSeconds(of: item, folder: folder) }
      guard let shard = report.shard else {
        throw SnapshotError("\(folder.path): not a shard (its run had no --shard i/n); there is nothing to merge it with")
      }
      let parts = shard.split(separator: "/").compactMap { Int($0) }
      guard parts.count == 2, (1...ShardPlan.maximumCount).contains(parts[1]), (1...parts[1]).contains(parts[0]) else {
        throw SnapshotError("\(folder.path): shard '\(shard)' is not i/n with 1 ≤ i ≤ n ≤ \(ShardPlan.maximumCount)")
      }
      shards.append((folder, report, parts[0], parts[1]))
    }
    let first = shards[0]
    for other in shards.dropFirst() {
      if other.count != first.count || other.report.run != first.report.run {
        throw SnapshotError(
          "\(first.folder.path) and \(other.folder.path) are shards of different runs "
            + "(other cases, references, record mode or options; shards \(first.report.shard!) and \(other.report.shard!))")
      }
      if other.report.environment != first.report.environment {
        let differences = first.report.environment.differences(from: other.report.environment).joined(separator: ", ")
        throw SnapshotError("\(first.folder.path) and \(other.folder.path) were checked in different environments (\(differences))")
      }
    }
    var byIndex: [Int: URL] = [:]
    for shard in shards {
      if let earlier = byIndex[shard.index] {
        throw SnapshotError("\(earlier.path) and \(shard.folder.path) are both shard \(shard.index)/\(shard.count)")
      }
      byIndex[shard.index] = shard.folder
    }
    if let missing = (1...first.count).first(where: { byIndex[$0] == nil }) {
      throw SnapshotError(
        "shard \(missing)/\(first.count) is missing: merging \(shards.map(\.folder.path).joined(separator: ", "))")
    }

    func relocated(_ item: SnapshotCheck.CaseResult, origin: String?) -> SnapshotCheck.CaseResult {
      var item = item
      if let origin, let message = item.message {
        item.message = message.replacingOccurrences(of: origin + "/", with: output.standardizedFileURL.path + "/")
      }
      return item
    }
    var cases: [SnapshotCheck.CaseResult?]
    if let suite = first.report.suite {
      // Each case goes back to its place in the suite, however the suite was split.
      let positions = Dictionary(suite.enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
      cases = [SnapshotCheck.CaseResult?](repeating: nil, count: suite.count)
      var doubled: [String] = []
      for shard in shards {
        let origin = originalFolder(of: shard.report)
        for item in shard.report.cases {
          guard let position = positions[item.name] else {
            throw SnapshotError("\(shard.folder.path): case '\(item.name)' is not in the suite of its run")
          }
          if cases[position] != nil { doubled.append(item.name) } else { cases[position] = relocated(item, origin: origin) }
        }
      }
      let missing = suite.indices.filter { cases[$0] == nil }.map { suite[$0] }
      if !missing.isEmpty || !doubled.isEmpty {
        var problems: [String] = []
        if !missing.isEmpty { problems.append("\(Self.listed(missing)) in no shard") }
        if !doubled.isEmpty { problems.append("\(Self.listed(doubled)) in two shards") }
        throw SnapshotError(
          "the shards do not cover the suite exactly once: " + problems.joined(separator: "; ")
            + " (were the shards split with the same --shard-by and --timings?)")
      }
    } else {
      // A report of an older RowKit: case k of shard i was case k·n + i−1 of the suite.
      let total = shards.reduce(0) { $0 + $1.report.cases.count }
      cases = [SnapshotCheck.CaseResult?](repeating: nil, count: total)
      for shard in shards {
        let origin = originalFolder(of: shard.report)
        for (k, item) in shard.report.cases.enumerated() {
          let position = k * shard.count + shard.index - 1
          guard position < total, cases[position] == nil else {
            throw SnapshotError("\(shard.folder.path): shard \(shard.index)/\(shard.count) has more cases than its run")
          }
          cases[position] = relocated(item, origin: origin)
        }
      }
    }
    let total = cases.count
    var merged = first.report
    merged.shard = nil
    merged.suite = nil
    merged.cases = cases.map { $0! }
    merged.summary = SnapshotCheck.Report.Summary()
    merged.summary.total = total
    for item in merged.cases { merged.summary.count(item) }
    merged.orphans = Array(Set(shards.flatMap(\.report.orphans))).sorted()
    merged.summary.orphans = merged.orphans.count
    merged.failsOnOrphans = shards.contains { $0.report.failsOnOrphans }
    merged.environmentMismatch = shards.lazy.compactMap(\.report.environmentMismatch).first
    return merged
  }

  /// Merges the shards in `folders` into the report folder `output`: `report.json`,
  /// `index.html` and every shard's case images. `output` must be a new folder, an empty
  /// one or an earlier report; the merged report is written beside it and swapped in whole
  /// (`ReportFolder/Staging`), so a refused merge writes nothing and an old report's
  /// images never mix with the new ones. The shards' images are copied only as regular
  /// files: a symbolic link in a shard is an error.
  public static func write(
    _ folders: [URL], into output: URL, pathForCommands: String, onlyFailures: Bool
  ) throws -> SnapshotCheck.Report {
    var report = try merge(folders, into: output)
    let staging = try ReportFolder.Staging(replacing: output, option: "-o")
    defer { staging.discard() }
    for folder in folders {
      let cases = folder.appendingPathComponent(ReportFolder.casesFolder)
      var info = stat()
      guard lstat(cases.path, &info) == 0 else { continue }
      try copyTree(cases, into: staging.casesFolder)
    }
    // As a check with `--report-only-failures` writes it: a passed case is counted, and its
    // reference (the one image a shard keeps of it) is not copied.
    if onlyFailures {
      for index in report.cases.indices where report.cases[index].status == .passed {
        guard let reference = report.cases[index].reference else { continue }
        report.cases[index].reference = nil
        let copied = staging.folder.appendingPathComponent(reference)
        var info = stat()
        guard ContainedPath.isInside(copied, folder: staging.casesFolder), lstat(copied.path, &info) == 0,
          info.st_mode & S_IFMT == S_IFREG
        else { continue }
        try FileManager.default.removeItem(at: copied)
        // Its folder, made by the copy, goes when nothing else is in it (a case `a/b` keeps `a`).
        var folder = copied.deletingLastPathComponent()
        while folder.path != staging.casesFolder.path, ContainedPath.isInside(folder, folder: staging.casesFolder),
          rmdir(folder.path) == 0
        {
          folder = folder.deletingLastPathComponent()
        }
      }
    }
    try ReportFolder.write(report, to: staging.folder, pathForCommands: pathForCommands, onlyFailures: onlyFailures)
    try staging.commit()
    return report
  }

  /// Case names for a message: all of up to five, else the first three and how many more.
  static func listed(_ names: [String]) -> String {
    let count = names.count == 1 ? "1 case" : "\(names.count) cases"
    let shown = names.count <= 5 ? names : Array(names.prefix(3)) + ["\(names.count - 3) more"]
    return "\(count) (" + shown.joined(separator: ", ") + ")"
  }

  /// The absolute folder the shard's report was written in, read back from the path of a
  /// failure image in a message (messages name them absolutely); nil when no message does.
  static func originalFolder(of report: SnapshotCheck.Report) -> String? {
    for item in report.cases {
      guard let message = item.message else { continue }
      for relative in [item.actual, item.reference, item.diff, item.composite].compactMap({ $0 }) {
        guard let range = message.range(of: "/" + relative) else { continue }
        let before = message[..<range.lowerBound]
        guard let start = before.lastIndex(of: " ") else { continue }
        return String(before[before.index(after: start)...])
      }
    }
    return nil
  }

  /// Copies the folders and regular files under `source` into `target`, folders made as
  /// needed. A shard comes from outside: a symbolic link (which could lead anywhere) or any
  /// other kind of file in it is an error, and so is a file that is already there (the same
  /// case in two shards).
  private static func copyTree(_ source: URL, into target: URL) throws {
    var info = stat()
    guard lstat(source.path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
      throw SnapshotError("\(source.path): is not a folder (a symbolic link?); a shard's images are never followed out of it")
    }
    try OutputWriter.createFolder(target)
    let names = try FileManager.default.contentsOfDirectory(atPath: source.path).sorted()
    for name in names {
      let (from, to) = (source.appendingPathComponent(name), target.appendingPathComponent(name))
      guard lstat(from.path, &info) == 0 else { throw SnapshotError("\(from.path): \(String(cString: strerror(errno)))") }
      switch info.st_mode & S_IFMT {
      case S_IFDIR:
        try copyTree(from, into: to)
      case S_IFREG:
        guard lstat(to.path, &info) != 0 else { throw SnapshotError("\(from.path): \(to.lastPathComponent) is in two shards") }
        try FileManager.default.copyItem(at: from, to: to)
      default:
        throw SnapshotError("\(from.path): is not a regular file (a symbolic link?); a shard's images are never followed out of it")
      }
    }
  }
}

extension SnapshotCheck.Report.Summary {
  /// Counts one case's result.
  mutating func count(_ result: SnapshotCheck.CaseResult) {
    if result.status == .failed, result.rasterizationOnly == true { rasterizationOnly = (rasterizationOnly ?? 0) + 1 }
    switch result.status {
    case .passed:
      passed += 1
      if result.cached == true { cached = (cached ?? 0) + 1 }
    case .failed: failed += 1
    case .new: new += 1
    case .missing: missing += 1
    case .error: errors += 1
    }
  }
}
