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
  /// `directory` must be inside `root`, the artifacts folder, with no link on the way: what
  /// an earlier failure left there goes first (so that `result.json` names every file
  /// there), and a link or FIFO under a name a failure writes is taken away rather than
  /// written through.
  static func write(
    to directory: URL, root: URL, reference: URL?, actual: CapturedImage, result: ComparisonResult?, tilePixels: Int
  ) throws -> FailureArtifacts {
    try OutputWriter.createFolder(directory)
    guard clear(directory, root: root) else {
      throw SnapshotError("\(directory.path) leads out of the artifacts folder \(root.path) through a symbolic link; no artifact is written")
    }
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
    // A reference that is no regular file (a FIFO in its place) is left out and the rest
    // kept; any other failure to copy one (a full disk) fails the artifacts as before.
    if let reference, InputFile.problem(at: reference.path) == nil {
      try TiledPNG.copy(reference, to: file("reference.png"))
      artifacts.reference = file("reference.png").path
    }
    try actual.save(to: file("actual.png"))
    let report = ArtifactReport(result: result, files: artifacts)
    try OutputWriter.write(try DeterministicJSON.bytes(report), to: URL(fileURLWithPath: artifacts.result))
    return artifacts
  }

  /// Removes the files an earlier failure of the case left in `directory`, a folder inside
  /// the artifacts folder `root`, and the folder when that leaves it empty: once the case
  /// passes or is recorded again, they show a failure that is no more (see ``clear(_:root:)``).
  static func removeStale(in directory: URL, root: URL) {
    var info = stat()
    guard lstat(directory.path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR, clear(directory, root: root) else { return }
    _ = rmdir(directory.path)
  }

  /// Takes out of `directory` what RowKit wrote there for a failure: the files its
  /// `result.json` names (by name, in this folder: it may have moved since), with their
  /// tiles, that file itself, and the layout records' copies when they are RowKit's records;
  /// and any link, FIFO or device under a name a failure writes, which a write would go
  /// through (the link only: what it leads to stays). Another file of those names (a folder
  /// given to `--artifacts` holds the user's own) stays. Nothing happens, and the answer is
  /// false, when `directory` is not inside `root` or a link is on the way below it.
  static func clear(_ directory: URL, root: URL) -> Bool {
    var info = stat()
    let below = directory.standardizedFileURL.path.dropFirst(root.standardizedFileURL.path.count).drop { $0 == "/" }
    guard directory.standardizedFileURL.path.hasPrefix(root.standardizedFileURL.path + "/"),
      let resolvedRoot = ContainedPath.resolved(root),
      // Every folder from the root down is itself, not a link elsewhere.
      ContainedPath.resolved(directory) == resolvedRoot + "/" + below
    else { return false }
    func inFolder(_ name: String) -> URL? {
      guard !name.isEmpty, name != ".", name != "..", !name.contains("/") else { return nil }
      return directory.appendingPathComponent(name)
    }
    func isRegularFile(_ url: URL) -> Bool { lstat(url.path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG }
    var stale: [URL] = []
    let result = directory.appendingPathComponent("result.json")
    if isRegularFile(result), let bytes = try? InputFile.read(result.path, maximumBytes: 1 << 20),
      let report = try? JSONDecoder().decode(ArtifactReport.self, from: Data(bytes))
    {
      let images = [report.files.reference, report.files.actual, report.files.diff, report.files.composite].compactMap { $0 }
      for image in images {
        guard let file = inFolder(URL(fileURLWithPath: image).lastPathComponent) else { continue }
        stale += TiledPNG.files(of: file).filter(isRegularFile)
      }
      stale.append(result)
    }
    for name in ["actual.layout.json", "reference.layout.json"] {
      let record = directory.appendingPathComponent(name)
      guard isRegularFile(record), let bytes = try? InputFile.read(record.path, maximumBytes: 64 << 20),
        (try? LayoutRecord.decode(bytes, file: record.path)) != nil
      else { continue }
      stale.append(record)
    }
    for name in (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [] where isArtifactName(name) {
      let entry = directory.appendingPathComponent(name)
      guard lstat(entry.path, &info) == 0 else { continue }
      let kind = info.st_mode & S_IFMT
      if kind != S_IFREG && kind != S_IFDIR { stale.append(entry) }
    }
    for file in stale { _ = unlink(file.path) }
    return true
  }

  /// Whether `name` is one a failure writes: `actual.png`, `diff+2.png` (a tile),
  /// `result.json`, `reference.layout.json`.
  static func isArtifactName(_ name: String) -> Bool {
    if ["result.json", "actual.layout.json", "reference.layout.json"].contains(name) { return true }
    guard name.hasSuffix(".png") else { return false }
    let image = TiledPNG.imagePath(of: name)
    return ["reference.png", "actual.png", "diff.png", "composite.png"].contains(image)
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
