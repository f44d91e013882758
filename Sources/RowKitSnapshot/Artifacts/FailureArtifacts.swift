import Foundation
import RowKitGraphics

/// The files a failed comparison leaves for review: the reference, the actual image, a diff
/// image, a side-by-side composite, and the numbers as JSON.
public struct FailureArtifacts: Hashable, Sendable, Codable {
  public var directory: String
  public var reference: String?
  public var actual: String
  public var diff: String?
  public var composite: String
  public var result: String

  /// Writes the artifacts of one case into `directory` (created if needed).
  public static func write(
    to directory: URL, reference: Bitmap?, actual: Bitmap, outcome: ImageComparison.Outcome?
  ) throws -> FailureArtifacts {
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    func save(_ bitmap: Bitmap, _ name: String) throws -> String {
      let url = directory.appendingPathComponent(name)
      try Data(PNG.encode(bitmap)).write(to: url)
      return url.path
    }
    var artifacts = FailureArtifacts(
      directory: directory.path, reference: nil, actual: try save(actual, "actual.png"), diff: nil, composite: "",
      result: directory.appendingPathComponent("result.json").path)
    var panels = [actual]
    if let reference {
      artifacts.reference = try save(reference, "reference.png")
      panels = [reference, actual]
      if let outcome, outcome.result.status != .sizeMismatch {
        let diff = DiffImage.make(reference: reference, classes: outcome.classes)
        artifacts.diff = try save(diff, "diff.png")
        panels = [reference, diff, actual]
      }
    }
    artifacts.composite = try save(DiffImage.composite(panels), "composite.png")
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    let report = ArtifactReport(result: outcome?.result, files: artifacts)
    try encoder.encode(report).write(to: URL(fileURLWithPath: artifacts.result))
    return artifacts
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
