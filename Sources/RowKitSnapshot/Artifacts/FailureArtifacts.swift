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

  /// Writes the artifacts of one case into `directory` (created if needed). The reference
  /// is copied from `referenceFile`, the bytes it was read from, when given.
  public static func write(
    to directory: URL, reference: RGBAImage?, referenceFile: [UInt8]? = nil, actual: Bitmap,
    outcome: ImageComparison.Outcome?
  ) throws -> FailureArtifacts {
    try OutputWriter.createFolder(directory)
    func save(_ bytes: [UInt8], _ name: String) throws -> String {
      let url = directory.appendingPathComponent(name)
      try Data(bytes).write(to: url)
      return url.path
    }
    var artifacts = FailureArtifacts(
      directory: directory.path, reference: nil, actual: try save(PNG.encode(actual), "actual.png"), diff: nil,
      composite: "", result: directory.appendingPathComponent("result.json").path)
    var panels = [actual]
    if let reference {
      artifacts.reference = try save(referenceFile ?? PNG.encode(reference.bitmap), "reference.png")
      panels = [reference.bitmap, actual]
      if let outcome {
        let diff = DiffImage.make(outcome, reference: reference, actual: RGBAImage(actual))
        artifacts.diff = try save(PNG.encode(diff), "diff.png")
        panels = [reference.bitmap, diff, actual]
      }
    }
    artifacts.composite = try save(PNG.encode(DiffImage.composite(panels)), "composite.png")
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
