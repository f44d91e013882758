import Foundation
import RowKitGraphics

/// Renders tables: the one renderer behind `render`, `measure`, `catalog`, `check` and the
/// snapshot assertions.
///
/// A render lays out every strip (section header, row, footer) once, on the workers of a
/// ``RenderPool``, places the strips, loads the rows' images, paints each strip on its own
/// canvas from its layout and hands the pixels to a destination: files (the table PNG or its
/// tiles, one PNG per row, the manifest), streamed a few hundred strips at a time so memory
/// stays flat however many rows the table has; or bitmaps in memory (``RenderedTable``).
///
/// Identical rows always go to the same worker, so they are shaped once, and every strip is
/// painted alone: the pixels are the same with any number of workers, and a row's image is
/// exactly its pixels in the table.
///
/// A table image taller than ``maximumTilePixels`` is split into tiles
/// (`table-1.png`, `table-2.png`, …) that the manifest lists.
///
/// ```swift
/// let renderer = TableRenderer(configuration: TableConfiguration(style: .grouped))
/// let rendered = try await renderer.render(dataSource)
/// try rendered.write(to: URL(fileURLWithPath: "table.png"))
/// ```
public struct TableRenderer: Sendable {
  /// The table's width, scale, style and fixed row height.
  public var configuration: TableConfiguration
  /// The fonts, colors and styles the cells name.
  public var stylesheet: Stylesheet
  /// The fonts and language text is shaped with; by default the configuration's.
  public var environment: TextEnvironment
  /// The cells of the item types; by default the data source's own mapping.
  public var mapping: CellMapping?
  /// Where image URLs point.
  public var imageResolver: ImageURLResolver
  /// Loads images; by default the process's one pipeline.
  public var pipeline: ImagePipeline
  /// The threads that lay out and paint; by default the process's one pool.
  public var pool: RenderPool
  /// Seconds a render waits for network images in total, counted from its start; slots
  /// still waiting then show their default image.
  public var imageDeadline = TableRenderer.defaultImageDeadline
  /// 30 seconds.
  public static let defaultImageDeadline = 30.0
  /// Images drawn by code, by URL: read from here instead of loaded.
  public var preloaded: [String: Bitmap] = [:]
  /// How hard the table PNG is compressed: fast by default.
  public var compression = PNGCompression.fast
  /// The tallest table image, in pixels, before it is split into tiles: libpng's default
  /// read limit, so every standard decoder opens each tile.
  public var maximumTilePixels = TableRenderer.defaultMaximumTilePixels
  /// One million pixels.
  public static let defaultMaximumTilePixels = 1_000_000
  /// Strips laid out, loaded and painted together.
  public var chunkSize = 256
  /// Called on the rendering task after each chunk with the rows done and the rows in all.
  public var progress: (@Sendable (_ done: Int, _ total: Int) -> Void)?
  /// Whether a row with characters no loaded font can draw fails the render (throwing
  /// ``MissingGlyphsError`` before any file is written) instead of being reported.
  public var failsOnMissingGlyphs = false
  /// Whether a row with an image that failed to load (its slot's default drawn instead)
  /// fails the render (throwing ``FailedImagesError`` before any file is written) instead of
  /// being reported.
  public var failsOnFailedImages = false
  /// The design-lint rules to run on every row, or nil for none: each row's manifest entry
  /// then has `findings` (``LintFinding``). Linting paints each row a second time, without
  /// its text, to see what lies under it.
  public var lint: LintOptions?
  /// The variant this renderer draws (``rendering(_:)``); the manifest names it.
  public var variant: Variant?
  /// Whether the render makes a ``LayoutRecord`` of the table (``Report/layoutRecord``,
  /// ``RenderedTable/layoutRecord``): what snapshot checks keep beside a reference. A render
  /// without it pays nothing for records.
  public var recordsLayout = false
  /// Whether the render measures every text slot's headroom (``measureHeadroom(_:)``) into
  /// the manifest (``Manifest/headroom``); when the lint runs its `headroom` rule, each slot
  /// with less than ``minimumHeadroom`` is also a finding of its row. Off by default: the
  /// table is laid out again for every 5% step of growth, 21 times.
  public var measuresHeadroom = false
  /// The headroom every text slot needs, in percent, when the render ``measuresHeadroom``.
  public var minimumHeadroom = TableRenderer.defaultMinimumHeadroom

  /// A renderer; images resolve against the current folder unless `imageResolver` says otherwise.
  public init(
    configuration: TableConfiguration = TableConfiguration(), stylesheet: Stylesheet = .default,
    environment: TextEnvironment? = nil, imageResolver: ImageURLResolver? = nil, pipeline: ImagePipeline = .shared,
    pool: RenderPool = .shared
  ) {
    self.configuration = configuration
    self.stylesheet = stylesheet
    self.environment = environment ?? configuration.textEnvironment
    let here = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    self.imageResolver = imageResolver ?? ImageURLResolver(assetsDirectory: here, baseDirectory: here)
    self.pipeline = pipeline
    self.pool = pool
  }

  /// Makes `bitmap` the image at `url` for this renderer, without reading anything: for
  /// images drawn by code.
  public mutating func preload(_ bitmap: Bitmap, for url: String) {
    preloaded[url] = bitmap
  }

  /// Where a render writes.
  public typealias Destination = RenderDestination

  /// What a render did.
  public struct Report: Sendable {
    /// The manifest, with every row when one was kept; a render to files keeps it only when
    /// it writes one, so memory does not grow with the table.
    public var manifest: Manifest
    /// The rows rendered.
    public var rows = 0
    /// The table's height in device pixels.
    public var heightPixels = 0
    /// The tiles the table image was split into.
    public var tiles = 0
    /// Bytes of the table PNG (all tiles).
    public var pngBytes = 0
    /// Rows whose layout came from the layout cache.
    public var cacheHits = 0
    /// Rows laid out afresh.
    public var cacheMisses = 0
    /// Labels shaped by Pango for this render, over all workers.
    public var labelsShaped = 0
    /// The manifest entries of the rows with characters no loaded font can draw.
    public var rowsWithMissingGlyphs: [Manifest.Row] = []
    /// The manifest entries of the rows with an image that failed to load: each slot shows
    /// its default image instead.
    public var rowsWithFailedImages: [Manifest.Row] = []
    /// The manifest entries of the rows with a slot that shows its default (no image asked
    /// for, or placeholders drawn) where the default cannot be shown: not failed images, but
    /// said (``Manifest/Row/unshownDefaultWarnings(file:)``).
    public var rowsWithUnshownDefaults: [Manifest.Row] = []
    /// The manifest entries of the rows whose item no cell is mapped to, drawn by the
    /// fallback cell.
    public var rowsWithFallbackCell: [Manifest.Row] = []
    /// The table's layout record, when the renderer ``recordsLayout``.
    public var layoutRecord: LayoutRecord?
  }

  /// What a render to memory produces.
  public typealias Outputs = RenderOutputs

  /// Lays out, loads images, paints and writes `dataSource` to files. Every file is written
  /// under a temporary name and renamed into place at the end: a failed render leaves
  /// nothing.
  public func render(
    _ dataSource: any TableDataSource, policy: ImagePolicy = .complete, to destination: Destination
  ) async throws -> Report {
    try await render(dataSource, policy: policy) { color in
      FileSink(destination: destination, width: configuration.pixelWidth, color: color, tileRule: tileRule, compression: compression)
    }
  }

  /// Lays out, loads images and paints `dataSource` into bitmaps.
  public func render(
    _ dataSource: any TableDataSource, policy: ImagePolicy = .complete, outputs: Outputs = [.table]
  ) async throws -> RenderedTable {
    var sink: MemorySink?
    var tableColor: PNGColor?
    let report = try await render(dataSource, policy: policy) { color in
      let made = MemorySink(outputs: outputs, tileRule: tileRule)
      sink = made
      tableColor = color
      return made
    }
    var rendered = RenderedTable(
      manifest: report.manifest, tiles: sink!.tiles, rowImages: sink!.rowImages, labelsShaped: report.labelsShaped)
    rendered.layoutRecord = report.layoutRecord
    rendered.pngColor = tableColor
    rendered.compression = compression
    return rendered
  }

  /// Lays out, loads images and paints `dataSource`, handing the table image to `receiver`
  /// strip by strip, top to bottom, and keeping none: memory stays a few chunks of strips
  /// however tall the table is. The manifest is kept in the report only with
  /// `keepsManifest`.
  public func render(
    _ dataSource: any TableDataSource, policy: ImagePolicy = .complete, into receiver: any TableImageReceiver,
    keepsManifest: Bool = false
  ) async throws -> Report {
    // Smaller chunks than a render to files: the painted strips wait as bitmaps, not as
    // compressed PNG pieces.
    var renderer = self
    renderer.chunkSize = min(chunkSize, Self.receivingChunkSize)
    return try await renderer.render(dataSource, policy: policy) { _ in
      ReceiverSink(receiver: receiver, keepsManifest: keepsManifest) { [pool] job in try await pool.run(job) }
    }
  }

  /// The most strips painted together for a ``TableImageReceiver``.
  static let receivingChunkSize = 32

  /// Lays out every row, without loading images or painting: the manifest's geometry.
  public func measure(_ dataSource: any TableDataSource) async throws -> Manifest {
    try await render(dataSource, policy: .placeholder) { _ in MeasureSink() }.manifest
  }

  /// Lays out every row of `dataSource` on the calling thread, with `shaper` (by default a
  /// new one of ``environment``): the geometry a render paints, as numbers, for tests and
  /// tools that measure. Renders lay out on the pool instead.
  public func layout(_ dataSource: any TableDataSource, shaper: TextShaper? = nil) throws -> TableLayout {
    let shaper = try shaper ?? environment.makeShaper()
    return try TableLayoutEngine(configuration: configuration, stylesheet: stylesheet, shaper: shaper).layout(dataSource)
  }

  /// Paints one row of a table laid out by ``layout(_:shaper:)`` on the calling thread, with
  /// the painter the workers use: the row's pixels as a render paints them, for tools that
  /// hold a layout (the fuzz harnesses). Renders paint on the pool instead.
  public func paint(_ row: PlacedRow, in table: TableLayout, images: ResolvedImages = ResolvedImages()) throws -> Bitmap {
    try TablePainter(look: table.look, configuration: table.configuration, images: images).paint(.row(row))
  }

  /// What every image slot of a laid-out table shows, resampled to the slot's device pixels:
  /// the images a render of it would paint. Under ``ImagePolicy/complete`` local images are
  /// always read and network images are waited for until ``imageDeadline``; under
  /// ``ImagePolicy/placeholder`` slots show their default images.
  public func loadImages(for table: TableLayout, policy: ImagePolicy = .complete) async throws -> ResolvedImages {
    let slots = table.rows.flatMap { ResolvedImages.keyed($0.layout.images, section: $0.section, row: $0.row) }
    let loader = SlotImageLoader(resolver: imageResolver, pipeline: pipeline, deadline: imageDeadline, preloaded: preloaded)
    return try await LoadingExecutor.shared.run { try await loader.load(slots, scale: table.configuration.scale, policy: policy) }
  }

  private var tileRule: TileRule { TileRule(maximumHeight: maximumTilePixels) }

  private func render(
    _ dataSource: any TableDataSource, policy: ImagePolicy, sink makeSink: (PNGColor) throws -> any RenderSink
  ) async throws -> Report {
    // Measured on a worker before the render starts, and once: a render started again with
    // alpha reuses it. A table too wide or too long is refused before it is laid out 21 times.
    var headroom: TableHeadroom?
    if measuresHeadroom {
      try checkBounds(of: dataSource)
      headroom = try await measureHeadroom(dataSource)
    }
    // Off the cooperative pool: a caller keeping it busy must not hold up image loading.
    return try await LoadingExecutor.shared.run { [headroom] in
      try await renderOffPool(dataSource, policy: policy, headroom: headroom, sink: makeSink)
    }
  }

  /// Throws when the configuration is out of bounds or `dataSource` has too many rows.
  private func checkBounds(of dataSource: any TableDataSource) throws {
    if let problem = configuration.problem { throw StyleError(problem) }
    guard dataSource.numberOfRows <= TableConfiguration.maximumRows else {
      throw StyleError("the table has \(dataSource.numberOfRows) rows, more than \(TableConfiguration.maximumRows)")
    }
  }

  private func renderOffPool(
    _ dataSource: any TableDataSource, policy: ImagePolicy, headroom: TableHeadroom?,
    sink makeSink: (PNGColor) throws -> any RenderSink
  ) async throws -> Report {
    try checkBounds(of: dataSource)
    let look = try TableLook(style: configuration.style, stylesheet: stylesheet)
    let context = RenderContext(
      id: pool.makeRenderID(), configuration: configuration, stylesheet: stylesheet, environment: environment, look: look,
      mapping: mapping ?? dataSource.cellMapping, lint: lint, recordsLayout: recordsLayout)
    let color: PNGColor = look.background.alpha >= 1 ? .rgb : .rgba
    do {
      return try await render(
        dataSource, context: context, policy: policy, sink: try makeSink(color), color: color, headroom: headroom)
    } catch is NeedsAlpha {
      // A style drew translucent pixels on an opaque table: start again with alpha.
      var again = context
      again.id = pool.makeRenderID()
      return try await render(
        dataSource, context: again, policy: policy, sink: try makeSink(.rgba), color: .rgba, headroom: headroom)
    }
  }

  private func render(
    _ dataSource: any TableDataSource, context: RenderContext, policy: ImagePolicy, sink: any RenderSink,
    color: PNGColor, headroom: TableHeadroom?
  ) async throws -> Report {
    // The render's cache, and strips laid out and never painted after a failure, are freed
    // behind its last jobs.
    defer { for worker in pool.workers { _ = worker.submit { $0.finish(render: context.id) } } }
    do {
      return try await run(dataSource, context: context, policy: policy, sink: sink, color: color, headroom: headroom)
    } catch {
      sink.discard()
      throw error
    }
  }

  /// Renders in a pipeline that keeps every worker's queue full: chunk k+1 is laid out while
  /// chunk k is painted, and chunk k-1 is written while chunk k is painted. Placing a chunk
  /// needs only the heights before it, never the pixels.
  private func run(
    _ dataSource: any TableDataSource, context: RenderContext, policy: ImagePolicy, sink: any RenderSink,
    color: PNGColor, headroom: TableHeadroom?
  ) async throws -> Report {
    var run = TableRun(
      self, dataSource: dataSource, context: context, policy: policy, sink: sink, color: color, headroom: headroom)
    var layouts: [Int: TableRun.LaidOut] = [:]
    for chunk in run.chunks.indices.prefix(2) { layouts[chunk] = run.submitLayout(chunk) }
    var previous: TableRun.Painting?
    for chunk in run.chunks.indices {
      let placed = try await run.place(chunk, laidOut: layouts.removeValue(forKey: chunk)!)
      let painting = try await run.paint(placed)
      if chunk + 2 < run.chunks.count { layouts[chunk + 2] = run.submitLayout(chunk + 2) }
      if let previous { try await run.write(previous) }
      previous = painting
    }
    if let previous { try await run.write(previous) }
    return try await run.finish()
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

  /// Adds the layout record of a laid-out strip at `top`, with its images' states.
  static func record(_ measure: StripMeasure, top: Double, images: ResolvedImages?, in record: inout LayoutRecord?) {
    guard record != nil else { return }
    if var row = measure.rowRecord {
      row.y = LayoutRecord.rounded(top)
      if let images { row.record(images) }
      record?.rows.append(row)
    } else if var band = measure.bandRecord {
      band.y = LayoutRecord.rounded(top)
      record?.bands.append(band)
    }
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
  /// The manifest entries of the rows, with their missing characters.
  public var rows: [Manifest.Row]
  /// The document the rows are in, as messages name it (`table.yaml`); nil when the
  /// renderer was not given one.
  public var document: String?

  /// An error naming `rows`, and `document` when it is known.
  public init(rows: [Manifest.Row], document: String? = nil) {
    self.rows = rows
    self.document = document
  }

  /// The document, how many of its rows have characters no font can draw, and that nothing
  /// was written.
  public var description: String {
    let count = rows.count
    return "\(document.map { "\($0): " } ?? "")\(count) row\(count == 1 ? " has" : "s have") characters no font can draw (--strict); nothing was written"
  }
}

/// Rows with an image that failed to load, when a render was asked to fail on them
/// (`--strict-images`). Nothing was written.
public struct FailedImagesError: Error, Sendable, CustomStringConvertible {
  /// The manifest entries of the rows, with their images' states and reasons.
  public var rows: [Manifest.Row]
  /// The document the rows are in, as messages name it (`table.yaml`); nil when the
  /// renderer was not given one.
  public var document: String?

  /// The document, how many of its rows show a failed image, and that nothing was written.
  public var description: String {
    let count = rows.count
    return "\(document.map { "\($0): " } ?? "")\(count) row\(count == 1 ? " has an image" : "s have images") that failed to load (--strict-images); nothing was written"
  }
}

extension Manifest.Row {
  /// The warning `rowkit` prints for a row with missing glyphs:
  /// `table.yaml: row 3 (s0-r3): no glyph for U+E000`.
  public func missingGlyphWarning(file: String) -> String {
    "\(file): row \(row) (\(name)): no glyph for \((missingCharacters ?? []).joined(separator: ", "))"
  }

  /// One warning per image of this row that failed to load:
  /// `table.yaml: row 3 (s0-r3): image https://… failed (HTTP 404), its default is shown`.
  public func failedImageWarnings(file: String) -> [String] {
    images.filter { $0.state == .failed }.map { image in
      let reason = (image.reason ?? "no reason given").passwordsHidden.escapedForOneLine
      guard let url = image.url else { return "\(file): row \(row) (\(name)): image slot \(image.slot): \(reason)" }
      let shown = image.imageSize != nil ? "its default is shown" : "the slot is left empty"
      return "\(file): row \(row) (\(name)): image \(url.passwordsHidden.escapedForOneLine) failed (\(reason)), \(shown)"
    }
  }

  /// One warning per slot of this row that shows its default (no image asked for, or
  /// placeholders drawn) where the default cannot be shown: `table.yaml: row 3 (s0-r3): image
  /// slot image: the default image placehodler.png cannot be shown (…)`. Not a failed image:
  /// nothing asked for failed, and a strict render or a check passes as before.
  public func unshownDefaultWarnings(file: String) -> [String] {
    images.filter(\.defaultCannotBeShown).map { image in
      "\(file): row \(row) (\(name)): image slot \(image.slot): \((image.reason ?? "").passwordsHidden.escapedForOneLine)"
    }
  }

  /// The warning for a row drawn by the fallback cell, since no cell is mapped to its item.
  public func fallbackCellWarning(file: String) -> String {
    "\(file): row \(row) (\(name)): no cell is mapped to its \(type) item; the fallback cell drew it"
  }
}

extension TableDocument {
  /// A renderer for this document, with `configuration` in place of the document's own.
  public func makeRenderer(
    configuration: TableConfiguration? = nil, pipeline: ImagePipeline = .shared, pool: RenderPool = .shared
  ) -> TableRenderer {
    let configuration = configuration ?? self.configuration
    return TableRenderer(
      configuration: configuration, stylesheet: stylesheet, environment: textEnvironment(for: configuration),
      imageResolver: imageResolver, pipeline: pipeline, pool: pool)
  }

  /// Renders the document to files; an error about a row names the row's place in the
  /// document.
  public func render(
    with renderer: TableRenderer, policy: ImagePolicy = .complete, to destination: TableRenderer.Destination
  ) async throws -> TableRenderer.Report {
    try await namingRows { try await renderer.render(dataSource, policy: policy, to: destination) }
  }

  /// Renders the document into bitmaps; an error about a row names the row's place in the
  /// document.
  public func render(
    with renderer: TableRenderer, policy: ImagePolicy = .complete, outputs: TableRenderer.Outputs = [.table]
  ) async throws -> RenderedTable {
    try await namingRows { try await renderer.render(dataSource, policy: policy, outputs: outputs) }
  }

  /// Renders the document into `receiver`, strip by strip
  /// (``TableRenderer/render(_:policy:into:keepsManifest:)``); an error about a row names the
  /// row's place in the document.
  public func render(
    with renderer: TableRenderer, policy: ImagePolicy = .complete, into receiver: any TableImageReceiver,
    keepsManifest: Bool = false
  ) async throws -> TableRenderer.Report {
    try await namingRows { try await renderer.render(dataSource, policy: policy, into: receiver, keepsManifest: keepsManifest) }
  }

  /// Renders the document in every variant of `axes` onto one contact sheet
  /// (``TableRenderer/contactSheet(_:variants:policy:)``); an error about a row names the
  /// row's place in the document.
  public func contactSheet(
    with renderer: TableRenderer, variants axes: VariantAxes, policy: ImagePolicy = .complete
  ) async throws -> Bitmap {
    try await namingRows { try await renderer.contactSheet(dataSource, variants: axes, policy: policy) }
  }

  /// Lays out the document's rows; an error about a row names the row's place in the
  /// document.
  public func measure(with renderer: TableRenderer) async throws -> Manifest {
    try await namingRows { try await renderer.measure(dataSource) }
  }

  private func namingRows<T>(_ body: () async throws -> T) async throws -> T {
    do {
      return try await body()
    } catch let error as RowLayoutError {
      throw self.error(section: error.section, row: error.row, "\(error.underlying)")
    }
  }
}

extension TableDocument {
  /// Every file on this machine that a render of the document showing `rows` read: the
  /// document, its stylesheets and cell designs, every brand font (the stylesheets' too) and
  /// the local images the rows showed, with each slot's default; each once, in that order.
  /// What `rowkit preview` and `rowkit render --watch` watch.
  package func filesRead(showing rows: [Manifest.Row]) -> [URL] {
    var files = [file] + dependencies + (fonts + stylesheet.fonts).map(\.file)
    let resolver = imageResolver
    for row in rows {
      for case .file(let url) in row.imageLocations(resolver: resolver) { files.append(url) }
    }
    var seen: Set<String> = []
    return files.filter { seen.insert(ContainedPath.standardized($0).path).inserted }
  }
}
