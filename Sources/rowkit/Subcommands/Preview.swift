import ArgumentParser
import Foundation
import RowKit

extension RowKitCommand {
  struct Preview: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "preview",
      abstract: "Serve a live page of documents and cell designs on 127.0.0.1 that renders again as you save.",
      discussion: """
        Every table document (with each variant of its variants: block) and every cell \
        design (each preview item, normal and selected) of the given files and folders is \
        rendered with the lint on, its findings drawn as numbered boxes on the rows. Saving a \
        file a case read (the document, a stylesheet along its extends: chain, a design, a \
        brand font, an image) renders that case again, and only the cases that read it; the \
        open page updates by itself, through server-sent events. A file with a mistake shows \
        the error (file, line, column and key) in place of its rows, and the last good \
        render stays visible under it. New files in a folder appear; removed ones go.

        The page is served once every case was rendered a first time; after that, each case \
        is shown as soon as its own render is done: one waiting for a slow image (up to \
        --deadline seconds) holds no other case's update.

        The --variant-… flags add variants to every document and give them to every design.

        Prints the page's address, with a random token every request must carry, and serves \
        until interrupted. Nothing is written.

        Example:
          rowkit preview Assets/Designs --stylesheet Assets/Designs/styles.yaml --assets Assets
          rowkit preview Tables/settings.yaml --variant-appearance light,dark --variant-text-size large,AX3 --open
        """)

    @Argument(help: "Table documents, cell design files, or folders of either.")
    var paths: [String]

    @Option(help: "The stylesheet the designs use.")
    var stylesheet: String?

    @Option(help: "Where the designs' bundle:// URLs resolve (default: each design's folder).")
    var assets: String?

    @OptionGroup var variantOptions: VariantOptions

    // A case waiting for its images holds no other case's update.
    @OptionGroup var imageWaits: ImageWaitOptions

    @Option(help: "The port on 127.0.0.1; 0 takes a free one.")
    var port: UInt16 = 0

    @Flag(help: "Open the page in the browser ($BROWSER, else xdg-open), when there is one.")
    var open = false

    func validate() throws {
      guard !paths.isEmpty else { throw ValidationError("give the documents or design files to preview") }
      for path in paths + [stylesheet, assets].compactMap({ $0 }) where !FileManager.default.fileExists(atPath: path) {
        throw ValidationError("\(path): no such file or folder")
      }
    }

    func run() throws {
      var arguments = ["preview"]
      if let stylesheet { arguments += ["--stylesheet", stylesheet] }
      if let assets { arguments += ["--assets", assets] }
      let axes = try variantOptions.axes()
      if !axes.widths.isEmpty { arguments += ["--variant-width", axes.widths.map { String($0) }.joined(separator: ",")] }
      if !axes.textSizes.isEmpty { arguments += ["--variant-text-size", axes.textSizes.map(\.rawValue).joined(separator: ",")] }
      if !axes.appearances.isEmpty { arguments += ["--variant-appearance", axes.appearances.map(\.rawValue).joined(separator: ",")] }
      if !axes.directions.isEmpty { arguments += ["--variant-direction", axes.directions.map(\.rawValue).joined(separator: ",")] }
      if !axes.locales.isEmpty { arguments += ["--variant-locale", axes.locales.map(\.rawValue).joined(separator: ",")] }
      arguments += ["--timeout", String(imageWaits.timeout), "--deadline", String(imageWaits.deadline)]
      arguments += ["--port", String(port)]
      if open { arguments.append("--open") }
      try runReviewProgram(arguments + ["--"] + paths)
    }
  }
}
