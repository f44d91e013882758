import Foundation
import RowKit
import RowKitGraphics

/// `rowkit accept`: makes the actual images of reviewed cases their references, from a
/// report folder (`rowkit check --report`, or a merged one).
package enum ReferenceAcceptance {
  /// A render copied over its reference.
  public struct Accepted: Hashable, Sendable {
    /// The case's name.
    public var name: String
    /// The report's actual image.
    public var source: URL
    /// The reference it became.
    public var reference: URL
  }

  /// Copies the actual images of the cases `names` (every failed, new and missing one with
  /// `all`) of the report in `folder` over their references, and returns what it copied.
  ///
  /// A report is untrusted input (a pull request controls its own CI run's report), so it
  /// never chooses where anything is written: the references are `snapshots`, which must be
  /// the folder the report was checked against; without it, the report's folder is used
  /// only when it is a references folder of the project (inside the working folder, holding
  /// an `environment.json`). Every image is read from inside the report folder, never
  /// through a symbolic link, and no reference is written through a link that leads out of
  /// the references.
  ///
  /// Everything is checked before anything is written: never under CI; every name is a case
  /// of the report that failed, is new or is missing and has its actual image, which must
  /// decode as a PNG; and the images were rendered in the environment the references were
  /// recorded in (their `environment.json`; written from the report when there is none).
  /// The references then change together: each is written beside its target and renamed
  /// into place.
  ///
  /// With `rasterizationOnly` (no names, no `all`), the cases are exactly those of the report
  /// that differ in rasterization only (``SnapshotCheck/CaseResult/rasterizationOnly``), and
  /// the report may come from another environment than the references': then the report's
  /// fingerprint becomes theirs, with the images. That is safe because a case is classified
  /// so only when its layout record is the same and every differing pixel lies inside glyphs;
  /// the cases that changed otherwise keep failing in the new environment, with their
  /// sentences. A shard's report is refused then: the fingerprint is the whole suite's.
  public static func accept(
    report folder: URL, names: [String], all: Bool, rasterizationOnly: Bool = false, snapshots: URL? = nil,
    processEnvironment: [String: String] = ProcessInfo.processInfo.environment
  ) throws -> [Accepted] {
    if RecordMode.isCI(processEnvironment) {
      throw SnapshotError("CI is set: references are never changed under CI; accept on your own machine and commit them")
    }
    let report = try ReportFolder.read(folder)
    let reportFile = folder.appendingPathComponent(ReportFolder.reportFile).path
    if let mismatch = report.environmentMismatch, !rasterizationOnly {
      throw SnapshotError(
        "\(reportFile): \(mismatch); only the cases that differ in rasterization only can be accepted from it, "
          + "with --rasterization-only")
    }
    if rasterizationOnly && (all || !names.isEmpty) { throw SnapshotError("give --rasterization-only alone, without names or --all") }
    if all && !names.isEmpty { throw SnapshotError("name cases or give --all, not both") }
    if !all && !rasterizationOnly && names.isEmpty {
      throw SnapshotError("name the cases to accept, or give --all or --rasterization-only")
    }
    let chosen: [SnapshotCheck.CaseResult]
    if rasterizationOnly {
      chosen = report.cases.filter { $0.rasterizationOnly == true && ReportFolder.isAcceptable($0) }
      guard !chosen.isEmpty else { throw SnapshotError("\(reportFile): no case differs in rasterization only") }
    } else if all {
      chosen = report.cases.filter(ReportFolder.isAcceptable)
      guard !chosen.isEmpty else { throw SnapshotError("\(reportFile): no failed, new or missing case to accept") }
    } else {
      var seen = Set<String>()
      chosen = try names.filter { seen.insert($0).inserted }.map { name in
        guard let item = report.cases.first(where: { $0.name == name }) else {
          throw SnapshotError("\(reportFile): no case named '\(name)'")
        }
        guard ReportFolder.isAcceptable(item) else {
          throw SnapshotError(
            "\(reportFile): case '\(name)' \(item.status == .passed ? "passed; there is nothing to accept" : item.status == .error ? "did not render (\((item.message ?? "error").escapedForOneLine)); there is no image to accept" : "has no actual image")")
        }
        return item
      }
    }
    let store = ReferenceStore(root: try referencesFolder(of: report, file: reportFile, given: snapshots))
    // The references may only hold images of one environment.
    let stored = try store.storedFingerprint()
    let adoptsEnvironment = rasterizationOnly && stored != nil && stored != report.environment
    if adoptsEnvironment, let shard = report.shard {
      throw SnapshotError(
        "\(reportFile): it is the report of shard \(shard), but accepting rasterization-only cases from another environment "
          + "changes the fingerprint of every reference: accept the merged report of all shards (rowkit merge-reports)")
    }
    if let stored, stored != report.environment, !adoptsEnvironment {
      let differences = stored.differences(from: report.environment).joined(separator: ", ")
      throw SnapshotError(
        "\(reportFile): its images were rendered in another environment than the references in \(store.root.path) (\(differences)); "
          + "accepting them would mix the two")
    }
    var accepted: [Accepted] = []
    // A tall image is its tiles (`actual.png`, `actual+2.png`, …), each confined to the
    // report and checked, then copied over the reference's tiles of the same numbers.
    var staged: [(bytes: [UInt8], target: URL)] = []
    var staleRecords: [URL] = []
    for item in chosen {
      let source = try ReportFolder.file(item.actual!, in: folder, what: "the actual image of '\(item.name)'")
      let tiles = try reportTiles(of: item.actual!, in: folder, what: "the actual image of '\(item.name)'")
      guard !tiles.isEmpty else {
        throw SnapshotError("\(source.path): the actual image of '\(item.name)' is missing from the report")
      }
      let images = try tiles.map { try pngBytes(of: $0, what: "the actual image of '\(item.name)'") }
      let parts = item.name.split(separator: "/")
      let target: URL
      do {
        target = try store.confined(
          try store.referenceURL(suite: parts.dropLast().joined(separator: "/"), name: String(parts.last ?? "")))
      } catch {
        throw SnapshotError("\(reportFile): case '\(SnapshotCheck.escaped(item.name))': \(error)")
      }
      for (index, bytes) in images.enumerated() {
        staged.append((bytes, try store.confined(TiledPNG.tileURL(target, index: index))))
      }
      let unchanged = try checkReferenceIsAsReviewed(item, in: folder, target: target, actual: images, file: reportFile)
      let record = try layoutRecord(of: item, in: folder, besideReference: target, store: store, stale: &staleRecords)
      if rasterizationOnly {
        // The report says so, and anyone may have written the report: its case is checked
        // here, from the actual image and record against the reference and its record.
        let problem: String?
        if let record, images.count == 1 {
          problem = store.rasterizationOnlyProblem(actual: images[0], layout: record.layout, reference: target)
        } else {
          problem = "it has no single actual image and layout record to prove it"
        }
        if let problem {
          throw SnapshotError(
            "\(reportFile): case '\(item.name)' is marked as differing in rasterization only, but \(problem); "
              + "nothing was accepted")
        }
      }
      staged += record.map { [($0.bytes, $0.target)] } ?? []
      // The render cache's inputs proved a match with the image being replaced; the next
      // check that renders the case and matches writes them anew. An image accepted again
      // (or recorded as new by the check) replaces nothing, and its inputs still hold.
      let inputs = try store.confined(CaseInputs.url(besidePNG: target))
      if !unchanged, FileManager.default.fileExists(atPath: inputs.path) { staleRecords.append(inputs) }
      accepted.append(Accepted(name: item.name, source: source, reference: target))
    }
    let files = AtomicFiles()
    defer { files.discard() }
    for (bytes, target) in staged {
      try OutputWriter.createFolder(target.deletingLastPathComponent())
      try files.stage(bytes, as: target)
    }
    if stored == nil || adoptsEnvironment {
      try files.stage(
        try report.environment.jsonBytes(), as: try store.confined(store.root.appendingPathComponent(EnvironmentFingerprint.fileName)))
    }
    try files.commit()
    // A record of the image that was replaced would tell of a layout that is no longer
    // there, and its inputs of a render that matched it.
    for record in staleRecords { try? FileManager.default.removeItem(at: record) }
    for item in accepted {
      // Tiles of an earlier, taller reference.
      TiledPNG.removeTiles(of: item.reference, from: TiledPNG.files(of: item.source).count)
    }
    return accepted
  }

  /// The files of the image the report lists at `path`, tile by tile (`actual.png`,
  /// `actual+2.png`, …), each confined to the report (`ReportFolder/file(_:in:what:)`). A
  /// tile is anything at its name, a link to nowhere too (refused, never taken for the end).
  private static func reportTiles(of path: String, in folder: URL, what: String) throws -> [URL] {
    let first = try ReportFolder.file(path, in: folder, what: what)
    var tiles = [first]
    var info = stat()
    while true {
      let next = TiledPNG.tileURL(first, index: tiles.count)
      guard lstat(next.path, &info) == 0 else { return tiles }
      let listed = ((path as NSString).deletingLastPathComponent as NSString).appendingPathComponent(next.lastPathComponent)
      tiles.append(try ReportFolder.file(listed, in: folder, what: what))
    }
  }

  /// The bytes of the report's image file `file`, when they are a PNG as rowkit check writes
  /// one, and nothing more: they are copied into the references as they are.
  private static func pngBytes(of file: URL, what: String) throws -> [UInt8] {
    func check(_ reader: @autoclosure () throws -> PNGRowReader) throws {
      let trailing: Bool
      do {
        let png = try reader()
        try png.finish()
        trailing = try png.hasBytesAfterEnd()
      } catch {
        throw SnapshotError("\(file.path): \(what) is not a PNG: \(error)")
      }
      guard !trailing else {
        throw SnapshotError(
          "\(file.path): \(what) goes on after its PNG's end (the IEND chunk); rowkit check never writes such a file, "
            + "and it is not copied into the references")
      }
    }
    // Read first as a stream, which stops at the image's end: a file that goes on (sparse,
    // of any size) is refused before it is read whole.
    try check(try PNGRowReader(contentsOf: file))
    guard let data = FileManager.default.contents(atPath: file.path) else {
      throw SnapshotError("\(file.path): \(what) cannot be read")
    }
    let bytes = [UInt8](data)
    // Then the very bytes that are copied, should the file have changed meanwhile.
    try check(try PNGRowReader(bytes))
    // An ancillary chunk would carry anything at all into the references.
    if let foreign = PNGChunk.chunks(of: bytes).first(where: { !["IHDR", "IDAT", "IEND"].contains($0.type) }) {
      throw SnapshotError(
        "\(file.path): \(what) has a '\(SnapshotCheck.escaped(foreign.type))' chunk; rowkit check writes only IHDR, IDAT "
          + "and IEND chunks, and nothing else is copied into the references")
    }
    return bytes
  }

  /// Refuses to replace a reference that is not the one the report showed: a case the report
  /// says had no reference (new, missing) whose reference exists now, or a failed case whose
  /// reference differs from the report's copy of it (changed since the check, or the report
  /// says so of another one). The reviewer judged the actual image against what the report
  /// showed. A reference that is the actual image already (accepted before, or recorded by
  /// the check as new) is no change and passes.
  ///
  /// Returns whether the reference is the actual image already.
  private static func checkReferenceIsAsReviewed(
    _ item: SnapshotCheck.CaseResult, in folder: URL, target: URL, actual: [[UInt8]], file: String
  ) throws -> Bool {
    let current = TiledPNG.files(of: target).map { FileManager.default.contents(atPath: $0.path).map { [UInt8]($0) } ?? [] }
    if current == actual { return true }
    guard !current.isEmpty else { return false }
    guard item.status == .failed, let shown = item.reference else {
      let said = item.status == .failed ? "the report shows no reference for it" : "it had no reference when it was checked"
      throw SnapshotError(
        "\(file): case '\(item.name)': \(said), but \(target.path) exists and is another image; check again, and review "
          + "what the check shows")
    }
    let tiles = try reportTiles(of: shown, in: folder, what: "the reference image of '\(item.name)'")
    let copy = tiles.map { FileManager.default.contents(atPath: $0.path).map { [UInt8]($0) } ?? [] }
    guard copy == current else {
      throw SnapshotError(
        "\(file): case '\(item.name)': \(target.path) is not the reference the report shows (it changed since the check, "
          + "or the report was made against other references); check again, and review what the check shows")
    }
    return false
  }

  /// The layout record of an accepted case, read from the report and checked, to be written
  /// beside its reference; when the report has none, the reference's old record is added to
  /// `stale`, to be removed with the image it described.
  private static func layoutRecord(
    of item: SnapshotCheck.CaseResult, in folder: URL, besideReference target: URL, store: ReferenceStore,
    stale: inout [URL]
  ) throws -> (layout: LayoutRecord, bytes: [UInt8], target: URL)? {
    let recordTarget = try store.confined(LayoutRecord.url(besidePNG: target))
    // A report whose record is gone (an older RowKit's, or a case folder pruned by hand) is
    // accepted as a report without records; a path out of the folder is still refused.
    let listed = item.actualLayout.flatMap { ReportFolder.isContainedPath($0) ? $0 : nil }
    // Present as anything at all, a link that leads nowhere too: that is refused below, never
    // taken for a record that is gone (which would remove the reference's record).
    var info = stat()
    let present = listed.map { lstat(folder.appendingPathComponent($0).path, &info) == 0 } ?? false
    guard let path = item.actualLayout, present || listed == nil else {
      if FileManager.default.fileExists(atPath: recordTarget.path) { stale.append(recordTarget) }
      return nil
    }
    let source = try ReportFolder.file(path, in: folder, what: "the layout record of '\(item.name)'")
    guard let data = FileManager.default.contents(atPath: source.path) else {
      throw SnapshotError("\(source.path): the layout record of '\(item.name)' cannot be read")
    }
    // Written again from the decoded record: only a record, in RowKit's own form, is kept.
    let record = try LayoutRecord.decode([UInt8](data), file: source.path)
    return (record, try record.jsonBytes(), recordTarget)
  }

  /// The references folder accept writes into: `given` (`--snapshots`) when the report was
  /// checked against it, else the report's own folder when it is one of the project's (see
  /// ``accept(report:names:all:snapshots:processEnvironment:)``); an error saying which
  /// otherwise.
  package static func referencesFolder(of report: SnapshotCheck.Report, file: String, given: URL?) throws -> URL {
    let recorded = ReportFolder.referencesFolder(named: report.snapshots)
    if let given {
      guard ContainedPath.resolved(given) == ContainedPath.resolved(recorded) else {
        throw SnapshotError(
          "\(file): it was checked against the references in \(report.snapshots), not \(given.path) (--snapshots); "
            + "accept writes only into the references a report was checked against: run it in the folder the check ran in")
      }
      return given
    }
    let project = ReportFolder.workingFolder
    let fingerprint = recorded.appendingPathComponent(EnvironmentFingerprint.fileName)
    guard ContainedPath.isInside(recorded, folder: project), FileManager.default.fileExists(atPath: fingerprint.path) else {
      throw SnapshotError(
        "\(file): it names the references folder \(report.snapshots), which is not a references folder of this project "
          + "(\(project.path)); accept writes only into the project's own references: run it in the folder the check ran in, "
          + "or name the references with --snapshots")
    }
    return recorded
  }
}
