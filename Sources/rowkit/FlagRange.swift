import ArgumentParser
import RowKit

/// A numeric flag's documented range: its help names it, and its option group's
/// `validate()` checks the value against it as the command line is parsed, so a value out of
/// range (`--timeout 1e16`, `--http-cache-size 8796093022208`) is an error naming the flag
/// (exit 2) before anything runs, never a number converted unsafely later. Every numeric
/// flag has one.
struct FlagRange {
  var flag: String
  var range: ClosedRange<Double>
  var unit: String = ""

  /// The range as the flag's help gives it: `0.001 to 3600 seconds`.
  var text: String { Bounds.describe(range, unit: unit) }

  /// Throws, naming the flag, when `value` is outside the range.
  func check(_ value: Double?) throws {
    guard let value, let problem = Bounds.problem(value, in: range, unit: unit) else { return }
    throw ValidationError("\(flag): \(problem)")
  }

  func check(_ value: Int?) throws {
    try check(value.map(Double.init))
  }

  static let jobs = FlagRange(flag: "--jobs", range: Bounds.jobs, unit: "threads")
  static let maxPngHeight = FlagRange(flag: "--max-png-height", range: Bounds.pngHeight, unit: "pixels")
  static let progressAfter = FlagRange(flag: "--progress-after", range: Bounds.progressDelay, unit: "seconds")
  static let timeout = FlagRange(flag: "--timeout", range: Bounds.requestTimeout, unit: "seconds")
  static let deadline = FlagRange(flag: "--deadline", range: Bounds.imageDeadline, unit: "seconds")
  static let downloads = FlagRange(flag: "--downloads", range: Bounds.concurrentDownloads)
  static let httpCacheSize = FlagRange(flag: "--http-cache-size", range: Bounds.httpCacheMegabytes, unit: "MB")
  static let httpCacheAge = FlagRange(flag: "--http-cache-age", range: Bounds.httpCacheAge, unit: "seconds")
  static let width = FlagRange(flag: "--width", range: Bounds.tableWidth, unit: "points")
  static let variantWidth = FlagRange(flag: "--variant-width", range: Bounds.tableWidth, unit: "points")
  static let scale = FlagRange(flag: "--scale", range: Bounds.scale)
  static let rowHeight = FlagRange(flag: "--row-height", range: Bounds.rowHeight, unit: "points")
  static let threshold = FlagRange(flag: "--threshold", range: 0...1)
  static let maxDiffRatio = FlagRange(flag: "--max-diff-ratio", range: 0...1)
  /// Pixel counts: any that an image can have, and more.
  static let maxDiffPixels = FlagRange(flag: "--max-diff-pixels", range: 0...Double(Int32.max), unit: "pixels")
  static let maxClusterPixels = FlagRange(flag: "--max-cluster-pixels", range: 0...Double(Int32.max), unit: "pixels")
}
