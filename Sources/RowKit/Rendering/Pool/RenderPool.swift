import Foundation
import RowKitGraphics
import Synchronization

/// The threads that lay out and paint rows, made once per process and kept for its life.
///
/// Each worker is a thread of its own (never one of Swift's cooperative threads, which a
/// long paint would starve) that keeps, from one render to the next, a `TextShaper` per
/// text environment: a second render in the same process pays for no font loading and no
/// thread start. Row layouts are cached for one
/// render only: a cell is known by its name, and a design file edited between two renders
/// keeps its name. Callers `await` the jobs they queue; nothing blocks a caller's thread.
///
/// In a pool of several workers, each worker's shapers draw from FreeType faces of their
/// own; a pool of one shares Cairo's fonts with the rest of the process. Either way their
/// text calls take turns under the text lock (Cairo's caches of scaled fonts and glyphs are
/// the process's), and everything else a worker does, drawing shapes and images, encoding
/// and comparing, runs in parallel.
///
/// Every render goes through ``shared``, the pool of the process's ``RowKitRuntime``, unless
/// given another pool; `rowkit --jobs N` sizes that runtime.
public final class RenderPool: Sendable {
  /// The pool of the process's runtime (``RowKitRuntime/shared``).
  public static var shared: RenderPool { RowKitRuntime.shared.renderPool }

  /// How many workers the pool has.
  public let workerCount: Int
  let workers: [RenderWorker<WorkerState>]
  // Atomics rather than a `Mutex`: ThreadSanitizer sees atomic operations, and reported
  // every contended `Mutex` here as a race (the Synchronization lock is invisible to it).
  private let nextWorker = Atomic<UInt>(0)
  private let nextRender = Atomic<Int>(0)

  /// - Parameters:
  ///   - workers: Worker threads.
  ///   - layoutCacheCapacity: Row layouts the pool keeps for one render, split evenly
  ///     between its workers.
  public init(workers: Int, layoutCacheCapacity: Int = 2048) {
    workerCount = max(1, workers)
    // Identical rows go to one worker, so the workers' caches hold different rows: split,
    // they keep as many rows as one worker's whole cache did, and a render's memory does
    // not grow with its workers (20,000 rows no two alike peaked 11 MB lower at two jobs).
    let capacityPerWorker = max(1, layoutCacheCapacity / workerCount)
    self.workers = (0..<workerCount).map { index in
      RenderWorker<WorkerState>(name: "rowkit-worker-\(index + 1)") {
        // With other workers, shapers draw from FreeType faces of their own, which the
        // others never open, close or share (see `FontFaces`).
        WorkerState(layoutCacheCapacity: capacityPerWorker, ownFaces: workers > 1)
      }
    }
  }

  /// Runs `work` on one of the pool's threads, in turn, and returns its result: for work
  /// that needs no worker state, such as decoding and comparing images, kept off Swift's
  /// cooperative threads.
  public func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    let index = Int(nextWorker.wrappingAdd(1, ordering: .relaxed).oldValue % UInt(workerCount))
    return try await workers[index].perform { _ in try work() }
  }

  /// Starts the workers making their shapers for `environment` (a Pango font map with the
  /// environment's fonts, each worker's own), one worker after the other, and returns at
  /// once: a caller that knows which text environment comes next, and has reading of its own
  /// to do before it renders (a document to parse and decode), lets the workers load fonts
  /// on another core in the meantime. A render that comes later finds the shapers made; one
  /// that comes sooner waits behind them on the worker, as it would have made its shaper
  /// itself. A failure is left for the render to meet and report.
  ///
  /// One after the other, not all at once: on a machine of two cores, a second font map
  /// made at the same time as the first takes the other core from the caller, who is still
  /// parsing its command line or its document.
  package func prepare(_ environment: TextEnvironment) {
    prepare(environment, fromWorker: 0)
  }

  private func prepare(_ environment: TextEnvironment, fromWorker index: Int) {
    guard index < workers.count else { return }
    _ = workers[index].submit { [self] state in
      try state.prepare(environment)
      // A worker that could not make its shaper leaves the others to the render, which
      // meets the failure.
      prepare(environment, fromWorker: index + 1)
    }
  }

  /// Labels shaped by all the pool's workers since they started: for tests of the one-layout
  /// rule.
  func shapeCount() async throws -> Int {
    try await total { $0.shapeCount }
  }

  /// How many of the pool's workers keep a shaper with FreeType faces of its own: for tests
  /// of when workers open them.
  func shapersWithOwnFaces() async throws -> Int {
    try await total { $0.shapersWithOwnFaces }
  }

  /// Shapers the pool's workers keep, one per worker and text environment: for tests of
  /// ``prepare(_:)``.
  func shaperCount() async throws -> Int {
    try await total { $0.shaperCount }
  }

  /// The sum of `count` over the workers' states, each read on its own worker.
  private func total(_ count: @escaping @Sendable (WorkerState) -> Int) async throws -> Int {
    var total = 0
    for worker in workers { total += try await worker.perform { count($0) } }
    return total
  }

  /// A number no other render of this pool has: the key of a render's strips in the
  /// workers' state.
  func makeRenderID() -> Int {
    nextRender.wrappingAdd(1, ordering: .relaxed).oldValue
  }
}

/// What one render tells its workers: the same for every job of the render.
struct RenderContext: Sendable {
  var id: Int
  var configuration: TableConfiguration
  var stylesheet: Stylesheet
  var environment: TextEnvironment
  var look: TableLook
  var mapping: CellMapping
  /// The lint rules to run on every painted row, or nil for no lint.
  var lint: LintOptions? = nil
  /// Whether each strip's layout record is made while it is laid out.
  var recordsLayout = false
}

/// A worker thread's own objects, kept for the life of the process: a shaper per text
/// environment (the few most recently used); and for
/// each render in progress, its layout cache and the strips laid out and not yet painted.
final class WorkerState {
  private final class Shaping {
    let shaper: TextShaper
    var lastUse = 0

    init(shaper: TextShaper) {
      self.shaper = shaper
    }
  }

  /// What one render keeps on this worker until it ends.
  private final class RenderState {
    let cache: LayoutCache
    /// Strips laid out and not yet painted, by index.
    var strips: [Int: TableStrip] = [:]

    init(cache: LayoutCache) {
      self.cache = cache
    }
  }

  /// Text environments a worker keeps shapers for; more are freed least recently used first.
  static let environmentsKept = 8

  let layoutCacheCapacity: Int
  /// Whether this worker's shapers draw from FreeType faces of their own.
  let ownFaces: Bool
  /// By environment and the state of its brand font files: a brand font saved since (a
  /// live preview's) gets a shaper of the new font.
  private var shapings: [TextEnvironment.LoadKey: Shaping] = [:]
  private var uses = 0
  private var renders: [Int: RenderState] = [:]

  init(layoutCacheCapacity: Int, ownFaces: Bool) {
    self.layoutCacheCapacity = layoutCacheCapacity
    self.ownFaces = ownFaces
  }

  /// Labels shaped by this worker's shapers, those it still keeps.
  var shapeCount: Int { shapings.values.reduce(0) { $0 + $1.shaper.shapeCount } }
  /// This worker's shapers, one per text environment it keeps.
  var shaperCount: Int { shapings.count }
  /// This worker's shapers with FreeType faces of their own.
  var shapersWithOwnFaces: Int { shapings.values.count { $0.shaper.hasOwnFaces } }

  private func shaping(for environment: TextEnvironment) throws -> Shaping {
    uses += 1
    let key = environment.loadKey
    if let shaping = shapings[key] {
      shaping.lastUse = uses
      return shaping
    }
    if shapings.count >= Self.environmentsKept, let oldest = shapings.min(by: { $0.value.lastUse < $1.value.lastUse }) {
      shapings[oldest.key] = nil
    }
    let shaping = Shaping(shaper: try environment.makeShaper(ownFaces: ownFaces))
    shaping.lastUse = uses
    shapings[key] = shaping
    return shaping
  }

  /// Makes this worker's shaper for `environment` ahead of the render that needs it.
  func prepare(_ environment: TextEnvironment) throws {
    _ = try shaping(for: environment)
  }

  /// Lays out `plans`, keeping each strip for its paint job.
  func layout(_ plans: [StripPlan], context: RenderContext) throws -> LayoutBatch {
    let shaping = try shaping(for: context.environment)
    let render = renders[context.id] ?? RenderState(cache: LayoutCache(capacity: layoutCacheCapacity))
    renders[context.id] = render
    let (shapedBefore, hitsBefore, missesBefore) = (shaping.shaper.shapeCount, render.cache.hits, render.cache.misses)
    let engine = TableLayoutEngine(
      configuration: context.configuration, stylesheet: context.stylesheet, shaper: shaping.shaper, cache: render.cache)
    let grid = context.configuration.grid
    // Laying out is mostly shaping: one hold of the text lock for the batch, not one per label.
    let measures = try shaping.shaper.withTextEngine { try plans.map { plan -> StripMeasure in
      switch plan.kind {
      case .header(let section, let title, let first, _), .footer(let section, let title, let first):
        let kind: SectionBand.Kind = plan.kind.isHeader ? .header : .footer
        guard let band = try engine.band(kind, title: title, first: first, look: context.look) else {
          return StripMeasure(index: plan.index, height: 0, heightPixels: 0)
        }
        render.strips[plan.index] = .band(band)
        var measure = StripMeasure(
          index: plan.index, height: band.frame.height, heightPixels: grid.pixels(band.frame.height),
          band: (kind, section, band.title))
        if context.recordsLayout { measure.bandRecord = LayoutRecord.Band(band, section: section, top: 0) }
        return measure
      case .row(let section, let row, let count, let item):
        let placed = try engine.placedRow(
          item, section: section, row: row, of: count, mapping: context.mapping, look: context.look)
        render.strips[plan.index] = .row(placed)
        var measure = StripMeasure(
          index: plan.index, height: placed.height, heightPixels: grid.pixels(placed.height),
          row: Manifest.Row(placed, images: nil), slots: placed.layout.images)
        if context.recordsLayout { measure.rowRecord = LayoutRecord.Row(placed) }
        return measure
      }
    } }
    return LayoutBatch(
      measures: measures, labelsShaped: shaping.shaper.shapeCount - shapedBefore,
      cacheHits: render.cache.hits - hitsBefore, cacheMisses: render.cache.misses - missesBefore)
  }

  /// Paints the strips of `jobs`, laid out before by ``layout(_:context:)``, in the form
  /// `form` asks for.
  func paint(_ jobs: [PaintJob], context: RenderContext, images: ResolvedImages, form: PaintForm) throws -> [PaintedStrip] {
    let painter = TablePainter(look: context.look, configuration: context.configuration, images: images)
    return try jobs.map { job in
      guard let strip = renders[context.id]?.strips.removeValue(forKey: job.index) else {
        return PaintedStrip(index: job.index)
      }
      let bitmap = try painter.paint(strip)
      var findings: [LintFinding]?
      if let lint = context.lint {
        var textless = painter
        textless.drawsText = false
        switch strip {
        case .row(let row):
          findings = row.layoutFindings(options: lint)
          if lint.runs(.contrast) {
            findings! += row.contrastFindings(background: try textless.paint(strip), scale: context.configuration.scale)
          }
        case .band(let band):
          // A section's header or footer is text a reader reads too.
          if lint.runs(.contrast), band.label != nil {
            findings = band.contrastFindings(background: try textless.paint(strip), scale: context.configuration.scale)
          }
        }
      }
      switch form {
      case .bitmaps:
        var painted = PaintedStrip(index: job.index, bitmap: bitmap)
        painted.findings = findings
        return painted
      case .png(let color, let rows, let maximumHeight, let compression):
        var pieces: [PNGStrip] = []
        if let color {
          pieces = try TileRule(maximumHeight: maximumHeight).pieces(of: bitmap.height, at: job.topPixel).map { rows in
            guard color == .rgb else { return try PNGStrip(bitmap, rows: rows, color: color, compression: compression) }
            // The opacity check rides along with the conversion: a second pass over the
            // pixels was 3% of a worker's time.
            guard let scanlines = bitmap.opaquePNGScanlines(rows: rows) else { throw NeedsAlpha() }
            return try PNGStrip(scanlines: scanlines, width: bitmap.width, rows: rows.count, color: .rgb, compression: compression)
          }
        }
        var rowPNG: [UInt8]?
        if rows, case .row = strip { rowPNG = try PNG.encode(bitmap, compression: compression) }
        var painted = PaintedStrip(index: job.index, pieces: pieces, rowPNG: rowPNG)
        painted.findings = findings
        return painted
      }
    }
  }

  /// The one pixel row an empty table is.
  func emptyRow(context: RenderContext) throws -> Bitmap {
    let painter = TablePainter(look: context.look, configuration: context.configuration, images: ResolvedImages())
    return Bitmap(width: context.configuration.pixelWidth, height: 1, pixels: try painter.emptyRow())
  }

  /// Forgets whatever a render left: after it ends, or fails between layout and paint.
  func finish(render id: Int) {
    renders[id] = nil
  }
}

/// Thrown when a strip of an RGB stream turns out translucent.
struct NeedsAlpha: Error {}

/// One strip to render: a header, a row or a footer.
struct StripPlan: Sendable {
  enum Kind: Sendable {
    case header(section: Int, title: String?, first: Bool, rows: Int)
    case row(section: Int, row: Int, count: Int, item: any TableItem)
    case footer(section: Int, title: String?, first: Bool = false)

    var isHeader: Bool {
      if case .header = self { return true }
      return false
    }
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
  /// The row's layout record, when the render records layouts.
  var rowRecord: LayoutRecord.Row?
  /// The band's layout record, when the render records layouts and the band has a title.
  var bandRecord: LayoutRecord.Band?
}

/// A layout job's measures, with what it cost.
struct LayoutBatch: Sendable {
  var measures: [StripMeasure]
  var labelsShaped: Int
  var cacheHits: Int
  var cacheMisses: Int
}

struct PaintJob: Sendable {
  var index: Int
  var topPixel: Int
}
