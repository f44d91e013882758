import ArgumentParser
import Foundation
import RowKit
import RowKitSnapshot

extension RowKitCommand {
  struct MergeReports: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "merge-reports",
      abstract: "Join the report folders of a sharded check into one report and one review page.",
      discussion: """
        Each folder is one shard's `rowkit check --shard i/n --report DIR`. The merged \
        report.json is the one the unsharded run would have written: the same cases in the \
        same order, the same results and summary. Shards of different runs, the same shard \
        twice, or a missing shard are errors naming the folders, and nothing is written. \
        Exits as the unsharded check would: 0 when every case passed, 1 when any failed, 2 on \
        a bad document (or on bad input).

        Example:
          rowkit merge-reports shard-1 shard-2 shard-3 shard-4 -o report --summary summary.md
        """)

    @Argument(help: "The shards' report folders.")
    var folders: [String]

    @Option(name: .shortAndLong, help: "The merged report folder: a new folder, an empty one or an earlier report, which it replaces whole. A shard that names an image outside its folder, or holds a symbolic link, is refused.")
    var output: String

    @Option(help: ArgumentHelp("Write a JUnit XML file over all cases.", valueName: "file"))
    var junit: String?

    @Option(help: ArgumentHelp("Write a Markdown summary over all cases.", valueName: "file"))
    var summary: String?

    @Flag(help: "The review page shows only failed, new and missing cases and errors.")
    var reportOnlyFailures = false

    func validate() throws {
      if folders.isEmpty { throw ValidationError("name the shards' report folders") }
      // The merged report replaces its folder whole: over a shard, or around one, it would
      // take away the shard it is merged from, and a second merge would have nothing to read.
      let merged = URL(fileURLWithPath: output)
      for folder in folders {
        let shard = URL(fileURLWithPath: folder)
        if ContainedPath.isInside(merged, folder: shard) {
          throw ValidationError("-o \(output) is the shard report \(folder) or inside it; give the merged report a folder of its own")
        }
        if ContainedPath.isInside(shard, folder: merged) {
          throw ValidationError("the shard report \(folder) is inside -o \(output), which is replaced whole; give the merged report a folder of its own")
        }
      }
    }

    func run() throws {
      try CISummaries.checkTargets(
        junit: junit, summary: summary,
        inputs: folders.map { CISummaries.Input("the shard report", URL(fileURLWithPath: $0)) }
          + [CISummaries.Input("the merged report", URL(fileURLWithPath: output))])
      let report = try ReportMerging.write(
        folders.map { URL(fileURLWithPath: $0) }, into: URL(fileURLWithPath: output), pathForCommands: output,
        onlyFailures: reportOnlyFailures)
      try CISummaries.write(report, reportPath: output, junit: junit, summary: summary)
      StandardStreams.print("merged \(folders.count) shards: " + report.summaryLine + "; report in \(output)")
      if report.exitStatus != 0 { throw ExitCode(report.exitStatus) }
    }
  }
}
