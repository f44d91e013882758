import ArgumentParser
import Foundation
import RowKit
import RowKitGraphics

extension RowKitCommand {
  struct Catalog: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Draw every built-in item type, short and long, in one table; or every style.",
      discussion: """
        The catalog shows each built-in cell with short and long text, accessories, a \
        selected row and images drawn by code, so it needs no files. With --styles it draws \
        the style catalog instead: every style element and shape, each row labelled with what \
        it shows (the document is Assets/Styles/catalog.yaml).

        Example:
          rowkit catalog -o catalog.png
          rowkit catalog -o catalog-grouped.png --style grouped --rows-dir catalog-rows
          rowkit catalog --styles -o styles.png
        """)

    @Flag(help: "Draw the style catalog: every style element and shape.")
    var styles = false

    @Option(name: .shortAndLong, help: "Where to write the catalog PNG.")
    var output: String

    @Option(help: "A folder for one PNG per row.")
    var rowsDir: String?

    @Option(help: "Where to write the manifest JSON.")
    var manifest: String?

    @OptionGroup var tableOptions: TableOptions

    func run() throws {
      var outputs: TableRenderer.Outputs = [.table]
      if rowsDir != nil { outputs.insert(.rows) }
      let rendered: RenderedTable
      if styles {
        let shaper = try TextEnvironment.standard.makeShaper()
        let document = try StyleCatalog.load(fontFamilies: shaper.families)
        let renderer = try document.makeRenderer(
          configuration: try tableOptions.apply(to: document.configuration), shaper: shaper)
        for (url, bitmap) in try StyleCatalog.images() { renderer.images.preload(bitmap, for: url) }
        rendered = try document.render(with: renderer, outputs: outputs)
      } else {
        let configuration = try tableOptions.apply(to: TableConfiguration(now: RowKit.Catalog.now))
        let renderer = try TableRenderer(configuration: configuration)
        for (url, bitmap) in try RowKit.Catalog.images() { renderer.images.preload(bitmap, for: url) }
        rendered = try renderer.render(RowKit.Catalog.dataSource(), outputs: outputs)
      }
      try OutputWriter.write(
        rendered, table: URL(fileURLWithPath: output), rowsDirectory: rowsDir.map { URL(fileURLWithPath: $0) },
        manifest: manifest.map { URL(fileURLWithPath: $0) })
    }
  }
}
