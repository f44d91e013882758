import Foundation
import RowKit
import RowKitGraphics

extension ReferenceStore {
  /// The render cache's file beside the reference for `suite`/`name` (``CaseInputs``).
  public func inputsURL(suite: String, name: String) throws -> URL {
    CaseInputs.url(besidePNG: try referenceURL(suite: suite, name: name))
  }

  /// The inputs stored beside the reference, or nil: none, unreadable, not a regular file
  /// (a FIFO is never waited on), of another version, or reached through a link out of the
  /// references (then the case simply renders).
  func storedInputs(suite: String, name: String) -> CaseInputs? {
    guard let url = try? confined(inputsURL(suite: suite, name: name)), let bytes = try? InputFile.read(url.path) else { return nil }
    return CaseInputs.decode(bytes)
  }

  /// Writes `inputs` atomically beside the reference, never through a link out of the references.
  func writeInputs(_ inputs: CaseInputs, suite: String, name: String) throws {
    let url = try confined(inputsURL(suite: suite, name: name))
    try OutputWriter.createFolder(url.deletingLastPathComponent())
    try OutputWriter.write(inputs.jsonBytes(), to: url)
  }
}

/// What the render cache needs of an assertion's value whose render reads declared files
/// only (``ImageSnapshotting/declaredInputs``).
package struct DeclaredRender: Sendable {
  /// The document, as loaded from its file.
  var document: TableDocument
  /// The strategy's settings that change the render, one per line.
  var settings: [String]
  /// Where the render's downloaded images come from.
  var pipeline: ImagePipeline
}

extension ReferenceStore {
  /// The variable that switches the render cache of assertions off (`off`, `0` or `false`).
  public static let renderCacheVariable = "ROWKIT_RENDER_CACHE"

  /// Whether `ROWKIT_RENDER_CACHE` leaves the render cache on.
  var allowsRenderCache: Bool {
    !["off", "0", "false", "no"].contains(processEnvironment[Self.renderCacheVariable]?.lowercased() ?? "")
  }

  /// The render cache of an assertion of `declared`, with paths stored relative to the
  /// references folder; nil when references are re-recorded or of another environment,
  /// where every check renders.
  func renderCache(for declared: DeclaredRender, record: RecordMode?) -> RenderCache? {
    guard allowsRenderCache, RecordMode.effective(record, environment: processEnvironment) != .all,
      (try? environmentMismatch()) == .some(nil),
      let fingerprint = try? EnvironmentFingerprint.current(environment).jsonBytes()
    else { return nil }
    return RenderCache(folder: root, environment: SHA256.hex(ofBuffer: fingerprint), pipeline: declared.pipeline)
  }

  /// The outcome of an assertion that passes without rendering: its reference, its layout
  /// record (unless none may be written) and its stored inputs are all as a render that
  /// matched pixel for pixel left them; nil when it must render. The name is claimed as a
  /// render's check claims it.
  func cachedMatch(
    suite: String, name: String, options: ComparisonOptions, record: RecordMode?, declared: DeclaredRender,
    cache: RenderCache, keepsLayoutRecord: Bool
  ) -> SnapshotOutcome? {
    guard let reference = try? referenceURL(suite: suite, name: name),
      // Never hashed through a link out of the references (the render's check refuses it),
      // nor its layout record read through one.
      (try? confineReading(reference)) != nil,
      let stored = storedInputs(suite: suite, name: name)
    else { return nil }
    if keepsLayoutRecord, RecordMode.effective(record, environment: processEnvironment) != .never,
      !FileManager.default.fileExists(atPath: LayoutRecord.url(besidePNG: reference).path)
    {
      return nil
    }
    guard cache.changes(since: stored, document: declared.document.file, reference: reference, settings: declared.settings).isEmpty,
      let rows = try? TiledPNG.rows(of: reference)
    else { return nil }
    switch claim(suite: suite, name: name, options: options, record: record) {
    case .failure(let early): return early.outcome
    case .success(let claim):
      // Run on a render worker (see the caller): the stale files of a failure go here too.
      removeStaleArtifactsHere(suite: suite, name: name)
      return .matched(ImageComparison.identical(width: rows.width, height: rows.height, options: claim.options))
    }
  }

  /// Stores the inputs of a render of `declared` beside its reference once the check's
  /// outcome matched pixel for pixel and references may be written; a failure to write
  /// only means the next check renders.
  func keepInputs(
    of declared: DeclaredRender, manifest: Manifest?, outcome: SnapshotOutcome, suite: String, name: String,
    record: RecordMode?, cache: RenderCache, renderStart: Date? = nil
  ) {
    guard let manifest, outcome.isPixelForPixel, !environmentDiffers,
      RecordMode.effective(record, environment: processEnvironment) != .never,
      let reference = try? referenceURL(suite: suite, name: name),
      let inputs = cache.inputs(
        of: declared.document, manifest: manifest, otherFiles: [], reference: reference, settings: declared.settings,
        renderStart: renderStart, recordedReference: outcome.isRecorded),
      inputs != storedInputs(suite: suite, name: name)
    else { return }
    try? writeInputs(inputs, suite: suite, name: name)
  }
}
