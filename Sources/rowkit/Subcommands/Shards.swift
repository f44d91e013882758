import ArgumentParser
import Foundation
import RowKitSnapshot

extension RowKitCommand {
  struct Shards: ParsableCommand {
    // Every command names itself: a command without a name makes the argument parser make
    // one from its type's name, which looks up conformances across the whole binary on
    // every run (about a millisecond of each start).
    static let configuration = CommandConfiguration(
      commandName: "shards",
      abstract: "Plan the shards of a suite for a CI matrix.",
      discussion: """
        Example:
          rowkit shards plan 4 --timings report
        """,
      subcommands: [Plan.self])

    struct Plan: ParsableCommand {
      static let configuration = CommandConfiguration(
        commandName: "plan",
        abstract: "Print the matrix of N shards that take equal time, from an earlier run's report.",
        discussion: """
          Each case costs its time in the report (`seconds` in report.json; cases that passed \
          from the render cache cost almost nothing); a case the report does not know costs the \
          median. Each machine then runs `rowkit check --shard i/N --shard-by cost --timings \
          REPORT`, which computes the same split, and `rowkit merge-reports` checks that the \
          shards covered every case exactly once.

          --format github prints one line for a GitHub Actions matrix \
          (`echo "matrix=$(rowkit shards plan 4 --timings report)" >> "$GITHUB_OUTPUT"`, then \
          `matrix: ${{ fromJSON(needs.plan.outputs.matrix) }}`); GitLab's and Buildkite's \
          parallel jobs read the same `shard` values. --format json also lists each shard's cases.

          Example:
            rowkit shards plan 4 --timings report
            rowkit shards plan 8 --timings merged/report.json --format json
          """)

      @Argument(help: "How many shards.")
      var count: Int

      @Option(help: ArgumentHelp("The report folder (or its report.json) of an earlier run, merged or not.", valueName: "report"))
      var timings: String

      @Option(help: "github: one line, {\"include\": [{\"shard\": \"1/4\", …}]}; json: each shard with its cases.")
      var format: PlanFormat = .github

      func validate() throws {
        guard (1...ShardPlan.maximumCount).contains(count) else {
          throw ValidationError("the shard count \(count) is not within 1…\(ShardPlan.maximumCount)")
        }
      }

      func run() throws {
        let (report, costs) = try ShardPlan.timings(at: URL(fileURLWithPath: timings))
        let plan = ShardPlan.byCost(report.suite ?? report.cases.map(\.name), costs: costs, count: count)
        let shards = plan.shards.indices.map { index -> PlannedShard in
          PlannedShard(
            shard: "\(index + 1)/\(count)", seconds: (plan.estimates[index] * 10).rounded() / 10,
            caseCount: plan.shards[index].count, cases: format == .json ? plan.shards[index] : nil)
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = format == .json ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        let text = String(decoding: try encoder.encode(format == .json ? Matrix(shards: shards) : Matrix(include: shards)), as: UTF8.self)
        StandardStreams.print(text)
      }
    }
  }
}

/// How `rowkit shards plan` prints its plan.
enum PlanFormat: String, ExpressibleByArgument, CaseIterable {
  case github
  case json
}

/// One shard of a printed plan.
private struct PlannedShard: Encodable {
  var shard: String
  var seconds: Double
  var caseCount: Int
  var cases: [String]?

  enum CodingKeys: String, CodingKey {
    case shard, seconds, caseCount = "cases", cases = "names"
  }
}

/// The printed plan: GitHub's matrix form (`include`) or the detailed one (`shards`).
private struct Matrix: Encodable {
  var include: [PlannedShard]?
  var shards: [PlannedShard]?
}
