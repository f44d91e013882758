import Foundation
import RowKitGraphics

/// A table rendered into memory: the table image (one tile, or several for a table taller
/// than ``TableRenderer/maximumTilePixels``), each row's own image when asked for, and the
/// manifest.
public struct RenderedTable: Sendable {
  /// One strip of a table image.
  public struct Tile: Sendable {
    /// The tile's top, in device pixels from the table's top.
    public var topPixel: Int
    /// The tile's pixels.
    public var bitmap: Bitmap
    /// The heights of the strips the render painted the tile in, top to bottom: a tile is
    /// written as those strips, so that its PNG is the bytes a render to files writes.
    /// Empty: one strip.
    var stripHeights: [Int] = []
  }

  /// Where every section and row is, and how its images ended up.
  public var manifest: Manifest
  /// The table image, top to bottom: one tile unless the table is too tall for one.
  public var tiles: [Tile]
  /// Each row's own image, in the manifest's row order, when rows were asked for.
  public var rowImages: [Bitmap]
  /// Labels Pango shaped for this render: one per label, whatever was painted.
  public var labelsShaped: Int
  /// The table's layout record, when the renderer ``TableRenderer/recordsLayout``.
  public var layoutRecord: LayoutRecord?
  /// The PNG color type a render to files would have written the table in.
  var pngColor: PNGColor?
  /// The compression the render's PNGs are written with.
  var compression = PNGCompression.fast

  /// The whole table as one bitmap, tiles stacked.
  public var image: Bitmap {
    guard tiles.count > 1 else { return tiles.first?.bitmap ?? Bitmap(width: 0, height: 0, pixels: []) }
    return Bitmap(
      width: tiles[0].bitmap.width, height: tiles.map(\.bitmap.height).reduce(0, +), pixels: tiles.flatMap(\.bitmap.pixels))
  }

  /// The table image as PNG bytes (the first tile's, for a table of several).
  public func pngData() throws -> [UInt8] {
    guard let first = tiles.first else { throw OutputError("the render has no table image (render with outputs: [.table])") }
    return try PNG.encode(first.bitmap)
  }

  /// Writes the table PNG (tiles named `table-1.png`, `table-2.png`, … when there are
  /// several), each row's PNG into `rowsDirectory`, and the manifest: all at once, once
  /// everything is encoded, so a failure leaves no file behind. Rows are written only when
  /// the render made them (``TableRenderer/render(_:policy:outputs:)`` with `.rows`); asking for a
  /// rows folder of a render without them is an error, before anything is written.
  public func write(to table: URL?, rowsDirectory: URL? = nil, manifest: URL? = nil) throws {
    if let rowsDirectory, rowImages.isEmpty, !self.manifest.rows.isEmpty {
      throw OutputError(
        "cannot write the rows into \(rowsDirectory.path): the render made no row images (render with outputs: [.table, .rows])")
    }
    if table != nil, tiles.isEmpty {
      throw OutputError("cannot write \(table?.path ?? ""): the render made no table image (render with outputs: [.table])")
    }
    let files = AtomicFiles()
    try stage(in: files, table: table, rowsDirectory: rowsDirectory, manifest: manifest)
    try files.commit()
  }

  /// Stages what `write(to:rowsDirectory:manifest:)` writes in `files`, for the caller to
  /// commit together with other files. The files go through the sink a render to files
  /// writes with, so a table rendered to memory and then written is the same bytes as the
  /// same table rendered to files.
  package func stage(in files: AtomicFiles, table: URL?, rowsDirectory: URL? = nil, manifest manifestURL: URL? = nil) throws {
    let sink = FileSink(
      destination: RenderDestination(table: table, rowsDirectory: rowsDirectory, manifest: manifestURL, stagingIn: files),
      width: tiles.first?.bitmap.width ?? 0, color: tableColor,
      tileRule: TileRule(maximumHeight: tiles.count > 1 ? tiles[0].bitmap.height : Int.max), compression: compression)
    do {
      var manifest = self.manifest
      if table != nil {
        for (index, tile) in tiles.enumerated() {
          var top = 0
          var pieces: [PNGStrip] = []
          for height in tile.stripHeights.isEmpty ? [tile.bitmap.height] : tile.stripHeights {
            pieces.append(try PNGStrip(tile.bitmap, rows: top..<(top + height), color: tableColor, compression: compression))
            top += height
          }
          _ = try sink.write(PaintedStrip(index: index, pieces: pieces), topPixel: tile.topPixel, rowName: nil)
        }
      }
      if rowsDirectory != nil {
        for (index, image) in rowImages.enumerated() where index < manifest.rows.count {
          let name = Manifest.rowFileName(section: manifest.rows[index].section, row: manifest.rows[index].row)
          let png = try PNG.encode(image, compression: compression)
          if try sink.write(PaintedStrip(index: index, rowPNG: png), topPixel: 0, rowName: name) {
            manifest.rows[index].file = name
          }
        }
      }
      _ = try sink.finish(manifest: &manifest, scale: manifest.scale)
      try sink.commit(manifest: manifest)
    } catch {
      sink.discard()
      throw error
    }
  }

  /// The color type of the table's PNG: the one the render chose from the table's
  /// background, or, for a table made elsewhere, the one that keeps every tile's pixels.
  private var tableColor: PNGColor {
    if let pngColor { return pngColor }
    return tiles.allSatisfy { $0.bitmap.isOpaque } ? .rgb : .rgba
  }
}

/// Takes a table image as a render paints it: strips of rows of one width, top to bottom,
/// each handed over once and kept by nobody else (a table of one empty pixel row is that
/// row). A receiver compares, encodes or keeps them as it goes; what it throws ends the
/// render. The render calls it in order, one call at a time, and hands over painted strips
/// on a worker of its pool: a receiver's work counts among the render's `--jobs`.
public protocol TableImageReceiver: AnyObject {
  /// Takes the next `strip.height` rows of the table image.
  func receive(_ strip: Bitmap) throws
}

/// Where a render writes; nil writes nothing of that kind.
public struct RenderDestination: Sendable {
  /// The table's PNG; a table of several tiles is written as `name-1.png`, `name-2.png`… beside it.
  public var table: URL?
  /// The folder for each row's own PNG.
  public var rowsDirectory: URL?
  /// The manifest's JSON file.
  public var manifest: URL?
  /// Where the files are staged when the caller commits them, together with others
  /// (`AtomicFiles.commit(then:)`); nil: the render commits its own files. A failed
  /// render removes what it staged here, and only that.
  package var staging: AtomicFiles?
  /// Whether the render's report keeps every row's manifest entry when no manifest file is
  /// written: for a caller that needs what the rows showed (the images `render --watch`
  /// watches). Off by default, so that memory does not grow with the table.
  package var keepsManifest = false

  /// A destination writing only what is given.
  public init(table: URL? = nil, rowsDirectory: URL? = nil, manifest: URL? = nil) {
    self.init(table: table, rowsDirectory: rowsDirectory, manifest: manifest, stagingIn: nil)
  }

  /// A destination whose files are staged in `staging`, for the caller to commit.
  package init(table: URL? = nil, rowsDirectory: URL? = nil, manifest: URL? = nil, stagingIn staging: AtomicFiles?) {
    self.table = table
    self.rowsDirectory = rowsDirectory
    self.manifest = manifest
    self.staging = staging
  }
}

/// What a render to memory produces.
public struct RenderOutputs: OptionSet, Sendable {
  /// The set's bits: 1 for ``table``, 2 for ``rows``.
  public let rawValue: Int
  /// The set whose bits are `rawValue`.
  public init(rawValue: Int) { self.rawValue = rawValue }

  /// The table image.
  public static let table = RenderOutputs(rawValue: 1)
  /// Each row's own image.
  public static let rows = RenderOutputs(rawValue: 2)
}
