import Foundation
import RowKit
import RowKitGraphics

/// `rowkit accept`: makes the actual images of reviewed cases their references, from a
/// report folder (`rowkit check --report`, or a merged one).
public enum ReferenceAcceptance {
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
  /// `all`) of the report in `folder` over their references in `snapshots` (by default the
  /// report's references folder), and returns what it copied.
  ///
  /// Everything is checked before anything is written: never under CI; every name is a case
  /// of the report that failed, is new or is missing and has its actual image, which must
  /// decode as a PNG; and the images were rendered in the environment the references were
  /// recorded in (their `environment.json`; written from the report when there is none).
  /// The references then change together: each is written beside its target and renamed
  /// into place.
  public static func accept(
    report folder: URL, names: [String], all: Bool, snapshots: URL? = nil,
    processEnvironment: [String: String] = ProcessInfo.processInfo.environment
  ) throws -> [Accepted] {
    if RecordMode.isCI(processEnvironment) {
      throw SnapshotError("CI is set: references are never changed under CI; accept on your own machine and commit them")
    }
    let report = try ReportFolder.read(folder)
    let reportFile = folder.appendingPathComponent(ReportFolder.reportFile).path
    if let mismatch = report.environmentMismatch {
      throw SnapshotError("\(reportFile): nothing was compared in this run: \(mismatch)")
    }
    if all && !names.isEmpty { throw SnapshotError("name cases or give --all, not both") }
    if !all && names.isEmpty { throw SnapshotError("name the cases to accept, or give --all") }
    let chosen: [SnapshotCheck.CaseResult]
    if all {
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
            "\(reportFile): case '\(name)' \(item.status == .passed ? "passed; there is nothing to accept" : item.status == .error ? "did not render (\(item.message ?? "error")); there is no image to accept" : "has no actual image")")
        }
        return item
      }
    }
    let store = ReferenceStore(root: snapshots ?? URL(fileURLWithPath: report.snapshots))
    // The references may only hold images of one environment.
    let stored = try store.storedFingerprint()
    if let stored, stored != report.environment {
      let differences = stored.differences(from: report.environment).joined(separator: ", ")
      throw SnapshotError(
        "\(reportFile): its images were rendered in another environment than the references in \(store.root.path) (\(differences)); "
          + "accepting them would mix the two")
    }
    var accepted: [Accepted] = []
    // A tall image is its tiles (`actual.png`, `actual+2.png`, …), each checked, then
    // copied over the reference's tiles of the same numbers.
    var staged: [(source: URL, target: URL)] = []
    for item in chosen {
      let source = folder.appendingPathComponent(item.actual!)
      let tiles = TiledPNG.files(of: source)
      guard !tiles.isEmpty else {
        throw SnapshotError("\(source.path): the actual image of '\(item.name)' is missing from the report")
      }
      for tile in tiles {
        do {
          try PNGRowReader(contentsOf: tile).finish()
        } catch {
          throw SnapshotError("\(tile.path): the actual image of '\(item.name)' is not a PNG: \(error)")
        }
      }
      let parts = item.name.split(separator: "/")
      let target = try store.referenceURL(suite: parts.dropLast().joined(separator: "/"), name: String(parts.last ?? ""))
      staged += tiles.enumerated().map { ($1, TiledPNG.tileURL(target, index: $0)) }
      accepted.append(Accepted(name: item.name, source: source, reference: target))
    }
    let files = AtomicFiles()
    defer { files.discard() }
    for (source, target) in staged {
      try OutputWriter.createFolder(target.deletingLastPathComponent())
      guard let bytes = FileManager.default.contents(atPath: source.path) else {
        throw SnapshotError("\(source.path): cannot be read")
      }
      try files.stage([UInt8](bytes), as: target)
    }
    if stored == nil {
      try files.stage(try report.environment.jsonBytes(), as: store.root.appendingPathComponent(EnvironmentFingerprint.fileName))
    }
    try files.commit()
    for item in accepted {
      // Tiles of an earlier, taller reference.
      TiledPNG.removeTiles(of: item.reference, from: TiledPNG.files(of: item.source).count)
    }
    return accepted
  }
}
