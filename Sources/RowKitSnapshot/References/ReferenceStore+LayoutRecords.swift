import Foundation
import RowKit
import RowKitGraphics

/// A render for a snapshot check: its image and, when it made one, its layout record.
public struct RenderedSnapshot: Sendable {
  /// The table's pixels.
  public var image: Bitmap
  /// The table's layout record (`TableRenderer.recordsLayout`); nil checks pixels only.
  public var layout: LayoutRecord?
  /// The render's manifest, when the strategy keeps it: which images the rows drew, for the
  /// render cache's record of the render's inputs.
  package var manifest: Manifest?

  /// A render of `image` with its layout record `layout`.
  public init(image: Bitmap, layout: LayoutRecord?) {
    self.image = image
    self.layout = layout
  }
}

/// What the layout records told about one snapshot check.
public struct LayoutFindings: Sendable {
  /// The structural changes from the reference's record to the render's, when they differ.
  public var changes: [LayoutChange] = []
  /// Where the pixels differ when the records are the same (apart from font files' digests,
  /// see ``rasterizationOnly``).
  public var pixelOnly: PixelOnlyDifference?
  /// Whether the difference is one of rasterization alone: the references were recorded in
  /// another environment (a new Pango, FreeType, font package or font option), the layout
  /// records are the same but for the ink boxes and the digests of font files that kept
  /// their names, and every differing pixel lies inside the glyphs' ink of unchanged text.
  ///
  /// Only across environments: in one environment RowKit draws the same record the same way,
  /// so a difference inside glyphs there comes from something the record does not hold (a
  /// change to RowKit's drawing) and must be looked at, not waved through as rasterization.
  public var rasterizationOnly = false
  /// Whether the reference has no layout record (recorded before records existed) and none
  /// was written.
  public var referenceHasNoRecord = false
  /// The reference's layout record when it is a file this RowKit cannot read, and none was
  /// written over it: why, naming the file (a record cut short, edited by hand, or of another
  /// version). Its changes cannot be told.
  public var unreadableRecord: String?
  /// The record written beside the reference, if one was.
  public var writtenRecord: URL?
  /// The render's record in the failure artifacts folder, if it was written there.
  public var actualRecord: URL?
  /// The reference's record copied to the failure artifacts folder, if it was.
  public var referenceRecord: URL?

  /// Nothing found.
  public init() {}

  /// Every finding as a sentence, changes first.
  public var sentences: [String] { changes.map(\.sentence) + (pixelOnly.map { [$0.sentence] } ?? []) }
}

extension ReferenceStore {
  /// The layout record's file beside the reference for `suite`/`name`.
  public func layoutRecordURL(suite: String, name: String) throws -> URL {
    LayoutRecord.url(besidePNG: try referenceURL(suite: suite, name: name))
  }

  /// Checks a render against its reference as
  /// ``check(suite:name:options:record:pool:render:)`` does, and keeps the render's layout
  /// record beside the reference wherever the PNG is written: recorded, or already matching
  /// and the record missing (any mode but `never`), or changed (mode `all`). When the check
  /// fails, the render's record and the reference's go beside the failure images, and the
  /// difference between them is told in ``LayoutFindings``.
  ///
  /// `render` is told whether to make a record. A render that matches its reference and has
  /// its record makes none: a passing check pays nothing for records. A render that does not
  /// match is made a second time anyway (to prove it deterministic), and that one makes it.
  nonisolated(nonsending) public func check(
    suite: String, name: String, options: ComparisonOptions = .exact, record: RecordMode? = nil,
    pool: RenderPool = .shared, renderingLayout render: (_ recordsLayout: Bool) async throws -> RenderedSnapshot
  ) async throws -> (outcome: SnapshotOutcome, layout: LayoutFindings) {
    let plan = layoutPlan(suite: suite, name: name, record: record)
    var latest: RenderedSnapshot?
    var renders = 0
    let outcome = try await check(suite: suite, name: name, options: options, record: record, pool: pool) {
      renders += 1
      let rendered = try await render(plan.recordsLayout(render: renders))
      latest = rendered
      return rendered.image
    }
    return try await settle(
      outcome, layout: latest?.layout, image: latest.map { RGBAImage($0.image) }, plan: plan, suite: suite, name: name,
      options: options, pool: pool)
  }

  /// Checks a render streamed strip by strip into the check
  /// (``check(suite:name:options:record:pool:rendering:)``), a table of any height, and keeps
  /// its layout record as ``check(suite:name:options:record:pool:renderingLayout:)`` does:
  /// `render` is told whether to make a record and returns the one it made.
  nonisolated(nonsending) public func check(
    suite: String, name: String, options: ComparisonOptions = .exact, record: RecordMode? = nil,
    pool: RenderPool = .shared,
    streamingLayout render: (_ receiver: any TableImageReceiver, _ recordsLayout: Bool) async throws -> LayoutRecord?
  ) async throws -> (outcome: SnapshotOutcome, layout: LayoutFindings) {
    try await check(
      suite: suite, name: name, options: options, record: record, pool: pool, refreshingRecord: false, streamingLayout: render)
  }

  /// ``check(suite:name:options:record:pool:streamingLayout:)``, which with
  /// `refreshingRecord` also makes the render's record when the reference has one, and
  /// writes it over the reference's when the pixels match and the records differ (in any
  /// mode but `never`): for a case whose inputs changed since its reference was recorded
  /// without changing a pixel, whose record would otherwise go on telling the old inputs as
  /// changes at every later failure.
  nonisolated(nonsending) package func check(
    suite: String, name: String, options: ComparisonOptions, record: RecordMode?, pool: RenderPool, refreshingRecord: Bool,
    streamingLayout render: (_ receiver: any TableImageReceiver, _ recordsLayout: Bool) async throws -> LayoutRecord?
  ) async throws -> (outcome: SnapshotOutcome, layout: LayoutFindings) {
    var plan = layoutPlan(suite: suite, name: name, record: record)
    if refreshingRecord, plan.mode != .never {
      plan.firstRecords = true
      plan.refreshes = true
    }
    var latest: LayoutRecord?
    var renders = 0
    let outcome = try await check(suite: suite, name: name, options: options, record: record, pool: pool) { receiver in
      renders += 1
      latest = try await render(receiver, plan.recordsLayout(render: renders))
    }
    // The render was never whole in memory: where pixels differ is read from the failure's
    // own actual image.
    return try await settle(outcome, layout: latest, image: nil, plan: plan, suite: suite, name: name, options: options, pool: pool)
  }

  /// What a check does with layout records, decided before it renders.
  private struct LayoutPlan {
    var mode: RecordMode
    var recordURL: URL?
    var firstRecords: Bool
    var environmentDiffers: Bool
    /// Whether a record that differs from the render's is written over on a match.
    var refreshes = false

    /// Whether render number `render` (from 1) makes a record: the first only when one will
    /// be written, the second (made anyway when the first does not match) always.
    func recordsLayout(render: Int) -> Bool { firstRecords || render > 1 }
  }

  private func layoutPlan(suite: String, name: String, record: RecordMode?) -> LayoutPlan {
    let environmentDiffers = comparesInAnotherEnvironment && self.environmentDiffers
    // Nothing is written beside references of another environment (see ``claim``).
    let mode = environmentDiffers ? .never : RecordMode.effective(record, environment: processEnvironment)
    let recordURL = try? layoutRecordURL(suite: suite, name: name)
    let firstRecords = mode == .all || (mode != .never && recordURL.map { !FileManager.default.fileExists(atPath: $0.path) } == true)
    return LayoutPlan(mode: mode, recordURL: recordURL, firstRecords: firstRecords, environmentDiffers: environmentDiffers)
  }

  nonisolated(nonsending) private func settle(
    _ outcome: SnapshotOutcome, layout: LayoutRecord?, image: RGBAImage?, plan: LayoutPlan, suite: String, name: String,
    options: ComparisonOptions, pool: RenderPool
  ) async throws -> (outcome: SnapshotOutcome, layout: LayoutFindings) {
    guard let layout, let reference = try? referenceURL(suite: suite, name: name) else {
      var findings = LayoutFindings()
      // Under `never`, a matching reference without a record stays without one, and says so.
      findings.referenceHasNoRecord = outcome.passed && plan.recordURL.map { !FileManager.default.fileExists(atPath: $0.path) } == true
      return (outcome, findings)
    }
    return try await pool.run {
      self.settleLayoutRecord(
        outcome, image: image, layout: layout, reference: reference, mode: plan.mode, options: options,
        environmentDiffers: plan.environmentDiffers, refreshes: plan.refreshes)
    }
  }

  /// Writes, copies and compares layout records after a check ended with `outcome`.
  private func settleLayoutRecord(
    _ outcome: SnapshotOutcome, image: RGBAImage?, layout: LayoutRecord, reference: URL, mode: RecordMode,
    options: ComparisonOptions, environmentDiffers: Bool, refreshes: Bool = false
  ) -> (outcome: SnapshotOutcome, layout: LayoutFindings) {
    let recordURL = LayoutRecord.url(besidePNG: reference)
    let stored = readLayoutRecord(at: recordURL)
    var findings = LayoutFindings()
    switch outcome {
    case .recorded(_, let reason):
      if case .record(let old) = stored { findings.changes = LayoutChanges.compare(old, layout) }
      do {
        try writeLayoutRecord(layout, to: recordURL)
        findings.writtenRecord = recordURL
      } catch {
        return (.error(message: "\(reason); recording \(recordURL.path) failed: \(error)"), findings)
      }
    case .matched:
      let writes: Bool
      switch stored {
      // A match within a tolerance is not the reference's picture: its record stays.
      case .record(let old): writes = (mode == .all || (refreshes && mode != .never && outcome.isPixelForPixel)) && old != layout
      case .absent, .unreadable: writes = mode != .never && outcome.isPixelForPixel
      }
      if writes {
        do {
          try writeLayoutRecord(layout, to: recordURL)
          findings.writtenRecord = recordURL
        } catch {
          return (.error(message: "recording \(recordURL.path) failed: \(error)"), findings)
        }
      } else if case .record = stored {
        // The reference and its record are both current.
      } else if case .unreadable(let reason) = stored {
        findings.unreadableRecord = reason
      } else {
        findings.referenceHasNoRecord = true
      }
    case .failed(_, let result, let written?):
      // Beside the failure images; a record that cannot be written there loses only words.
      let actualURL = URL(fileURLWithPath: written.directory).appendingPathComponent("actual.layout.json")
      if (try? OutputWriter.write(layout.jsonBytes(), to: actualURL)) != nil { findings.actualRecord = actualURL }
      guard case .record(let old) = stored else {
        if case .unreadable(let reason) = stored {
          findings.unreadableRecord = reason
        } else {
          findings.referenceHasNoRecord = written.reference != nil
        }
        break
      }
      if let result, let problem = Self.mismatch(of: old, with: result.referenceSize) {
        // Compared, it would tell a width or a scale that the pixels do not show.
        findings.unreadableRecord = "\(recordURL.path) is not the record of its reference: \(problem)"
        break
      }
      let referenceURL = URL(fileURLWithPath: written.directory).appendingPathComponent("reference.layout.json")
      if (try? OutputWriter.write(old.jsonBytes(), to: referenceURL)) != nil { findings.referenceRecord = referenceURL }
      findings.changes = LayoutChanges.compare(old, layout)
      // A font package update changes its files' digests and nothing of the layout.
      let structural = findings.changes.filter { !(environmentDiffers && $0.isFontDigestOnly) }
      if structural.isEmpty, let result, let actual = image ?? Self.decodedImage(at: written.actual) {
        findings.pixelOnly = pixelOnlyDifference(actual, reference: reference, layout: layout, options: options, result: result)
        findings.rasterizationOnly =
          environmentDiffers && findings.pixelOnly?.insideGlyphsOnly == true && LayoutChanges.unverifiedStyling(old, layout) == nil
      } else if let result, !result.sizeMismatch, let actual = image ?? Self.decodedImage(at: written.actual),
        let expected = Self.decodedImage(at: reference.path)
      {
        let outcome = ImageComparison.compare(expected, actual, options: options)
        // Across environments, glyphs of unchanged labels differ as a new rasterizer draws
        // them: only what else differs is told.
        if let classes = outcome.classes,
          let unexplained = PixelOnlyDifference.unexplained(
            classes, width: outcome.result.canvasSize.width, by: structural, old: old, new: layout),
          !(environmentDiffers && unexplained.insideGlyphsOnly)
        {
          findings.changes.append(unexplained.change)
        }
      }
    default:
      break
    }
    return (outcome, findings)
  }

  /// Why the layout record `record` cannot be the record of a reference of `size` pixels
  /// (one recorded for another width or scale, or copied from another case); nil when it can.
  static func mismatch(of record: LayoutRecord, with size: ComparisonResult.Size) -> String? {
    let width = record.width * record.scale, height = record.height * record.scale
    guard abs(width - Double(size.width)) > 1 || abs(height - Double(size.height)) > 1 else { return nil }
    return "it records a table of \(LayoutChanges.number(width))×\(LayoutChanges.number(height)) pixels "
      + "(\(LayoutChanges.number(record.width)) points at scale \(LayoutChanges.number(record.scale))), "
      + "the reference is \(size.width)×\(size.height)"
  }

  /// Why the PNG `actual`, laid out as `layout`, does not differ from the reference at
  /// `reference` in rasterization only; nil when it does: the reference's own layout record
  /// is the same (font files' digests aside) and says how every label is aligned and styled
  /// (``LayoutChanges/unverifiedStyling(_:_:)``), and every pixel that differs at all lies
  /// inside the glyphs of a label. `rowkit accept
  /// --rasterization-only` asks this of each case itself rather than take a report's word
  /// (a report comes from anyone).
  func rasterizationOnlyProblem(actual: [UInt8], layout: LayoutRecord, reference: URL) -> String? {
    guard case .record(let old) = readLayoutRecord(at: LayoutRecord.url(besidePNG: reference)) else {
      return "its reference has no layout record to compare the layout with"
    }
    if let change = LayoutChanges.compare(old, layout).first(where: { !$0.isFontDigestOnly }) {
      return "its layout changed (\(change.sentence))"
    }
    if let unverified = LayoutChanges.unverifiedStyling(old, layout) { return unverified }
    guard let expected = Self.decodedImage(at: reference.path), let image = try? PNG.decodeRGBA(actual) else {
      return "its reference or its actual image is not one PNG that can be read"
    }
    let outcome = ImageComparison.compare(expected, image, options: .exact)
    guard let classes = outcome.classes else { return nil }
    let located = PixelOnlyDifference.locate(classes, width: outcome.result.canvasSize.width, in: layout)
    return located.pixels == 0 || located.insideGlyphsOnly ? nil : "not every differing pixel is inside glyphs (\(located.sentence))"
  }

  /// Where the pixels of `image` differ from the reference's, by element.
  private func pixelOnlyDifference(
    _ image: RGBAImage, reference: URL, layout: LayoutRecord, options: ComparisonOptions, result: ComparisonResult
  ) -> PixelOnlyDifference? {
    guard let expected = Self.decodedImage(at: reference.path) else { return nil }
    let outcome = ImageComparison.compare(expected, image, options: options)
    guard let classes = outcome.classes else { return nil }
    return PixelOnlyDifference.locate(classes, width: outcome.result.canvasSize.width, in: layout)
  }

  /// The image of the one PNG file at `path`; nil for a tall image kept as tiles (told apart
  /// by its sentences alone) or one that cannot be read.
  private static func decodedImage(at path: String) -> RGBAImage? {
    guard TiledPNG.files(of: URL(fileURLWithPath: path)).count == 1,
      let data = FileManager.default.contents(atPath: path)
    else { return nil }
    return try? PNG.decodeRGBA([UInt8](data))
  }

  /// The layout records that exist beside the reference PNGs `pngs`, by PNG; an error when
  /// one leads out of the references through a symbolic link.
  func layoutRecords(beside pngs: [URL]) throws -> [URL: URL] {
    var records: [URL: URL] = [:]
    for png in pngs {
      let record = LayoutRecord.url(besidePNG: png)
      var info = stat()
      guard lstat(record.path, &info) == 0 else { continue }
      let confinedRecord = try confined(record)
      // A file of that name that is no layout record is not RowKit's to delete.
      guard isLayoutRecordFile(confinedRecord) else { continue }
      records[png] = confinedRecord
    }
    return records
  }

  /// What is stored beside a reference.
  enum StoredLayoutRecord {
    case absent
    /// A file that is no record this RowKit reads, and why, naming it.
    case unreadable(String)
    case record(LayoutRecord)
  }

  /// Whether the file at `url` is one RowKit wrote as a layout record: it holds a record's
  /// `rows` and `version` keys as every version writes them. Not decoded: a record damaged
  /// by a merge is still RowKit's, and `{"x":1}` is not.
  func isLayoutRecordFile(_ url: URL) -> Bool {
    guard (try? confined(url, reading: true)) != nil, let bytes = try? InputFile.read(url.path) else { return false }
    let text = String(decoding: bytes, as: UTF8.self)
    return text.contains("\"rows\" : [") && text.contains("\"version\" : ")
  }

  func readLayoutRecord(at url: URL) -> StoredLayoutRecord {
    // Never through a link out of the references (a check refuses such a case first).
    do { _ = try confined(url, reading: true) } catch { return .unreadable("\(error)") }
    guard let data = FileManager.default.contents(atPath: url.path) else { return .absent }
    let record: LayoutRecord
    do {
      record = try LayoutRecord.decode([UInt8](data), file: url.path)
    } catch {
      return .unreadable("\(error)")
    }
    guard record.version == LayoutRecord.currentVersion else {
      return .unreadable("\(url.path): version \(record.version) is not \(LayoutRecord.currentVersion), the one this RowKit writes")
    }
    return .record(record)
  }

  /// Writes `layout` atomically at `url`, never through a link out of the references.
  func writeLayoutRecord(_ layout: LayoutRecord, to url: URL) throws {
    try OutputWriter.createFolder(try confined(url).deletingLastPathComponent())
    try OutputWriter.write(layout.jsonBytes(), to: try confined(url))
  }
}
