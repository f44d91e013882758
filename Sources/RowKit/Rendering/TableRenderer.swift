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
    let scale = table.configuration.scale
    // Each distinct image is asked for once per slot size, however many slots show it.
    var requests: [String: ImageRequest] = [:]
    var plans: [(key: ResolvedImages.SlotKey, slot: ImageSlot, main: String?, fallback: String?, error: String?)] = []
    func request(_ url: String, for slot: ImageSlot, localOnly: Bool) -> (id: String?, error: String?) {
      if preloaded[url] != nil { return ("preloaded:" + url, nil) }
      let location: ImageLocation
      do {
        location = try imageResolver.resolve(url)
      } catch {
        return (nil, error.message)
      }
      if localOnly, case .remote = location { return (nil, nil) }
      let target = ImageTarget(slot, scale: scale)
      let id = location.key + (target.map { "#\($0)" } ?? "")
      requests[id] = ImageRequest(location: location, target: target)
      return (id, nil)
    }
    for row in table.rows {
      for (index, slot) in row.layout.images.enumerated() {
        let key = ResolvedImages.SlotKey(section: row.section, row: row.row, slot: index)
        let fallback = slot.defaultURL.flatMap { request($0, for: slot, localOnly: true).id }
        var main: (id: String?, error: String?) = (nil, nil)
        if let url = slot.url, policy == .complete { main = request(url, for: slot, localOnly: false) }
        plans.append((key, slot, main.id, fallback, main.error))
      }
    }
    let results = await load(requests)
    var resolved = ResolvedImages()
    for plan in plans {
      let fallback = plan.fallback.flatMap { try? results[$0]?.get() }
      var image: SlotImage
      if let main = plan.main {
        switch results[main] {
        case .success(let loaded): image = SlotImage(image: loaded, state: .loaded)
        case .failure(let error): image = SlotImage(image: fallback, state: .failed, reason: error.message)
        case nil:
          image = SlotImage(
            image: fallback, state: .failed,
            reason: "not loaded within the render's \(ImagePipeline.seconds(imageDeadline)) deadline")
        }
      } else if let error = plan.error {
        image = SlotImage(image: fallback, state: .failed, reason: error)
      } else {
        image = SlotImage(image: fallback, state: .default)
      }
      try image.fit(plan.slot, scale: scale)
      resolved.slots[plan.key] = image
    }
    return resolved
  }

  struct ImageRequest: Sendable {
    var location: ImageLocation
    var target: ImageTarget?
  }

  /// Loads every request at once, until the deadline; requests still running then are
  /// cancelled and missing from the result.
  nonisolated(nonsending) private func load(_ requests: [String: ImageRequest]) async -> [String: Result<LoadedImage, ImageLoadError>] {
    var results: [String: Result<LoadedImage, ImageLoadError>] = [:]
    for (id, bitmap) in preloaded { results["preloaded:" + id] = .success(LoadedImage(bitmap)) }
    guard !requests.isEmpty else { return results }
    let pipeline = self.pipeline
    let deadline = imageDeadline
    await withTaskGroup(of: (String, Result<LoadedImage, ImageLoadError>)?.self) { group in
      for (id, request) in requests {
        group.addTask { (id, await pipeline.image(at: request.location, for: request.target)) }
      }
      group.addTask {
        try? await Task.sleep(nanoseconds: UInt64(deadline * 1e9))
        return nil
      }
      var remaining = requests.count
      while remaining > 0, let next = await group.next() {
        guard let (id, result) = next else { break }  // The deadline passed.
        results[id] = result
        remaining -= 1
      }
      group.cancelAll()
    }
    return results
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
