import Foundation
import RowKit
import RowKitGraphics

/// What checking an image against its reference came to.
public enum SnapshotOutcome: Sendable {
  /// The image matches its reference (exactly, or within the tolerances).
  case matched(ComparisonResult)
  /// A reference was written; the check fails so that the new reference is looked at.
  case recorded(path: String, reason: String)
  /// The image does not match, or there is no reference and none may be written.
  case failed(message: String, result: ComparisonResult?, artifacts: FailureArtifacts?)
  /// The references were recorded in another environment; nothing was compared.
  case environmentMismatch(message: String)
  /// The check could not run: a bad name, a duplicate, an unreadable file.
  case error(message: String)

  /// Whether the reference is now exactly the render: just recorded, or matched with no
  /// byte differing (``ComparisonResult/isIdentical``).
  public var isPixelForPixel: Bool {
    switch self {
    case .recorded: return true
    case .matched(let result): return result.isIdentical
    default: return false
    }
  }

  /// Whether the image was recorded as its reference (the reference is the render's own).
  public var isRecorded: Bool {
    if case .recorded = self { return true }
    return false
  }

  /// Whether the image matched its reference.
  public var passed: Bool {
    if case .matched = self { return true }
    return false
  }

  /// One line for a failure message; nil when the check passed.
  public var message: String? {
    switch self {
    case .matched: return nil
    case .recorded(let path, let reason): return "\(reason): recorded \(path); look at it, then run again"
    case .failed(let message, _, _), .environmentMismatch(let message), .error(let message): return message
    }
  }
}

/// References under `<root>/<Suite>/<name>.png`, with the environment fingerprint beside
/// them in `<root>/environment.json`. A reference taller than one PNG a decoder opens is
/// kept as tiles: `<name>.png` holds its top, `<name>+2.png`, … the rest (`TiledPNG`).
///
/// Names are explicit (no counters) and a name may be checked once per store: checking it
/// twice is an error, since two tests would then fight over one file.
public final class ReferenceStore: Sendable {
  /// The references folder.
  public let root: URL
  /// Where failure artifacts go: `<artifacts>/<Suite>/<name>/`.
  public let artifactsRoot: URL
  /// The text environment whose fingerprint the references are recorded with.
  public let environment: TextEnvironment
  /// The names checked in this run, where each was checked when that is known, and whether
  /// the environment mismatch was reported.
  private let state = Locked<(claimed: Set<String>, sites: [String: String], mismatchReported: Bool)>(([], [:], false))

  /// Where the check now running was asked for (`CellTests.swift:12`), as the assertions set
  /// it: a second check of the same name names both places, since tests run in parallel and
  /// either may come first.
  @TaskLocal package static var checkSite: String?
  /// ``root`` with its links followed, found at the first ``confined(_:reading:)`` once the
  /// folder exists: every reference of a check asks of the same folder (a cached pass asks
  /// four times a case).
  private let resolvedRoot = Locked<String?>(nil)
  /// How often this store rewrote the fingerprint file; held while the file is compared and
  /// rewritten. (A lock over an empty value is not used: ThreadSanitizer reports Swift's
  /// exclusive access to a value of no size as a race with the lock's own field.)
  private let fingerprintWrites = Locked(0)
  /// The stored fingerprint once read (`.some(nil)`: there is none).
  private let fingerprint = Locked<EnvironmentFingerprint??>(nil)
  /// ``environmentMismatch()`` for the stored fingerprint it was worked out from.
  private let knownMismatch = Locked<(stored: EnvironmentFingerprint, message: String?)?>(nil)
  package let processEnvironment: [String: String]
  /// Whether checks compare with references recorded in another environment instead of
  /// stopping at the mismatch (``comparingInAnotherEnvironment()``).
  public let comparesInAnotherEnvironment: Bool
  /// How many pixels a reference or an artifact has before it is tiled, and a render kept in
  /// memory before it goes to files.
  let limits: Limits

  struct Limits: Sendable {
    var tilePixels = PNG.defaultMaximumPixels
    var memoryPixels = RenderCapture.memoryPixels
  }

  /// A store of references under `root`; failure artifacts go to `artifactsRoot`, else `$ROWKIT_SNAPSHOT_ARTIFACTS`, else ``defaultArtifactsRoot(for:)``.
  public convenience init(
    root: URL, artifactsRoot: URL? = nil, environment: TextEnvironment = .standard,
    processEnvironment: [String: String] = ProcessInfo.processInfo.environment
  ) {
    self.init(
      root: root, artifactsRoot: artifactsRoot, environment: environment, processEnvironment: processEnvironment,
      comparesInAnotherEnvironment: false, limits: Limits())
  }

  init(
    root: URL, artifactsRoot: URL?, environment: TextEnvironment, processEnvironment: [String: String],
    comparesInAnotherEnvironment: Bool = false, limits: Limits
  ) {
    self.comparesInAnotherEnvironment = comparesInAnotherEnvironment
    self.limits = limits
    self.root = root.standardizedFileURL
    self.artifactsRoot = (artifactsRoot
      ?? processEnvironment["ROWKIT_SNAPSHOT_ARTIFACTS"].map { URL(fileURLWithPath: $0) }
      ?? Self.defaultArtifactsRoot(for: root)).standardizedFileURL
    self.environment = environment
    self.processEnvironment = processEnvironment
  }

  /// A store of the same references whose failure artifacts go to `artifactsRoot`. It is a
  /// store of its own: a name checked in one is not claimed in the other.
  public func withArtifactsRoot(_ artifactsRoot: URL) -> ReferenceStore {
    ReferenceStore(
      root: root, artifactsRoot: artifactsRoot, environment: environment, processEnvironment: processEnvironment,
      comparesInAnotherEnvironment: comparesInAnotherEnvironment, limits: limits)
  }

  /// A store of the same references whose checks compare even when the references were
  /// recorded in another environment, so that each difference can be classified
  /// (``LayoutFindings/rasterizationOnly``). Nothing is recorded while the environments
  /// differ: a reference of one environment beside references of another would be trusted
  /// as neither. It is a store of its own, as ``withArtifactsRoot(_:)`` makes.
  public func comparingInAnotherEnvironment() -> ReferenceStore {
    ReferenceStore(
      root: root, artifactsRoot: artifactsRoot, environment: environment, processEnvironment: processEnvironment,
      comparesInAnotherEnvironment: true, limits: limits)
  }

  /// Whether the references were recorded in another environment than this store renders in.
  var environmentDiffers: Bool { (try? environmentMismatch()) != nil }

  /// Where failure artifacts go when nobody says: a folder of the system's temporary folder
  /// of the references' own (named after them and a hash of their path), so that two suites
  /// checked on one machine never overwrite each other's images.
  public static func defaultArtifactsRoot(for root: URL) -> URL {
    let path = root.standardizedFileURL.path
    let name = root.standardizedFileURL.lastPathComponent.filter { $0.isASCII && ($0.isLetter || $0.isNumber || "._-".contains($0)) }
    return FileManager.default.temporaryDirectory.appendingPathComponent("rowkit-snapshot-artifacts")
      .appendingPathComponent("\(name.isEmpty ? "root" : name)-\(SHA256.hex(Array(path.utf8)).prefix(12))")
  }

  /// Every reference under the root, as paths relative to it, sorted: the PNGs
  /// (`Suite/name.png`), and the layout records with no PNG beside them, which layout
  /// snapshots (``LayoutSnapshotting``) keep (`Suite/name.layout.json`). Hidden files and
  /// folders are left out, and so is a lone file of a record's name that holds no layout
  /// record: it is not RowKit's, and pruning must never delete it.
  public func referenceFiles() -> [String] {
    // Hidden entries are skipped, and links are not references (nor entered as folders).
    guard let entries = FileTree.entries(under: root.path, skippingHidden: true) else { return [] }
    let paths = Set(entries.map(\.path))
    var files: [String] = []
    for entry in entries where entry.kind == .file {
      let isPNG = entry.path.lowercased().hasSuffix(".png")
      let isLoneRecord =
        entry.path.hasSuffix(Self.layoutRecordSuffix) && !paths.contains(String(entry.path.dropLast(Self.layoutRecordSuffix.count)) + ".png")
      if isPNG || (isLoneRecord && isLayoutRecord(entry.path)) { files.append(entry.path) }
    }
    return files.sorted()
  }

  /// Whether the file at `path` (relative to the root) is a layout record RowKit wrote:
  /// known by its keys, not decoded (a check lists every lone record), so that one damaged
  /// by a merge, or written by another version, is still RowKit's to prune.
  private func isLayoutRecord(_ path: String) -> Bool {
    isLayoutRecordFile(root.appendingPathComponent(path))
  }

  /// The reference files (relative to the root) whose `suite/name` is none of `keys`: left
  /// behind by a deleted or renamed case. A tile (`TiledPNG`) goes with its reference.
  public func orphanedReferences(keeping keys: Set<String>) -> [String] {
    referenceFiles().filter { file in
      let key = file.hasSuffix(Self.layoutRecordSuffix) ? file.dropLast(Self.layoutRecordSuffix.count) : TiledPNG.imagePath(of: file).dropLast(4)
      return !keys.contains(String(key))
    }
  }

  /// The end of a layout record's file name.
  static let layoutRecordSuffix = ".layout.json"

  /// The reference files (relative to the root) that no check of this store claimed: what
  /// renamed or deleted tests left behind, once every test of the process has run. With
  /// `checkedSuitesOnly`, only suites (folders) where at least one check ran are looked at,
  /// so that a run filtered to some tests does not call every other suite's references
  /// orphans.
  public func unclaimedReferences(checkedSuitesOnly: Bool = true) -> [String] {
    let claimed = state.withLock { $0.claimed }
    let suites = Set(claimed.map { key in key.split(separator: "/").dropLast().joined(separator: "/") })
    return orphanedReferences(keeping: claimed).filter { file in
      !checkedSuitesOnly || suites.contains(file.split(separator: "/").dropLast().joined(separator: "/"))
    }
  }

  /// Deletes the reference files `files` (relative to the root) with their layout records
  /// and render cache files (``CaseInputs``), and the folders they leave empty. Nothing is deleted when any of them leads out of the root through a symbolic
  /// link.
  public func removeReferences(_ files: [String]) throws {
    let urls = try files.map { try confined(root.appendingPathComponent($0)) }
    let records = try layoutRecords(beside: urls)
    for url in urls {
      try FileManager.default.removeItem(at: url)
      if let record = records[url] { try FileManager.default.removeItem(at: record) }
      let inputs = try confined(CaseInputs.url(besidePNG: url))
      var info = stat()
      if lstat(inputs.path, &info) == 0 { try FileManager.default.removeItem(at: inputs) }
      var folder = url.deletingLastPathComponent().standardizedFileURL
      while folder.path.hasPrefix(root.path + "/"),
        (try? FileManager.default.contentsOfDirectory(atPath: folder.path))?.isEmpty == true
      {
        try? FileManager.default.removeItem(at: folder)
        folder.deleteLastPathComponent()
      }
    }
  }

  /// What a file of `mode` is, as an error names it.
  private static func kind(of mode: mode_t) -> String {
    switch mode & S_IFMT {
    case S_IFIFO: "a FIFO"
    case S_IFSOCK: "a socket"
    case S_IFCHR, S_IFBLK: "a device"
    default: "not a regular file"
    }
  }

  /// `url`, when writing or deleting it stays inside the references folder; an error when a
  /// symbolic link on its way (a committed `Snapshots/linked -> ../elsewhere`, or a
  /// reference that is a link) leads out of it, or when a FIFO, a device or a socket is
  /// there.
  public func confined(_ url: URL) throws -> URL {
    try confined(url, reading: false)
  }

  /// `url`, when it stays inside the references folder; an error saying nothing is read
  /// through it (`reading`) or written and deleted there when a symbolic link leads it out.
  func confined(_ url: URL, reading: Bool) throws -> URL {
    let root = resolvedRoot.withLock { known -> String? in
      if let known { return known }
      // Kept once the folder is there: before, a link could still be made in its place.
      guard FileManager.default.fileExists(atPath: self.root.path), let resolved = ContainedPath.resolved(self.root) else {
        return ContainedPath.resolved(self.root)
      }
      known = resolved
      return resolved
    }
    guard let root, ContainedPath.isInside(url, resolvedFolder: root) else {
      throw SnapshotError(
        "\(url.path) leads out of the references folder \(self.root.path) through a symbolic link; "
          + (reading ? "nothing is read through it" : "nothing is written or deleted there"))
    }
    // A FIFO, a device or a socket where a file of RowKit's goes is none of RowKit's: writing
    // into a FIFO waited for a reader forever. (A folder is one RowKit may remove, emptied.)
    var info = stat()
    if !reading, stat(url.path, &info) == 0, [S_IFIFO, S_IFSOCK, S_IFCHR, S_IFBLK].contains(info.st_mode & S_IFMT) {
      throw SnapshotError("\(url.path) is not a file RowKit wrote (\(Self.kind(of: info.st_mode))); nothing is written or deleted there")
    }
    return url
  }

  /// Checks that the reference at `reference` (each of its tiles) and its layout record, when
  /// something is there, stay inside the references folder: an error when one leads out
  /// through a link, so that nothing is read or hashed through it.
  func confineReading(_ reference: URL) throws {
    let record = LayoutRecord.url(besidePNG: reference)
    var info = stat()
    let recordIsThere = lstat(record.path, &info) == 0
    for file in TiledPNG.files(of: reference) + (recordIsThere ? [record] : []) {
      _ = try confined(file, reading: true)
    }
    // A folder (or a FIFO) where the record goes could be neither read nor replaced: found
    // once the PNG was recorded, it left a new reference beside no record of it.
    if recordIsThere, stat(record.path, &info) == 0, info.st_mode & S_IFMT != S_IFREG {
      throw SnapshotError("\(record.path): is not a file, where the reference's layout record goes; remove it")
    }
  }

  /// How a check is named in messages and claims: `suite/name`, or the name alone at the top.
  static func key(suite: String, name: String) -> String {
    suite.isEmpty ? name : "\(suite)/\(name)"
  }

  /// The reference file for a suite and a name. Suites may have `/`-separated parts (or be
  /// empty, for references at the top); every part and the name are letters, digits, `.`,
  /// `_` and `-`, and a name may also hold a variant's `@` and `,` (`settings@dark,AX3`).
  public func referenceURL(suite: String, name: String) throws -> URL {
    try Self.validate(suite: suite, name: name)
    return (suite.isEmpty ? root : root.appendingPathComponent(suite)).appendingPathComponent(name + ".png")
  }

  static func validate(suite: String, name: String) throws {
    func safe(_ part: Substring, also extra: String = "") -> Bool {
      !part.isEmpty && part != "." && part != ".."
        && part.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "._-".contains($0) || extra.contains($0)) }
    }
    guard safe(Substring(name), also: "@,"), !name.hasPrefix("@") else {
      throw SnapshotError(
        "snapshot name '\(SnapshotCheck.escaped(name))' must be letters, digits, '.', '_' or '-' (and a variant's '@' and ',')")
    }
    guard suite.isEmpty || suite.split(separator: "/", omittingEmptySubsequences: false).allSatisfy({ safe($0) }) else {
      throw SnapshotError("snapshot suite '\(SnapshotCheck.escaped(suite))' must be letters, digits, '.', '_', '-', and '/' between parts")
    }
  }

  /// The stored fingerprint, if the references have one.
  public func storedFingerprint() throws -> EnvironmentFingerprint? {
    // Read once per store: every check of a run asks.
    if let known = fingerprint.withLock({ $0 }) { return known }
    let stored = try readFingerprint()
    fingerprint.withLock { $0 = .some(stored) }
    return stored
  }

  private func readFingerprint() throws -> EnvironmentFingerprint? {
    let url = root.appendingPathComponent(EnvironmentFingerprint.fileName)
    // A regular file only: a FIFO there made accept (and the review's session) wait forever.
    let data: [UInt8]
    do {
      data = try InputFile.read(url.path)
    } catch .missing {
      return nil
    } catch {
      throw SnapshotError("\(url.path): \(error)")
    }
    do {
      return try JSONDecoder().decode(EnvironmentFingerprint.self, from: Data(data))
    } catch {
      throw SnapshotError("\(url.path) is not a RowKit environment fingerprint: \(DocumentError.decodingProblem(error, in: data))")
    }
  }

  /// The one message for references recorded elsewhere, or nil when the environments match
  /// (or the references have no fingerprint yet).
  public func environmentMismatch() throws -> String? {
    guard let stored = try storedFingerprint() else { return nil }
    // Every check of a run asks, several times: comparing every font's digest each time was
    // a few percent of a check of small cases.
    if let known = knownMismatch.withLock({ $0 }), known.stored == stored { return known.message }
    let differences = stored.differences(from: .current(environment))
    let message = differences.isEmpty
      ? nil
      : "the references in \(root.path) were recorded in another environment (\(differences.joined(separator: ", "))); "
        + "render in the environment they were recorded in, or re-record them all with ROWKIT_RECORD=all (a run of every test, unfiltered) and review the changes"
    knownMismatch.withLock { $0 = (stored, message) }
    return message
  }

  /// What a check needs once its name is claimed and its settings are valid.
  struct Claim: Sendable {
    var key: String
    var suite: String
    var name: String
    var reference: URL
    var mode: RecordMode
    var options: ComparisonOptions
  }

  /// Validates a check's settings and claims its name; the outcome when the check ends here.
  /// `confinementChecked` says the caller has just checked that the reference's files stay
  /// inside the references (a cached pass, before it hashed them).
  func claim(
    suite: String, name: String, options: ComparisonOptions, record: RecordMode?, confinementChecked: Bool = false,
    explainsEnvironment: Bool = true
  ) -> Result<Claim, OutcomeError> {
    if record == nil, let problem = RecordMode.environmentProblem(processEnvironment) {
      return .failure(OutcomeError(.error(message: problem)))
    }
    var mode = RecordMode.effective(record, environment: processEnvironment)
    let reference: URL
    do {
      reference = try referenceURL(suite: suite, name: name)
      // Read through a link out of the folder, another file's pixels would end up in the
      // report's diff, composite and copy (a pull request's references are its own), and
      // another file's text in its layout record's copy and sentences. A reference that is
      // not there is read from nowhere; writing it is confined later.
      if !confinementChecked { try confineReading(reference) }
    } catch {
      return .failure(OutcomeError(.error(message: "\(error)")))
    }
    let key = Self.key(suite: suite, name: name)
    let site = Self.checkSite
    let firstSite = state.withLock { state -> String?? in
      guard state.claimed.insert(key).inserted else { return .some(state.sites[key]) }
      if let site { state.sites[key] = site }
      return .none
    }
    if let firstSite {
      let places = firstSite.map { first in " (first at \(first)\(site.map { ", again at \($0)" } ?? ""))" } ?? ""
      return .failure(OutcomeError(.error(message: "snapshot \(key) is checked twice in one run\(places); give each check its own name")))
    }
    if let problem = options.problem { return .failure(OutcomeError(.error(message: "\(key): \(problem)"))) }
    do {
      if mode != .all, comparesInAnotherEnvironment, try environmentMismatch() != nil {
        mode = .never
      } else if mode != .all, let mismatch = try environmentMismatch() {
        // A check that does not tell the mismatch (a layout's, compared anyway) leaves the
        // explanation to the first image check that fails on it.
        guard explainsEnvironment else { return .failure(OutcomeError(.environmentMismatch(message: mismatch))) }
        let first = state.withLock { state -> Bool in
          defer { state.mismatchReported = true }
          return !state.mismatchReported
        }
        return .failure(OutcomeError(.environmentMismatch(
          message: first ? mismatch : "\(key): not compared, the environment differs (see the first snapshot failure)")))
      }
    } catch {
      return .failure(OutcomeError(.error(message: "\(error)")))
    }
    return .success(Claim(key: key, suite: suite, name: name, reference: reference, mode: mode, options: options))
  }

  /// An outcome that ends a check early.
  struct OutcomeError: Error {
    var outcome: SnapshotOutcome
    init(_ outcome: SnapshotOutcome) { self.outcome = outcome }
  }

  /// Checks `actual` against the reference for `suite`/`name`.
  public func check(
    _ actual: Bitmap, suite: String, name: String, options: ComparisonOptions = .exact, record: RecordMode? = nil
  ) -> SnapshotOutcome {
    switch claim(suite: suite, name: name, options: options, record: record) {
    case .failure(let early): return early.outcome
    case .success(let claim):
      let folder = artifactDirectory(suite: claim.suite, name: claim.name)
      defer { removeEmptyFolders(folder, below: Self.firstExistingFolder(folder)) }
      let capture = capture(baseline: nil, folder: folder)
      do {
        try capture.receive(actual)
        let image = try capture.end()
        defer { image.discard() }
        return compare(image, claim)
      } catch {
        return .error(message: "\(claim.key): \(error)")
      }
    }
  }

  /// Renders with `render` and checks the image against the reference for `suite`/`name`
  /// (see ``check(suite:name:options:record:pool:rendering:)``).
  nonisolated(nonsending) public func check(
    suite: String, name: String, options: ComparisonOptions = .exact, record: RecordMode? = nil,
    pool: RenderPool = .shared, render: () async throws -> Bitmap
  ) async throws -> SnapshotOutcome {
    try await capturing(suite: suite, name: name, options: options, record: record, pool: pool) { capture in
      let bitmap = try await render()
      try await pool.run { try capture.receive(bitmap) }
    }
  }

  /// Renders with `render`, which hands the image strip by strip to the receiver it is given
  /// (`TableRenderer.render(_:policy:into:keepsManifest:)`), and checks it against the
  /// reference for `suite`/`name` as the strips come: memory holds a few strips, not the
  /// image, however tall it is.
  ///
  /// A render that equals its reference pixel for pixel passes at once: the reference came
  /// from an earlier render, so the render is proven reproducible. Otherwise (no reference, a
  /// difference, or recording) it renders a second time: when the two renders differ, the
  /// outcome is an error saying the rendering is not deterministic, since no reference of it
  /// could be trusted. Decoding and comparing after a render run on `pool`'s threads. A
  /// reference taller than one PNG a decoder opens is recorded as tiles (`TiledPNG`).
  /// Throws what `render` throws.
  nonisolated(nonsending) public func check(
    suite: String, name: String, options: ComparisonOptions = .exact, record: RecordMode? = nil,
    pool: RenderPool = .shared, rendering render: (any TableImageReceiver) async throws -> Void
  ) async throws -> SnapshotOutcome {
    try await capturing(suite: suite, name: name, options: options, record: record, pool: pool) { try await render($0) }
  }

  nonisolated(nonsending) private func capturing(
    suite: String, name: String, options: ComparisonOptions, record: RecordMode?, pool: RenderPool,
    render: (RenderCapture) async throws -> Void
  ) async throws -> SnapshotOutcome {
    let claim: Claim
    // Claiming reads the references' folder and the environment (every font hashed, the first
    // time): file work, on a worker, never on the caller's executor.
    let site = Self.checkSite
    let claimed = try await pool.run {
      Self.$checkSite.withValue(site) { self.claim(suite: suite, name: name, options: options, record: record) }
    }
    switch claimed {
    case .failure(let early): return early.outcome
    case .success(let claimed): claim = claimed
    }
    let folder = artifactDirectory(suite: claim.suite, name: claim.name)
    let existing = Self.firstExistingFolder(folder)
    defer { removeEmptyFolders(folder, below: existing) }
    let reference = claim.reference
    let openReference: @Sendable () throws -> any RGBARowSource = { try TiledPNG.rows(of: reference) }
    let first = capture(baseline: claim.mode == .all ? nil : openReference, folder: folder)
    try await render(first)
    let firstImage = try await pool.run { try first.end() }
    defer { firstImage.discard() }
    if firstImage.identical {
      await removeStaleArtifacts(suite: claim.suite, name: claim.name, pool: pool)
      return .matched(ImageComparison.identical(width: firstImage.width, height: firstImage.height, options: claim.options))
    }
    let second = capture(baseline: { try firstImage.rows() }, folder: folder)
    try await render(second)
    let secondImage = try await pool.run { try second.end() }
    defer { secondImage.discard() }
    guard secondImage.identical else {
      let difference = try await pool.run { try ImageComparison.compare(firstImage.rows(), secondImage.rows()).summary }
      return .error(message: "\(claim.key): rendering is not deterministic: two renders differ (\(difference))")
    }
    return try await pool.run { self.compare(firstImage, claim) }
  }

  private func capture(baseline: (@Sendable () throws -> any RGBARowSource)?, folder: URL) -> RenderCapture {
    RenderCapture(baseline: baseline, folder: folder, memoryPixels: limits.memoryPixels, tilePixels: limits.tilePixels)
  }

  /// Compares `actual` with the claim's reference, recording or writing failure artifacts as
  /// its mode says; a case that passes or is recorded takes away what an earlier failure left.
  private func compare(_ actual: CapturedImage, _ claim: Claim) -> SnapshotOutcome {
    let outcome = comparing(actual, claim)
    switch outcome {
    case .matched, .recorded: removeStaleArtifactsHere(suite: claim.suite, name: claim.name)
    default: break
    }
    return outcome
  }

  private func comparing(_ actual: CapturedImage, _ claim: Claim) -> SnapshotOutcome {
    let (key, reference, mode, options) = (claim.key, claim.reference, claim.mode, claim.options)
    let directory = artifactDirectory(suite: claim.suite, name: claim.name)
    guard FileManager.default.fileExists(atPath: reference.path) else {
      if mode == .never {
        let artifacts = try? FailureArtifacts.write(
          to: directory, root: artifactsRoot, reference: nil, actual: actual, result: nil, tilePixels: limits.tilePixels)
        let where_ = artifacts.map { "; the actual image is at \($0.actual)" } ?? ""
        return .failed(
          message: "\(key): no reference at \(reference.path), and references are never recorded here"
            + (RecordMode.isCI(processEnvironment) ? " (CI is set)" : "") + where_,
          result: nil, artifacts: artifacts)
      }
      return writeReference(actual, at: reference, reason: "\(key): no reference")
    }
    let result: ComparisonResult
    do {
      result = try ImageComparison.compare(TiledPNG.rows(of: reference), actual.rows(), options: options)
    } catch {
      if mode == .failed || mode == .all { return writeReference(actual, at: reference, reason: "\(key): the reference could not be compared (\(error))") }
      // The actual image is kept, and the reference's bytes as they are, so that the case
      // can be reviewed and accepted like any failure: a damaged reference is mended so.
      let artifacts = try? FailureArtifacts.write(
        to: directory, root: artifactsRoot, reference: reference, actual: actual, result: nil, tilePixels: limits.tilePixels)
      return .failed(
        message: "\(key): the reference cannot be compared: \(error)" + (artifacts.map { "; the actual image is at \($0.actual)" } ?? ""),
        result: nil, artifacts: artifacts)
    }
    if result.status == .identical {
      if mode == .all { try? updateFingerprint() }
      return .matched(result)
    }
    if mode == .all || (mode == .failed && !result.passed) {
      return writeReference(actual, at: reference, reason: "\(key): \(result.summary)")
    }
    if result.passed { return .matched(result) }
    do {
      let artifacts = try FailureArtifacts.write(
        to: directory, root: artifactsRoot, reference: reference, actual: actual, result: result, tilePixels: limits.tilePixels)
      return .failed(message: "\(key): \(result.summary); \(artifacts.listing)", result: result, artifacts: artifacts)
    } catch {
      return .failed(
        message: "\(key): \(result.summary) (artifacts could not be written: \(error))", result: result, artifacts: nil)
    }
  }

  /// The folder for the failure artifacts of the reference `name` of `suite`.
  public func artifactDirectory(suite: String, name: String) -> URL {
    (suite.isEmpty ? artifactsRoot : artifactsRoot.appendingPathComponent(suite)).appendingPathComponent(name)
  }

  /// Takes away what an earlier failure of `suite`/`name` left in its artifacts folder (see
  /// `FailureArtifacts.removeStale(in:root:)`), once it passed or was recorded again: on
  /// `pool`'s threads, and only when the folder is there (most cases never failed).
  nonisolated(nonsending) func removeStaleArtifacts(suite: String, name: String, pool: RenderPool) async {
    let folder = artifactDirectory(suite: suite, name: name)
    var info = stat()
    guard lstat(folder.path, &info) == 0 else { return }
    let root = artifactsRoot
    _ = try? await pool.run { FailureArtifacts.removeStale(in: folder, root: root) }
  }

  /// `removeStaleArtifacts(suite:name:pool:)` on the calling thread, for callers that are
  /// not async.
  func removeStaleArtifactsHere(suite: String, name: String) {
    FailureArtifacts.removeStale(in: artifactDirectory(suite: suite, name: name), root: artifactsRoot)
  }

  /// `folder`, or the closest folder above it that exists.
  static func firstExistingFolder(_ folder: URL) -> URL {
    var folder = folder.standardizedFileURL
    while folder.path != "/", !FileManager.default.fileExists(atPath: folder.path) { folder.deleteLastPathComponent() }
    return folder
  }

  /// Removes `folder` and the folders above it up to `existing`, which the check made (for
  /// a tall image's temporary files), where it left them empty.
  private func removeEmptyFolders(_ folder: URL, below existing: URL) {
    var folder = folder.standardizedFileURL
    // A folder already gone (the case's own, emptied of a stale failure's files) is passed.
    while folder.path.hasPrefix(existing.path + "/"), rmdir(folder.path) == 0 || errno == ENOENT {
      folder.deleteLastPathComponent()
    }
  }

  private func writeReference(_ actual: CapturedImage, at reference: URL, reason: String) -> SnapshotOutcome {
    do {
      // Both files are checked before either is written.
      _ = try confined(root.appendingPathComponent(EnvironmentFingerprint.fileName))
      try OutputWriter.createFolder(try confined(reference).deletingLastPathComponent())
      try actual.save(to: reference)
      try updateFingerprint()
      return .recorded(path: reference.path, reason: reason)
    } catch {
      return .error(message: "\(reason); recording \(reference.path) failed: \(error)")
    }
  }

  /// Makes the stored fingerprint this environment's, when recording.
  private func updateFingerprint() throws {
    try fingerprintWrites.withLock { writes in
      let current = EnvironmentFingerprint.current(environment)
      if (try? storedFingerprint()) != current {
        try OutputWriter.createFolder(root)
        try writeAtomically(current.jsonBytes(), to: try confined(root.appendingPathComponent(EnvironmentFingerprint.fileName)))
        fingerprint.withLock { $0 = .some(current) }
        writes += 1
      }
    }
  }

  private func writeAtomically(_ bytes: [UInt8], to url: URL) throws {
    try OutputWriter.write(bytes, to: url)
  }
}
