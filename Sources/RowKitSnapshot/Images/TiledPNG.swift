import Foundation
import RowKit
import RowKitGraphics

/// How RowKit keeps an image too tall for one PNG that every decoder opens: the file itself
/// holds the top rows, and tiles beside it hold the rest, `name+2.png`, `name+3.png`, …, cut
/// every ``tileHeight(width:pixels:)`` rows as `TableRenderer` cuts a tall table. References
/// and failure artifacts are kept this way; a `+` is in no snapshot name, so a tile is never
/// taken for another case's reference. An image of one file is the same as before tiles.
package enum TiledPNG {
  /// The tallest tile of an image `width` pixels wide: at most `TableRenderer`'s tile
  /// height (libpng's default limit), and no more than `pixels` pixels, by default
  /// `PNG.defaultMaximumPixels`, so that each tile also decodes whole.
  public static func tileHeight(width: Int, pixels: Int = PNG.defaultMaximumPixels) -> Int {
    max(1, min(TableRenderer.defaultMaximumTilePixels, pixels / max(1, width)))
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
      try NamedRows(PNGRowReader(contentsOf: files[index]), name: files[index].path)
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

  /// Copies the image at `source`, tiles included, to `target`: their bytes, never a
  /// symbolic link (a report holds files, and a copied link would point back out of it).
  /// Only regular files are read: a FIFO among references from a pull request would wait
  /// for a writer forever.
  static func copy(_ source: URL, to target: URL) throws {
    let files = files(of: source)
    for (index, file) in files.enumerated() {
      let bytes: [UInt8]
      do {
        bytes = try InputFile.read(file.path)
      } catch {
        throw SnapshotError("\(file.path): \(error)")
      }
      // Whatever is at the copy's name goes first, a link included, so nothing is written through one.
      let copy = tileURL(target, index: index)
      try? FileManager.default.removeItem(at: copy)
      try OutputWriter.write(bytes, to: copy)
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
  let name: String

  init(_ source: @autoclosure () throws -> any RGBARowSource, name: String) throws {
    do {
      self.source = try source()
    } catch {
      throw SnapshotError("\(name): \(error)")
    }
    self.name = name
  }

  var width: Int { source.width }
  var height: Int { source.height }

  func read(_ count: Int, into output: UnsafeMutableRawPointer) throws {
    do { try source.read(count, into: output) } catch { throw SnapshotError("\(name): \(error)") }
  }

  func readMatching(_ bitmap: Bitmap, rows: Range<Int>) throws -> Bool {
    do { return try source.readMatching(bitmap, rows: rows) } catch { throw SnapshotError("\(name): \(error)") }
  }

  func finish() throws {
    do { try source.finish() } catch { throw SnapshotError("\(name): \(error)") }
  }
}

/// Image files read for a comparison (`rowkit diff`), in bounded memory where the format
/// allows it; every error names the file.
public enum ImageFile {
  /// The rows of the image file at `url`, which errors call `name`: a PNG is decoded a few
  /// rows at a time as they are read, so it may have any size; JPEG and WebP, told apart by
  /// their first bytes, are decoded whole, within `PNG.defaultMaximumPixels`.
  public static func rows(at url: URL, named name: String) throws -> any RGBARowSource {
    if try format(at: url, named: name) == .png { return try NamedRows(PNGRowReader(contentsOf: url), name: name) }
    return try NamedRows(RGBAImageRows(ImageDecoder.decodeRGBA(bytes(at: url, named: name))), name: name)
  }

  /// Checks that the image file at `url` decodes, and returns its size: a PNG without
  /// decoding its pixels, a block of the file at a time; JPEG and WebP decoded.
  public static func check(at url: URL, named name: String) throws -> (width: Int, height: Int) {
    do {
      if try format(at: url, named: name) == .png {
        let reader = try PNGRowReader(contentsOf: url)
        try reader.finish()
        return (reader.width, reader.height)
      }
      return try ImageDecoder.check(bytes(at: url, named: name))
    } catch let error as SnapshotError {
      throw error
    } catch {
      throw SnapshotError("\(name): \(error)")
    }
  }

  /// Whether `first` and `second` are regular files of the same bytes, read a block at a
  /// time.
  public static func sameBytes(_ first: URL, _ second: URL) -> Bool {
    func attributes(_ url: URL) -> (FileAttributeType?, Int?) {
      let attributes = try? FileManager.default.attributesOfItem(atPath: url.path)
      return (attributes?[.type] as? FileAttributeType, (attributes?[.size] as? NSNumber)?.intValue)
    }
    let (firstType, firstSize) = attributes(first)
    let (secondType, secondSize) = attributes(second)
    guard firstType == .typeRegular, secondType == .typeRegular, let firstSize, firstSize == secondSize,
      let one = FileHandle(forReadingAtPath: first.path), let two = FileHandle(forReadingAtPath: second.path)
    else { return false }
    defer {
      try? one.close()
      try? two.close()
    }
    while true {
      guard let a = try? one.read(upToCount: 1 << 20), let b = try? two.read(upToCount: 1 << 20) else { return false }
      if a != b { return false }
      if a.isEmpty { return true }
    }
  }

  private static func format(at url: URL, named name: String) throws -> ImageDecoder.Format {
    if let problem = InputFile.problem(at: url.path) { throw SnapshotError("\(name): \(problem)") }
    let format: ImageDecoder.Format?
    do {
      format = try ImageDecoder.format(contentsOf: url)
    } catch {
      throw SnapshotError("\(name): cannot be read (\(error))")
    }
    guard let format else { throw SnapshotError("\(name): not an image (neither PNG, JPEG nor WebP)") }
    return format
  }

  private static func bytes(at url: URL, named name: String) throws -> [UInt8] {
    do {
      return try InputFile.read(url.path)
    } catch {
      throw SnapshotError("\(name): \(error)")
    }
  }
}

/// Writes an image strip by strip into a PNG file, or into tiles as `TiledPNG` names them,
/// under temporary names beside its target until ``commit(to:removingStaleTiles:)``: memory
/// holds one strip however tall the image is. Rows gather into strips of up to
/// ``stripPixels`` before they are compressed, so an image no larger than that is the bytes
/// `PNG.encode(_:compression:)` writes.
final class TiledPNGWriter {
  let width: Int
  let color: PNGColor
  let tileHeight: Int
  /// The file the image is meant for: the temporary files go beside it.
  let target: URL
  private let token = UUID().uuidString
  private var pending: [UInt8] = []
  private var pendingRows = 0
  private var rowsInTile = 0
  private var writer: PNGStreamWriter?
  private var handle: FileHandle?
  /// The temporary files, one per tile.
  private(set) var files: [URL] = []
  /// Keeps the temporary files for removal should the process be stopped while they are
  /// written (`rowkit diff -o` stopped by a signal left them), until they are handed over.
  private let unfinished = AtomicFiles()
  private(set) var height = 0

  /// The most pixels gathered before they are compressed.
  let stripPixels: Int
  /// 8 megapixels: 32 MB of pixels, some 24 MB of scanlines.
  static let stripPixels = 1 << 23

  /// A writer of an image `width` pixels wide in `color`, cut every `tileHeight` rows, into
  /// temporary files beside `target`.
  init(for target: URL, width: Int, color: PNGColor, tileHeight: Int = .max, stripPixels: Int = TiledPNGWriter.stripPixels) {
    self.target = target
    self.stripPixels = stripPixels
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
      let take = room(bitmap.height - row)
      pending += bitmap.pngScanlines(rows: row..<(row + take), color: color)
      try added(take)
      row += take
    }
  }

  /// Appends `rows` rows of straight RGBA at `pixels` below the rows written so far.
  func append(straightRGBA pixels: UnsafeRawPointer, rows: Int) throws {
    var row = 0
    while row < rows {
      let take = room(rows - row)
      pending += PNGStrip.scanlines(straightRGBA: pixels + row * width * 4, width: width, rows: take, color: color)
      try added(take)
      row += take
    }
  }

  /// The rows of a strip.
  private var stripRows: Int { max(1, stripPixels / max(1, width)) }

  /// How many of `wanted` rows the pending strip takes: as many as its size and the tile
  /// allow.
  private func room(_ wanted: Int) -> Int {
    min(wanted, stripRows - pendingRows, tileHeight - rowsInTile - pendingRows)
  }

  private func added(_ rows: Int) throws {
    pendingRows += rows
    height += rows
    if pendingRows == stripRows || rowsInTile + pendingRows == tileHeight { try flush() }
  }

  private func flush() throws {
    guard pendingRows > 0 else { return }
    if writer == nil {
      let folder = OutputWriter.writesThrough(target) ? FileManager.default.temporaryDirectory : target.deletingLastPathComponent()
      let url = folder.appendingPathComponent(".\(target.lastPathComponent).\(token)-\(files.count + 1).tmp")
      let descriptor = open(url.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
      guard descriptor >= 0 else { throw OutputError(writing: target, errno: errno) }
      close(descriptor)
      try unfinished.keepUntilReleased(url)
      files.append(url)
      let handle = try FileHandle(forWritingTo: url)
      self.handle = handle
      writer = try PNGStreamWriter(width: width, color: color, file: handle)
    }
    try writer!.append(PNGStrip(scanlines: pending, width: width, rows: pendingRows, color: color))
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

  /// Moves the finished files into place as the image `url` (by default the target, tiles
  /// beside it), and removes tiles an earlier image left there when `removingStaleTiles`.
  func commit(to url: URL? = nil, removingStaleTiles: Bool) throws {
    try TiledPNG.move(handOver(), to: url ?? target, removingStaleTiles: removingStaleTiles)
  }

  /// The finished files, which the caller now owns: the writer no longer removes them.
  func handOver() -> [URL] {
    defer { files = [] }
    unfinished.release(files)
    return files
  }

  /// Removes the temporary files.
  func discard() {
    if let handle { try? handle.close() }
    writer = nil
    handle = nil
    for file in files { try? FileManager.default.removeItem(at: file) }
    unfinished.release(files)
    files = []
  }

  /// The rows written, read back from the finished temporary files.
  func rows() throws -> any RGBARowSource {
    try TiledPNG.rows(ofFiles: files)
  }
}
