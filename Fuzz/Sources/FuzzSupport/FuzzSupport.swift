import Foundation
import RowKit
import RowKitGraphics
import Synchronization

/// What every harness shares: where the repository's assets are, the font families RowKit
/// loads, and one text shaper kept from input to input (making one loads every font).
///
/// The contract each harness checks is the one of issue 11: for every input, a thrown error
/// or a result, never a trap, a hang or a memory blow-up. libFuzzer reports the rest.
public enum Fuzz {
  /// The repository's top folder: the first folder above this file that holds `Assets/`
  /// (the harnesses read the samples' stylesheets, designs and images from it, as the CLI
  /// does when it renders them). `ROWKIT_ROOT` overrides it.
  public static let repositoryRoot: URL = {
    if let root = ProcessInfo.processInfo.environment["ROWKIT_ROOT"] { return URL(fileURLWithPath: root) }
    var url = URL(fileURLWithPath: #filePath)
    while url.path != "/" {
      url.deleteLastPathComponent()
      if FileManager.default.fileExists(atPath: url.appendingPathComponent("Assets").path) { return url }
    }
    fatalError("no Assets folder above \(#filePath); set ROWKIT_ROOT")
  }()

  public static var assets: URL { repositoryRoot.appendingPathComponent("Assets") }

  /// The families any document may name before its own brand fonts, as `rowkit` computes them.
  public static let standardFamilies: [String] = {
    do { return try TextEnvironment.standard.fontSet().families } catch { fatalError("RowKit's fonts: \(error)") }
  }()

  /// The input as bytes.
  public static func bytes(_ data: UnsafePointer<UInt8>?, _ size: Int) -> [UInt8] {
    guard let data, size > 0 else { return [] }
    return Array(UnsafeBufferPointer(start: data, count: size))
  }

  /// The input as text, or nil when it is not UTF-8 (the decoders refuse it up front).
  public static func text(_ bytes: [UInt8]) -> String? {
    String(validating: bytes, as: UTF8.self)
  }

  // MARK: Layout and painting

  /// Shapers are not `Sendable`; libFuzzer calls a harness from one thread at a time, and
  /// the lock keeps the compiler's data-race checking on all the same.
  private final class Shapers {
    var environment: TextEnvironment?
    var shaper: TextShaper?
  }

  private static let shapers = Mutex(Shapers())

  /// How many rows of a laid-out table are painted (`FUZZ_PAINTED_ROWS`, 3 by default):
  /// painting is the costliest step, and the first rows already reach the style elements
  /// that a row uses.
  public static let paintedRows = ProcessInfo.processInfo.environment["FUZZ_PAINTED_ROWS"].flatMap { Int($0) } ?? 3

  /// Lays out every row of `dataSource` as `rowkit render` and `measure` do, then paints
  /// the first `paintedRows` rows (with no images loaded: slots stay empty, their geometry
  /// is the same). Layout errors are errors, as in the CLI; nothing here may trap.
  public static func layOutAndPaint(
    _ dataSource: any TableDataSource, configuration: TableConfiguration, stylesheet: Stylesheet,
    environment: TextEnvironment = .standard, resolver: ImageURLResolver? = nil, paintedRows: Int = paintedRows
  ) throws {
    try shapers.withLock { cache in
      if cache.environment != environment || cache.shaper == nil {
        // One shaper at a time: a document that changes the language gets a new one.
        cache.shaper = try environment.makeShaper()
        cache.environment = environment
      }
      let renderer = TableRenderer(
        configuration: configuration, stylesheet: stylesheet, environment: environment, imageResolver: resolver)
      let table = try renderer.layout(dataSource, shaper: cache.shaper)
      // A very tall row costs a large surface; layout bounds rows at 8000 points, which
      // stays painted by the CLI, but the fuzzer's time is better spent elsewhere.
      for row in table.rows.prefix(paintedRows) where row.frame.height * configuration.scale <= 4096 {
        _ = try renderer.paint(row, in: table)
      }
    }
  }

  /// A small table that shows what a stylesheet styles: each built-in kind of row once, in
  /// a plain and a grouped table (see `stylesheet` and `design`).
  public static func sampleItems() -> [any TableItem] {
    [
      TextItem(text: "Text row"),
      CaptionItem(text: "Value", caption: "Caption"),
      SubtitleItem(text: "Subtitle row", subtitle: "with a subtitle that may wrap onto a second line"),
      StyledTextItem(text: "<b>Bold</b>, <i>italic</i> and <a href=\"x\">a link</a>"),
      ButtonItem(text: "Button"),
    ]
  }
}

extension Fuzz {
  /// The other half of the contract, for the harnesses of files (documents, stylesheets,
  /// designs): an error is a ``DocumentError`` that names a file (not a folder), as
  /// `rowkit` prints it on one line. Anything else stops the fuzzer like a crash would.
  public static func checkFileError(_ error: any Error) {
    guard let error = error as? DocumentError else {
      fatalError("an error that names no file and place: \(type(of: error)): \(error)")
    }
    var isDirectory: ObjCBool = false
    guard !error.file.isEmpty,
      !(FileManager.default.fileExists(atPath: error.file, isDirectory: &isDirectory) && isDirectory.boolValue)
    else {
      fatalError("an error that names a folder, not a file: \(error)")
    }
  }
}
