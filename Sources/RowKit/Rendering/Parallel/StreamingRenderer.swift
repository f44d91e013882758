import Foundation
import RowKitGraphics

/// Renders a table straight to files, on a pool of worker threads, a few hundred strips at a
/// time: memory stays flat however many rows the table has.
///
/// Each worker has its own ``TextShaper`` (font map and Pango context) from the same
/// ``TextEnvironment``, and its own ``LayoutCache``. A row is laid out once, by one worker,
/// and painted by the same worker from that layout; identical rows always go to the same
/// worker, so they are shaped once. Each strip (row, header, footer) is painted on its own
/// canvas and compressed on its own (``PNGStrip``); the main task writes the strips in order.
/// The output is byte for byte the same with any number of workers.
///
/// The table PNG is one file up to ``maximumPNGHeight`` pixels tall (libpng's default read
/// limit, so every standard decoder opens it); a taller table is split into numbered tiles
/// (`table-1.png`, `table-2.png`, …) that the manifest lists.
public struct StreamingRenderer: Sendable {
  public var configuration: TableConfiguration
  public var stylesheet: Stylesheet
  public var environment: TextEnvironment
  public var mapping: CellMapping?
  public var imageResolver: ImageURLResolver
  public var pipeline: ImagePipeline
  /// Seconds the whole render waits for images, counted from its start.
  public var imageDeadline = TableRenderer.defaultImageDeadline
  /// Worker threads; by default one per core.
  public var workers = ProcessInfo.processInfo.activeProcessorCount
  public var compression = PNGCompression.fast
  /// The tallest table PNG, in pixels, before it is split into tiles.
  public var maximumPNGHeight = 1_000_000
  /// Strips laid out, loaded and painted together.
  public var chunkSize = 256
  /// Row layouts each worker keeps.
  public var layoutCacheCapacity = 2048
  /// Called on the rendering task after each chunk with the rows done and the rows in all.
  public var progress: (@Sendable (_ done: Int, _ total: Int) -> Void)?
  /// Whether a row with characters no loaded font can draw fails the render (throwing
  /// ``MissingGlyphsError`` before any file is written) instead of being reported.
  public var failsOnMissingGlyphs = false

  public init(
    configuration: TableConfiguration = TableConfiguration(), stylesheet: Stylesheet = .default,
    environment: TextEnvironment = .standard, imageResolver: ImageURLResolver? = nil, pipeline: ImagePipeline = .shared
  ) {
    self.configuration = configuration
    self.stylesheet = stylesheet
    self.environment = environment
    let here = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    self.imageResolver = imageResolver ?? ImageURLResolver(assetsDirectory: here, baseDirectory: here)
    self.pipeline = pipeline
  }

  /// Where a render writes; nil writes nothing of that kind.
  public struct Destination: Sendable {
    public var table: URL?
    public var rowsDirectory: URL?
    public var manifest: URL?

    public init(table: URL? = nil, rowsDirectory: URL? = nil, manifest: URL? = nil) {
      self.table = table
      self.rowsDirectory = rowsDirectory
      self.manifest = manifest
    }
  }

  /// What a render did.
  public struct Report: Sendable {
    /// The manifest, with every row when one was asked for; otherwise its sections and rows
    /// are left empty, so memory does not grow with the table.
    public var manifest: Manifest
    public var rows = 0
    public var heightPixels = 0
    public var tiles = 0
    /// Bytes of the table PNG (all tiles).
    public var pngBytes = 0
    public var cacheHits = 0
    public var cacheMisses = 0
    /// Labels shaped by Pango, over all workers.
    public var labelsShaped = 0
    /// The manifest entries of the rows with characters no loaded font can draw.
    public var rowsWithMissingGlyphs: [Manifest.Row] = []
  }

  /// Lays out, loads images, paints and writes `dataSource`. Every file is written under a
  /// temporary name and renamed into place at the end: a failed render leaves nothing.
  public func render(
    _ dataSource: any TableDataSource, policy: ImagePolicy = .complete, to destination: Destination
  ) async throws -> Report {
    if let problem = configuration.problem { throw StyleError(problem) }
    guard dataSource.numberOfRows <= TableConfiguration.maximumRows else {
      throw StyleError("the table has \(dataSource.numberOfRows) rows, more than \(TableConfiguration.maximumRows)")
    }
    let look = try TableLook(style: configuration.style, stylesheet: stylesheet)
    let color: PNGColor = look.background.alpha >= 1 ? .rgb : .rgba
    do {
      return try await render(dataSource, look: look, color: color, policy: policy, to: destination)
    } catch is NeedsAlpha {
      // A style drew translucent pixels on an opaque table: start again with alpha.
      return try await render(dataSource, look: look, color: .rgba, policy: policy, to: destination)
    }
  }

  private func render(
    _ dataSource: any TableDataSource, look: TableLook, color: PNGColor, policy: ImagePolicy, to destination: Destination
  ) async throws -> Report {
    let mapping = self.mapping ?? dataSource.cellMapping
    let plans = Self.plans(dataSource)
    let workerCount = max(1, workers)
    let (configuration, stylesheet, environment, capacity) = (self.configuration, self.stylesheet, environment, layoutCacheCapacity)
    let pool = (0..<workerCount).map { index in
      RenderWorker<StripWorker>(name: "rowkit-worker-\(index + 1)") {
        try StripWorker(
          configuration: configuration, stylesheet: stylesheet, environment: environment, look: look,
          mapping: mapping, cacheCapacity: capacity)
      }
    }
    do {
      let report = try await render(
        dataSource, plans: plans, pool: pool, workerCount: workerCount, color: color, policy: policy,
        to: destination)
      for worker in pool { await worker.stop() }
      return report
    } catch {
      for worker in pool { await worker.stop() }
      throw error
    }
  }

  private func render(
    _ dataSource: any TableDataSource, plans: [StripPlan], pool: [RenderWorker<StripWorker>], workerCount: Int,
    color: PNGColor, policy: ImagePolicy, to destination: Destination
  ) async throws -> Report {
    let totalRows = dataSource.numberOfRows
    let configuration = self.configuration
    let output = try StreamOutput(destination: destination, width: configuration.pixelWidth, color: color, maximumHeight: maximumPNGHeight)
    do {
      var report = Report(manifest: Manifest(configuration: configuration))
      var manifest = Manifest(configuration: configuration)
      let keepsManifest = destination.manifest != nil
      var yPixels = 0
      var rowsDone = 0
      let loader = SlotImageLoader(resolver: imageResolver, pipeline: pipeline, deadline: imageDeadline, preloaded: [:])
      let size = max(1, chunkSize)
      let chunks = stride(from: 0, to: plans.count, by: size).map { Array(plans[$0..<min(plans.count, $0 + size)]) }
      // Each chunk's strips, by the worker their content routes them to.
      let routing = chunks.map { chunk in Dictionary(grouping: chunk) { $0.worker(of: workerCount) } }
      func submitLayout(_ chunk: Int) -> [WorkerResult<[StripMeasure]>] {
        routing[chunk].map { workerIndex, strips in pool[workerIndex].submit { try $0.layout(strips) } }
      }
      let (wantsRows, wantsTable) = (destination.rowsDirectory != nil, destination.table != nil)
      let (maximumHeight, compression) = (maximumPNGHeight, self.compression)

      /// A chunk being painted, with what writing it needs.
      struct Painting {
        var chunk: Int
        var results: [WorkerResult<[EncodedStrip]>]
        var measures: [Int: StripMeasure]
        var placements: [Int: Int]
        var images: ResolvedImages
      }
      func write(_ painting: Painting) async throws {
        var encoded: [Int: EncodedStrip] = [:]
        for result in painting.results { for strip in try await result.value { encoded[strip.index] = strip } }
        for plan in chunks[painting.chunk] {
          let strip = encoded[plan.index]!
          for piece in strip.pieces { try output.append(piece) }
          guard let measure = painting.measures[plan.index] else { continue }
          let top = Double(painting.placements[plan.index]!) / configuration.scale
          if var row = measure.row {
            row.y = top
            row.record(painting.images)
            if let png = strip.rowPNG {
              let name = Manifest.rowFileName(section: row.section, row: row.row)
              try output.writeRow(png, named: name)
              row.file = name
            }
            rowsDone += 1
            if row.missingGlyphs > 0 { report.rowsWithMissingGlyphs.append(row) }
            if keepsManifest {
              manifest.sections[row.section].rows += 1
              manifest.rows.append(row)
            }
          } else if let band = measure.band, keepsManifest {
            Self.record(band, top: top, height: measure.height, in: &manifest)
          } else if case .header(let section, _, _, let rows) = plan.kind, keepsManifest {
            // No header band: the section starts at its first row, as the manifest of a
            // whole layout says.
            Self.record((.header, section, nil), top: rows > 0 ? top : 0, height: 0, in: &manifest)
          }
        }
        progress?(rowsDone, totalRows)
      }

      // A pipeline that keeps every worker's queue full: chunk k+1 is laid out while chunk
      // k is painted, and chunk k-1 is written while chunk k is painted. Placing a chunk
      // needs only the heights before it, never the pixels.
      var layouts: [Int: [WorkerResult<[StripMeasure]>]] = [:]
      for chunk in chunks.indices.prefix(2) { layouts[chunk] = submitLayout(chunk) }
      var previous: Painting?
      for chunk in chunks.indices {
        var measures: [Int: StripMeasure] = [:]
        for result in layouts.removeValue(forKey: chunk)! { for measure in try await result.value { measures[measure.index] = measure } }
        var placements: [Int: Int] = [:]
        var slots: [(ResolvedImages.SlotKey, ImageSlot)] = []
        for plan in chunks[chunk] {
          let measure = measures[plan.index]!
          placements[plan.index] = yPixels
          if let row = measure.row {
            slots += measure.slots.enumerated().map { (ResolvedImages.SlotKey(section: row.section, row: row.row, slot: $0.offset), $0.element) }
          }
          yPixels += measure.heightPixels
        }
        let images = try await loader.load(slots, scale: configuration.scale, policy: policy)
        let paints = routing[chunk].map { workerIndex, strips in
          let jobs = strips.map { PaintJob(index: $0.index, topPixel: placements[$0.index]!) }
          let needed = Self.images(images, for: strips)
          return pool[workerIndex].submit {
            try $0.paint(
              jobs, images: needed, table: wantsTable ? color : nil, rows: wantsRows, maximumHeight: maximumHeight,
              compression: compression)
          }
        }
        if chunk + 2 < chunks.count { layouts[chunk + 2] = submitLayout(chunk + 2) }
        if let previous { try await write(previous) }
        previous = Painting(chunk: chunk, results: paints, measures: measures, placements: placements, images: images)
      }
      if let previous { try await write(previous) }
      if destination.table != nil, output.isEmpty {
        // An empty table is one background-colored pixel row.
        try output.append(try await pool[0].perform { try $0.emptyStrip(color) })
      }
      manifest.height = Double(yPixels) / configuration.scale
      report.heightPixels = yPixels
      let finished = try output.finish(manifest: &manifest, scale: configuration.scale)
      report.tiles = finished.tiles
      report.pngBytes = finished.bytes
      if let url = destination.manifest { try output.stage(try manifest.jsonBytes(), as: url) }
      if failsOnMissingGlyphs, !report.rowsWithMissingGlyphs.isEmpty {
        throw MissingGlyphsError(rows: report.rowsWithMissingGlyphs)
      }
      try output.commit()
      report.rows = rowsDone
      report.manifest = keepsManifest ? manifest : Manifest(configuration: configuration)
      for worker in pool {
        let counts = try await worker.perform { ($0.cache.hits, $0.cache.misses, $0.shaper.shapeCount) }
        report.cacheHits += counts.0
        report.cacheMisses += counts.1
        report.labelsShaped += counts.2
      }
      return report
    } catch {
      output.discard()
      throw error
    }
  }

  /// Every strip of the table, in order.
  static func plans(_ dataSource: any TableDataSource) -> [StripPlan] {
    var plans: [StripPlan] = []
    for (sectionIndex, section) in dataSource.sections.enumerated() {
      plans.append(
        StripPlan(
          index: plans.count,
          kind: .header(section: sectionIndex, title: section.header, first: sectionIndex == 0, rows: section.items.count)))
      for (rowIndex, item) in section.items.enumerated() {
        plans.append(StripPlan(index: plans.count, kind: .row(section: sectionIndex, row: rowIndex, count: section.items.count, item: item)))
      }
      plans.append(StripPlan(index: plans.count, kind: .footer(section: sectionIndex, title: section.footer)))
    }
    return plans
  }

  /// The loaded images of `strips`' rows.
  static func images(_ images: ResolvedImages, for strips: [StripPlan]) -> ResolvedImages {
    var subset = ResolvedImages()
    let rows = Set(strips.compactMap { plan -> [Int]? in
      if case .row(let section, let row, _, _) = plan.kind { return [section, row] }
      return nil
    })
    for (key, image) in images.slots where rows.contains([key.section, key.row]) { subset.slots[key] = image }
    return subset
  }

  static func record(_ band: (kind: SectionBand.Kind, section: Int, title: String?), top: Double, height: Double, in manifest: inout Manifest) {
    if band.kind == .header {
      manifest.sections.append(
        Manifest.Section(section: band.section, header: band.title, y: top, height: height, footer: nil, footerY: nil, footerHeight: nil, rows: 0))
    } else {
      manifest.sections[band.section].footer = band.title
      manifest.sections[band.section].footerY = top
      manifest.sections[band.section].footerHeight = height
    }
  }
}

/// Rows with characters that no loaded font can draw, when a render was asked to fail on
/// them (`--strict`). Nothing was written.
public struct MissingGlyphsError: Error, Sendable, CustomStringConvertible {
  public var rows: [Manifest.Row]

  public init(rows: [Manifest.Row]) {
    self.rows = rows
  }

  public var description: String {
    let count = rows.count
    return "\(count) row\(count == 1 ? " has" : "s have") characters no font can draw (--strict); nothing was written"
  }
}

extension Manifest.Row {
  /// The warning `rowkit` prints for a row with missing glyphs:
  /// `table.yaml: row 3 (s0-r3): no glyph for U+E000`.
  public func missingGlyphWarning(file: String) -> String {
    "\(file): row \(row) (\(name)): no glyph for \((missingCharacters ?? []).joined(separator: ", "))"
  }
}

/// Thrown when a strip of an RGB stream turns out translucent.
struct NeedsAlpha: Error {}

/// One strip to render: a header, a row or a footer.
struct StripPlan: Sendable {
  enum Kind: Sendable {
    case header(section: Int, title: String?, first: Bool, rows: Int)
    case row(section: Int, row: Int, count: Int, item: any TableItem)
    case footer(section: Int, title: String?)
  }

  var index: Int
  var kind: Kind

  /// The worker this strip goes to: identical rows always to the same one, so they are
  /// shaped once; everything else spread evenly.
  func worker(of count: Int) -> Int {
    switch kind {
    case .row(_, _, _, let item): return Int(UInt(bitPattern: AnyHashable(item).hashValue) % UInt(count))
    default: return index % count
    }
  }
}

/// What laying out a strip found: its height, and for a row its manifest entry and slots.
struct StripMeasure: Sendable {
  var index: Int
  var height: Double
  var heightPixels: Int
  var row: Manifest.Row?
  var slots: [ImageSlot] = []
  var band: (kind: SectionBand.Kind, section: Int, title: String?)?
}

struct PaintJob: Sendable {
  var index: Int
  var topPixel: Int
}

/// A painted strip: compressed pieces of the table PNG (split where a tile ends) and the
/// row's own PNG.
struct EncodedStrip: Sendable {
  var index: Int
  var pieces: [PNGStrip]
  var rowPNG: [UInt8]?
}

/// A worker thread's own objects: its shaper, layout engine and cache, and the strips it
/// has laid out and not yet painted.
final class StripWorker {
  let shaper: TextShaper
  let cache: LayoutCache
  let engine: TableLayoutEngine
  let look: TableLook
  let configuration: TableConfiguration
  let mapping: CellMapping
  /// Memory every strip's canvas reuses.
  let store = PixelStore()
  private var pending: [Int: TableStrip] = [:]

  init(
    configuration: TableConfiguration, stylesheet: Stylesheet, environment: TextEnvironment, look: TableLook,
    mapping: CellMapping, cacheCapacity: Int
  ) throws {
    shaper = try environment.makeShaper()
    cache = LayoutCache(capacity: cacheCapacity)
    engine = TableLayoutEngine(configuration: configuration, stylesheet: stylesheet, shaper: shaper, cache: cache)
    self.look = look
    self.configuration = configuration
    self.mapping = mapping
  }

  func layout(_ plans: [StripPlan]) throws -> [StripMeasure] {
    try plans.map { plan in
      switch plan.kind {
      case .header(let section, let title, let first, _):
        return try band(.header, section: section, title: title, first: first, index: plan.index)
      case .footer(let section, let title):
        return try band(.footer, section: section, title: title, first: false, index: plan.index)
      case .row(let section, let row, let count, let item):
        let placed = try engine.placedRow(item, section: section, row: row, of: count, mapping: mapping, look: look)
        pending[plan.index] = .row(placed)
        return StripMeasure(
          index: plan.index, height: placed.height, heightPixels: configuration.grid.pixels(placed.height),
          row: Manifest.Row(placed, images: nil), slots: placed.layout.images)
      }
    }
  }

  private func band(_ kind: SectionBand.Kind, section: Int, title: String?, first: Bool, index: Int) throws -> StripMeasure {
    guard let band = try engine.band(kind, title: title, first: first, look: look) else {
      return StripMeasure(index: index, height: 0, heightPixels: 0)
    }
    pending[index] = .band(band)
    return StripMeasure(
      index: index, height: band.frame.height, heightPixels: configuration.grid.pixels(band.frame.height),
      band: (kind, section, band.title))
  }

  func emptyStrip(_ color: PNGColor) throws -> PNGStrip {
    let painter = TablePainter(look: look, configuration: configuration, images: ResolvedImages())
    let row = Bitmap(width: configuration.pixelWidth, height: 1, pixels: try painter.emptyRow())
    return try PNGStrip(row, color: color)
  }

  func paint(
    _ jobs: [PaintJob], images: ResolvedImages, table color: PNGColor?, rows: Bool, maximumHeight: Int,
    compression: PNGCompression
  ) throws -> [EncodedStrip] {
    let painter = TablePainter(look: look, configuration: configuration, images: images, store: store)
    return try jobs.map { job in
      guard let strip = pending.removeValue(forKey: job.index) else { return EncodedStrip(index: job.index, pieces: []) }
      let bitmap = try painter.paint(strip)
      var pieces: [PNGStrip] = []
      if let color {
        if color == .rgb, !bitmap.isOpaque { throw NeedsAlpha() }
        // Split where a tile ends, so each tile is a PNG of its own.
        var row = 0
        while row < bitmap.height {
          let top = job.topPixel + row
          let take = min(bitmap.height - row, maximumHeight - top % maximumHeight)
          pieces.append(try PNGStrip(bitmap, rows: row..<(row + take), color: color, compression: compression))
          row += take
        }
      }
      var rowPNG: [UInt8]?
      if rows, case .row = strip { rowPNG = try PNG.encode(bitmap, compression: compression) }
      return EncodedStrip(index: job.index, pieces: pieces, rowPNG: rowPNG)
    }
  }
}
