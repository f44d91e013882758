import ArgumentParser
import RowKit

/// `--headroom` and `--min-headroom`: measuring how much longer every text slot's text can
/// grow, for `lint`, `render` and `check` alike.
struct HeadroomOptions: ParsableArguments {
  @Flag(help: "Measure every text slot's headroom: how much longer its text can grow (in 5% steps, up to 100%) before it truncates, clips or overlaps.")
  var headroom = false

  @Option(help: ArgumentHelp(
    "With --headroom, the growth every text slot must take, in percent (0 to 100; default \(TableRenderer.defaultMinimumHeadroom)).", valueName: "percent"))
  var minHeadroom: Int?

  func validate() throws {
    if minHeadroom != nil && !headroom { throw ValidationError("--min-headroom goes with --headroom") }
    if let minHeadroom, !(0...TableRenderer.maximumGrowth).contains(minHeadroom) {
      throw ValidationError("--min-headroom: \(minHeadroom) is not a percentage from 0 to \(TableRenderer.maximumGrowth)")
    }
  }

  /// The headroom every slot needs, in percent.
  var minimum: Int { minHeadroom ?? TableRenderer.defaultMinimumHeadroom }

  /// Makes `renderer` measure headroom with these options, when `--headroom` is given.
  func apply(to renderer: inout TableRenderer) {
    renderer.measuresHeadroom = headroom
    renderer.minimumHeadroom = minimum
  }
}
