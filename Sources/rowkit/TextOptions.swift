import ArgumentParser
import Foundation
import RowKit
import RowKitGraphics

/// The flags about text: brand fonts, the language and what a missing glyph does.
struct TextOptions: ParsableArguments {
  @Option(help: ArgumentHelp(
    "Load every .ttf, .otf and .ttc file in this folder as brand fonts, usable by name in stylesheets and designs.",
    valueName: "dir"))
  var fonts: String?

  @Option(help: ArgumentHelp(
    "The text's BCP 47 language (ja, ko, zh-Hans, zh-Hant…), overriding the document's table: language.",
    valueName: "tag"))
  var language: String?

  @Flag(help: "Fail (exit 2, nothing written) when a row has characters no loaded font can draw, instead of warning.")
  var strict = false

  /// A --fonts folder that is missing, or no folder, is refused by every command that takes
  /// the flag, whether or not it draws with brand fonts (`catalog --styles` took any path).
  func validate() throws {
    guard let fonts else { return }
    var isFolder: ObjCBool = false
    guard FileManager.default.fileExists(atPath: fonts, isDirectory: &isFolder) else {
      throw ValidationError("--fonts: the folder \(fonts) does not exist")
    }
    guard isFolder.boolValue else { throw ValidationError("--fonts: \(fonts) is a file, not a folder of font files") }
  }

  /// The brand fonts of `--fonts`.
  func brandFonts() throws -> [BrandFont] {
    guard let fonts else { return [] }
    return try BrandFont.fonts(inFolder: URL(fileURLWithPath: fonts))
  }

  /// `configuration` with `--language` laid over it.
  func apply(to configuration: TableConfiguration) throws -> TableConfiguration {
    guard let language else { return configuration }
    var configuration = configuration
    configuration.language = language
    if let problem = configuration.problem { throw ValidationError("--language: \(problem)") }
    return configuration
  }

  /// Prints one warning line per row with missing glyphs, or, with `--strict`, fails.
  func report(_ rows: [Manifest.Row], _ warnings: Warnings) throws {
    warnings.missingGlyphs(rows)
    if strict, !rows.isEmpty { throw MissingGlyphsError(rows: rows, document: warnings.source) }
  }
}

/// The warnings of one render of one document: each names the document, and first the
/// variant when the render is one of several (`[dark,AX3] table.yaml: row 3 (s0-r3): …`), so
/// that the warnings of a variant matrix say which render they come from.
struct Warnings {
  var file: String
  var variant: Variant?

  init(file: String, variant: Variant? = nil) {
    self.file = file
    self.variant = variant
  }

  /// One warning line per row with characters no loaded font can draw.
  func missingGlyphs(_ rows: [Manifest.Row]) {
    emit(rows.map { $0.missingGlyphWarning(file: file) })
  }

  /// Warnings for what a render drew other than the document asked, so that nothing fails
  /// silently: images that failed (their defaults drawn instead) and items no cell is mapped
  /// to (the fallback cell drawn instead).
  func substitutes(in report: TableRenderer.Report) {
    emit(report.rowsWithFallbackCell.map { $0.fallbackCellWarning(file: file) })
    failedImages(report.rowsWithFailedImages)
    emit(report.rowsWithUnshownDefaults.flatMap { $0.unshownDefaultWarnings(file: file) })
  }

  /// One warning line per image that failed to load, row by row.
  func failedImages(_ rows: [Manifest.Row]) {
    emit(rows.flatMap { $0.failedImageWarnings(file: file) })
  }

  /// The document as the warnings name it, after the variant when there is one
  /// (`[dark,AX3] table.yaml`): for the error that ends a strict render.
  var source: String { variantPrefix + file }

  /// `[dark,AX3] ` when the render is one of several variants, before every line.
  private var variantPrefix: String {
    guard let variant, !variant.name.isEmpty else { return "" }
    return "[\(variant.name)] "
  }

  private func emit(_ lines: [String]) {
    warn(lines.map { variantPrefix + $0 })
  }
}

/// Prints `warnings` on stderr, one line each; a long list is cut short with a count, so
/// that a table of thousands of broken images does not bury the terminal.
func warn(_ warnings: [String], limit: Int = 20) {
  var text = ""
  for warning in warnings.prefix(limit) { text += "rowkit: warning: \(warning)\n" }
  if warnings.count > limit { text += "rowkit: warning: … and \(warnings.count - limit) more like these\n" }
  if !text.isEmpty { StandardStreams.writeError(text) }
}

/// The families any document may name before its own brand fonts: RowKit's.
func standardFamilies() throws -> [String] {
  try TextEnvironment.standard.fontSet().families
}

/// Loads a table document, for the subcommands that read one.
/// `-` reads the document from standard input, as `<stdin>` in the working folder: its
/// relative paths resolve there, and errors name `<stdin>`.
func loadDocument(
  _ path: String, imageFolders: ImageFolders = ImageFolders(), text: TextOptions
) throws -> TableDocument {
  let families = try standardFamilies()
  // The render workers make their shapers while this thread reads and decodes the document.
  // Most documents are set in the standard environment; one with fonts or a language of its
  // own leaves each worker a shaper it does not use, made while the document was read.
  RenderPool.shared.prepare(.standard)
  guard path == standardInputName else {
    return try TableDocument.load(
      URL(fileURLWithPath: path), fontFamilies: families, imageFolders: imageFolders, brandFonts: try text.brandFonts())
  }
  let bytes: [UInt8]
  do {
    bytes = try InputFile.readStandardInput()
  } catch {
    throw OutputError("standard input \(error.predicate)")
  }
  return try TableDocument.decode(
    bytes, as: URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent("<stdin>"),
    fontFamilies: families, imageFolders: imageFolders, brandFonts: try text.brandFonts())
}

/// The document argument that means standard input.
let standardInputName = "-"

/// How warnings name the document `path`.
func documentName(_ path: String) -> String {
  path == standardInputName ? "<stdin>" : path
}

/// The help of a subcommand's document argument.
let documentArgumentHelp = ArgumentHelp(
  "The table document (YAML or JSON), or - to read it from standard input; its relative paths (stylesheet, cells, "
    + "assets, images) then resolve against the working folder, and errors name it <stdin>.")
