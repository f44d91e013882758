import Foundation
import Testing
@testable import RowKitGraphics

/// Shapers freed while Pango's own threads still sort fonts for their font map.
///
/// Pango 1.50 starts two threads (`[pango] FcFontSetMatch` and `[pango] FcFontSetSort`)
/// for every font pattern a font map first matches; each holds a reference to the font map
/// and, when it ends, may free the pattern's entry in the map's table. A shaper freed before
/// those threads ended cleared its font map's tables under them: the test process died in
/// `g_hash_table_lookup` (division by zero) on one of Pango's threads.
struct FontMapTeardownTests {
  @Test func shapersFreedAtOnceAfterTheirFirstTextLeaveNothingBehind() async throws {
    let style = TextStyle(font: try #require(Font.parse("Inter 17")), width: 200)
    async let first = Self.onThread { try Self.shapeWithShortLivedShapers(style: style, ownFaces: true) }
    async let second = Self.onThread { try Self.shapeWithShortLivedShapers(style: style, ownFaces: false) }
    let (a, b) = try await (first, second)
    #expect(a == b)
    // Font maps whose Pango threads were still running are freed once those threads end.
    // Waited for on a thread of its own, polling with no deadline that matters: a slow
    // machine only takes more rounds.
    let retired = try await Self.onThread {
      var retired = FontMapRetirement.sweep()
      for _ in 0..<30_000 where retired > 0 {
        Thread.sleep(forTimeInterval: 0.01)
        retired = FontMapRetirement.sweep()
      }
      return retired
    }
    #expect(retired == 0, "every retired font map was freed once Pango's threads let go of it")
  }

  /// The line counts of each script's text, each shaped by a shaper made and freed for it.
  private static func shapeWithShortLivedShapers(style: TextStyle, ownFaces: Bool) throws -> [Int] {
    var lines: [Int] = []
    for round in 0..<40 {
      for text in OwnFacesTests.worldText where round % 4 == 0 || text.unicodeScalars.first!.isASCII == false {
        lines.append(try TextEnvironment.standard.makeShaper(ownFaces: ownFaces).shape(text, style: style).linesInView.count)
      }
    }
    return lines
  }

  private static func onThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
      let thread = Thread { continuation.resume(with: Result { try body() }) }
      thread.stackSize = 8 << 20
      thread.start()
    }
  }
}
