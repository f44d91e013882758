import RowKitGraphics
import RowKitTestSupport
import Testing

@testable import RowKitSnapshot

@Suite struct ImageComparisonTests {
  let base: Bitmap
  init() throws { base = try CraftedImages.card() }

  @Test func identicalImagesAreIdentical() {
    let result = ImageComparison.compare(base, base).result
    #expect(result.status == .identical && result.passed)
    #expect(result.differentPixels == 0)
  }

  @Test func onePixelChangedFailsExactComparison() {
    let changed = CraftedImages.painting(base, [(2, 2)], .black)
    let outcome = ImageComparison.compare(base, changed)
    #expect(outcome.result.status == .different)
    #expect(outcome.result.differentPixels == 1)
    #expect(outcome.result.changedBox == PixelRect(x: 2, y: 2, width: 1, height: 1))
    #expect(outcome.result.largestCluster?.pixels == 1)
    #expect(outcome.classes?[2 * base.width + 2] == .different)
    #expect(outcome.result.summary.hasPrefix("1 of 3072 pixels differ (0.0326%), 0 allowed"))
  }

  @Test func maxDiffPixelsAndRatioBothLimit() {
    let changed = CraftedImages.painting(base, [(2, 2), (60, 2), (2, 45)], .black)
    #expect(ImageComparison.compare(base, changed, options: .init(maxDiffPixels: 3)).result.passed)
    #expect(!ImageComparison.compare(base, changed, options: .init(maxDiffPixels: 2)).result.passed)
    // 3 of 3072 pixels is 0.098%.
    #expect(ImageComparison.compare(base, changed, options: .init(maxDiffRatio: 0.001)).result.passed)
    #expect(!ImageComparison.compare(base, changed, options: .init(maxDiffRatio: 0.0009)).result.passed)
    // With both, the smaller wins.
    #expect(!ImageComparison.compare(base, changed, options: .init(maxDiffPixels: 100, maxDiffRatio: 0.0005)).result.passed)
    let within = ImageComparison.compare(base, changed, options: .init(maxDiffPixels: 5)).result
    #expect(within.status == .withinTolerance && within.allowedDiffPixels == 5)
  }

  @Test func aBlockIsOneClusterWhileScatteredPixelsAreMany() {
    let blockImage = CraftedImages.block(base, x: 10, y: 36, width: 4, height: 4, .black)
    let blockResult = ImageComparison.compare(base, blockImage, options: .init(maxDiffPixels: 100, maxClusterPixels: 8)).result
    #expect(blockResult.differentPixels == 16)
    #expect(blockResult.largestCluster == .init(pixels: 16, box: PixelRect(x: 10, y: 36, width: 4, height: 4)))
    #expect(blockResult.status == .different, "a 16-pixel blob breaks an 8-pixel cluster limit")

    let scattered = CraftedImages.painting(base, (0..<16).map { (2 + 4 * ($0 % 8), 2 + 40 * ($0 / 8)) }, .black)
    let scatteredResult = ImageComparison.compare(base, scattered, options: .init(maxDiffPixels: 100, maxClusterPixels: 8)).result
    #expect(scatteredResult.differentPixels == 16)
    #expect(scatteredResult.largestCluster?.pixels == 1)
    #expect(scatteredResult.status == .withinTolerance, "16 scattered pixels pass the same limit")
  }

  @Test func theThresholdSeparatesNoiseFromChange() {
    let faint = CraftedImages.painting(base, [(2, 2), (3, 2)], Color(r: 250, g: 250, b: 250))
    let strong = CraftedImages.painting(base, [(2, 2), (3, 2)], Color(r: 120, g: 120, b: 120))
    #expect(!ImageComparison.compare(base, faint).result.passed)
    let tolerant = ImageComparison.compare(base, faint, options: .init(threshold: 0.1)).result
    #expect(tolerant.status == .withinTolerance && tolerant.belowThresholdPixels == 2 && tolerant.differentPixels == 0)
    #expect(!ImageComparison.compare(base, strong, options: .init(threshold: 0.1)).result.passed)
    #expect(tolerant.maxDistance > 0 && tolerant.maxDistance < 0.1)
  }

  @Test func antialiasingOnlyChangesAreRecognized() throws {
    let shifted = try CraftedImages.card(shift: 0.2)
    let counted = ImageComparison.compare(base, shifted).result
    #expect(counted.differentPixels > 0 && !counted.passed)
    #expect(counted.antialiasedPixels > 0)
    let ignored = ImageComparison.compare(base, shifted, options: .init(ignoresAntialiasing: true)).result
    #expect(ignored.differentPixels == 0)
    #expect(ignored.antialiasedPixels == counted.differentPixels)
    #expect(ignored.passed)
    // A real change next to the moved edges still counts.
    let damaged = CraftedImages.block(shifted, x: 20, y: 14, width: 6, height: 6, .white)
    #expect(!ImageComparison.compare(base, damaged, options: .init(ignoresAntialiasing: true)).result.passed)
  }

  @Test func ignoredRegionsAreNotCompared() {
    let changed = CraftedImages.block(base, x: 0, y: 0, width: 5, height: 5, .black)
    let result = ImageComparison.compare(base, changed, options: .init(ignoredRegions: [PixelRect(x: 0, y: 0, width: 5, height: 5)])).result
    #expect(result.passed && result.ignoredPixels == 25 && result.differentPixels == 0)
    let partly = ImageComparison.compare(base, changed, options: .init(ignoredRegions: [PixelRect(x: 0, y: 0, width: 5, height: 4)])).result
    #expect(partly.differentPixels == 5 && !partly.passed)
  }


  @Test func outOfRangeOptionsAreReported() {
    #expect(ComparisonOptions(threshold: 2).problem != nil)
    #expect(ComparisonOptions(maxDiffPixels: -1).problem != nil)
    #expect(ComparisonOptions(maxDiffRatio: 1.5).problem != nil)
    #expect(ComparisonOptions.textTolerant.problem == nil)
  }

  @Test func theDiffImagePaintsEachClassInItsColor() throws {
    let shifted = try CraftedImages.card(shift: 0.2)
    let changed = CraftedImages.block(shifted, x: 0, y: 0, width: 2, height: 2, .black)
    let outcome = ImageComparison.compare(base, changed, options: .init(ignoresAntialiasing: true))
    let diff = DiffImage.make(outcome, reference: RGBAImage(base), actual: RGBAImage(changed))
    #expect(diff.color(x: 0, y: 0) == Color(r: 255, g: 0, b: 0))
    let aaIndex = try #require(outcome.classes?.firstIndex(of: .antialiased))
    #expect(diff.color(x: aaIndex % base.width, y: aaIndex / base.width) == Color(r: 255, g: 200, b: 0))
    let unchanged = diff.color(x: 30, y: 44)
    #expect(unchanged.red == unchanged.green && unchanged.red > 0.9, "unchanged pixels are faded gray")
    let composite = DiffImage.composite([base, diff, changed])
    #expect(composite.width == 3 * 64 + 16 && composite.height == 48)
  }
}
