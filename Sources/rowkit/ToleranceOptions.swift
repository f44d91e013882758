import ArgumentParser
import RowKitSnapshot

/// The comparison tolerances, shared by `diff` and `check`.
struct ToleranceOptions: ParsableArguments {
  @Option(help: "Color distance two pixels may have and still be the same, \(FlagRange.threshold.text) (YIQ, as pixelmatch). Default 0: any difference counts.")
  var threshold: Double = 0

  @Option(help: "How many differing pixels may remain, \(FlagRange.maxDiffPixels.text). Default 0, unless --max-diff-ratio is given.")
  var maxDiffPixels: Int?

  @Option(help: "What share of all pixels may differ, \(FlagRange.maxDiffRatio.text). With --max-diff-pixels the smaller wins.")
  var maxDiffRatio: Double?

  @Option(help: "The largest connected patch of differing pixels allowed, \(FlagRange.maxClusterPixels.text).")
  var maxClusterPixels: Int?

  @Flag(help: "Do not count pixels that differ only in antialiasing.")
  var ignoreAntialiasing = false

  @Option(name: .customLong("ignore"), help: "A region not compared, as x,y,width,height in pixels. Repeatable.")
  var ignoredRegions: [String] = []

  func validate() throws {
    try FlagRange.threshold.check(threshold)
    try FlagRange.maxDiffPixels.check(maxDiffPixels)
    try FlagRange.maxDiffRatio.check(maxDiffRatio)
    try FlagRange.maxClusterPixels.check(maxClusterPixels)
    _ = try comparisonOptions()
  }

  func comparisonOptions() throws -> ComparisonOptions {
    var regions: [PixelRect] = []
    for text in ignoredRegions {
      guard let region = PixelRect(parsing: text) else {
        throw ValidationError("--ignore \(text): expected x,y,width,height with a positive width and height")
      }
      regions.append(region)
    }
    let options = ComparisonOptions(
      threshold: threshold, ignoresAntialiasing: ignoreAntialiasing, maxDiffPixels: maxDiffPixels,
      maxDiffRatio: maxDiffRatio, maxClusterPixels: maxClusterPixels, ignoredRegions: regions)
    if let problem = options.problem { throw ValidationError("command line: \(problem)") }
    return options
  }
}

extension RecordMode: ExpressibleByArgument {}
