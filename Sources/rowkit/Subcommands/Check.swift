import ArgumentParser
import Foundation
import RowKit
import RowKitGraphics
import RowKitSnapshot

extension RowKitCommand {
  struct Check: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "check",
      abstract: "Render every table document in a folder and compare each with its reference.",
      discussion: """
        DIR/a/b.yaml is compared with SNAPDIR/a/b.png. Exits 0 when every case matches, 1 when \
        any differs or has no reference, 2 when a document is bad input. With CI set in the \
        environment nothing is ever written to SNAPDIR and a missing reference fails. When the \
        references were recorded with other library or font versions (SNAPDIR/environment.json), \
        one message says so, the run fails, nothing is recorded, and each case is compared \
        anyway: a failing case whose layout record is unchanged and whose differing pixels all \
        lie inside glyphs is "rasterization only" (counted in the summary line; accept them all \
        with rowkit accept REPORT --rasterization-only), any other tells what changed. A document with a variants: block is one \
        case per variant: DIR/a/b.yaml in dark at AX3 is compared with SNAPDIR/a/b@dark,AX3.png. \
        --lint fails a case with design-lint findings (see rowkit lint). --headroom measures \
        every text slot's headroom in each case (see rowkit lint --headroom): report.json keeps \
        it per case and the review page shows each case's tightest slots, those below \
        --min-headroom marked; with --lint, a slot below it fails its case. Cases are then \
        always rendered, never passed from the render cache.

        --report DIR must be a new folder, an empty one or an earlier report (anything else is \
        refused, exit 2): the report is written beside it and replaces it whole at the end, so \
        an interrupted check leaves the earlier report, never half of one.

        A render in which an image failed to load (its slot shows the default image) is an \
        error, and nothing is compared or recorded, as in the Swift assertions: a reference \
        must not show a mistake. A document that shows a failed image on purpose switches \
        the imageFailed lint rule off (lint: { off: [imageFailed] }); --lint-off imageFailed \
        allows it in every case (design previews have no lint: of their own). References are never \
        written or deleted through a symbolic link that leads out of SNAPDIR.

        Beside each reference lives its layout record, SNAPDIR/a/b.layout.json: every row's \
        elements with their frames, text, fonts, colors and image states. When a case fails, \
        the lines under it say what changed, one sentence each (s0-r3 title moved down 2 pt \
        (y 12 → 14)), or, when the layout is the same, where the pixels differ (layout \
        unchanged; 412 pixels differ, all inside s0-r3 title's glyphs). A reference without a \
        record is checked as before; one note says how many have none. A table of more than 2,000 \
        rows keeps no record (it would be held whole in memory) and is checked by its pixels.

        A table is compared strip by strip as it is rendered, against its reference decoded a \
        few rows at a time: memory does not grow with the table's height. A reference of more \
        than 40,000,000 pixels or 1,000,000 rows is kept as tiles, SNAPDIR/a/b.png for the top \
        and SNAPDIR/a/b+2.png, b+3.png, … below, as are a tall case's images in the report.

        --jobs N (default: one per core) checks the cases in N processes, this one and N - 1 \
        helpers (rowkit itself, run with the same command line), each with one render worker: \
        every text call of a process goes through one lock, so processes side by side use the \
        cores that threads of one process could not. The output, the report and the references \
        are the same for any N. A helper that cannot start or stops early says so on stderr, \
        and its cases are checked in this process. A check of one case renders its rows on N \
        workers of this process instead.

        References with no case are listed as ORPHAN lines; --fail-on-orphans makes them fail \
        the check and --prune deletes them (never under CI). A folder with nothing to check \
        fails unless --allow-empty is given.

        Example:
          rowkit check Assets/Samples --snapshots Snapshots/Check --report report
          rowkit check tables --snapshots refs --shard 2/4 --threshold 0.1 --ignore-antialiasing
          rowkit check tables --snapshots refs --report report --junit junit.xml --summary summary.md
          rowkit check tables --snapshots refs --report report --lint --headroom --min-headroom 40
          rowkit check --designs Assets/Designs --stylesheet Assets/Designs/styles.yaml --assets Assets --snapshots refs --lint-off imageFailed
        """)

    @Argument(help: "The folder of table documents (YAML or JSON, searched recursively).")
    var directory: String?

    @Option(help: ArgumentHelp(
      "Also check every cell design file in this folder: each preview item, normal and selected, as a case.",
      valueName: "dir"))
    var designs: String?

    @Option(help: "With --designs: the stylesheet the designs use.")
    var stylesheet: String?

    @Option(help: "With --designs: where bundle:// URLs resolve (default: the designs folder).")
    var assets: String?

    @Option(help: "The folder of reference PNGs.")
    var snapshots: String

    @Option(help: """
      missing | all | failed | never (default: ROWKIT_RECORD, else missing; never under CI). Each reference gets \
      its layout record (NAME.layout.json) beside it whenever it is recorded; missing also adds the record of a \
      reference that has none, without touching a PNG whose pixels match.
      """)
    var record: RecordMode?

    @Option(help: "Write report.json, the review page and the images of every case here (a new folder, an empty one or an earlier report), for review.")
    var report: String?

    @Option(help: "Check only shard i of n (1-based, n at most 1000), e.g. 2/4, to split a suite across machines.")
    var shard: String?

    @Option(help: "With --shard: split the suite by count (every n-th case) or by cost (shards that take equal time, from --timings).")
    var shardBy: ShardSplit = .count

    @Option(help: ArgumentHelp(
      "With --shard-by cost: the report folder (or its report.json) of an earlier run, merged or not, whose cases' times plan the shards.",
      valueName: "report"))
    var timings: String?

    @Option(help: "Where failure artifacts go when there is no --report (default: a folder of the references' own in the temporary folder).")
    var artifacts: String?

    @Flag(help: "Fail the check when a reference has no case.")
    var failOnOrphans = false

    @Flag(help: "Delete references that have no case (an error under CI).")
    var prune = false

    @Flag(help: "Pass when there is nothing to check (by default an empty suite fails).")
    var allowEmpty = false

    @Option(help: ArgumentHelp("Write a JUnit XML file: one test case per snapshot.", valueName: "file"))
    var junit: String?

    @Option(help: ArgumentHelp("Write a Markdown summary (for a CI step summary or a pull-request comment).", valueName: "file"))
    var summary: String?

    @Flag(help: "With --report: the review page shows only failed, new and missing cases and errors, and passed cases' images are not copied.")
    var reportOnlyFailures = false

    @Flag(help: "Keep no layout records: write, compare and prune the PNGs alone (failures are then told by pixels only).")
    var noLayoutRecords = false

    @Flag(help: "Render every case: pass none from the render cache, and write no inputs files beside references.")
    var noCache = false

    @Flag(help: "Say, under each rendered case, why the render cache could not pass it (which input changed).")
    var explainCache = false

    @OptionGroup var jobs: JobsOption

    // A helper process of a check with --jobs over 1 (SnapshotCheck.HelperProcesses): the
    // check's own command line and this flag. Not for users.
    @Flag(help: ArgumentHelp(visibility: .private))
    var helperProcess = false

    // The program helpers run instead of this one: how the tests make a helper that does not
    // start or that stops.
    @Option(help: ArgumentHelp(visibility: .private))
    var helperExecutable: String?

    @OptionGroup var tolerance: ToleranceOptions

    @OptionGroup(title: "Images") var imageOptions: ImageOptions

    @OptionGroup(title: "Text") var textOptions: TextOptions

    @OptionGroup(title: "Variants") var variantOptions: VariantOptions

    @Flag(help: "Lint every case: a case with design-lint findings fails (see rowkit lint).")
    var lint = false

    @OptionGroup(title: "Lint") var lintRules: LintRuleOptions

    @Option(help: ArgumentHelp(
      "With --lint, a lint baseline (see rowkit lint --baseline): only findings it does not list fail a case.",
      valueName: "file.json"))
    var baseline: String?

    @OptionGroup(title: "Headroom") var headroomOptions: HeadroomOptions

    func validate() throws {
      _ = try parsedShard()
      if shardBy == .cost && (shard == nil || timings == nil) {
        throw ValidationError("--shard-by cost goes with --shard i/n and --timings REPORT (an earlier run's report)")
      }
      if timings != nil && shardBy != .cost { throw ValidationError("--timings goes with --shard-by cost") }
      if directory == nil && designs == nil { throw ValidationError("give a folder of table documents, --designs DIR, or both") }
      if designs == nil && (stylesheet != nil || assets != nil) {
        throw ValidationError("--stylesheet and --assets go with --designs")
      }
      if prune && RecordMode.isCI() {
        throw ValidationError("--prune deletes references, and CI is set: references are never changed under CI")
      }
      if baseline != nil && !lint { throw ValidationError("--baseline goes with --lint") }
      if reportOnlyFailures && report == nil { throw ValidationError("--report-only-failures goes with --report") }
      if prune && failOnOrphans {
        throw ValidationError("--prune deletes the orphaned references; --fail-on-orphans fails the check on them: give one")
      }
      if noCache && explainCache { throw ValidationError("--explain-cache says why the cache rendered a case; --no-cache uses no cache") }
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
      guard count <= ShardPlan.maximumCount else {
        throw ValidationError("--shard \(shard): a suite is split into at most \(ShardPlan.maximumCount) shards")
      }
      return (index, count)
    }

    func run() async throws {
      if helperProcess {
        try RowKitRuntime.configure(jobs: 1)
        try await SnapshotCheck.serveAsHelper {
          (try makeCheck(report: nil, options: try tolerance.comparisonOptions()).check, try standardFamilies())
        }
        return
      }
      // Folders of documents and images count by their files' kinds (a check of `.` writes
      // its `build/junit.xml` inside); the references and the report, wholly.
      let documents = CISummaries.Input.documentExtensions
      let inputs: [CISummaries.Input] = [
        ("the documents", directory, documents), ("the designs", designs, documents),
        ("the assets", assets, ["png", "jpg", "jpeg", "webp"]), ("the stylesheet", stylesheet, nil), ("the references", snapshots, nil),
        ("the report folder", report, nil), ("the baseline", baseline, nil),
      ].compactMap { what, path, extensions in path.map { CISummaries.Input(what, URL(fileURLWithPath: $0), extensions: extensions) } }
      try CISummaries.checkTargets(junit: junit, summary: summary, inputs: inputs)
      // The references and what a check writes besides them never nest: the report (or the
      // artifacts) inside the references are written under CI too and read as orphaned
      // references; the references inside the report are replaced with it.
      let references = URL(fileURLWithPath: snapshots)
      for (option, path) in [("--report", report), ("--artifacts", artifacts)] {
        guard let path else { continue }
        let written = URL(fileURLWithPath: path)
        if ContainedPath.isInside(written, folder: references) {
          throw ValidationError("\(option) \(path) is inside the references folder \(snapshots); give it a folder of its own")
        }
        // A folder that is no report is refused for that first, naming what is in it.
        if option == "--report" { try ReportFolder.checkReplaceable(written, option: option) }
        if ContainedPath.isInside(references, folder: written) {
          throw ValidationError("the references folder \(snapshots) is inside \(option) \(path), which is replaced whole; give it a folder of its own")
        }
      }
      let options = try tolerance.comparisonOptions()
      var suite: [SnapshotCheck.Case] = []
      if let directory {
        suite += SnapshotCheck.expandingVariants(
          try SnapshotCheck.discover(in: URL(fileURLWithPath: directory)), fontFamilies: try standardFamilies(),
          imageFolders: imageOptions.folders, brandFonts: try textOptions.brandFonts(), overriding: try variantOptions.axes())
      }
      if let designs {
        suite += try SnapshotCheck.discoverDesigns(
          in: URL(fileURLWithPath: designs), stylesheet: stylesheet.map { URL(fileURLWithPath: $0) },
          assets: assets.map { URL(fileURLWithPath: $0) }, fontFamilies: try standardFamilies() + textOptions.brandFonts().flatMap(\.families))
      }
      if suite.isEmpty && !allowEmpty {
        // A suite that found nothing has tested nothing: most often a wrong path or pattern.
        let folders = [directory, designs].compactMap { $0 }.joined(separator: " and ")
        StandardStreams.writeError(
          "rowkit: \(folders): no \(designs == nil ? "table documents" : "cases") to check; pass --allow-empty if that is expected\n")
        throw ExitCode(1)
      }
      var cases = suite
      if let (index, count) = try parsedShard() {
        if let timings, shardBy == .cost {
          let costs = try ShardPlan.costs(fromReport: URL(fileURLWithPath: timings))
          cases = SnapshotCheck.shard(suite, index: index, count: count, costs: costs)
        } else {
          cases = SnapshotCheck.shard(suite, index: index, count: count)
        }
      }
      if let note = RecordMode.ignoredUnderCI(record) { StandardStreams.writeError("rowkit: \(note)\n") }
      let reportURL = report.map { URL(fileURLWithPath: $0) }
      // Started once the cases are known, so that a check of one case starts none: they load
      // their fonts while this process builds its check and renders its first cases. Sized
      // before the check is made: it holds the runtime's pool.
      let helpers = cases.count > 1 ? startHelpers() : nil
      if helpers != nil { try RowKitRuntime.configure(jobs: 1) } else { try jobs.configureRuntime() }
      var (check, store) = try makeCheck(report: reportURL, options: options)
      check.helpers = helpers
      let result = try await check.run(cases, shard: shard, suite: suite, fontFamilies: try standardFamilies())
      try writeSummaries(result)
      print(result.caseListing(referencesRoot: store.root))
      let prunes = prune && !result.orphans.isEmpty
      if prunes { try check.prune(result) }
      print(
        result.closingListing(
          referencesRoot: store.root, artifactsRoot: store.artifactsRoot, reportFolder: reportURL, reportPath: report,
          pruned: prunes))
      if result.exitStatus != 0 { throw ExitCode(result.exitStatus) }
    }

    /// The check the command line asks for, and its references; a helper process builds the
    /// same one.
    private func makeCheck(report reportURL: URL?, options: ComparisonOptions) throws -> (check: SnapshotCheck, store: ReferenceStore) {
      let snapshotsURL = URL(fileURLWithPath: snapshots)
      let artifactsURL = SnapshotCheck.artifactsRoot(
        report: reportURL, explicit: artifacts.map { URL(fileURLWithPath: $0) }, snapshots: snapshotsURL)
      let store = ReferenceStore(root: snapshotsURL, artifactsRoot: artifactsURL)
      var check = SnapshotCheck(
        folder: URL(fileURLWithPath: directory ?? designs!), store: store, options: options, record: record,
        reportDirectory: reportURL)
      check.failsOnOrphans = failOnOrphans
      check.reportPathForCommands = report
      check.reportsOnlyFailures = reportOnlyFailures
      check.keepsLayoutRecords = !noLayoutRecords
      check.usesRenderCache = !noCache
      check.explainsRenderCache = explainCache
      check.pipeline = imageOptions.makePipeline()
      check.imageDeadline = imageOptions.deadline
      check.imageFolders = imageOptions.folders
      check.brandFonts = try textOptions.brandFonts()
      check.failsOnMissingGlyphs = textOptions.strict
      check.allowsFailedImages = !(try lintRules.options().runs(.imageFailed))
      if lint { check.lint = try lintRules.options() }
      check.lintBaseline = try baseline.map { try LintBaseline.load($0) }
      check.measuresHeadroom = headroomOptions.headroom
      check.minimumHeadroom = headroomOptions.minimum
      return (check, store)
    }

    /// The helper processes of a check with `--jobs` over 1 (default: one per core): every
    /// text call of a process goes through one lock, so `--jobs N` checks the cases in N
    /// processes of one render worker each, this one and N − 1 helpers. A single case renders
    /// its rows on N workers of this process instead.
    private func startHelpers() -> SnapshotCheck.HelperProcesses? {
      let lanes = min(jobs.count ?? ProcessInfo.processInfo.activeProcessorCount, RowKitRuntime.maximumJobs)
      guard lanes > 1 else { return nil }
      let me = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
      return SnapshotCheck.HelperProcesses(
        count: lanes - 1, executable: URL(fileURLWithPath: helperExecutable ?? me),
        arguments: Array(CommandLine.arguments.dropFirst()) + ["--helper-process"],
        note: { StandardStreams.writeError("rowkit: \($0)\n") })
    }

    private func print(_ lines: [SnapshotCheck.ListingLine]) {
      for line in lines {
        switch line {
        case .output(let text): StandardStreams.print(text)
        case .diagnostic(let text): StandardStreams.writeError("\(text)\n")
        }
      }
    }

    /// Writes the JUnit file and the Markdown summary, when asked for.
    private func writeSummaries(_ result: SnapshotCheck.Report) throws {
      try CISummaries.write(result, reportPath: report, junit: junit, summary: summary)
    }
  }
}

/// How `rowkit check --shard` splits a suite.
enum ShardSplit: String, ExpressibleByArgument, CaseIterable {
  /// Every n-th case.
  case count
  /// Shards of equal time, planned from an earlier run's report (`ShardPlan`).
  case cost
}
