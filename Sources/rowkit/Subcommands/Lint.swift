import ArgumentParser
import Foundation
import RowKit
import RowKitSnapshot

extension RowKitCommand {
  struct Lint: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "lint",
      abstract: "Find design problems in table documents, in every variant.",
      discussion: """
        Renders each document (every variant of its variants: block, or of the --variant-… \
        flags) and reports, per row: contrast (text against the pixels under it below WCAG 2.2 \
        AA: 4.5:1, or 3:1 for text of 24 points, or 18.67 bold), truncated (ellipsized or cut \
        at its line limit), clipped (content outside its row), tapTarget (a row with a URL or \
        a control shorter than 44 points), missingGlyph, overlap (labels, images, accessories) \
        and imageFailed. A document switches rules off with lint: { off: [rule, …] }.

        With --headroom, every text slot is laid out again with its text grown in 5% steps up \
        to 100%, and a slot that truncates, clips or overlaps before it is --min-headroom \
        percent longer (30 by default) is a headroom finding.

        With --baseline FILE, the findings the file lists pass and only new ones fail; findings \
        it lists that are gone are reported, and --update-baseline rewrites it with what was \
        found (never under CI). Findings are matched by document, variant, row (its item type \
        and title), element and rule, not by line or row number.

        Exit status: 0 when nothing (new) was found, 1 when something was, 2 on bad input.

        Example:
          rowkit lint Assets/Samples/*.yaml
          rowkit lint table.yaml --variant-appearance light,dark --variant-text-size large,AX5 --json
          rowkit lint table.yaml --lint-off truncated,tapTarget
          rowkit lint Assets/Samples/*.yaml --baseline lint-baseline.json
          rowkit lint table.yaml --headroom --min-headroom 40 --variant-text-size large,AX3
        """)

    @Argument(help: "The table documents (YAML or JSON).")
    var documents: [String]

    @Flag(help: "Print the findings as JSON on standard output.")
    var json = false

    @Option(help: ArgumentHelp(
      "A lint baseline: the findings it lists pass, new ones fail, gone ones are reported.", valueName: "file.json"))
    var baseline: String?

    @Flag(help: "Rewrite the --baseline file with the findings of this run (refused when CI is set).")
    var updateBaseline = false

    @OptionGroup(title: "Headroom") var headroomOptions: HeadroomOptions
    var headroom: Bool { headroomOptions.headroom }

    @OptionGroup(title: "Variants") var variantOptions: VariantOptions

    @OptionGroup(title: "Lint") var lintRules: LintRuleOptions

    @OptionGroup(title: "Text") var textOptions: TextOptions

    @OptionGroup(title: "Images") var imageOptions: ImageOptions

    func validate() throws {
      if documents.isEmpty { throw ValidationError("give at least one table document") }
      if documents.filter({ $0 == standardInputName }).count > 1 {
        throw ValidationError("standard input (-) can be read once")
      }
      if updateBaseline && baseline == nil { throw ValidationError("--update-baseline goes with --baseline FILE") }
      if updateBaseline && RecordMode.isCI() {
        throw ValidationError("--update-baseline rewrites the lint baseline, and CI is set: the baseline is never changed under CI")
      }
    }

    func run() async throws {
      let options = try lintRules.options()
      let baselineURL = baseline.map { URL(fileURLWithPath: $0) }
      // A missing baseline is an empty one only when it is about to be written.
      let accepted: LintBaseline? = try baseline.map { path in
        updateBaseline && !FileManager.default.fileExists(atPath: path) ? LintBaseline() : try LintBaseline.load(path)
      }
      // Every document is read and checked before any is linted: bad input reports nothing.
      var loaded: [(name: String, document: TableDocument, axes: VariantAxes)] = []
      for path in documents {
        let document = try loadDocument(path, imageFolders: imageOptions.folders, text: textOptions)
        let configuration = try textOptions.apply(to: document.configuration)
        let axes = try variantOptions.axes(over: document.variantAxes, configuration: configuration)
        // Named as `rowkit check` names it in a baseline: `./t.yaml` and `t.yaml` are one document.
        loaded.append((path == standardInputName ? documentName(path) : displayPath(URL(fileURLWithPath: path)), document, axes))
      }
      let pipeline = imageOptions.makePipeline()
      var reports: [LintReport] = []
      var headroomReports: [HeadroomReport] = []
      for (name, document, axes) in loaded {
        var renderer = document.makeRenderer(
          configuration: try textOptions.apply(to: document.configuration), pipeline: pipeline)
        renderer.imageDeadline = imageOptions.deadline
        var documentReports = try await document.lint(with: renderer, axes: axes, options: options, name: name)
        if headroom && options.adding(document.lintOptions).runs(.headroom) {
          let dataSource = document.dataSource
          for (index, variant) in axes.variants.enumerated() {
            let variantRenderer = renderer.rendering(variant)
            let slots = try await variantRenderer.measureHeadroom(dataSource).slots
            documentReports[index].addHeadroomFindings(
              slots, minimum: headroomOptions.minimum, place: variantRenderer.headroomPlace, dataSource: dataSource)
            headroomReports.append(HeadroomReport(file: name, variant: variant.name.isEmpty ? nil : variant.name, slots: slots))
          }
        }
        reports += documentReports
      }
      let total = reports.reduce(0) { $0 + $1.findingCount }
      let comparison = accepted?.compare(reports)
      // A baseline that already says what it would be told is left as it is, and said so.
      var newBaseline: [UInt8]?
      if let accepted, let baselineURL, updateBaseline {
        let bytes = try accepted.updated(with: reports).bytes()
        if FileManager.default.contents(atPath: baselineURL.path).map({ [UInt8]($0) }) != bytes { newBaseline = bytes }
      }
      let rewroteBaseline = newBaseline != nil
      var output = Data()
      if json {
        struct Baseline: Encodable {
          var file: String
          var known: Int
          var new: [LintBaseline.Entry]
          var fixed: [LintBaseline.Entry]
          var updated: Bool
        }
        struct Output: Encodable {
          var findings: Int
          var reports: [LintReport]
          var baseline: Baseline?
          var headroom: [HeadroomReport]?
        }
        let baselineOutput = comparison.map {
          Baseline(file: baseline ?? "", known: $0.known.count, new: $0.new, fixed: $0.fixed, updated: rewroteBaseline)
        }
        output = Data(try DeterministicJSON.bytes(Output(
          findings: total, reports: reports, baseline: baselineOutput, headroom: headroom ? headroomReports : nil)))
      } else {
        var lines = comparison.map(lines(of:)) ?? reports.flatMap(\.lines)
        let tables = reports.count
        lines.append("\(total) finding\(total == 1 ? "" : "s") in \(loaded.count) document\(loaded.count == 1 ? "" : "s")"
          + " (\(tables) table\(tables == 1 ? "" : "s") with their variants)"
          + (comparison.map { ": \($0.known.count) in the baseline, \($0.new.count) new, \($0.fixed.count) fixed" } ?? ""))
        if updateBaseline, let baseline {
          lines.append(rewroteBaseline ? "updated \(baseline)" : "\(baseline) already holds these findings: unchanged")
        }
        output = Data(lines.map { $0.controlCharactersEscaped + "\n" }.joined().utf8)
      }
      // The baseline is put in place with the output written: when standard output fails,
      // the baseline goes back as it was, and the command fails having changed nothing.
      let files = AtomicFiles()
      if let newBaseline, let baselineURL { try files.stage(newBaseline, as: baselineURL) }
      try files.commit { try StandardStreams.write(output) }
      guard let comparison else {
        if total > 0 { throw ExitCode(1) }
        return
      }
      if !comparison.new.isEmpty && !updateBaseline { throw ExitCode(1) }
    }

    /// Every text slot's headroom in one document and variant, for `--json`.
    struct HeadroomReport: Encodable {
      var file: String
      var variant: String?
      var slots: [TextHeadroom]
    }

    /// The new findings, then the fixed ones, one a line.
    private func lines(of comparison: LintBaseline.Comparison) -> [String] {
      comparison.new.map { "new: " + $0.line }
        + comparison.fixed.map { "fixed: " + $0.line + (updateBaseline ? "" : " (still in the baseline: --update-baseline removes it)") }
    }
  }
}
