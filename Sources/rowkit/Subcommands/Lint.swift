import ArgumentParser
import Foundation
import RowKit

extension RowKitCommand {
  struct Lint: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "lint",
      abstract: "Find design problems in table documents, in every variant.",
      discussion: """
        Renders each document (every variant of its variants: block, or of the --variant-… \
        flags) and reports, per row: contrast (text against the pixels under it below WCAG 2.2 \
        AA: 4.5:1, or 3:1 for text of 24 points, or 18.66 bold), truncated (ellipsized or cut \
        at its line limit), clipped (content outside its row), tapTarget (a row with a URL or \
        a control shorter than 44 points), missingGlyph, overlap (labels, images, accessories) \
        and imageFailed. A document switches rules off with lint: { off: [rule, …] }.

        Exit status: 0 when nothing was found, 1 when something was, 2 on bad input.

        Example:
          rowkit lint Assets/Samples/*.yaml
          rowkit lint table.yaml --variant-appearance light,dark --variant-text-size large,AX5 --json
          rowkit lint table.yaml --lint-off truncated,tapTarget
        """)

    @Argument(help: "The table documents (YAML or JSON).")
    var documents: [String]

    @Flag(help: "Print the findings as JSON on standard output.")
    var json = false

    @OptionGroup(title: "Variants") var variantOptions: VariantOptions

    @OptionGroup(title: "Lint") var lintRules: LintRuleOptions

    @OptionGroup(title: "Text") var textOptions: TextOptions

    @OptionGroup(title: "Images") var imageOptions: ImageOptions

    func validate() throws {
      if documents.isEmpty { throw ValidationError("give at least one table document") }
      if documents.filter({ $0 == standardInputName }).count > 1 {
        throw ValidationError("standard input (-) can be read once")
      }
    }

    func run() async throws {
      let options = try lintRules.options()
      // Every document is read and checked before any is linted: bad input reports nothing.
      var loaded: [(name: String, document: TableDocument, axes: VariantAxes)] = []
      for path in documents {
        let document = try loadDocument(path, imageFolders: imageOptions.folders, text: textOptions)
        let configuration = try textOptions.apply(to: document.configuration)
        let axes = try variantOptions.axes(over: document.variantAxes, configuration: configuration)
        loaded.append((documentName(path), document, axes))
      }
      let pipeline = imageOptions.makePipeline()
      var reports: [LintReport] = []
      for (name, document, axes) in loaded {
        var renderer = document.makeRenderer(
          configuration: try textOptions.apply(to: document.configuration), pipeline: pipeline)
        renderer.imageDeadline = imageOptions.deadline
        reports += try await document.lint(with: renderer, axes: axes, options: options, name: name)
      }
      let total = reports.reduce(0) { $0 + $1.findingCount }
      if json {
        struct Output: Encodable {
          var findings: Int
          var reports: [LintReport]
        }
        try StandardStreams.write(Data(try DeterministicJSON.bytes(Output(findings: total, reports: reports))))
      } else {
        for report in reports { for line in report.lines { StandardStreams.print(line) } }
        let tables = reports.count
        StandardStreams.print("\(total) finding\(total == 1 ? "" : "s") in \(loaded.count) document\(loaded.count == 1 ? "" : "s")"
          + " (\(tables) table\(tables == 1 ? "" : "s") with their variants)")
      }
      if total > 0 { throw ExitCode(1) }
    }
  }
}
