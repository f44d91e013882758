import Foundation
import RowKitGraphics

/// Compares images with references under `Snapshots/<Suite>/<name>.png`, pixel for pixel.
///
/// Set `ROWKIT_RECORD=missing` to write references that do not exist yet, or `all` to
/// rewrite every reference whose pixels changed; a test that records fails, so no reference
/// is accepted without a look. With `CI` set nothing is ever written. On a mismatch the
/// actual image and a difference image go to `.build/snapshot-artifacts/`.
public enum ReferenceImages {
  public enum Outcome: Equatable, Sendable {
    case matched
    case recorded(String)
    case failed(String)

    public var message: String? {
      switch self {
      case .matched: return nil
      case .recorded(let message), .failed(let message): return message
      }
    }
  }

  public static func check(_ bitmap: Bitmap, suite: String, name: String) -> Outcome {
    let reference = TestSupport.snapshots.appendingPathComponent(suite).appendingPathComponent("\(name).png")
    let environment = ProcessInfo.processInfo.environment
    let inCI = environment["CI"].map { !$0.isEmpty && $0 != "0" && $0 != "false" } ?? false
    let mode = inCI ? "never" : (environment["ROWKIT_RECORD"] ?? "missing")
    func record(_ why: String) -> Outcome {
      do {
        try FileManager.default.createDirectory(at: reference.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(PNG.encode(bitmap)).write(to: reference)
        return .recorded("\(why): recorded \(reference.path); look at it, then run the test again")
      } catch {
        return .failed("could not record \(reference.path): \(error)")
      }
    }
    guard let data = FileManager.default.contents(atPath: reference.path) else {
      if mode == "never" { return .failed("no reference at \(reference.path) (CI never records)") }
      return record("no reference")
    }
    let expected: Bitmap
    do {
      expected = try PNG.decode([UInt8](data))
    } catch {
      return .failed("reference \(reference.path) does not decode: \(error)")
    }
    if expected == bitmap { return .matched }
    if mode == "all" { return record("pixels changed") }
    let artifacts = TestSupport.repositoryRoot.appendingPathComponent(".build/snapshot-artifacts/\(suite)")
    try? FileManager.default.createDirectory(at: artifacts, withIntermediateDirectories: true)
    let actualURL = artifacts.appendingPathComponent("\(name).actual.png")
    try? Data(PNG.encode(bitmap)).write(to: actualURL)
    guard expected.width == bitmap.width, expected.height == bitmap.height else {
      return .failed(
        "size differs: reference \(expected.width)×\(expected.height), actual \(bitmap.width)×\(bitmap.height); actual at \(actualURL.path)")
    }
    var differing = 0
    var diff = [UInt8](repeating: 0, count: bitmap.pixels.count)
    for pixel in stride(from: 0, to: bitmap.pixels.count, by: 4) {
      let same = bitmap.pixels[pixel..<pixel + 4] == expected.pixels[pixel..<pixel + 4]
      if !same { differing += 1 }
      let gray = UInt8(Int(expected.pixels[pixel + 1]) / 4 + 191)
      diff[pixel] = same ? gray : 0
      diff[pixel + 1] = same ? gray : 0
      diff[pixel + 2] = same ? gray : 255
      diff[pixel + 3] = 255
    }
    let diffURL = artifacts.appendingPathComponent("\(name).diff.png")
    try? Data(PNG.encode(Bitmap(width: bitmap.width, height: bitmap.height, pixels: diff))).write(to: diffURL)
    return .failed(
      "\(differing) of \(bitmap.width * bitmap.height) pixels differ from \(reference.path); actual \(actualURL.path), difference \(diffURL.path)")
  }
}
