import ArgumentParser
import Foundation
import RowKit
import RowKitGraphics

extension RowKitCommand {
  struct Catalog: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "catalog",
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
          rowkit catalog --scripts -o scripts.png --strict
          rowkit catalog --designs Assets/Designs --stylesheet Assets/Designs/styles.yaml --assets Assets -o designs.png
        """)

    @Flag(help: "Draw the style catalog: every style element and shape.")
    var styles = false

    @Flag(help: "Draw the scripts page: a name and a message in each of the world's major scripts, and emoji.")
    var scripts = false

    @Option(help: "Draw a contact sheet of the cell design files in this folder: each design's preview items, normal and selected, in a plain and a grouped table side by side.")
    var designs: String?

    @Option(help: "With --designs: the stylesheet the designs use.")
    var stylesheet: String?

    @Option(help: "With --designs: where bundle:// URLs resolve (default: the designs folder).")
    var assets: String?

    func validate() throws {
      if [styles, designs != nil, scripts].filter({ $0 }).count > 1 {
        throw ValidationError("choose one of --styles, --scripts and --designs")
      }
      if designs == nil && (stylesheet != nil || assets != nil) {
        throw ValidationError("--stylesheet and --assets go with --designs")
      }
      if output == "-" && manifest == "-" {
        throw ValidationError("-o - and --manifest - would both write to standard output; send one of them to a file")
      }
      try OutputTarget(output).checkPNG(option: "-o")
      try checkRowsFolder(rowsDir, isNamedByNone: [("-o", output), ("--manifest", manifest)])
    }

    @Option(name: .shortAndLong, help: "Where to write the catalog PNG (.png), or - for standard output.")
    var output: String

    @Option(help: "A folder for one PNG per row.")
    var rowsDir: String?

    @Option(help: "Where to write the manifest JSON, or - for standard output.")
    var manifest: String?

    @OptionGroup var tableOptions: TableOptions

    @OptionGroup(title: "Text") var textOptions: TextOptions

    func run() async throws {
      var outputs: TableRenderer.Outputs = [.table]
      if rowsDir != nil { outputs.insert(.rows) }
      if let designs {
        // One contact sheet of designs, not a table of rows: there is nothing else to write.
        if rowsDir != nil || manifest != nil {
          throw ValidationError("--designs draws one contact sheet (-o): --rows-dir and --manifest are not written with it")
        }
        try await renderDesigns(designs)
        return
      }
      // Every output claimed before anything is drawn: a manifest among the row files, or
      // two outputs of one name, is refused with nothing written, as render refuses them.
      let files = OutputFiles()
      files.protect(try textOptions.brandFonts().map(\.file))
      if let rowsDir { try files.claimRowsFolder(rowsDir) }
      let tableURL = try files.url(for: OutputTarget(output), name: "catalog.png", option: "-o")
      let manifestURL = try manifest.map { try files.url(for: OutputTarget($0), name: "manifest.json", option: "--manifest") }
      let rendered: RenderedTable
      if styles {
        let document = try StyleCatalog.load(fontFamilies: try standardFamilies())
        var renderer = document.makeRenderer(
          configuration: try textOptions.apply(to: try tableOptions.apply(to: document.configuration)))
        for (url, bitmap) in try StyleCatalog.images() { renderer.preload(bitmap, for: url) }
        rendered = try await document.render(with: renderer, outputs: outputs)
      } else {
        let configuration = try textOptions.apply(
          to: try tableOptions.apply(to: TableConfiguration(now: RowKit.Catalog.now)))
        var renderer = TableRenderer(configuration: configuration)
        for (url, bitmap) in try RowKit.Catalog.images() { renderer.preload(bitmap, for: url) }
        rendered = try await renderer.render(
          scripts ? RowKit.Catalog.scriptsDataSource() : RowKit.Catalog.dataSource(), outputs: outputs)
      }
      try textOptions.report(rendered.manifest.rowsWithMissingGlyphs, Warnings(file: "catalog"))
      try rendered.stage(
        in: files.files, table: tableURL, rowsDirectory: rowsDir.map { URL(fileURLWithPath: $0) }, manifest: manifestURL)
      try files.commit()
    }

    /// The designs contact sheet: plain and grouped side by side.
    private func renderDesigns(_ folder: String) async throws {
      let brandFonts = try textOptions.brandFonts()
      let (stylesheet, stylesheetFiles) = try self.stylesheet.map {
        try Stylesheet.loadRecordingFiles(
          contentsOf: URL(fileURLWithPath: $0), fontFamilies: try standardFamilies() + brandFonts.flatMap(\.families))
      } ?? (.default, [])
      let environment = try textOptions.apply(to: TableConfiguration()).textEnvironment
        .adding(brandFonts: (brandFonts + stylesheet.fonts).map(\.file))
      let assetsURL = URL(fileURLWithPath: assets ?? folder)
      let catalog = try DesignCatalog.load(
        folder: URL(fileURLWithPath: folder), stylesheet: stylesheet, fontFamilies: try environment.makeShaper().families,
        assets: assetsURL)
      let pipeline = ImagePipeline()
      let sheet = try await catalog.contactSheet(
        configuration: try tableOptions.apply(to: TableConfiguration()), stylesheet: stylesheet, assets: assetsURL,
        environment: environment, pipeline: pipeline)
      if assets == nil, !sheet.rowsWithFailedImages.isEmpty {
        warn(["--designs without --assets: bundle:// images resolve in \(folder), and some were not there"])
      }
      warn(sheet.rowsWithFailedImages.flatMap { $0.failedImageWarnings(file: folder) })
      // The sheet never takes the place of a file it was drawn from: a design, the
      // stylesheet, a font or an image the designs show.
      let outputs = OutputFiles()
      outputs.protect(catalog.entries.map(\.file) + stylesheetFiles + brandFonts.map(\.file))
      try outputs.write(try PNG.encode(sheet.image), to: OutputTarget(output), name: "designs.png", option: "-o")
      try outputs.refuseOverwriting(images: pipeline.localFilesAskedFor, shownBy: "a design")
      try outputs.commit()
    }
  }
}
