import Foundation
import RowKit
import RowKitGraphics

/// The files a failed comparison leaves for review: the reference, the actual image, a diff
/// image, a side-by-side composite, and the numbers as JSON.
public struct FailureArtifacts: Hashable, Sendable, Codable {
  /// The folder the files were written to.
  public var directory: String
  /// The path of `reference.png`; nil when there was no reference.
  public var reference: String?
  /// The path of `actual.png`, the image that was checked.
  public var actual: String
  /// The path of `diff.png`; nil when the images were not compared.
  public var diff: String?
  /// The path of `composite.png`: reference, diff and actual side by side (those there are).
  public var composite: String
  /// The path of `result.json`: the comparison's numbers and these paths.
  public var result: String

  /// Writes the artifacts of one case into `directory` (created if needed): the reference
  /// copied from its file, the actual image, and with a comparison's `result` a diff image
  /// and the composite, drawn strip by strip as the images are compared again, so that a
  /// tall case takes no more memory than a small one. Images of more than `tilePixels`
  /// pixels are written as tiles (`TiledPNG`). The actual image's files, if it has any,
  /// are moved here.
  static func write(
    to directory: URL, reference: URL?, actual: CapturedImage, result: ComparisonResult?, tilePixels: Int
  ) throws -> FailureArtifacts {
    try OutputWriter.createFolder(directory)
    func file(_ name: String) -> URL { directory.appendingPathComponent(name) }
    var artifacts = FailureArtifacts(
      directory: directory.path, reference: nil, actual: file("actual.png").path, diff: nil,
      composite: file("composite.png").path, result: file("result.json").path)
    if let reference, let result {
      let images = DiffImageWriter(
        reference: result.referenceSize, actual: result.actualSize, diff: file("diff.png"), composite: file("composite.png"),
        tilePixels: tilePixels)
      _ = try ImageComparison.compare(TiledPNG.rows(of: reference), actual.rows(), options: result.options, each: images.write)
      try images.commit(removingStaleTiles: true)
      artifacts.diff = file("diff.png").path
    } else {
      let composite = TiledPNGWriter(
        for: file("composite.png"), width: actual.width, color: .rgb,
        tileHeight: TiledPNG.tileHeight(width: actual.width, pixels: tilePixels))
      try actual.eachStrip { try composite.append(DiffImage.composite([$0])) }
      try composite.finish()
      try composite.commit(removingStaleTiles: true)
    }
    if let reference {
      try TiledPNG.copy(reference, to: file("reference.png"))
      artifacts.reference = file("reference.png").path
    }
    try actual.save(to: file("actual.png"))
    let report = ArtifactReport(result: result, files: artifacts)
    try Data(try DeterministicJSON.bytes(report)).write(to: URL(fileURLWithPath: artifacts.result))
    return artifacts
  }

  /// Removes the files an earlier failure of the case left in `directory`, a folder inside
  /// the artifacts folder `root`, and the folder when that leaves it empty: once the case
  /// passes or is recorded again, they show a failure that is no more. Only what RowKit
  /// wrote goes: the files its `result.json` there names (with their tiles) and that file,
  /// and the layout records' copies (`actual.layout.json`, `reference.layout.json`) when
  /// they are RowKit's records. Nothing through a link, nothing outside `root`: another
  /// file of those names (a folder given to `--artifacts` holds the user's own) stays.
  static func removeStale(in directory: URL, root: URL) {
    var info = stat()
    let below = directory.standardizedFileURL.path.dropFirst(root.standardizedFileURL.path.count).drop { $0 == "/" }
    guard lstat(directory.path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR,
      let resolvedRoot = ContainedPath.resolved(root),
      // Every folder from the root down is itself, not a link elsewhere.
      ContainedPath.resolved(directory) == resolvedRoot + "/" + below
    else { return }
    func regularFile(_ url: URL) -> Bool {
      url.deletingLastPathComponent().standardizedFileURL.path == directory.standardizedFileURL.path
        && lstat(url.path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
    }
    var stale: [URL] = []
    let result = directory.appendingPathComponent("result.json")
    if regularFile(result), let bytes = try? InputFile.read(result.path, maximumBytes: 1 << 20),
      let report = try? JSONDecoder().decode(ArtifactReport.self, from: Data(bytes)),
      URL(fileURLWithPath: report.files.directory).standardizedFileURL.path == directory.standardizedFileURL.path
    {
      let images = [report.files.reference, report.files.actual, report.files.diff, report.files.composite].compactMap { $0 }
      for image in images { stale += TiledPNG.files(of: URL(fileURLWithPath: image)).filter(regularFile) }
      stale.append(result)
    }
    for name in ["actual.layout.json", "reference.layout.json"] {
      let record = directory.appendingPathComponent(name)
      guard regularFile(record), let bytes = try? InputFile.read(record.path, maximumBytes: 64 << 20),
        (try? LayoutRecord.decode(bytes, file: record.path)) != nil
      else { continue }
      stale.append(record)
    }
    for file in stale { try? FileManager.default.removeItem(at: file) }
    _ = rmdir(directory.path)
  }

  /// The paths, for a failure message.
  public var listing: String {
    ([reference.map { "reference \($0)" }, "actual \(actual)", diff.map { "diff \($0)" }, "composite \(composite)"]
      .compactMap { $0 }).joined(separator: ", ")
  }
}

/// `result.json`: the comparison's numbers and the files beside it.
struct ArtifactReport: Codable {
  var result: ComparisonResult?
  var files: FailureArtifacts
}
