import ArgumentParser
import Foundation
import RowKit
import RowKitGraphics
import RowKitSnapshot

extension RowKitCommand {
  struct Check: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Render every table document in a folder and compare each with its reference.",
      discussion: """
        DIR/a/b.yaml is compared with SNAPDIR/a/b.png. Exits 0 when every case matches, 1 when \
        any differs or has no reference, 2 when a document is bad input. With CI set in the \
        environment nothing is ever written to SNAPDIR and a missing reference fails. When the \
        references were recorded with other library or font versions (SNAPDIR/environment.json), \
        one message says so and nothing is compared. A document with a variants: block is one \
        case per variant: DIR/a/b.yaml in dark at AX3 is compared with SNAPDIR/a/b@dark,AX3.png. \
        --lint fails a case with design-lint findings (see rowkit lint).

        Example:
          rowkit check Assets/Samples --snapshots Snapshots/Check --report report
          rowkit check tables --snapshots refs --shard 2/4 --threshold 0.1 --ignore-antialiasing
        """)

    @Argument(help: "The folder of table documents (YAML or JSON, searched recursively).")
    var directory: String

    @Option(help: "The folder of reference PNGs.")
    var snapshots: String

    @Option(help: "missing | all | failed | never (default: ROWKIT_RECORD, else missing; never under CI).")
    var record: RecordMode?

    @Option(help: "Write report.json and the images of every case here, for review.")
    var report: String?

    @Option(help: "Check only shard i of n (1-based), e.g. 2/4, to split a suite across machines.")
    var shard: String?

    @Option(help: "Where failure artifacts go when there is no --report.")
    var artifacts: String?

    @Option(help: ArgumentHelp(
      "Cases rendered, decoded and compared on this many threads (default: one per core); the output is the same for any number.",
      valueName: "n"))
    var jobs: Int?

    @OptionGroup var tolerance: ToleranceOptions

    @OptionGroup(title: "Images") var imageOptions: ImageOptions

    @OptionGroup(title: "Text") var textOptions: TextOptions

    @Flag(help: "Lint every case: a case with design-lint findings fails (see rowkit lint).")
    var lint = false

    @OptionGroup(title: "Lint") var lintRules: LintRuleOptions

    func validate() throws {
      _ = try parsedShard()
      if let jobs, !(1...256).contains(jobs) { throw ValidationError("--jobs must be from 1 to 256") }
      if textOptions.language != nil {
        throw ValidationError("--language is not for check: give each document its language with table: { language: … }")
      }
      if record == nil, let problem = RecordMode.environmentProblem() { throw ValidationError(problem) }
    }

    func parsedShard() throws -> (index: Int, count: Int)? {
      guard let shard else { return nil }
      let parts = shard.split(separator: "/").map { Int($0) }
      guard parts.count == 2, let index = parts[0], let count = parts[1], count >= 1, (1...count).contains(index) else {
        throw ValidationError("--shard \(shard): expected i/n with 1 ≤ i ≤ n")
      }
      return (index, count)
    }

    func run() async throws {
      let options = try tolerance.comparisonOptions()
      var cases = SnapshotCheck.expandingVariants(
        try SnapshotCheck.discover(in: URL(fileURLWithPath: directory)), fontFamilies: try standardFamilies(),
        imageFolders: imageOptions.folders, brandFonts: try textOptions.brandFonts())
      if let (index, count) = try parsedShard() { cases = SnapshotCheck.shard(cases, index: index, count: count) }
      let reportURL = report.map { URL(fileURLWithPath: $0) }
      if let reportURL {
        // A report describes one run: images left from an earlier run would mislead.
        try? FileManager.default.removeItem(at: reportURL.appendingPathComponent("cases"))
      }
      let artifactsURL = reportURL?.appendingPathComponent("cases") ?? artifacts.map { URL(fileURLWithPath: $0) }
      let store = ReferenceStore(root: URL(fileURLWithPath: snapshots), artifactsRoot: artifactsURL)
      var check = SnapshotCheck(
        folder: URL(fileURLWithPath: directory), store: store, options: options, record: record, reportDirectory: reportURL)
      check.pipeline = imageOptions.makePipeline()
      if let jobs { check.pool = RenderPool(workers: jobs) }
      check.imageDeadline = imageOptions.deadline
      check.imageFolders = imageOptions.folders
      check.brandFonts = try textOptions.brandFonts()
      check.failsOnMissingGlyphs = textOptions.strict
      if lint { check.lint = try lintRules.options() }
      let result = try await check.run(cases, shard: shard, fontFamilies: try standardFamilies())
      if let mismatch = result.environmentMismatch {
        FileHandle.standardError.write(Data("rowkit: \(mismatch)\n".utf8))
        throw ExitCode(result.exitStatus)
      }
      for item in result.cases {
        let label = item.status.rawValue.uppercased()
        let line = item.message.map { "\(label) \($0)" } ?? "\(label) \(item.name)"
        // A bad document is bad input: its reason goes to stderr, as every command's does.
        for warning in item.warnings ?? [] where item.status != .error {
          FileHandle.standardError.write(Data("rowkit: warning: \(warning)\n".utf8))
        }
        if item.status == .error {
          FileHandle.standardError.write(Data("rowkit: error: \(item.message ?? item.name)\n".utf8))
        }
        print(line)
      }
      let s = result.summary
      print("\(s.total) cases: \(s.passed) passed, \(s.failed) failed, \(s.new) new, \(s.missing) missing, \(s.errors) errors"
        + (shard.map { " (shard \($0))" } ?? "") + (reportURL.map { "; report in \($0.path)" } ?? ""))
      if result.exitStatus != 0 { throw ExitCode(result.exitStatus) }
    }
  }
}
