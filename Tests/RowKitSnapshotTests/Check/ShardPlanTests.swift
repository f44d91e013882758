import Foundation
import RowKitSnapshot
import Testing

/// Shards by cost (`ShardPlan`): every case in exactly one shard, shards of about equal time.
struct ShardPlanTests {
  /// 12 long tables of 50 s beside 300 one-row cases of 1 s: costs that vary 50×.
  static let names = (0..<312).map { String(format: "case-%03d", $0) }
  static let costs = Dictionary(uniqueKeysWithValues: names.enumerated().map { ($1, $0 % 26 == 0 ? 50.0 : 1.0) })

  @Test func costShardsCoverTheSuiteOnceAndTakeAboutEqualTime() {
    let plan = ShardPlan.byCost(Self.names, costs: Self.costs, count: 4)
    #expect(plan.shards.flatMap { $0 }.sorted() == Self.names)
    let total = Self.costs.values.reduce(0, +)
    #expect(abs(plan.estimates.reduce(0, +) - total) < 1e-9)
    let spread = plan.estimates.max()! / plan.estimates.min()! - 1
    #expect(spread < 0.05, "\(plan.estimates)")
    // Each shard's cases stay in the suite's order.
    for shard in plan.shards { #expect(shard == shard.sorted()) }

    // Every n-th case puts the long tables where they fall: here 6 each on shards 1 and 3.
    let byCount = ShardPlan.byCount(Self.names, count: 4)
    let countLoads = byCount.shards.map { $0.reduce(0) { $0 + Self.costs[$1]! } }
    #expect(countLoads == [372, 78, 372, 78])
    #expect(countLoads.max()! / countLoads.min()! - 1 > 1)
  }

  @Test func theSamePlanOnEveryMachineAndNewCasesCostTheMedian() {
    let first = ShardPlan.byCost(Self.names, costs: Self.costs, count: 3)
    let again = ShardPlan.byCost(Self.names, costs: Self.costs, count: 3)
    #expect(first == again)
    var costs = Self.costs
    costs["case-000"] = nil  // a case the timings do not know: the median, 1 s
    let plan = ShardPlan.byCost(Self.names, costs: costs, count: 3)
    #expect(plan.estimates.reduce(0, +) == Self.costs.values.reduce(0, +) - 49)
    // No timings at all: one second each, so shards of equal count.
    let blind = ShardPlan.byCost(Self.names, costs: [:], count: 4)
    #expect(blind.shards.map(\.count) == [78, 78, 78, 78])
  }

  @Test func timingsAreReadFromAReportAndABadOneIsNamed() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("shard-plan-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let environment = String(decoding: try EnvironmentFingerprint.current().jsonBytes(), as: UTF8.self)
    let report = """
      { "summary": { "total": 2, "passed": 2, "failed": 0, "new": 0, "missing": 0, "errors": 0, "orphans": 0 },
        "run": "r", "snapshots": "refs", "recordMode": "never", "options": \(String(decoding: try JSONEncoder().encode(ComparisonOptions.exact), as: UTF8.self)),
        "environment": \(environment), "orphans": [], "failsOnOrphans": false,
        "cases": [{ "name": "long", "document": "long.yaml", "status": "passed", "seconds": 2.5 },
                  { "name": "short", "document": "short.yaml", "status": "passed" }] }
      """
    try Data(report.utf8).write(to: folder.appendingPathComponent("report.json"))
    #expect(try ShardPlan.costs(fromReport: folder) == ["long": 2.5])
    #expect(try ShardPlan.costs(fromReport: folder.appendingPathComponent("report.json")) == ["long": 2.5])
    // A case the render cache passed took no render: it is a case the timings do not know,
    // not one that costs nothing (a mostly cached run put every case on one shard).
    try Data(report.replacingOccurrences(of: #""status": "passed" }]"#, with: #""status": "passed", "seconds": 0, "cached": true }]"#).utf8)
      .write(to: folder.appendingPathComponent("report.json"))
    #expect(try ShardPlan.costs(fromReport: folder) == ["long": 2.5])
    // Two cases of 1e308 seconds each once summed to infinity, and the plan failed to encode.
    try Data(report.replacingOccurrences(of: "\"seconds\": 2.5", with: "\"seconds\": 1e308").utf8)
      .write(to: folder.appendingPathComponent("report.json"))
    #expect(throws: SnapshotError("\(folder.appendingPathComponent("report.json").path): case 'long': seconds 1e+308 is not a time (0 to 31536000)")) {
      try ShardPlan.costs(fromReport: folder)
    }
    try Data("{ \"cases\": 3 }".utf8).write(to: folder.appendingPathComponent("report.json"))
    #expect(throws: SnapshotError.self) { try ShardPlan.costs(fromReport: folder) }
    #expect(throws: SnapshotError.self) { try ShardPlan.costs(fromReport: folder.appendingPathComponent("index.html")) }
  }
}
