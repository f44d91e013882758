import RowKitGraphics
import RowKitTestSupport
import Testing

@testable import RowKitSnapshot

/// The comparison's rules on images made pixel by pixel: pixelmatch 7.2's antialiasing
/// detector (neighbour order, the image's edge), alpha, and images of different sizes.
@Suite struct ComparisonRulesTests {
  /// An opaque gray image from rows of gray levels.
  func gray(_ rows: [[Int]]) -> RGBAImage {
    RGBAImage(
      width: rows[0].count, height: rows.count,
      pixels: rows.flatMap { $0.flatMap { [UInt8($0), UInt8($0), UInt8($0), 255] } })
  }

  func filled(_ width: Int, _ height: Int, _ pixel: [UInt8]) -> RGBAImage {
    RGBAImage(width: width, height: height, pixels: Array([[UInt8]](repeating: pixel, count: width * height).joined()))
  }

  /// `image` with the pixel at (x, y) set to `pixel`.
  func setting(_ image: RGBAImage, _ x: Int, _ y: Int, _ pixel: [UInt8]) -> RGBAImage {
    var copy = image
    copy.pixels.replaceSubrange(((y * image.width + x) * 4)..<((y * image.width + x) * 4 + 4), with: pixel)
    return copy
  }

  // MARK: - Antialiasing

  @Test func aTieForTheBrightestNeighbourGoesToTheFirstInColumnOrder() {
    // The centre (3, 3) has two white neighbours, (4, 2) and (2, 4), equally bright. Taken
    // column by column, as pixelmatch does, (2, 4) comes first; row by row, (4, 2) would.
    // Only (2, 4) sits in a flat white patch, so only the column order finds antialiasing.
    let reference = gray([
      [128, 128, 128, 128, 128, 128, 128],
      [128, 128, 128, 128, 128, 128, 128],
      [128, 128, 100, 0, 255, 128, 128],
      [128, 128, 110, 128, 90, 128, 128],
      [128, 255, 255, 80, 70, 128, 128],
      [128, 255, 255, 128, 128, 128, 128],
      [128, 128, 128, 128, 128, 128, 128],
    ])
    let actual = setting(reference, 3, 3, [140, 140, 140, 255])
    let ignored = ImageComparison.compare(reference, actual, options: .init(ignoresAntialiasing: true)).result
    #expect(ignored.antialiasedPixels == 1)
    #expect(ignored.differentPixels == 0 && ignored.passed)
    let counted = ImageComparison.compare(reference, actual).result
    #expect(counted.differentPixels == 1 && counted.antialiasedPixels == 1)
  }

  @Test func theImagesEdgeCountsAsANeighbourOfTheCentresColor() {
    // The centre (0, 2) is on the left edge with two neighbours of its own gray (60): with
    // the edge as a third, pixelmatch rules antialiasing out, though its white neighbour
    // (1, 1) sits in a white patch.
    let reference = gray([
      [255, 255, 255, 128],
      [60, 255, 128, 128],
      [60, 60, 128, 128],
      [0, 128, 128, 128],
      [128, 128, 128, 128],
      [128, 128, 128, 128],
    ])
    let actual = setting(reference, 0, 2, [255, 255, 255, 255])
    let result = ImageComparison.compare(reference, actual, options: .init(ignoresAntialiasing: true)).result
    #expect(result.antialiasedPixels == 0)
    #expect(result.differentPixels == 1 && !result.passed)
    // One column in from the edge the same neighbourhood is antialiasing.
    let inside = gray([
      [128, 255, 255, 255, 128],
      [128, 60, 255, 128, 128],
      [128, 60, 60, 128, 128],
      [128, 0, 128, 128, 128],
      [128, 128, 128, 128, 128],
    ])
    let moved = setting(inside, 1, 2, [255, 255, 255, 255])
    #expect(ImageComparison.compare(inside, moved, options: .init(ignoresAntialiasing: true)).result.antialiasedPixels == 1)
  }

  // MARK: - Alpha

  @Test func opaqueWhiteAgainstFullyTransparentDiffersEverywhere() {
    let white = filled(8, 6, [255, 255, 255, 255])
    let clear = filled(8, 6, [0, 0, 0, 0])
    let result = ImageComparison.compare(white, clear).result
    #expect(result.differentPixels == 48 && result.status == .different)
    #expect(ImageComparison.compare(white, clear, options: .init(threshold: 0.1)).result.differentPixels == 48)
    #expect(!ImageComparison.matches(white, clear))
  }

  @Test func fullyTransparentPixelsOfAnyColorAreEqual() {
    let red = filled(5, 5, [255, 0, 0, 0])
    let green = filled(5, 5, [0, 255, 0, 0])
    let result = ImageComparison.compare(red, green).result
    #expect(result.passed && result.differentPixels == 0)
    #expect(result.belowThresholdPixels == 25, "their bytes differ, and that is said")
    #expect(ImageComparison.matches(red, green))
  }

  @Test func semiTransparentPixelsThatPremultiplyAlikeStillDiffer() {
    // At alpha 1/255 both premultiply to (0, 0, 0, 1): one color to a premultiplied
    // comparison, two here.
    let one = filled(4, 4, [10, 20, 30, 1])
    let other = filled(4, 4, [100, 110, 120, 1])
    #expect(one.bitmap == other.bitmap)
    let result = ImageComparison.compare(one, other).result
    #expect(result.differentPixels == 16 && !result.passed)
    // A step of alpha of the same color counts too; a threshold can forgive either.
    let fainter = filled(4, 4, [10, 20, 30, 2])
    #expect(ImageComparison.compare(one, fainter).result.differentPixels == 16)
    #expect(ImageComparison.compare(one, other, options: .init(threshold: 0.1)).result.passed)
  }

  @Test func translucencyIsJudgedOverPixelmatchsCheckerboardNotWhite() {
    // pixelmatch 7's own case: half-transparent black and opaque gray look alike over white
    // and differ over the dark checkerboard.
    let half = RGBAImage(width: 1, height: 1, pixels: [0, 0, 0, 128])
    let gray = RGBAImage(width: 1, height: 1, pixels: [127, 127, 127, 255])
    #expect(ImageComparison.compare(half, gray, options: .init(threshold: 0.1)).result.differentPixels == 1)
  }

  @Test func theCheckerboardIsPixelmatchs() {
    // Red is 48 at every pixel (positions are multiples of 4); green and blue change in
    // bands of 1.618 and 2.618 bytes.
    #expect(ImageComparison.background(0) == (48, 48, 48))
    #expect(ImageComparison.background(4) == (48, 48, 207))
    #expect(ImageComparison.background(12) == (48, 207, 48))
  }

  // MARK: - Sizes

  @Test func differentSizesCountTheCanvasOnlyOneImageCovers() {
    // 4×3 against 3×5: a 4×5 canvas. Only the reference covers column 3 of rows 0–2 (3
    // pixels), only the actual rows 3–4 of columns 0–2 (6 pixels); (3, 3) and (3, 4) are
    // nobody's. One pixel of the 3×3 overlap differs too.
    let reference = filled(4, 3, [255, 255, 255, 255])
    let actual = setting(filled(3, 5, [255, 255, 255, 255]), 1, 1, [0, 0, 0, 255])
    let outcome = ImageComparison.compare(reference, actual, options: .init(maxDiffPixels: 1000))
    let result = outcome.result
    #expect(result.status == .sizeMismatch && result.sizeMismatch && !result.passed)
    #expect(result.canvasSize == .init(width: 4, height: 5) && result.totalPixels == 20)
    #expect(result.onlyOneImagePixels == 9)
    #expect(result.differentPixels == 10)
    #expect(result.changedBox == PixelRect(x: 0, y: 0, width: 4, height: 5))
    #expect(
      result.summary.hasPrefix(
        "sizes differ: reference 4×3, actual 3×5; 10 of 20 pixels of the 4×5 canvas differ (50%): "
          + "9 covered by only one image, 1 where both overlap"))
    #expect(outcome.classes?[3] == .onlyOneImage && outcome.classes?[3 * 4] == .onlyOneImage)
    #expect(outcome.classes?[3 * 4 + 3] == .noImage && outcome.classes?[1 * 4 + 1] == .different)
    #expect(!ImageComparison.matches(reference, actual, options: .init(maxDiffPixels: 1000)))
  }

  @Test func aSizeMismatchDiffImageMarksWhatOnlyOneImageCovers() {
    let reference = filled(4, 3, [255, 255, 255, 255])
    let actual = setting(filled(3, 5, [255, 255, 255, 255]), 1, 1, [0, 0, 0, 255])
    let outcome = ImageComparison.compare(reference, actual)
    let diff = DiffImage.make(outcome, reference: reference, actual: actual)
    #expect(diff.width == 4 && diff.height == 5)
    #expect(diff.color(x: 1, y: 1) == Color(r: 255, g: 0, b: 0))
    #expect(diff.color(x: 3, y: 0) == Color(r: 255, g: 0, b: 255), "the reference's own column, striped")
    #expect(diff.color(x: 0, y: 3) == Color(r: 255, g: 0, b: 255), "the actual's own rows, striped")
    #expect(diff.color(x: 3, y: 4) == Color(r: 128, g: 128, b: 128), "nobody's corner")
    #expect(diff.color(x: 0, y: 0) == Color(r: 255, g: 255, b: 255), "white faded stays white")
  }
}
