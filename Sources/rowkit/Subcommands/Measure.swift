import ArgumentParser
import Foundation
import RowKit
import RowKitGraphics

extension RowKitCommand {
  struct Measure: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "measure",
      abstract: "Print each row's section, row, y and height as JSON, without painting.",
      discussion: """
        The output is the manifest that render writes, without image states. Heights and \
        positions are in points, on whole device pixels.

        Example:
          rowkit measure Assets/Samples/features.yaml --width 320
          generate-table | rowkit measure - | jq '.rows[].height'
        """)

    @Argument(help: documentArgumentHelp)
    var table: String

    @OptionGroup var tableOptions: TableOptions

    @OptionGroup(title: "Text") var textOptions: TextOptions

    func run() async throws {
      let document = try loadDocument(table, text: textOptions)
      let configuration = try textOptions.apply(to: try tableOptions.apply(to: document.configuration))
      let manifest = try await document.measure(with: document.makeRenderer(configuration: configuration))
      try textOptions.report(manifest.rowsWithMissingGlyphs, Warnings(file: documentName(table)))
      try StandardStreams.write(Data(try manifest.jsonBytes()))
    }
  }
}
