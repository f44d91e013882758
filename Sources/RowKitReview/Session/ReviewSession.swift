import Foundation
import RowKit
import RowKitGraphics
import RowKitSnapshot

/// The review of one report folder: accepts through `rowkit accept`'s own code
/// (`ReferenceAcceptance`), rejects, and undos, each appended to `review-log.json` in the
/// report folder, with the bytes that undo puts back under `review-undo/`. The log is sealed
/// with a key of the user's own (`ReviewLogSeal`), and a log without that seal is refused.
///
/// The report folder is untrusted (a pull request controls its own CI run's report): a
/// request names cases of the report by their names only, every file read from the report is
/// reached without following a link, and nothing is written outside the references folder
/// and the report folder. Every method blocks on the file system: call them from a thread of
/// your own, never from Swift's cooperative pool.
package final class ReviewSession: Sendable {
  /// The report folder.
  package let reportFolder: URL
  /// The report, as read when the session started.
  package let report: SnapshotCheck.Report
  /// The references the report was checked against, which accept writes into.
  package let store: ReferenceStore
  /// The groups cases are reviewed in, by their index: the page's shared changes, the cases
  /// with the same pixel difference, then the cases with no reference.
  package let groups: [ReviewReport.Group]
  private let processEnvironment: [String: String]
  /// Whether this review checked the documents itself, into a report folder of its own
  /// (`rowkit review DOCS --snapshots DIR`): only then is a case's `new` status RowKit's own
  /// word, and rejecting it removes the reference the check recorded. A report from
  /// elsewhere may say any case is new.
  private let checkedHere: Bool
  // Every action reads and extends the log under this one lock, so that two requests never
  // interleave their writes; it is held by the request threads alone, never across an await.
  private let log: Locked<ReviewLog>
  /// The SHA-256 of `report.json` when the review began.
  private let reportDigest: String
  /// The key every log entry is sealed with, read (or made) when the review begins: a key
  /// folder that cannot be used stops the review before any reference changes, not after.
  /// Under CI, where nothing changes, a review without a key only looks (nil).
  private let seal: ReviewLogSeal?

  /// A review of the report in `folder`, writing into `snapshots` (which must be the folder
  /// the report was checked against) or, without it, the report's own references folder when
  /// it is the project's (as `rowkit accept` decides).
  package convenience init(
    report folder: URL, snapshots: URL? = nil, processEnvironment: [String: String] = ProcessInfo.processInfo.environment,
    checkedHere: Bool = false
  ) async throws {
    let folder = folder.standardizedFileURL
    let report = try await offCooperativePool { Result { try ReportFolder.read(folder) } }.get()
    let identical = await IdenticalDifferences.groups(of: report, in: folder)
    let opening = try await offCooperativePool {
      Result { try Opening(folder: folder, report: report, snapshots: snapshots, processEnvironment: processEnvironment) }
    }.get()
    self.init(
      folder: folder, report: report, identicalGroups: identical, opening: opening, processEnvironment: processEnvironment,
      checkedHere: checkedHere)
  }

  /// What a review reads from disk as it begins, besides the report.
  private struct Opening: Sendable {
    let store: ReferenceStore
    let reportDigest: String
    let seal: ReviewLogSeal?
    let log: ReviewLog

    init(folder: URL, report: SnapshotCheck.Report, snapshots: URL?, processEnvironment: [String: String]) throws {
      let file = folder.appendingPathComponent(ReportFolder.reportFile).path
      store = ReferenceStore(
        root: try ReferenceAcceptance.referencesFolder(of: report, file: file, given: snapshots), processEnvironment: processEnvironment)
      reportDigest = try ReviewSession.reportDigest(in: folder)
      seal = RecordMode.isCI(processEnvironment)
        ? try? ReviewLogSeal(environment: processEnvironment) : try ReviewLogSeal(environment: processEnvironment)
      log = try ReviewSession.readLog(in: folder, reportDigest: reportDigest, seal: seal)
    }
  }

  private init(
    folder: URL, report: SnapshotCheck.Report, identicalGroups: [ReviewReport.Group], opening: Opening, processEnvironment: [String: String],
    checkedHere: Bool
  ) {
    self.reportFolder = folder
    self.report = report
    self.processEnvironment = processEnvironment
    self.checkedHere = checkedHere
    store = opening.store
    var groups = ReviewReport.sharedGroups(of: report.cases)
    // A group with the very cases of a shared change would only repeat it.
    let shared = Set(groups.map { Set($0.names) })
    groups += identicalGroups.filter { !shared.contains(Set($0.names)) }
    let new = report.cases.filter { [.new, .missing].contains($0.status) && ReportFolder.isAcceptable($0) }
    if new.count > 1 {
      // The check recorded new cases (its default outside CI); missing ones it did not.
      let title =
        new.allSatisfy { $0.status == .new } ? "are new (the check recorded them)"
        : new.allSatisfy { $0.status == .missing } ? "have no reference yet" : "are new or have no reference yet"
      groups.append(ReviewReport.Group(kind: .new, title: title, names: new.map(\.name)))
    }
    self.groups = groups
    reportDigest = opening.reportDigest
    seal = opening.seal
    log = Locked(opening.log)
  }

  /// The SHA-256 of the report's `report.json`.
  private static func reportDigest(in folder: URL) throws -> String {
    let reportFile = try ReportFolder.file(ReportFolder.reportFile, in: folder, what: "the report")
    guard let reportBytes = FileManager.default.contents(atPath: reportFile.path) else { throw ReviewError("\(reportFile.path): cannot be read") }
    return SHA256.hex([UInt8](reportBytes))
  }

  /// The log in `folder` as it is on disk (an empty one when there is none), sealed by this
  /// user and bound to the report whose digest is `reportDigest`.
  private static func readLog(in folder: URL, reportDigest: String, seal: ReviewLogSeal?) throws -> ReviewLog {
    let logFile = folder.appendingPathComponent(ReportFolder.reviewLogFile)
    var log = ReviewLog()
    if let written = try ReviewLog.read(logFile) {
      guard let seal else {
        throw ReviewError("\(logFile.path): a review log, which cannot be checked without the key that seals review logs (no XDG_STATE_HOME or HOME)")
      }
      guard seal.hasSealed(written) else {
        throw ReviewError(
          "\(logFile.path): not a review log that your rowkit review wrote, or changed since (its seal does not match); "
            + "undo would act on what it says, so it is not read: move it away to start a new review of this report")
      }
      log = written
    }
    if let bound = log.report, bound != reportDigest {
      throw ReviewError(
        "\(logFile.path): the review log of another report (its report.json had the SHA-256 \(bound), this one has \(reportDigest)); "
          + "its entries are not of these cases: review the report it belongs to, or move the log away to start a new review")
    }
    log.report = reportDigest
    return log
  }

  /// Runs `action` on the log as it is on disk now, holding the report folder's lock: two
  /// servers of one report (two terminals, two tabs of two servers) take turns, and each
  /// acts on the other's entries, instead of writing its own copy over them (an undo then
  /// removed a file the other's accept stood on). A report that another check replaced
  /// since the review began is refused: its cases are not the ones the page shows.
  private func changingLog<T>(_ action: (inout ReviewLog) throws -> T) throws -> T {
    try log.withLock { log in
      let folder = open(reportFolder.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
      guard folder >= 0 else { throw ReviewError("\(reportFolder.path): cannot be opened (\(String(cString: strerror(errno))))", status: 409) }
      defer { close(folder) }
      guard flock(folder, LOCK_EX) == 0 else {
        throw ReviewError("\(reportFolder.path): cannot be locked (\(String(cString: strerror(errno))))", status: 409)
      }
      guard try Self.reportDigest(in: reportFolder) == reportDigest else {
        throw ReviewError(
          "\(reportFolder.path)/\(ReportFolder.reportFile): replaced since this review began (another check wrote it); "
            + "nothing was done: restart rowkit review to review the new report", status: 409)
      }
      log = try Self.readLog(in: reportFolder, reportDigest: reportDigest, seal: seal)
      return try action(&log)
    }
  }

  /// The cases a reviewer decides on: failed, new and missing ones with an actual image.
  package var reviewable: [String] { report.cases.filter(ReportFolder.isAcceptable).map(\.name) }

  /// Whether accepts and undos of accepts are refused: under CI, as `rowkit accept` is.
  package var refusesChanges: Bool { RecordMode.isCI(processEnvironment) }

  /// The log as it stands.
  package var currentLog: ReviewLog { log.withLock { $0 } }

  /// The log as it is on disk now, under the report folder's lock: what the page shows, as
  /// another review of the same report may have acted since this one last did.
  package func refreshedLog() throws -> ReviewLog {
    try changingLog { $0 }
  }

  /// Makes the actual images of `names` (or of group `group`) their references, through
  /// `rowkit accept`'s code, and logs it with the bytes it replaced.
  @discardableResult
  package func accept(_ names: [String], group: Int? = nil) throws -> ReviewLog.Entry {
    if RecordMode.isCI(processEnvironment) {
      throw ReviewError("CI is set: references are never changed under CI; review on your own machine", status: 403)
    }
    let (asked, chosenGroup) = try resolve(names, group: group)
    return try changingLog { log in
      // A case accepted already is not accepted again: a second entry would change nothing,
      // and the next undo would take back that nothing (a double click, a key pressed twice).
      let reviews = log.reviews
      let names = asked.filter { reviews[$0] != .accept }
      guard !names.isEmpty else {
        throw ReviewError(
          asked.count == 1 ? "case '\(asked[0])' is accepted already" : "every case of the request is accepted already", status: 409)
      }
      if chosenGroup?.kind == .rasterizationOnly {
        // Such a group is accepted whole (`rowkit accept --rasterization-only`): every case
        // the report marks so, which must be exactly the cases logged and saved here.
        let taken = report.cases.filter { $0.rasterizationOnly == true && ReportFolder.isAcceptable($0) }.map(\.name)
        guard names.count == asked.count else {
          throw ReviewError("some cases of the group are accepted already: undo their accept to accept the group whole", status: 409)
        }
        guard Set(taken) == Set(names) else {
          throw ReviewError(
            "the report marks other cases than the group's as differing in rasterization only; accept them one by one", status: 409)
        }
      }
      let id = log.entries.count + 1
      let targets = try files(of: names)
      let folders = foldersMissing(above: targets.map(\.url))
      let saved = try saveBytes(of: targets, entry: id)
      do {
        _ = try ReferenceAcceptance.accept(
          report: reportFolder, names: chosenGroup?.kind == .rasterizationOnly ? [] : names, all: false,
          rasterizationOnly: chosenGroup?.kind == .rasterizationOnly, snapshots: store.root, processEnvironment: processEnvironment)
      } catch {
        saved.discard()
        throw ReviewError("\(error)", status: 409)
      }
      var changes: [ReviewLog.FileChange] = []
      for (index, target) in targets.enumerated() {
        let after = try bytes(at: target.url).map { SHA256.hex($0) }
        // Unchanged: undo has nothing to put back there. A render cache's inputs are logged
        // all the same: a check run before the undo may write them, and undo puts back
        // (or removes) them.
        guard after != saved.digests[index] || target.url.lastPathComponent.hasSuffix(CaseInputs.fileSuffix) else { continue }
        changes.append(
          ReviewLog.FileChange(
            case: target.name, path: relativePath(target.url), before: saved.digests[index], after: after,
            saved: saved.ranges[index] == nil ? nil : saved.path, savedRange: saved.ranges[index]))
      }
      if !changes.contains(where: { $0.saved != nil }) { saved.discard() }
      var entry = ReviewLog.Entry(
        id: id, time: Self.now(), action: .accept, cases: names, group: chosenGroup?.title, undoes: nil, files: changes)
      let made = folders.filter { FileManager.default.fileExists(atPath: $0.path) }.map(relativePath)
      if !made.isEmpty { entry.madeFolders = made }
      try appendOrPutBack(entry, to: &log, saved: saved)
      return entry
    }
  }

  /// Appends `entry`, whose files are changed already; when the log cannot be written, puts
  /// their bytes back, so that no change stands that undo does not know of.
  private func appendOrPutBack(_ entry: ReviewLog.Entry, to log: inout ReviewLog, saved: SavedBytes) throws {
    do {
      try append(entry, to: &log)
    } catch {
      do {
        try restore(entry)
      } catch let putBack {
        throw ReviewError(
          "\(error); and the references could not be put back (\(putBack)): entry \(entry.id)'s bytes stay in \(saved.file.path)",
          status: 500)
      }
      saved.discard()
      throw ReviewError("\(error); nothing was changed", status: 500)
    }
  }

  /// Marks `names` (or group `group`) reviewed with their references kept. A new case's
  /// reference, which the check recorded from the very image rejected, is removed with it
  /// (its image, layout record and render-cache inputs), and undo puts it back.
  @discardableResult
  package func reject(_ names: [String], group: Int? = nil) throws -> ReviewLog.Entry {
    let (asked, chosenGroup) = try resolve(names, group: group)
    return try changingLog { log in
      let reviews = log.reviews
      if let accepted = asked.first(where: { reviews[$0] == .accept }) {
        throw ReviewError("case '\(accepted)' is accepted: undo the accept to keep its reference", status: 409)
      }
      // A case rejected already is not rejected again, as an accept is not accepted again:
      // the next undo would take back that nothing, and leave the case rejected.
      let names = asked.filter { reviews[$0] != .reject }
      guard !names.isEmpty else {
        throw ReviewError(
          asked.count == 1 ? "case '\(asked[0])' is rejected already" : "every case of the request is rejected already", status: 409)
      }
      let id = log.entries.count + 1
      let recorded = try recordedReferences(of: names)
      guard !recorded.isEmpty else {
        let entry = ReviewLog.Entry(
          id: id, time: Self.now(), action: .reject, cases: names, group: chosenGroup?.title, undoes: nil, files: [])
        try append(entry, to: &log)
        return entry
      }
      if RecordMode.isCI(processEnvironment) {
        throw ReviewError("CI is set: references are never changed under CI; review on your own machine", status: 403)
      }
      let saved = try saveBytes(of: recorded, entry: id)
      var changes: [ReviewLog.FileChange] = []
      for (index, target) in recorded.enumerated() {
        guard let before = saved.digests[index] else { continue }
        changes.append(
          ReviewLog.FileChange(
            case: target.name, path: relativePath(target.url), before: before, after: nil, saved: saved.path,
            savedRange: saved.ranges[index]))
      }
      let entry = ReviewLog.Entry(
        id: id, time: Self.now(), action: .reject, cases: names, group: chosenGroup?.title, undoes: nil, files: changes)
      // The log first: a reference removed that no entry names could not be put back.
      try append(entry, to: &log)
      do {
        for change in changes { try FileManager.default.removeItem(at: store.root.appendingPathComponent(change.path)) }
      } catch {
        throw ReviewError("\(error); undo puts back what was removed", status: 500)
      }
      return entry
    }
  }

  /// The reference files of the new cases among `names` that the check recorded and that are
  /// still exactly what it recorded: each tile the same bytes as the report's actual image.
  /// None when the report is not this review's own check.
  private func recordedReferences(of names: [String]) throws -> [Target] {
    guard checkedHere else { return [] }
    var targets: [Target] = []
    for name in names {
      guard let item = report.cases.first(where: { $0.name == name }), item.status == .new, let actual = item.actual else { continue }
      let actualFile = try ReportFolder.file(actual, in: reportFolder, what: "the actual image")
      let reference = try referenceURL(ofCase: name)
      let actualTiles = TiledPNG.files(of: actualFile)
      let referenceTiles = TiledPNG.files(of: reference)
      guard !referenceTiles.isEmpty else { continue }
      guard actualTiles.count == referenceTiles.count,
        try zip(actualTiles, referenceTiles).allSatisfy({ try bytes(at: $0) == bytes(at: $1) })
      else {
        throw ReviewError(
          "\(reference.path): not the image the check recorded for '\(name)' (changed since); nothing was rejected", status: 409)
      }
      targets += referenceTiles.map { Target(name: name, url: $0) }
      targets.append(Target(name: name, url: LayoutRecord.url(besidePNG: reference)))
      targets.append(Target(name: name, url: CaseInputs.url(besidePNG: reference)))
    }
    return try targets.map { Target(name: $0.name, url: try store.confined($0.url)) }
  }

  /// The folders above `files`, below the references folder, that do not exist yet,
  /// outermost first: those an accept may make.
  private func foldersMissing(above files: [URL]) -> [URL] {
    let root = store.root.standardizedFileURL.path
    var missing: [URL] = []
    for file in files {
      var folder = file.deletingLastPathComponent().standardizedFileURL
      var chain: [URL] = []
      while folder.path.hasPrefix(root + "/"), !FileManager.default.fileExists(atPath: folder.path) {
        chain.insert(folder, at: 0)
        folder = folder.deletingLastPathComponent()
      }
      for folder in chain where !missing.contains(folder) { missing.append(folder) }
    }
    return missing
  }

  /// Takes back the latest accept or reject in force: an accept's files get their exact
  /// bytes from before it back (a file it made is removed), when they are still the bytes it
  /// wrote; otherwise nothing changes and the error names the file.
  /// With `expected`, only when the latest action in force is still that entry: the one the
  /// page showed, which another review of the report may have changed since.
  @discardableResult
  package func undo(expecting expected: Int? = nil) throws -> ReviewLog.Entry {
    try changingLog { log in
      guard let target = log.nextUndo else { throw ReviewError("there is nothing to undo", status: 409) }
      if let expected, target.id != expected {
        throw ReviewError(
          "the latest action is now entry \(target.id) (\(target.action.rawValue) \(target.cases.joined(separator: ", "))), "
            + "not entry \(expected) that the page showed: another review of this report acted since; nothing was undone", status: 409)
      }
      if !target.files.isEmpty {
        if RecordMode.isCI(processEnvironment) {
          throw ReviewError("CI is set: references are never changed under CI", status: 403)
        }
        try restore(target)
      }
      let entry = ReviewLog.Entry(
        id: log.entries.count + 1, time: Self.now(), action: .undo, cases: target.cases, group: target.group, undoes: target.id,
        files: target.files.map { ReviewLog.FileChange(case: $0.case, path: $0.path, before: $0.after, after: $0.before, saved: nil) })
      try append(entry, to: &log)
      return entry
    }
  }

  // MARK: - Names

  /// The cases a request names: each one a reviewable case of the report, by its exact name
  /// (never a path), or the cases of a group by its index.
  private func resolve(_ names: [String], group: Int?) throws -> ([String], ReviewReport.Group?) {
    if let group {
      guard names.isEmpty else { throw ReviewError("name cases or a group, not both") }
      guard groups.indices.contains(group) else { throw ReviewError("no group \(group)", status: 404) }
      return (groups[group].names, groups[group])
    }
    guard !names.isEmpty else { throw ReviewError("name the cases") }
    let reviewable = Set(reviewable)
    var seen = Set<String>()
    for name in names {
      guard reviewable.contains(name) else {
        let known = report.cases.contains { $0.name == name }
        throw ReviewError(
          known ? "case '\(name)' has nothing to review" : "the report has no case named '\(name)'", status: known ? 409 : 404)
      }
      seen.insert(name)
    }
    return (names.filter { seen.remove($0) != nil }, nil)
  }

  // MARK: - Files

  /// A file of the references that an accept of case `name` may write or remove.
  private struct Target {
    var name: String?
    var url: URL
  }

  /// Every file an accept of `names` may change: each reference's tiles (those there and
  /// those the actual image has), layout record and render-cache inputs, and the
  /// references' environment fingerprint.
  private func files(of names: [String]) throws -> [Target] {
    var targets: [Target] = []
    for name in names {
      let item = report.cases.first { $0.name == name }!
      let reference = try referenceURL(ofCase: name)
      let actualTiles = (try? ReportFolder.file(item.actual ?? "", in: reportFolder, what: "the actual image")).map {
        TiledPNG.files(of: $0).count
      } ?? 1
      for index in 0..<max(1, actualTiles, TiledPNG.files(of: reference).count) {
        targets.append(Target(name: name, url: TiledPNG.tileURL(reference, index: index)))
      }
      targets.append(Target(name: name, url: LayoutRecord.url(besidePNG: reference)))
      targets.append(Target(name: name, url: CaseInputs.url(besidePNG: reference)))
    }
    targets.append(Target(name: nil, url: store.root.appendingPathComponent(EnvironmentFingerprint.fileName)))
    return try targets.map { Target(name: $0.name, url: try store.confined($0.url)) }
  }

  /// The reference of the case named `name` (`suite/name`), confined to the references.
  private func referenceURL(ofCase name: String) throws -> URL {
    let parts = name.split(separator: "/")
    return try store.confined(try store.referenceURL(suite: parts.dropLast().joined(separator: "/"), name: String(parts.last ?? "")))
  }

  /// The bytes of the reference file `url`, none when there is no file.
  private func bytes(at url: URL) throws -> [UInt8]? {
    var info = stat()
    guard lstat(url.path, &info) == 0 else { return nil }
    guard info.st_mode & S_IFMT == S_IFREG, let data = FileManager.default.contents(atPath: url.path) else {
      throw ReviewError("\(url.path): not a regular file that can be read", status: 409)
    }
    return [UInt8](data)
  }

  private func relativePath(_ url: URL) -> String {
    String(url.standardizedFileURL.path.dropFirst(store.root.path.count + 1))
  }

  /// The bytes of `targets` before an action, one after another in one file of
  /// `review-undo/`: one file an action, not one a target (an accept of 500 cases made 1,500
  /// files there, each a new inode, which took most of its time on a busy disk).
  private struct SavedBytes {
    var file: URL
    /// `file`, relative to the report folder.
    var path: String
    var digests: [String?] = []
    /// Each target's `[offset, length]` in `file`; none for a target that had no file.
    var ranges: [[Int]?] = []
    func discard() { try? FileManager.default.removeItem(at: file) }
  }

  private func saveBytes(of targets: [Target], entry: Int) throws -> SavedBytes {
    let undo = try ownFolder(reportFolder.appendingPathComponent(ReportFolder.reviewUndoFolder))
    // A random part: a file left by an interrupted action never blocks the next one.
    let name = "\(entry)-" + String(UInt64.random(in: 0...UInt64.max), radix: 16) + ".bytes"
    let file = undo.appendingPathComponent(name)
    var saved = SavedBytes(file: file, path: "\(ReportFolder.reviewUndoFolder)/\(name)")
    // A new file (never one already there, nor a link's target), written as the targets are read.
    let descriptor = open(file.path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else { throw ReviewError("\(file.path): cannot be made (\(String(cString: strerror(errno))))", status: 409) }
    let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
    do {
      var offset = 0
      for target in targets {
        let bytes = try bytes(at: target.url)
        if let bytes { try handle.write(contentsOf: bytes) }
        saved.digests.append(bytes.map { SHA256.hex($0) })
        saved.ranges.append(bytes.map { [offset, $0.count] })
        offset += bytes?.count ?? 0
      }
      try handle.synchronize()
      try handle.close()
    } catch {
      try? handle.close()
      saved.discard()
      throw error
    }
    return saved
  }

  /// `url`, a folder made if missing; an error when something else (a link) is there.
  private func ownFolder(_ url: URL) throws -> URL {
    var info = stat()
    if lstat(url.path, &info) != 0 { try OutputWriter.createFolder(url) } else if info.st_mode & S_IFMT != S_IFDIR {
      throw ReviewError("\(url.path): not a folder; the review keeps its files only in a folder of its own", status: 409)
    }
    return url
  }

  /// Puts back the bytes from before the accept `entry`, after checking every file first.
  private func restore(_ entry: ReviewLog.Entry) throws {
    let logFile = reportFolder.appendingPathComponent(ReportFolder.reviewLogFile).path
    var staged: [(bytes: [UInt8], url: URL)] = []
    var removed: [URL] = []
    // Each saved file is read once, however many files' bytes it holds.
    var savedFiles: [String: [UInt8]] = [:]
    for change in entry.files {
      // The log lies in the untrusted report folder: its paths are checked like the report's.
      guard ReportFolder.isContainedPath(change.path) else {
        throw ReviewError("\(logFile): entry \(entry.id): '\(change.path)' is not a path inside the references folder")
      }
      let url = try store.confined(store.root.appendingPathComponent(change.path))
      let current = try bytes(at: url).map { SHA256.hex($0) }
      // A render cache's inputs are RowKit's own record of a render, which any check since
      // (as the docs suggest running) writes again: they are put back whatever they hold.
      let isCacheInputs = url.lastPathComponent.hasSuffix(CaseInputs.fileSuffix)
      // A file already as it was before (a reject whose removal stopped partway) needs nothing.
      if current == change.before, !isCacheInputs { continue }
      guard current == change.after || isCacheInputs else {
        throw ReviewError(
          "\(url.path): changed since the \(entry.action.rawValue) of entry \(entry.id) (\(entry.cases.joined(separator: ", "))); "
            + "nothing was undone",
          status: 409)
      }
      guard let before = change.before else {
        if current != nil { removed.append(url) }
        continue
      }
      guard let saved = change.saved else { throw ReviewError("\(logFile): entry \(entry.id): no saved bytes for '\(change.path)'") }
      let source = try ReportFolder.file(saved, in: reportFolder, what: "the bytes undo keeps of '\(change.path)'")
      if savedFiles[saved] == nil { savedFiles[saved] = FileManager.default.contents(atPath: source.path).map { [UInt8]($0) } }
      guard let whole = savedFiles[saved] else { throw ReviewError("\(source.path): cannot be read; nothing was undone", status: 409) }
      let bytes: [UInt8]
      if let range = change.savedRange {
        guard range.count == 2, range[0] >= 0, range[1] >= 0, range[0] <= whole.count - range[1] else {
          throw ReviewError("\(logFile): entry \(entry.id): the saved bytes of '\(change.path)' are not inside \(saved)")
        }
        bytes = Array(whole[range[0]..<range[0] + range[1]])
      } else {
        bytes = whole
      }
      guard SHA256.hex(ofBuffer: bytes) == before else {
        throw ReviewError("\(source.path): not the bytes '\(change.path)' had before entry \(entry.id); nothing was undone", status: 409)
      }
      staged.append((bytes, url))
    }
    let files = AtomicFiles()
    defer { files.discard() }
    for (bytes, url) in staged {
      try OutputWriter.createFolder(url.deletingLastPathComponent())
      try files.stage(bytes, as: url)
    }
    try files.commit()
    // Only files whose bytes are the ones the accept wrote (checked above), and cache inputs,
    // are removed; then the folders the accept made, innermost first, when left empty.
    for url in removed { try FileManager.default.removeItem(at: url) }
    for folder in (entry.madeFolders ?? []).reversed() where ReportFolder.isContainedPath(folder) {
      if let url = try? store.confined(store.root.appendingPathComponent(folder)) { _ = rmdir(url.path) }
    }
  }

  private func append(_ entry: ReviewLog.Entry, to log: inout ReviewLog) throws {
    var extended = log
    extended.entries.append(entry)
    guard let seal else {
      throw ReviewError(
        "no key to seal the review log with: set XDG_STATE_HOME or HOME to a folder of yours",
        status: RecordMode.isCI(processEnvironment) ? 403 : 500)
    }
    extended.seal = try seal.seal(extended)
    try OutputWriter.write(try DeterministicJSON.bytes(extended), to: reportFolder.appendingPathComponent(ReportFolder.reviewLogFile))
    log = extended
  }

  private static func now() -> String {
    let formatter = ISO8601DateFormatter()
    formatter.timeZone = TimeZone(identifier: "UTC")
    return formatter.string(from: Date())
  }
}
