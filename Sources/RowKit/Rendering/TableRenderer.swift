import Foundation
import RowKitGraphics

/// Renders tables: lays out every row once, resolves the image slots, paints, and encodes.
///
/// A renderer owns a ``TextShaper`` and is not thread-safe; use one per thread.
///
/// ```swift
/// let renderer = try TableRenderer(configuration: TableConfiguration(style: .grouped))
/// let table = try renderer.layout(dataSource)
/// let images = try renderer.resolveImages(for: table)
/// let png = try PNG.encode(renderer.renderTable(table, images: images)[0].bitmap)
/// ```
public final class TableRenderer {
  public let configuration: TableConfiguration
  public let stylesheet: Stylesheet
  public let shaper: TextShaper
  public let images: ImageLoader

  public init(
    configuration: TableConfiguration = TableConfiguration(), stylesheet: Stylesheet = .default,
    environment: TextEnvironment = .standard, images: ImageLoader? = nil, shaper: TextShaper? = nil
  ) throws {
    self.configuration = configuration
    self.stylesheet = stylesheet
    self.shaper = try shaper ?? environment.makeShaper()
    let here = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    self.images = images ?? ImageLoader(resolver: ImageURLResolver(assetsDirectory: here, baseDirectory: here))
  }

  /// Lays out every row of `dataSource` once.
  public func layout(_ dataSource: any TableDataSource) throws -> TableLayout {
    try TableLayoutEngine(configuration: configuration, stylesheet: stylesheet, shaper: shaper).layout(dataSource)
  }

  /// What every image slot of `table` shows.
  /// What every image slot of `table` shows, resampled to the slot's device pixels.
  public func resolveImages(for table: TableLayout, policy: ImagePolicy = .complete) throws -> ResolvedImages {
    var resolved = ResolvedImages()
    for row in table.rows {
      for (index, slot) in row.layout.images.enumerated() {
        var image = images.resolve(slot, policy: policy)
        try image.fit(slot, scale: table.configuration.scale)
        resolved.slots[.init(section: row.section, row: row.row, slot: index)] = image
      }
    }
    return resolved
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
    let painter = TablePainter(table: table, images: images)
    let total = max(1, table.pixelHeight)
    var tiles: [Tile] = []
    var top = 0
    while top < total {
      let height = min(tilePixels, total - top)
      let canvas = try Canvas(pixelWidth: table.configuration.pixelWidth, pixelHeight: height, scale: table.configuration.scale)
      painter.paintBand(into: canvas, topPixel: top)
      tiles.append(Tile(topPixel: top, bitmap: canvas.bitmap()))
      top += height
    }
    return tiles
  }

  /// Paints one row on its own: exactly the pixels the row has in the whole table.
  public func renderRow(_ row: PlacedRow, in table: TableLayout, images: ResolvedImages) throws -> Bitmap {
    let grid = table.configuration.grid
    let canvas = try Canvas(
      pixelWidth: table.configuration.pixelWidth, pixelHeight: max(1, grid.pixels(row.height)),
      scale: table.configuration.scale)
    TablePainter(table: table, images: images).paintBand(into: canvas, topPixel: grid.pixels(row.y))
    return canvas.bitmap()
  }
}
