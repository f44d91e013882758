import ArgumentParser
import Foundation
import RowKit
import RowKitGraphics

extension RowKitCommand {
  struct Render: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Render a table document to PNG images and a manifest.",
      discussion: """
        Writes the whole table as one PNG (width × scale pixels wide; a table taller than \
        32767 pixels becomes numbered tiles), each row as its own PNG under --rows-dir \
        (s<section>-r<row>.png), and a JSON manifest of every row's position, height, type, \
        cell, accessory and image states. Flags override the document's table: block.

        Example:
          rowkit render Assets/Samples/features.yaml -o features.png
          rowkit render table.yaml -o table.png --rows-dir rows --manifest table.json
        """)

    @Argument(help: "The table document (YAML or JSON).")
    var table: String

    @Option(name: .shortAndLong, help: "Where to write the table PNG.")
    var output: String?

    @Option(help: "A folder for one PNG per row.")
    var rowsDir: String?

    @Option(help: "Where to write the manifest JSON.")
    var manifest: String?

    @OptionGroup var tableOptions: TableOptions

    @Flag(help: "Paint default images at once instead of loading images.")
    var placeholders = false

    func validate() throws {
      if output == nil && rowsDir == nil && manifest == nil {
        throw ValidationError("nothing to write: give -o, --rows-dir or --manifest")
      }
    }

    func run() throws {
      let shaper = try TextEnvironment.standard.makeShaper()
      let document = try loadDocument(table, shaperFamilies: shaper.families)
      let configuration = try tableOptions.apply(to: document.configuration)
      let renderer = try document.makeRenderer(configuration: configuration, shaper: shaper)
      var outputs: TableRenderer.Outputs = []
      if output != nil { outputs.insert(.table) }
      if rowsDir != nil { outputs.insert(.rows) }
      let rendered = try document.render(with: renderer, policy: placeholders ? .placeholder : .complete, outputs: outputs)
      try OutputWriter.write(
        rendered, table: output.map { URL(fileURLWithPath: $0) }, rowsDirectory: rowsDir.map { URL(fileURLWithPath: $0) },
        manifest: manifest.map { URL(fileURLWithPath: $0) })
    }
  }
}
