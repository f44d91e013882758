import ArgumentParser
import Foundation
import RowKit
import RowKitGraphics

extension RowKitCommand {
  struct Render: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "render",
      abstract: "Render a table document to PNG images and a manifest.",
      discussion: """
        Writes the whole table as one PNG (width × scale pixels wide; a table taller than \
        --max-png-height pixels becomes numbered tiles), each row as its own PNG under --rows-dir \
        (s<section>-r<row>.png), and a JSON manifest of every row's position, height, type, \
        cell, accessory and image states. Flags override the document's table: block.

        A document named - is read from standard input; -o - and --manifest - write to \
        standard output (a PNG never to a terminal). An output that is a symbolic link is \
        written at the file it names, and a FIFO or a device (/dev/stdout) is written \
        through; neither is replaced. An image that fails to load is drawn as its slot's \
        default image, with a warning naming the row; --strict-images makes it an error \
        (exit 2, nothing written), as --strict does for characters no font can draw.

        A failed render writes nothing. Every output (the PNG or its tiles, the manifest, \
        the row PNGs, the sheet, every variant's files) is written under a temporary name \
        beside its target; once all are complete they are renamed into place, then standard \
        output and devices are written. If any of that fails, the files renamed so far are \
        put back as they were. Each file is replaced atomically; the set is not against a \
        kill during the renames, which can leave some outputs new and others old (see \
        docs/outputs.md).

        Example:
          rowkit render Assets/Samples/features.yaml -o features.png
          rowkit render table.yaml -o table.png --rows-dir rows --manifest table.json
          rowkit render table.yaml -o table.png --watch
          generate-table | rowkit render - -o - > table.png
          rowkit render table.yaml --manifest - | jq '.rows[].height'
          rowkit render table.yaml -o t.png --variant-appearance light,dark
          rowkit render table.yaml --variants-sheet sheet.png --variant-direction ltr,rtl
          rowkit render table.yaml --manifest table.json --headroom --variant-text-size large,AX3

        Variants (a document's variants: block, or the --variant-… flags, which replace the \
        document's axis of the same name) render every combination of widths, text sizes and \
        appearances; each variant's files get its name before the extension of the file name \
        (build.v2/table.png becomes build.v2/table@dark,AX3.png, and table.json \
        table@dark,AX3.json), and its rows go under DIR/dark,AX3/. --variants-sheet FILE.png \
        writes one contact sheet instead or as well: one column per variant, side by side, each \
        under a band naming it. --lint adds each row's design findings to the manifest.

        --headroom adds every text slot's headroom to the manifest: its text is grown in 5% \
        steps up to 100% (as en-XA pads it) and the manifest's headroom key lists, for each \
        label of each row, the largest growth that still fits and what happens one step \
        further (truncated, clipped or overlap), with the --min-headroom every slot needs \
        (30 by default); with --lint, a slot below it is a headroom finding of its row.
        """)

    @Argument(help: documentArgumentHelp)
    var table: String

    @OptionGroup(title: "Files") var files: RenderFiles
    var output: String? { files.output }
    var rowsDir: String? { files.rowsDir }
    var manifest: String? { files.manifest }

    @OptionGroup var tableOptions: TableOptions

    @OptionGroup(title: "Text") var textOptions: TextOptions

    @OptionGroup(title: "Variants") var variantOptions: VariantOptions

    @Option(help: ArgumentHelp(
      "With variants: write one PNG with a column per variant, each labeled with its name.", valueName: "file.png"))
    var variantsSheet: String?

    @Flag(help: "Lint every row: its design findings go into the manifest (see rowkit lint).")
    var lint = false

    @OptionGroup(title: "Lint") var lintRules: LintRuleOptions

    @OptionGroup(title: "Headroom") var headroomOptions: HeadroomOptions

    @Flag(help: "Paint default images at once instead of loading images (the same geometry).")
    var placeholders = false

    @Flag(help: "Fail (exit 2, nothing written) when an image fails to load, instead of warning and drawing its default.")
    var strictImages = false

    @OptionGroup(title: "Images") var imageOptions: ImageOptions

    @OptionGroup(title: "Output") var outputOptions: OutputOptions

    @Flag(help: "Keep running and render again whenever the document, its stylesheets, cell designs, fonts or local images change.")
    var watch = false

    func validate() throws {
      if watch && variantsSheet != nil {
        throw ValidationError("--variants-sheet cannot be used with --watch")
      }
      if output == "-" && manifest == "-" {
        throw ValidationError("-o - and --manifest - would both write to standard output; send one of them to a file")
      }
      if rowsDir == "-" {
        throw ValidationError("--rows-dir -: --rows-dir names a folder for one PNG per row, not standard output")
      }
      try checkRowsFolder(rowsDir, isNamedByNone: [("-o", output), ("--manifest", manifest), ("--variants-sheet", variantsSheet)])
      if watch && table == standardInputName {
        throw ValidationError("--watch cannot watch standard input; give the document's path")
      }
      if watch && (output == "-" || manifest == "-") {
        throw ValidationError("--watch prints a line after each render on standard output; send -o and --manifest to files")
      }
      try output.map(OutputTarget.init)?.checkPNG(option: "-o")
      try variantsSheet.map(OutputTarget.init)?.checkPNG(option: "--variants-sheet")
    }

    func run() async throws {
      // Checked here, not in validate(): the argument parser reports an unknown option (a
      // misspelled `--out`) only after validate() passes, and that is the message to show.
      if output == nil && rowsDir == nil && manifest == nil && variantsSheet == nil {
        throw ValidationError("nothing to write: give -o, --rows-dir, --manifest or --variants-sheet")
      }
      if headroomOptions.headroom && manifest == nil {
        throw ValidationError("--headroom puts every text slot's headroom in the manifest: give --manifest FILE (or -)")
      }
      let pipeline = imageOptions.makePipeline()
      try outputOptions.jobs.configureRuntime()
      let load = { try loadDocument(table, imageFolders: imageOptions.folders, text: textOptions) }
      guard watch else {
        _ = try await renderOnce(try load(), pipeline: pipeline)
        return
      }
      // Watch mode reports mistakes and keeps watching, so a half-typed edit does not end it.
      var lastGood = [URL(fileURLWithPath: table)]
      var watched = lastGood
      var watcher = FileWatcher(files: watched)
      while true {
        let started = Date()
        let (loaded, lookedFor, _) = FilesRead.collecting(load)
        do {
          let document = try loaded.get()
          let rows = try await renderOnce(document, pipeline: pipeline)
          lastGood = Self.eachOnce(document.filesRead(showing: rows) + lookedFor)
          watched = lastGood
          let time = Date().formatted(date: .omitted, time: .standard)
          try StandardStreams.write(Data(
            "rendered \(table) (\(document.dataSource.numberOfRows) rows) at \(time); watching \(watched.count) files\n".utf8))
        } catch let error as StandardStreams.StandardOutputError {
          // Nobody hears the renders any more.
          throw error
        } catch {
          // Keep watching what the last good render read, and every file this one looked for
          // up to its mistake (a stylesheet broken or missing when first named), or read
          // before it (with `--strict-images`, the images that failed), so that fixing any
          // of them renders again.
          StandardStreams.writeError("rowkit: error: \(error)\n")
          let reached = (try? loaded.get()).map { $0.filesRead(showing: (error as? FailedImagesError)?.rows ?? []) }
          watched = Self.eachOnce(lastGood + lookedFor + (reached ?? []))
        }
        watcher.watch(watched, changedSince: started)
        while !watcher.hasChanges() { try await Task.sleep(nanoseconds: 200_000_000) }
      }
    }

    /// `files` without repeats, in their order.
    private static func eachOnce(_ files: [URL]) -> [URL] {
      var seen: Set<String> = []
      return files.filter { seen.insert($0.standardizedFileURL.path).inserted }
    }

    /// Renders the loaded document once, writing every output: all of them together, once
    /// every variant has rendered, or none. Returns the rows it showed in watch mode (what
    /// their images are is watched), none otherwise.
    private func renderOnce(_ document: TableDocument, pipeline: ImagePipeline) async throws -> [Manifest.Row] {
      let configuration = try textOptions.apply(to: try tableOptions.apply(to: document.configuration))
      var renderer = document.makeRenderer(configuration: configuration, pipeline: pipeline)
      renderer.imageDeadline = imageOptions.deadline
      renderer.failsOnMissingGlyphs = textOptions.strict
      renderer.failsOnFailedImages = strictImages
      if lint { renderer.lint = document.lintOptions.adding(try lintRules.options()) }
      headroomOptions.apply(to: &renderer)
      outputOptions.apply(to: &renderer)
      let axes = try variantOptions.axes(over: document.variantAxes, configuration: configuration)
      let outputs = OutputFiles()
      outputs.protect(document.dependencies + (try textOptions.brandFonts()).map(\.file))
      guard !axes.isEmpty else {
        if variantsSheet != nil {
          throw ValidationError(
            "--variants-sheet: \(table) names no variants; give a variants: block or --variant-… flags")
        }
        let rows = try await render(document, with: renderer, output: output, rowsDir: rowsDir, manifest: manifest, into: outputs)
        try outputs.refuseOverwriting(images: pipeline.localFilesAskedFor)
        try outputs.commit()
        return rows
      }
      for (option, path) in [("-o", output), ("--manifest", manifest)] {
        guard let path, OutputTarget(path).kind != .file else { continue }
        throw ValidationError(
          "variants write one file per variant: \(option) must name a file, not \(path == "-" ? "-" : "a device or a FIFO")")
      }
      // Every variant is laid out first (a row too tall at AX5 fails there), before anything
      // is painted. Headroom goes into manifests only: neither this nor the sheet measures it.
      var unmeasured = renderer
      unmeasured.measuresHeadroom = false
      for variant in axes.variants {
        do {
          _ = try await document.measure(with: unmeasured.rendering(variant))
        } catch {
          throw reported(error, Warnings(file: documentName(table), variant: variant))
        }
      }
      if let variantsSheet { try await writeSheet(document, with: unmeasured, variants: axes, to: variantsSheet, into: outputs) }
      var rows: [Manifest.Row] = []
      if output != nil || rowsDir != nil || manifest != nil {
        if let rowsDir {
          // A variant's folder is named by the document, inside the folder the user named:
          // never written through a link (or anything but a folder) found under its name.
          for variant in axes.variants {
            let folder = URL(fileURLWithPath: rowsDir).appendingPathComponent(variant.name).path
            var info = stat()
            if lstat(folder, &info) == 0, info.st_mode & S_IFMT != S_IFDIR {
              throw OutputError("cannot write \(folder): something that is not a folder is there, and a variant's rows are never written through it")
            }
          }
        }
        for variant in axes.variants {
          rows += try await render(
            document, with: renderer.rendering(variant), output: output.map { variant.fileName($0) },
            rowsDir: rowsDir.map { URL(fileURLWithPath: $0).appendingPathComponent(variant.name).path },
            manifest: manifest.map { variant.fileName($0) }, into: outputs, variant: variant)
        }
      }
      try outputs.refuseOverwriting(images: pipeline.localFilesAskedFor)
      try outputs.commit()
      return rows
    }

    /// Renders the document in every variant onto one contact sheet and stages it.
    private func writeSheet(
      _ document: TableDocument, with renderer: TableRenderer, variants axes: VariantAxes, to path: String,
      into outputs: OutputFiles
    ) async throws {
      let sheet = try await document.contactSheet(
        with: renderer, variants: axes, policy: placeholders ? .placeholder : .complete)
      try outputs.write(try PNG.encode(sheet), to: OutputTarget(path), name: "sheet.png", option: "--variants-sheet")
    }

    /// Renders the document once with `renderer`, staging the outputs it names in `outputs`.
    /// Warnings name `variant`, when there is one. Returns the rows it showed in watch mode,
    /// none otherwise.
    private func render(
      _ document: TableDocument, with renderer: TableRenderer, output: String?, rowsDir: String?, manifest: String?,
      into outputs: OutputFiles, variant: Variant? = nil
    ) async throws -> [Manifest.Row] {
      var renderer = renderer
      let bar = outputOptions.progress && !watch ? ProgressBar(label: "rendering", after: outputOptions.progressAfter) : nil
      if let bar { renderer.progress = { bar.update($0, $1) } }
      defer { bar?.finish() }
      if let rowsDir { try outputs.claimRowsFolder(rowsDir) }
      let tableURL = try output.map { try outputs.url(for: OutputTarget($0), name: "table.png", option: "-o") }
      let manifestURL = try manifest.map { try outputs.url(for: OutputTarget($0), name: "manifest.json", option: "--manifest") }
      let warnings = Warnings(file: documentName(table), variant: variant)
      var destination = TableRenderer.Destination(
        table: tableURL, rowsDirectory: rowsDir.map { URL(fileURLWithPath: $0) }, manifest: manifestURL,
        stagingIn: outputs.files)
      destination.keepsManifest = watch
      do {
        let report = try await document.render(
          with: renderer, policy: placeholders ? .placeholder : .complete, to: destination)
        try textOptions.report(report.rowsWithMissingGlyphs, warnings)
        warnings.substitutes(in: report)
        return watch ? report.manifest.rows : []
      } catch {
        throw reported(error, warnings)
      }
    }

    /// `error`, and when it is a strict render's failure (`--strict`, `--strict-images`), its
    /// rows named on stderr first and the document named in it: the error then ends the
    /// command with status 2. One that names its document already was reported where it was
    /// made (``TextOptions/report(_:_:)``).
    private func reported(_ error: any Error, _ warnings: Warnings) -> any Error {
      if var missing = error as? MissingGlyphsError, missing.document == nil {
        warnings.missingGlyphs(missing.rows)
        missing.document = warnings.source
        return missing
      }
      if var failed = error as? FailedImagesError, failed.document == nil {
        warnings.failedImages(failed.rows)
        failed.document = warnings.source
        return failed
      }
      return error
    }
  }
}

/// What `render` writes, first in its help: a group of their own, since the argument parser
/// lists the options outside every group last.
struct RenderFiles: ParsableArguments {
  @Option(name: .shortAndLong, help: "Where to write the table PNG (.png), or - for standard output.")
  var output: String?

  @Option(help: "A folder for one PNG per row.")
  var rowsDir: String?

  @Option(help: "Where to write the manifest JSON, or - for standard output.")
  var manifest: String?
}
