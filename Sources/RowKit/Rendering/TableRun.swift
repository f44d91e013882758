import Foundation
import RowKitGraphics

/// One render of a table, stage by stage: its rows cut into chunks, each chunk laid out on the
/// workers, placed (its strips' tops, from the heights before them), painted, and written to
/// the sink in order; then the sink finished. `TableRenderer.run` drives the stages as a
/// pipeline; this holds what they share and what they add up.
struct TableRun {
  /// A chunk placed and being painted, with what writing it needs.
  struct Painting {
    var chunk: Int
    var results: [WorkerResult<[PaintedStrip]>]
    var measures: [Int: StripMeasure]
    var placements: [Int: Int]
    var images: ResolvedImages?
  }

  /// A chunk handed to its workers to lay out.
  struct LaidOut {
    /// The chunk's strips by worker: a strip is painted on the worker that laid it out,
    /// whatever its item's hash says the second time (an item may hash differently).
    var routing: [Int: [StripPlan]]
    var results: [WorkerResult<LayoutBatch>]
  }

  /// A chunk laid out and placed.
  struct Placed {
    var chunk: Int
    var routing: [Int: [StripPlan]]
    var measures: [Int: StripMeasure]
    var placements: [Int: Int]
    var slots: [(ResolvedImages.SlotKey, ImageSlot)]
  }

  private let renderer: TableRenderer
  private let context: RenderContext
  private let policy: ImagePolicy
  private let sink: any RenderSink
  private let form: PaintForm
  private let workers: [RenderWorker<WorkerState>]
  private let loader: SlotImageLoader
  private let totalRows: Int
  /// The strips of the table in order, cut into chunks.
  let chunks: [[StripPlan]]

  /// Every text slot's headroom, when the renderer measures it.
  private let headroom: TableHeadroom?
  /// The headroom findings of each row (by `[section, row]`), when the lint runs that rule.
  private let headroomFindings: [[Int]: [LintFinding]]

  private var report: TableRenderer.Report
  private var manifest: Manifest
  private var layoutRecord: LayoutRecord?
  /// The top of the next strip, in device pixels.
  private var yPixels = 0
  private var rowsDone = 0

  init(
    _ renderer: TableRenderer, dataSource: any TableDataSource, context: RenderContext, policy: ImagePolicy,
    sink: any RenderSink, color: PNGColor, headroom: TableHeadroom? = nil
  ) {
    self.renderer = renderer
    self.headroom = headroom
    var headroomFindings: [[Int]: [LintFinding]] = [:]
    if let headroom, renderer.lint?.runs(.headroom) == true {
      let place = renderer.headroomPlace
      for slot in headroom.slots {
        guard let finding = LintFinding.headroom(slot, minimum: headroom.minimum, place: place) else { continue }
        headroomFindings[[slot.section, slot.row], default: []].append(finding)
      }
    }
    self.headroomFindings = headroomFindings
    self.context = context
    self.policy = policy
    self.sink = sink
    form = sink.form(color: color)
    workers = renderer.pool.workers
    loader = SlotImageLoader(
      resolver: renderer.imageResolver, pipeline: renderer.pipeline, deadline: renderer.imageDeadline,
      preloaded: renderer.preloaded)
    totalRows = dataSource.numberOfRows
    let plans = TableRenderer.plans(dataSource)
    let size = max(1, renderer.chunkSize)
    chunks = stride(from: 0, to: plans.count, by: size).map { Array(plans[$0..<min(plans.count, $0 + size)]) }
    report = TableRenderer.Report(manifest: Manifest(configuration: renderer.configuration))
    manifest = Manifest(configuration: renderer.configuration)
    manifest.variant = renderer.variant.map(\.name)
    layoutRecord = renderer.recordsLayout ? LayoutRecord(configuration: renderer.configuration, variant: manifest.variant) : nil
  }

  /// Hands chunk `chunk`'s strips to the workers their content routes them to, to lay out.
  /// Each chunk is routed as it is laid out: routed all at the start, the chunks were a
  /// second copy of every strip's plan, held for the whole render.
  func submitLayout(_ chunk: Int) -> LaidOut {
    let (context, workerCount) = (self.context, workers.count)
    let routing = Dictionary(grouping: chunks[chunk]) { $0.worker(of: workerCount) }
    return LaidOut(
      routing: routing,
      results: routing.map { workerIndex, strips in workers[workerIndex].submit { try $0.layout(strips, context: context) } })
  }

  /// Waits for chunk `chunk`'s layout and places its strips below everything placed before.
  mutating func place(_ chunk: Int, laidOut: LaidOut) async throws -> Placed {
    var measures: [Int: StripMeasure] = [:]
    for result in laidOut.results {
      let batch = try await result.value
      for measure in batch.measures { measures[measure.index] = measure }
      report.labelsShaped += batch.labelsShaped
      report.cacheHits += batch.cacheHits
      report.cacheMisses += batch.cacheMisses
    }
    var placements: [Int: Int] = [:]
    var slots: [(ResolvedImages.SlotKey, ImageSlot)] = []
    for plan in chunks[chunk] {
      let measure = measures[plan.index]!
      placements[plan.index] = yPixels
      if let row = measure.row {
        slots += ResolvedImages.keyed(measure.slots, section: row.section, row: row.row)
      }
      yPixels += measure.heightPixels
    }
    return Placed(chunk: chunk, routing: laidOut.routing, measures: measures, placements: placements, slots: slots)
  }

  /// Loads a placed chunk's images and hands its strips to their workers to paint (nothing to
  /// paint for a sink that only measures).
  func paint(_ placed: Placed) async throws -> Painting {
    var results: [WorkerResult<[PaintedStrip]>] = []
    var images: ResolvedImages?
    if sink.paints {
      let loaded = try await loader.load(placed.slots, scale: renderer.configuration.scale, policy: policy)
      images = loaded
      let (context, form) = (self.context, self.form)
      results = placed.routing.map { workerIndex, strips in
        let jobs = strips.map { PaintJob(index: $0.index, topPixel: placed.placements[$0.index]!) }
        let needed = TableRenderer.images(loaded, for: strips)
        return workers[workerIndex].submit { try $0.paint(jobs, context: context, images: needed, form: form) }
      }
    }
    return Painting(
      chunk: placed.chunk, results: results, measures: placed.measures, placements: placed.placements, images: images)
  }

  /// Writes a painted chunk's strips to the sink in order, and adds its rows to the manifest,
  /// the layout record and the report.
  mutating func write(_ painting: Painting) async throws {
    let scale = renderer.configuration.scale
    var painted: [Int: PaintedStrip] = [:]
    for result in painting.results { for strip in try await result.value { painted[strip.index] = strip } }
    var rowNames: [Int: String] = [:]
    var strips: [SinkStrip] = []
    for plan in chunks[painting.chunk] {
      guard let measure = painting.measures[plan.index] else { continue }
      if let row = measure.row { rowNames[plan.index] = Manifest.rowFileName(section: row.section, row: row.row) }
      if let strip = painted[plan.index] {
        strips.append(SinkStrip(strip: strip, topPixel: painting.placements[plan.index]!, rowName: rowNames[plan.index]))
      }
    }
    var wroteRows: Set<Int> = []
    for (strip, wrote) in zip(strips, try await sink.write(strips)) where wrote { wroteRows.insert(strip.strip.index) }
    for plan in chunks[painting.chunk] {
      let topPixel = painting.placements[plan.index]!
      guard let measure = painting.measures[plan.index] else { continue }
      let rowName = rowNames[plan.index]
      let wroteRow = wroteRows.contains(plan.index)
      let top = Double(topPixel) / scale
      TableRenderer.record(measure, top: top, images: painting.images, in: &layoutRecord)
      if var row = measure.row {
        row.y = top
        if let images = painting.images { row.record(images) }
        if wroteRow { row.file = rowName }
        if let lint = renderer.lint, sink.paints {
          row.findings = (painted[plan.index]?.findings ?? [])
            + (lint.runs(.imageFailed) ? LintFinding.imageFailures(row.images) : [])
            + (headroomFindings[[row.section, row.row]] ?? [])
        }
        rowsDone += 1
        if row.missingGlyphs > 0 { report.rowsWithMissingGlyphs.append(row) }
        if row.images.contains(where: { $0.state == .failed }) { report.rowsWithFailedImages.append(row) }
        if row.images.contains(where: \.defaultCannotBeShown) { report.rowsWithUnshownDefaults.append(row) }
        if row.cell == FallbackCell.cellName { report.rowsWithFallbackCell.append(row) }
        if sink.keepsManifest {
          manifest.sections[row.section].rows += 1
          manifest.rows.append(row)
        }
      } else if let band = measure.band, sink.keepsManifest {
        TableRenderer.record(band, top: top, height: measure.height, in: &manifest)
        if renderer.lint != nil, sink.paints, let findings = painted[plan.index]?.findings, !findings.isEmpty {
          if band.kind == .header {
            manifest.sections[band.section].headerFindings = findings
          } else {
            manifest.sections[band.section].footerFindings = findings
          }
        }
      } else if case .header(let section, _, _, let rows) = plan.kind, sink.keepsManifest {
        // No header band: the section starts at its first row.
        TableRenderer.record((.header, section, nil), top: rows > 0 ? top : 0, height: 0, in: &manifest)
      }
    }
    renderer.progress?(rowsDone, totalRows)
  }

  /// Finishes the sink once every chunk is written: an empty table's one pixel row, the
  /// table's height, the checks that fail a render, and the sink's commit.
  mutating func finish() async throws -> TableRenderer.Report {
    let scale = renderer.configuration.scale
    if sink.paints, yPixels == 0 {
      // An empty table is one background-colored pixel row.
      let context = self.context
      try sink.writeEmptyTable(try await workers[0].perform { try $0.emptyRow(context: context) })
    }
    manifest.height = Double(yPixels) / scale
    manifest.headroom = headroom
    layoutRecord?.height = LayoutRecord.rounded(manifest.height)
    report.layoutRecord = layoutRecord
    report.heightPixels = yPixels
    let finished = try sink.finish(manifest: &manifest, scale: scale)
    report.tiles = finished.tiles
    report.pngBytes = finished.bytes
    if renderer.failsOnMissingGlyphs, !report.rowsWithMissingGlyphs.isEmpty {
      throw MissingGlyphsError(rows: report.rowsWithMissingGlyphs)
    }
    if renderer.failsOnFailedImages, !report.rowsWithFailedImages.isEmpty {
      throw FailedImagesError(rows: report.rowsWithFailedImages)
    }
    try sink.commit(manifest: manifest)
    report.rows = rowsDone
    report.manifest = sink.keepsManifest ? manifest : Manifest(configuration: renderer.configuration)
    return report
  }
}
