import ArgumentParser
import Foundation
import RowKit
import RowKitGraphics

extension RowKitCommand {
  struct Catalog: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Draw every built-in item type, short and long, in one table.",
      discussion: """
        The catalog shows each built-in cell with short and long text, accessories, a \
        selected row and images drawn by code, so it needs no files.

        Example:
          rowkit catalog -o catalog.png
          rowkit catalog -o catalog-grouped.png --style grouped --rows-dir catalog-rows
        """)

    @Option(name: .shortAndLong, help: "Where to write the catalog PNG.")
    var output: String

    @Option(help: "A folder for one PNG per row.")
    var rowsDir: String?

    @Option(help: "Where to write the manifest JSON.")
    var manifest: String?

    @OptionGroup var tableOptions: TableOptions

    func run() throws {
      let configuration = try tableOptions.apply(to: TableConfiguration(now: RowKit.Catalog.now))
      let renderer = try TableRenderer(configuration: configuration)
      for (url, bitmap) in try RowKit.Catalog.images() { renderer.images.preload(bitmap, for: url) }
      var outputs: TableRenderer.Outputs = [.table]
      if rowsDir != nil { outputs.insert(.rows) }
      let rendered = try renderer.render(RowKit.Catalog.dataSource(), outputs: outputs)
      try OutputWriter.write(
        rendered, table: URL(fileURLWithPath: output), rowsDirectory: rowsDir.map { URL(fileURLWithPath: $0) },
        manifest: manifest.map { URL(fileURLWithPath: $0) })
    }
  }
}
