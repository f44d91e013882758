import Foundation
import RowKit
import RowKitGraphics

/// How RowKit keeps an image too tall for one PNG that every decoder opens: the file itself
/// holds the top rows, and tiles beside it hold the rest, `name+2.png`, `name+3.png`, …, cut
/// every ``tileHeight(width:)`` rows as ``TableRenderer`` cuts a tall table. References
/// and failure artifacts are kept this way; a `+` is in no snapshot name, so a tile is never
/// taken for another case's reference. An image of one file is the same as before tiles.
public enum TiledPNG {
  /// The tallest tile of an image `width` pixels wide: at most ``TableRenderer``'s tile
  /// height (libpng's default limit), and no more pixels than ``PNG/defaultMaximumPixels``,
  /// so each tile also decodes whole.
  public static func tileHeight(width: Int) -> Int {
    max(1, min(TableRenderer.defaultMaximumTilePixels, PNG.defaultMaximumPixels / max(1, width)))
  }

  /// The file of tile `index` (from 0, the file itself) of the image whose file is `url`.
  public static func tileURL(_ url: URL, index: Int) -> URL {
    guard index > 0 else { return url }
    let stem = url.deletingPathExtension().lastPathComponent
    return url.deletingLastPathComponent().appendingPathComponent("\(stem)+\(index + 1).png")
  }

  /// The files of the image at `url`: `url` and the tiles after it that exist; empty when
  /// there is no file at `url`.
  public static func files(of url: URL) -> [URL] {
    var files: [URL] = []
    while FileManager.default.fileExists(atPath: tileURL(url, index: files.count).path) {
      files.append(tileURL(url, index: files.count))
    }
    return files
  }

  /// The path of the image a file belongs to: `Suite/name+2.png` belongs to `Suite/name.png`;
  /// any other path to itself.
  public static func imagePath(of path: String) -> String {
    guard path.hasSuffix(".png"), let plus = path.lastIndex(of: "+") else { return path }
    let number = path[path.index(after: plus)..<path.index(path.endIndex, offsetBy: -4)]
    guard let index = Int(number), index >= 2, String(index) == number, !path[plus...].contains("/") else { return path }
    return String(path[..<plus]) + ".png"
  }

  /// The rows of the image at `url`, tiles included, decoded as they are read; an error
  /// names the file.
  public static func rows(of url: URL) throws -> StackedRows {
    let files = files(of: url)
    guard !files.isEmpty else { throw SnapshotError("\(url.path): no such file") }
    return try rows(ofFiles: files)
  }

  /// The rows of the tiles `files`, top to bottom.
  static func rows(ofFiles files: [URL]) throws -> StackedRows {
    let url = files[0]
    var sizes: [(width: Int, height: Int)] = []
    for file in files {
      do {
        sizes.append(try PNG.header(contentsOf: file))
      } catch {
        throw SnapshotError("\(file.path): \(error)")
      }
    }
    guard let width = sizes.first?.width, sizes.allSatisfy({ $0.width == width }) else {
      throw SnapshotError("\(url.path): its tiles are not all \(sizes[0].width) pixels wide")
    }
    return StackedRows(width: width, heights: sizes.map(\.height)) { index in
      try NamedRows(PNGRowReader(contentsOf: files[index]), file: files[index])
    }
  }

  /// Moves the files of an image (its tiles, in order) into place as the image `url`, and
  /// removes the tiles an earlier, taller image left there when `removingStaleTiles`.
  static func move(_ files: [URL], to url: URL, removingStaleTiles: Bool) throws {
    // The first file last: a reader that comes between sees an old first file with new
    // tiles, which matches nothing, rather than a new one that passes for the whole image.
    for index in files.indices.reversed() {
      try OutputWriter.moveIntoPlace(files[index], to: tileURL(url, index: index))
    }
    if removingStaleTiles { removeTiles(of: url, from: files.count) }
  }

  /// Copies the image at `source`, tiles included, to `target`.
  static func copy(_ source: URL, to target: URL) throws {
    let files = files(of: source)
    for (index, file) in files.enumerated() {
      let copy = tileURL(target, index: index)
      if FileManager.default.fileExists(atPath: copy.path) { try FileManager.default.removeItem(at: copy) }
      try FileManager.default.copyItem(at: file, to: copy)
    }
    removeTiles(of: target, from: files.count)
  }

  /// Removes the tiles of the image at `url` from tile `index` on: what an earlier, taller
  /// image left.
  static func removeTiles(of url: URL, from index: Int) {
    var index = max(1, index)
    while FileManager.default.fileExists(atPath: tileURL(url, index: index).path) {
      try? FileManager.default.removeItem(at: tileURL(url, index: index))
      index += 1
    }
  }
}

/// A source whose errors name its file.
final class NamedRows: RGBARowSource {
  let source: any RGBARowSource
  let file: URL

  init(_ source: @autoclosure () throws -> any RGBARowSource, file: URL) throws {
    do {
      self.source = try source()
    } catch {
      throw SnapshotError("\(file.path): \(error)")
    }
    self.file = file
  }

  var width: Int { source.width }
  var height: Int { source.height }

  func read(_ count: Int, into output: UnsafeMutableRawPointer) throws {
    do { try source.read(count, into: output) } catch { throw SnapshotError("\(file.path): \(error)") }
  }

  func finish() throws {
    do { try source.finish() } catch { throw SnapshotError("\(file.path): \(error)") }
  }
}

/// Writes an image strip by strip into a PNG file, or into tiles as ``TiledPNG`` names them,
/// under temporary names until ``commit(to:)``: memory holds one strip however tall the
/// image is. Rows gather into strips of up to ``stripPixels`` before they are compressed, so
/// an image no larger than that is the bytes ``PNG/encode(_:compression:)`` writes.
final class TiledPNGWriter {
  let width: Int
  let color: PNGColor
  let tileHeight: Int
  /// Where the temporary files go, and what they are called there.
  private let folder: URL
  private let token = UUID().uuidString
  private var pending: [UInt8] = []
  private var pendingRows = 0
  private var rowsInTile = 0
  private var writer: PNGStreamWriter?
  private var handle: FileHandle?
  /// The temporary files, one per tile.
  private(set) var files: [URL] = []
  private(set) var height = 0

  /// The rows gathered before they are compressed: 8 megapixels, 32 MB of pixels.
  static let stripPixels = 1 << 23

  /// A writer of an image `width` pixels wide in `color`, cut every `tileHeight` rows, into
  /// temporary files in `folder`.
  init(in folder: URL, width: Int, color: PNGColor, tileHeight: Int = .max) {
    self.folder = folder
    self.width = width
    self.color = color
    self.tileHeight = max(1, tileHeight)
  }

  deinit { discard() }

  /// Appends a strip of rows below the rows written so far.
  func append(_ bitmap: Bitmap) throws {
    precondition(bitmap.width == width, "a strip of another width")
    var row = 0
    while row < bitmap.height {
      let take = reserve(bitmap.height - row)
      pending.withUnsafeMutableBytes { target in
        bitmap.writeStraightRGBA(rows: row..<(row + take), into: target.baseAddress! + (pendingRows - take) * width * 4)
      }
      row += take
      try flushIfFull()
    }
  }

  /// Appends `rows` rows of straight RGBA at `pixels` below the rows written so far.
  func append(straightRGBA pixels: UnsafeRawPointer, rows: Int) throws {
    var row = 0
    while row < rows {
      let take = reserve(rows - row)
      pending.withUnsafeMutableBytes { target in
        (target.baseAddress! + (pendingRows - take) * width * 4).copyMemory(from: pixels + row * width * 4, byteCount: take * width * 4)
      }
      row += take
      try flushIfFull()
    }
  }

  /// Makes room for up to `wanted` rows in the pending strip, as many as its size and the
  /// tile allow, and returns how many.
  private func reserve(_ wanted: Int) -> Int {
    let stripRows = max(1, Self.stripPixels / max(1, width))
    let take = min(wanted, stripRows - pendingRows, tileHeight - rowsInTile - pendingRows)
    pending.append(contentsOf: repeatElement(0, count: take * width * 4))
    pendingRows += take
    height += take
    return take
  }

  private func flushIfFull() throws {
    if pendingRows * width >= Self.stripPixels || rowsInTile + pendingRows == tileHeight { try flush() }
  }

  private func flush() throws {
    guard pendingRows > 0 else { return }
    if writer == nil {
      let url = folder.appendingPathComponent(".tile-\(files.count + 1).\(token).tmp")
      guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
        throw SnapshotError("cannot write in \(folder.path): cannot create a file there")
      }
      files.append(url)
      let handle = try FileHandle(forWritingTo: url)
      self.handle = handle
      writer = try PNGStreamWriter(width: width, color: color, file: handle)
    }
    let strip = try pending.withUnsafeBytes { try PNGStrip(straightRGBA: $0.baseAddress!, width: width, rows: pendingRows, color: color) }
    try writer!.append(strip)
    rowsInTile += pendingRows
    pending.removeAll(keepingCapacity: true)
    pendingRows = 0
    if rowsInTile == tileHeight { try closeTile() }
  }

  private func closeTile() throws {
    guard let writer, let handle else { return }
    self.writer = nil
    self.handle = nil
    rowsInTile = 0
    defer { try? handle.close() }
    try writer.finish()
  }

  /// Ends the image; its temporary files stay until ``commit(to:)`` or ``discard()``.
  func finish() throws {
    try flush()
    try closeTile()
    guard height > 0 else { throw SnapshotError("an image must be at least 1 pixel tall") }
  }

  /// Moves the finished files into place as the image `url` (tiles beside it), and removes
  /// tiles an earlier image left there when `removingStaleTiles`.
  func commit(to url: URL, removingStaleTiles: Bool) throws {
    try TiledPNG.move(handOver(), to: url, removingStaleTiles: removingStaleTiles)
  }

  /// The finished files, which the caller now owns: the writer no longer removes them.
  func handOver() -> [URL] {
    defer { files = [] }
    return files
  }

  /// Removes the temporary files.
  func discard() {
    if let handle { try? handle.close() }
    writer = nil
    handle = nil
    for file in files { try? FileManager.default.removeItem(at: file) }
    files = []
  }

  /// The rows written, read back from the finished temporary files.
  func rows() throws -> any RGBARowSource {
    try TiledPNG.rows(ofFiles: files)
  }
}
