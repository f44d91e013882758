import RowKitGraphics
import Testing

@testable import RowKitSnapshot

/// Found by the `compare` fuzz harness: an ignored region whose corner plus its size passes
/// `Int.max` (`rowkit diff a.png b.png --ignore 1,0,9223372036854775807,1`) trapped with an
/// arithmetic overflow (SIGILL, exit 132) as soon as a differing pixel was tested against it.
@Suite struct IgnoredRegionOverflowTests {
  let black = RGBAImage(width: 4, height: 3, pixels: Array([[UInt8]](repeating: [0, 0, 0, 255], count: 12).joined()))
  let white = RGBAImage(width: 4, height: 3, pixels: Array([[UInt8]](repeating: [255, 255, 255, 255], count: 12).joined()))

  @Test(arguments: [
    "1,0,9223372036854775807,1", "0,1,1,9223372036854775807", "9223372036854775807,9223372036854775807,1,1",
    "-9223372036854775808,-9223372036854775808,9223372036854775807,9223372036854775807",
  ])
  func aRegionNearTheEndsOfIntsRangeIsComparedWithoutOverflow(_ text: String) throws {
    let region = try #require(PixelRect(parsing: text))
    let options = ComparisonOptions(ignoredRegions: [region])
    let outcome = ImageComparison.compare(black, white, options: options)
    #expect(outcome.result.differentPixels + outcome.result.ignoredPixels == 12)
    #expect(!region.description.isEmpty)
    #expect(ImageComparison.matches(black, white, options: options) == outcome.result.passed)
  }

  @Test func theRegionThatTrappedIgnoresWhatItCovers() throws {
    let region = try #require(PixelRect(parsing: "1,0,9223372036854775807,1"))
    let outcome = ImageComparison.compare(black, white, options: ComparisonOptions(ignoredRegions: [region]))
    #expect(outcome.result.ignoredPixels == 3)
    #expect(outcome.result.differentPixels == 9)
  }

  @Test func containsIsExactAtTheEdges() {
    let wide = PixelRect(x: 1, y: 0, width: .max, height: 1)
    #expect(wide.contains(x: 1, y: 0))
    #expect(wide.contains(x: .max, y: 0))
    #expect(!wide.contains(x: 0, y: 0))
    #expect(!wide.contains(x: 1, y: 1))
    let farLeft = PixelRect(x: .min, y: 0, width: 10, height: 1)
    #expect(farLeft.contains(x: .min + 9, y: 0))
    #expect(!farLeft.contains(x: 0, y: 0))
    #expect(!PixelRect(x: .min, y: .min, width: .max, height: .max).contains(x: .max, y: .max))
    #expect(wide.description == "x 1–9223372036854775807, y 0–0")
  }
}
