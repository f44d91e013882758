import RowKitGraphics
import Testing

@testable import RowKitReview

/// The pixel difference that groups failed cases: the differing pixels, where they are and
/// their colors in both images, compared two pixels at a time.
@Suite struct IdenticalDifferencesTests {
  /// A 3×1 image: an odd count of pixels, so that the last one is compared alone.
  func image(_ colors: [[UInt8]]) -> RGBAImage { RGBAImage(width: 3, height: 1, pixels: colors.flatMap { $0 }) }

  let white: [UInt8] = [255, 255, 255, 255]
  let red: [UInt8] = [255, 59, 48, 255]
  let orange: [UInt8] = [255, 69, 58, 255]
  let black: [UInt8] = [0, 0, 0, 255]

  @Test func theSameChangeOverOtherPixelsIsOneDifference() {
    // The last pixel turns red → orange in both; the pixels that did not change differ.
    let first = IdenticalDifferences.fingerprint(image([white, white, red]), image([white, white, orange]))
    let second = IdenticalDifferences.fingerprint(image([black, white, red]), image([black, white, orange]))
    #expect(first != nil && first == second)
  }

  @Test func eachPixelPlaceAndColorCounts() {
    let base = image([white, white, white])
    let changes = [
      image([red, white, white]), image([white, red, white]), image([white, white, red]), image([white, white, orange]),
      image([red, red, white]),
    ]
    let fingerprints = changes.map { IdenticalDifferences.fingerprint(base, $0) }
    #expect(fingerprints.allSatisfy { $0 != nil })
    #expect(Set(fingerprints).count == changes.count, "every place and color gives its own difference")
    // The same pixels changed back are another difference: the colors of both sides count.
    #expect(IdenticalDifferences.fingerprint(changes[0], base) != fingerprints[0])
  }

  @Test func identicalImagesHaveNoDifference() {
    #expect(IdenticalDifferences.fingerprint(image([white, red, black]), image([white, red, black])) == nil)
  }

  @Test func theSizeIsPartOfTheDifference() {
    let wide = RGBAImage(width: 2, height: 1, pixels: white + white)
    let tall = RGBAImage(width: 1, height: 2, pixels: white + white)
    let wideChanged = RGBAImage(width: 2, height: 1, pixels: red + white)
    let tallChanged = RGBAImage(width: 1, height: 2, pixels: red + white)
    #expect(IdenticalDifferences.fingerprint(wide, wideChanged) != IdenticalDifferences.fingerprint(tall, tallChanged))
  }
}
