import Foundation
import RowKitGraphics

/// Renders tables: lays out every row once, resolves the image slots, paints, and encodes.
///
/// A renderer owns a ``TextShaper`` and is not thread-safe; use one per thread.
///
/// ```swift
/// let renderer = try TableRenderer(configuration: TableConfiguration(style: .grouped))
/// let rendered = try await renderer.render(dataSource)
/// let png = try PNG.encode(rendered.tiles[0].bitmap)
/// ```
public final class TableRenderer {
  public let configuration: TableConfiguration
  public let stylesheet: Stylesheet
  public let shaper: TextShaper
  /// Where image URLs point.
  public let imageResolver: ImageURLResolver
  /// Loads images; by default the process's one pipeline.
  public let pipeline: ImagePipeline
  /// Seconds a render waits for its images in total, after which slots show defaults.
  public var imageDeadline = TableRenderer.defaultImageDeadline
  public static let defaultImageDeadline = 30.0
  private var preloaded: [String: Bitmap] = [:]

  public init(
    configuration: TableConfiguration = TableConfiguration(), stylesheet: Stylesheet = .default,
    environment: TextEnvironment = .standard, imageResolver: ImageURLResolver? = nil,
    pipeline: ImagePipeline = .shared, shaper: TextShaper? = nil
  ) throws {
    self.configuration = configuration
    self.stylesheet = stylesheet
    self.shaper = try shaper ?? environment.makeShaper()
    let here = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    self.imageResolver = imageResolver ?? ImageURLResolver(assetsDirectory: here, baseDirectory: here)
    self.pipeline = pipeline
  }

  /// Makes `bitmap` the image at `url` for this renderer, without reading anything: for
  /// images drawn by code.
  public func preload(_ bitmap: Bitmap, for url: String) {
    preloaded[url] = bitmap
  }

  /// Lays out every row of `dataSource` once.
  public func layout(_ dataSource: any TableDataSource) throws -> TableLayout {
    try TableLayoutEngine(configuration: configuration, stylesheet: stylesheet, shaper: shaper).layout(dataSource)
  }

  /// What every image slot of `table` shows, resampled to the slot's device pixels.
  ///
  /// Under ``ImagePolicy/complete`` every image is loaded, all at once, until
  /// ``imageDeadline``; slots still waiting then show their default image and report
  /// `failed`. Under ``ImagePolicy/placeholder`` slots show their default images (read from
  /// local files only) and report `default`. Geometry is the same either way.
  nonisolated(nonsending) public func loadImages(for table: TableLayout, policy: ImagePolicy = .complete) async throws -> ResolvedImages {
    let slots = table.rows.flatMap { row in
      row.layout.images.enumerated().map { (ResolvedImages.SlotKey(section: row.section, row: row.row, slot: $0.offset), $0.element) }
    }
    return try await imageLoader.load(slots, scale: table.configuration.scale, policy: policy)
  }

  var imageLoader: SlotImageLoader {
    SlotImageLoader(resolver: imageResolver, pipeline: pipeline, deadline: imageDeadline, preloaded: preloaded)
  }

  /// One strip of a table image.
  public struct Tile: Sendable {
    /// The tile's top, in device pixels from the table's top.
    public var topPixel: Int
    public var bitmap: Bitmap
  }

  /// The largest tile height, in pixels: Cairo's surface limit.
  public static let maximumTilePixels = Canvas.maximumPixelSide

  /// Paints the whole table. A table taller than ``maximumTilePixels`` comes back as several
  /// tiles, top to bottom.
  public func renderTable(_ table: TableLayout, images: ResolvedImages, tilePixels: Int = maximumTilePixels) throws -> [Tile] {
    let painter = TablePainter(look: table.look, configuration: table.configuration, images: images)
    let width = table.configuration.pixelWidth
    let rowBytes = width * 4
    let total = max(1, table.pixelHeight)
    var tiles: [Tile] = []
    var pixels: [UInt8] = []
    var tileTop = 0
    func finishTile() {
      let height = pixels.count / rowBytes
      tiles.append(Tile(topPixel: tileTop, bitmap: Bitmap(width: width, height: height, pixels: pixels)))
      tileTop += height
      pixels = []
    }
    for strip in table.strips where table.configuration.grid.pixels(strip.frame.height) > 0 {
      let bitmap = try painter.paint(strip)
      var row = 0
      while row < bitmap.height {
        let room = min(tilePixels, total - tileTop) - pixels.count / rowBytes
        let take = min(room, bitmap.height - row)
        if pixels.isEmpty { pixels.reserveCapacity(min(tilePixels, total - tileTop) * rowBytes) }
        pixels += bitmap.pixels[(row * rowBytes)..<((row + take) * rowBytes)]
        row += take
        if pixels.count / rowBytes == min(tilePixels, total - tileTop) { finishTile() }
      }
    }
    if !pixels.isEmpty || tiles.isEmpty {
      // An empty table is one background-colored pixel row.
      if pixels.isEmpty { pixels = try painter.emptyRow() }
      finishTile()
    }
    return tiles
  }

  /// Paints one row on its own: exactly the pixels the row has in the whole table.
  public func renderRow(_ row: PlacedRow, in table: TableLayout, images: ResolvedImages) throws -> Bitmap {
    try TablePainter(look: table.look, configuration: table.configuration, images: images).paint(.row(row))
  }
}
