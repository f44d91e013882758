import Foundation
import RowKitGraphics
import RowKitTestSupport
import Testing

@testable import RowKitSnapshot

/// pixelmatch 7.2.0's own fixture pairs (`Tests/Fixtures/pixelmatch`, ISC license beside
/// them), compared by RowKit: the counts must be pixelmatch's, to the pixel. Pairs 2, 3 and
/// 4 hang on the antialiasing detector's neighbour order and edge rule, 5 and 8 on alpha
/// (8a is opaque, 5b half transparent); pixelmatch's pairs 6 and 7 add nothing to these and
/// are left out.
///
/// "excluded" is pixelmatch's default (antialiasing detected and not counted), the numbers its
/// test/test.js asserts; "included" is `includeAA: true` (RowKit without
/// `ignoresAntialiasing`), and "exact" both at threshold 0 (RowKit's default): those were
/// printed by pixelmatch 7.2.0's index.js itself, run on the same pairs.
@Suite struct PixelmatchFixtureTests {
  struct Case: Sendable, CustomStringConvertible {
    var first: String
    var second: String
    var threshold: Double
    var excluded: Int
    var included: Int
    var exactExcluded: Int
    var exactIncluded: Int
    var description: String { "\(first) vs \(second) at \(threshold)" }
  }

  static let cases: [Case] = [
    Case(first: "1a", second: "1b", threshold: 0.05, excluded: 143, included: 251, exactExcluded: 10279, exactIncluded: 12933),
    Case(first: "1a", second: "1b", threshold: 0.1, excluded: 106, included: 167, exactExcluded: 10279, exactIncluded: 12933),
    Case(first: "2a", second: "2b", threshold: 0.05, excluded: 12437, included: 13090, exactExcluded: 26939, exactIncluded: 31695),
    Case(first: "3a", second: "3b", threshold: 0.05, excluded: 212, included: 404, exactExcluded: 374, exactIncluded: 583),
    Case(first: "4a", second: "4b", threshold: 0.05, excluded: 36049, included: 41623, exactExcluded: 53975, exactIncluded: 69117),
    Case(first: "5a", second: "5b", threshold: 0.05, excluded: 6, included: 256, exactExcluded: 6, exactIncluded: 256),
    Case(first: "8a", second: "5b", threshold: 0.05, excluded: 32896, included: 32896, exactExcluded: 32896, exactIncluded: 32896),
    Case(first: "1a", second: "1a", threshold: 0, excluded: 0, included: 0, exactExcluded: 0, exactIncluded: 0),
    Case(first: "5a", second: "5a", threshold: 0, excluded: 0, included: 0, exactExcluded: 0, exactIncluded: 0),
  ]

  static func image(_ name: String) throws -> RGBAImage {
    let url = TestSupport.repositoryRoot.appendingPathComponent("Tests/Fixtures/pixelmatch/\(name).png")
    return try ImageDecoder.decodeRGBA([UInt8](Data(contentsOf: url)))
  }

  @Test(arguments: cases)
  func countsArePixelmatchs(_ fixture: Case) throws {
    let first = try Self.image(fixture.first)
    let second = try Self.image(fixture.second)
    func count(_ threshold: Double, ignoring: Bool) -> Int {
      ImageComparison.compare(first, second, options: .init(threshold: threshold, ignoresAntialiasing: ignoring))
        .result.differentPixels
    }
    #expect(count(fixture.threshold, ignoring: true) == fixture.excluded, "antialiasing excluded")
    #expect(count(fixture.threshold, ignoring: false) == fixture.included, "antialiasing included")
    #expect(count(0, ignoring: true) == fixture.exactExcluded, "threshold 0, antialiasing excluded")
    #expect(count(0, ignoring: false) == fixture.exactIncluded, "threshold 0, antialiasing included")
    // The verdict that stops at the first pixel deciding it is the full comparison's verdict,
    // on either side of the allowance.
    for allowed in [nil, fixture.excluded, max(0, fixture.excluded - 1)] as [Int?] {
      let options = ComparisonOptions(threshold: fixture.threshold, ignoresAntialiasing: true, maxDiffPixels: allowed)
      #expect(
        ImageComparison.matches(first, second, options: options)
          == ImageComparison.compare(first, second, options: options).result.passed, "allowing \(allowed ?? 0)")
    }
  }
}
