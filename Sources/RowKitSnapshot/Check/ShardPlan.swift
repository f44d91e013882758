import Foundation
import RowKit

/// How a suite's cases are split across machines: by count, every n-th case (the default),
/// or by cost, packed so that every shard takes about as long, from each case's time in an
/// earlier report (`rowkit check --shard i/n --shard-by cost --timings REPORT`).
///
/// Every shard computes the same plan from the same suite and timings, so the machines of
/// a run need nothing but `i/n` from CI: `rowkit shards plan` prints that matrix.
package struct ShardPlan: Sendable, Equatable {
  /// Each shard's cases, in the suite's order.
  public var shards: [[String]]
  /// Each shard's estimated time, in seconds.
  public var estimates: [Double]

  /// The most shards a suite is split into. A plan holds a list per shard, so a count from a
  /// typo or a hostile report (`1/1000000000000`) would exhaust memory before any case ran.
  public static let maximumCount = 1_000

  /// The plan of `count` shards for the cases named `cases` (in the suite's order), each
  /// costing `costs[name]` seconds. A case the timings do not know (new since) costs the
  /// median of those they do, or 1 s when they know none. Cases are placed longest first,
  /// each on the shard that would finish first (the first such shard on a tie), and ties
  /// between cases go by name, so the plan is the same on every machine.
  public static func byCost(_ cases: [String], costs: [String: Double], count: Int) -> ShardPlan {
    let known = cases.compactMap { costs[$0] }.sorted()
    let fallback = known.isEmpty ? 1 : known[known.count / 2]
    let cost = Dictionary(cases.map { ($0, max(0, costs[$0] ?? fallback)) }, uniquingKeysWith: { a, _ in a })
    let order = Dictionary(cases.enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
    var loads = [Double](repeating: 0, count: max(1, count))
    var members = [[String]](repeating: [], count: loads.count)
    for name in cases.sorted(by: { (cost[$0]!, $1) > (cost[$1]!, $0) }) {
      let shard = loads.indices.min { (loads[$0], $0) < (loads[$1], $1) }!
      loads[shard] += cost[name]!
      members[shard].append(name)
    }
    return ShardPlan(shards: members.map { $0.sorted { order[$0]! < order[$1]! } }, estimates: loads)
  }

  /// The plan of `count` shards by count: case k goes to shard k mod count.
  public static func byCount(_ cases: [String], count: Int) -> ShardPlan {
    var members = [[String]](repeating: [], count: max(1, count))
    for (offset, name) in cases.enumerated() { members[offset % members.count].append(name) }
    return ShardPlan(shards: members, estimates: members.map { Double($0.count) })
  }

  /// Each case's time in seconds, read from the report folder or `report.json` at `url` (the
  /// merged report of an earlier run, or one shard's). An error names the file when it is
  /// not a RowKit report; a case without a time (a report of an older RowKit) or passed from
  /// the render cache is left out.
  public static func costs(fromReport url: URL) throws -> [String: Double] {
    try timings(at: url).costs
  }

  /// The report at `url` (a report folder or its `report.json`) and each case's seconds in it.
  public static func timings(at url: URL) throws -> (report: SnapshotCheck.Report, costs: [String: Double]) {
    let folder = try timingsFolder(url)
    let report = try ReportFolder.read(folder)
    return (report, try costs(of: report, folder: folder))
  }

  private static func timingsFolder(_ url: URL) throws -> URL {
    var isFolder: ObjCBool = false
    guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) else {
      throw SnapshotError("\(url.path): no such report folder (timings come from an earlier run's report)")
    }
    if !isFolder.boolValue, url.lastPathComponent != ReportFolder.reportFile {
      throw SnapshotError("\(url.path): timings come from a report folder or its \(ReportFolder.reportFile)")
    }
    return isFolder.boolValue ? url : url.deletingLastPathComponent()
  }

  /// The most seconds one case of a report may say it took: a year.
  static let maximumCaseSeconds: Double = 365 * 24 * 3600

  /// Each case's seconds in `report`, read from `folder`.
  private static func costs(of report: SnapshotCheck.Report, folder: URL) throws -> [String: Double] {
    var costs: [String: Double] = [:]
    for item in report.cases {
      // A case the render cache passed took no render: its time says nothing of what it
      // costs when its inputs change, and it is planned as a case the timings do not know.
      guard let seconds = try checkedSeconds(of: item, folder: folder), item.cached != true else { continue }
      costs[item.name] = seconds
    }
    return costs
  }

  /// The seconds `item` of the report in `folder` says it took; an error naming the report
  /// and the case when they are no time. A bound, not only finiteness: shards add their
  /// cases' seconds, and two of 1e308 made an infinite sum that failed to encode, with no
  /// file named.
  static func checkedSeconds(of item: SnapshotCheck.CaseResult, folder: URL) throws -> Double? {
    guard let seconds = item.seconds else { return nil }
    guard seconds.isFinite, seconds >= 0, seconds <= Self.maximumCaseSeconds else {
      throw SnapshotError(
        "\(folder.appendingPathComponent(ReportFolder.reportFile).path): case '\(item.name)': seconds \(seconds) is not a time (0 to \(Int(Self.maximumCaseSeconds)))")
    }
    return seconds
  }
}
