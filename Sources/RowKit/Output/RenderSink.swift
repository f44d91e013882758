import Foundation
import RowKitGraphics

/// The one tiling rule: a table image is cut every `maximumHeight` pixels from its top, and a
/// strip crossing a cut is split there, so each tile is an image of its own.
struct TileRule: Sendable {
  var maximumHeight: Int

  init(maximumHeight: Int) {
    self.maximumHeight = max(1, maximumHeight)
  }

  /// The row ranges of a strip `height` pixels tall whose top is at `top` in the table,
  /// split where a tile ends.
  func pieces(of height: Int, at top: Int) -> [Range<Int>] {
    var pieces: [Range<Int>] = []
    var row = 0
    while row < height {
      let take = min(height - row, maximumHeight - (top + row) % maximumHeight)
      pieces.append(row..<(row + take))
      row += take
    }
    return pieces
  }

  /// Whether a tile ends at `pixel` (the table's pixel row just below a cut).
  func startsTile(at pixel: Int) -> Bool { pixel % maximumHeight == 0 }
}

/// What a paint job gives back for each strip.
enum PaintForm: Sendable {
  /// The strip's pixels as they are.
  case bitmaps
  /// Compressed pieces of the table PNG (`color`; nil for no table), split where a tile
  /// ends, and with `rows` the row's own PNG.
  case png(color: PNGColor?, rows: Bool, maximumHeight: Int, compression: PNGCompression)
}

/// A painted strip, in the form its paint job asked for.
struct PaintedStrip: Sendable {
  var index: Int
  var bitmap: Bitmap?
  var pieces: [PNGStrip] = []
  var rowPNG: [UInt8]?
  /// The row's lint findings from its layout and pixels, when the render lints.
  var findings: [LintFinding]?

  init(index: Int, bitmap: Bitmap? = nil, pieces: [PNGStrip] = [], rowPNG: [UInt8]? = nil) {
    self.index = index
    self.bitmap = bitmap
    self.pieces = pieces
    self.rowPNG = rowPNG
  }
}

/// Where a render's pixels go, strip by strip, in the table's order.
protocol RenderSink: AnyObject {
  /// Whether strips are painted at all (a measure paints nothing).
  var paints: Bool { get }
  /// Whether every row's manifest entry is kept (memory grows with the table).
  var keepsManifest: Bool { get }
  /// The form the workers hand strips over in.
  func form(color: PNGColor) -> PaintForm
  /// Takes one painted strip whose top is at `topPixel`; returns whether it wrote the row's
  /// own image (named `rowName`).
  func write(_ strip: PaintedStrip, topPixel: Int, rowName: String?) throws -> Bool
  /// Takes a painted chunk's strips in the table's order; returns, for each, whether it
  /// wrote the row's own image.
  func write(_ strips: [SinkStrip]) async throws -> [Bool]
  /// Takes the one pixel row of a table with no strips.
  func writeEmptyTable(_ row: Bitmap) throws
  /// Ends the table image; lists its tiles in `manifest` when it writes several.
  func finish(manifest: inout Manifest, scale: Double) throws -> (tiles: Int, bytes: Int)
  /// Makes everything visible at once.
  func commit(manifest: Manifest) throws
  /// Drops whatever was written.
  func discard()
}

/// A painted strip on its way to a sink: its top in the table, and the name of the row's own
/// image (nil for a header or footer).
struct SinkStrip: Sendable {
  var strip: PaintedStrip
  var topPixel: Int
  var rowName: String?
}

extension RenderSink {
  /// The strips one at a time, on the calling thread.
  func write(_ strips: [SinkStrip]) async throws -> [Bool] {
    try strips.map { try write($0.strip, topPixel: $0.topPixel, rowName: $0.rowName) }
  }
}

/// Files: the table PNG (or tiles) streamed strip by strip, one PNG per row, the manifest;
/// all under temporary names until the commit.
final class FileSink: RenderSink {
  let destination: RenderDestination
  let width: Int
  let color: PNGColor
  let tileRule: TileRule
  let compression: PNGCompression
  private let files: AtomicFiles
  private var writer: PNGStreamWriter?
  private var handle: FileHandle?
  private var tileFiles: [URL] = []
  private var tileHeights: [Int] = []
  /// The bytes of the tiles closed so far, counted as they are closed: asking the file
  /// system afterwards (`attributesOfItem`) also looks up the owner's name in /etc/passwd.
  private var tileBytes = 0
  private var rowsFolder: URL?
  /// What this sink staged, so that a failed render removes only its own files from a set
  /// that other renders stage into too.
  private var staged: Set<URL> = []

  init(destination: RenderDestination, width: Int, color: PNGColor, tileRule: TileRule, compression: PNGCompression) {
    self.destination = destination
    self.width = width
    self.color = color
    self.tileRule = tileRule
    self.compression = compression
    files = destination.staging ?? AtomicFiles()
  }

  var paints: Bool { destination.table != nil || destination.rowsDirectory != nil || destination.manifest != nil }
  var keepsManifest: Bool { destination.manifest != nil || destination.keepsManifest }

  func form(color: PNGColor) -> PaintForm {
    .png(
      color: destination.table != nil ? color : nil, rows: destination.rowsDirectory != nil,
      maximumHeight: tileRule.maximumHeight, compression: compression)
  }

  func write(_ strip: PaintedStrip, topPixel: Int, rowName: String?) throws -> Bool {
    for piece in strip.pieces { try append(piece) }
    guard let png = strip.rowPNG, let rowName, let rows = destination.rowsDirectory else { return false }
    if rowsFolder == nil {
      rowsFolder = try files.folder(for: rows)
      staged.insert(rowsFolder!)
    }
    try OutputWriter.writeNewFile(
      png, at: rowsFolder!.appendingPathComponent(rowName), naming: rows.appendingPathComponent(rowName))
    return true
  }

  func writeEmptyTable(_ row: Bitmap) throws {
    guard destination.table != nil else { return }
    try append(try PNGStrip(row, color: color))
  }

  /// Appends a piece of the table image; a piece never crosses a tile's end.
  private func append(_ piece: PNGStrip) throws {
    guard let table = destination.table else { return }
    if writer == nil || tileHeights.last == tileRule.maximumHeight {
      try closeTile()
      let url = try files.create(for: table, suffix: "-\(tileFiles.count + 1)")
      staged.insert(url)
      tileFiles.append(url)
      tileHeights.append(0)
      let handle = try FileHandle(forWritingTo: url)
      self.handle = handle
      writer = try PNGStreamWriter(width: width, color: color, file: handle)
    }
    try writer!.append(piece)
    tileHeights[tileHeights.count - 1] += piece.rows
  }

  private func closeTile() throws {
    guard let writer, let handle else { return }
    try writer.finish()
    tileBytes += Int(try handle.offset())
    try handle.close()
    self.writer = nil
    self.handle = nil
  }

  func finish(manifest: inout Manifest, scale: Double) throws -> (tiles: Int, bytes: Int) {
    try closeTile()
    guard let table = destination.table else { return (0, 0) }
    manifest.listTiles(heights: tileHeights, of: table, scale: scale)
    return (tileFiles.count, tileBytes)
  }

  func commit(manifest: Manifest) throws {
    if let table = destination.table {
      for (file, url) in zip(tileFiles, OutputWriter.tileURLs(for: table, count: tileFiles.count)) {
        files.retarget(file, to: url)
      }
    }
    if let url = destination.manifest { try files.stage(try manifest.jsonBytes(), as: url) }
    if destination.staging == nil { try files.commit() }
  }

  func discard() {
    try? handle?.close()
    if destination.staging == nil { files.discard() } else { files.discard(staged) }
  }
}

/// Bitmaps in memory: the table's tiles (cut by the same rule as files) and each row's image.
final class MemorySink: RenderSink {
  let outputs: RenderOutputs
  let tileRule: TileRule
  private(set) var tiles: [RenderedTable.Tile] = []
  private(set) var rowImages: [Bitmap] = []
  private var pixels: [UInt8] = []
  private var stripHeights: [Int] = []
  private var width = 0
  private var tileTop = 0

  init(outputs: RenderOutputs, tileRule: TileRule) {
    self.outputs = outputs
    self.tileRule = tileRule
  }

  var paints: Bool { true }
  var keepsManifest: Bool { true }
  func form(color: PNGColor) -> PaintForm { .bitmaps }

  func write(_ strip: PaintedStrip, topPixel: Int, rowName: String?) throws -> Bool {
    guard let bitmap = strip.bitmap else { return false }
    if outputs.contains(.table) {
      width = bitmap.width
      let rowBytes = bitmap.width * 4
      for piece in tileRule.pieces(of: bitmap.height, at: topPixel) {
        if tileRule.startsTile(at: topPixel + piece.lowerBound), !pixels.isEmpty { finishTile() }
        pixels += bitmap.pixels[(piece.lowerBound * rowBytes)..<(piece.upperBound * rowBytes)]
        stripHeights.append(piece.count)
      }
    }
    if outputs.contains(.rows), rowName != nil { rowImages.append(bitmap) }
    return false
  }

  func writeEmptyTable(_ row: Bitmap) throws {
    guard outputs.contains(.table) else { return }
    width = row.width
    pixels = row.pixels
    stripHeights = [row.height]
  }

  private func finishTile() {
    let height = pixels.count / max(1, width * 4)
    var tile = RenderedTable.Tile(topPixel: tileTop, bitmap: Bitmap(width: width, height: height, pixels: pixels))
    tile.stripHeights = stripHeights
    tiles.append(tile)
    tileTop += height
    pixels = []
    stripHeights = []
  }

  func finish(manifest: inout Manifest, scale: Double) throws -> (tiles: Int, bytes: Int) {
    if !pixels.isEmpty { finishTile() }
    return (tiles.count, 0)
  }

  func commit(manifest: Manifest) throws {}
  func discard() {}
}

/// Bitmaps handed on strip by strip, none kept: to a ``TableImageReceiver``, on a worker of
/// the render's pool. A receiver's work (a check decodes its reference and compares) is
/// then part of the work the pool's size bounds: with one job, a check keeps one core busy,
/// not one core and the loading threads besides.
final class ReceiverSink: RenderSink {
  /// Runs a job on a worker of the render's pool and waits for it.
  typealias Worker = (@escaping @Sendable () throws -> Void) async throws -> Void

  let receiver: any TableImageReceiver
  let keepsManifest: Bool
  private let onWorker: Worker

  init(receiver: any TableImageReceiver, keepsManifest: Bool, onWorker: @escaping Worker) {
    self.receiver = receiver
    self.keepsManifest = keepsManifest
    self.onWorker = onWorker
  }

  var paints: Bool { true }
  func form(color: PNGColor) -> PaintForm { .bitmaps }

  func write(_ strip: PaintedStrip, topPixel: Int, rowName: String?) throws -> Bool {
    if let bitmap = strip.bitmap { try receiver.receive(bitmap) }
    return false
  }

  /// A chunk's strips in one job on the pool.
  func write(_ strips: [SinkStrip]) async throws -> [Bool] {
    let bitmaps = strips.compactMap(\.strip.bitmap)
    if !bitmaps.isEmpty {
      let handle = Handle(receiver: receiver)
      try await onWorker { for bitmap in bitmaps { try handle.receiver.receive(bitmap) } }
    }
    return strips.map { _ in false }
  }

  /// `@unchecked Sendable`: a render writes its chunks one after another, each awaited
  /// before the next, so the receiver is used by one thread at a time.
  private struct Handle: @unchecked Sendable {
    let receiver: any TableImageReceiver
  }

  func writeEmptyTable(_ row: Bitmap) throws { try receiver.receive(row) }
  func finish(manifest: inout Manifest, scale: Double) throws -> (tiles: Int, bytes: Int) { (0, 0) }
  func commit(manifest: Manifest) throws {}
  func discard() {}
}

/// Nothing but the manifest: a measure.
final class MeasureSink: RenderSink {
  var paints: Bool { false }
  var keepsManifest: Bool { true }
  func form(color: PNGColor) -> PaintForm { .bitmaps }
  func write(_ strip: PaintedStrip, topPixel: Int, rowName: String?) throws -> Bool { false }
  func writeEmptyTable(_ row: Bitmap) throws {}
  func finish(manifest: inout Manifest, scale: Double) throws -> (tiles: Int, bytes: Int) { (0, 0) }
  func commit(manifest: Manifest) throws {}
  func discard() {}
}

extension Manifest {
  /// Lists the tiles of a table image written to `table` when there are several.
  mutating func listTiles(heights: [Int], of table: URL, scale: Double) {
    guard heights.count > 1 else { return }
    let urls = OutputWriter.tileURLs(for: table, count: heights.count)
    var top = 0
    tiles = zip(urls, heights).map { url, height in
      defer { top += height }
      return Manifest.Tile(file: url.lastPathComponent, y: Double(top) / scale, height: Double(height) / scale)
    }
  }

  /// Pretty-printed JSON with sorted keys: the same manifest is always the same bytes.
  public func jsonBytes() throws -> [UInt8] {
    try DeterministicJSON.bytes(self)
  }
}
