import RowKitTestSupport
import Testing

@testable import RowKitGraphics

/// Issue 24: a 20,000-character word in a `longText` took 3.6 s, Pango's wrapping of a run
/// without a break opportunity growing with the square of its length. A long run now wraps
/// line by line (see `UnbrokenRuns.swift`); these tests check that the result is Pango's own
/// wrapping, pixel for pixel, and that the linear way was taken. They count, never time.
@Suite struct UnbrokenRunTests {
  /// A small linear congruential generator: the same texts on every run and machine.
  struct Dice {
    var state: UInt64
    mutating func next(_ bound: Int) -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((state >> 33) % UInt64(bound))
    }
  }

  /// Letters with kerning pairs, ligatures and punctuation that allows no break, in Latin,
  /// Cyrillic and Greek.
  static let alphabets = ["AVTWYfrtLPky.,'ffi", "abcdefghijklmnopqrstuvwxyz", "абвгдежзийклмнопрстуфхцчшщ", "αβγδεζηθικλμνξοπρστυφχψω"]

  static func word(_ length: Int, _ dice: inout Dice) -> String {
    let letters = Array(alphabets[dice.next(alphabets.count)] + alphabets[1])
    return String((0..<length).map { _ in letters[dice.next(letters.count)] })
  }

  func pixels(_ layout: TextLayout) throws -> [UInt8] {
    let size = layout.logicalRect
    let canvas = try Canvas(
      pixelWidth: Int((size.maxX + 40).rounded(.up)), pixelHeight: Int((size.maxY + 10).rounded(.up)), scale: 1)
    canvas.clear(.white)
    canvas.draw(layout, at: Point(x: 20, y: 0), color: .black)
    return try canvas.bitmap().pixels
  }

  @Test func longRunsWrapAsPangoWrapsThem() throws {
    let linear = try TextEnvironment.standard.makeShaper()
    let plain = try TextEnvironment.standard.makeShaper()
    plain.wrapsLongRunsInLinearTime = false
    let inter = Font(family: "Inter", size: 14)
    var dice = Dice(state: 24)
    var cases = 0
    for index in 0..<24 {
      let length = [300, 700, 1500, 3000][index % 4]
      let words = (0..<dice.next(6)).map { _ in Self.word(2 + dice.next(8), &dice) }
      let after = (0..<dice.next(6)).map { _ in Self.word(2 + dice.next(8), &dice) }
      let text = (words + [Self.word(length, &dice)] + after).joined(separator: index % 5 == 0 ? "\n" : " ")
      let style = TextStyle(
        font: index % 3 == 0 ? Font(family: "Inter", size: 11, weight: 700) : inter, width: [120, 240, 355, 600][dice.next(4)],
        maxLines: index % 6 == 1 ? 7 : 0, alignment: index % 4 == 2 ? .center : .left, ellipsize: index % 6 == 1 ? .end : .none)
      let start = words.reduce(0) { $0 + $1.unicodeScalars.count + 1 }
      let runs = index % 2 == 0 ? [] : [TextRun(start + 10..<start + 40, .weight(700)), TextRun(start + 50..<start + 60, .italic)]
      let fast = linear.shape(text, style: style, runs: runs)
      let pango = plain.shape(text, style: style, runs: runs)
      #expect(fast.lineCount == pango.lineCount, "case \(index)")
      #expect(fast.size == pango.size, "case \(index)")
      #expect(fast.isEllipsized == pango.isEllipsized, "case \(index)")
      #expect(try pixels(fast) == pixels(pango), "case \(index): \(length) characters in \(style.width ?? 0) points")
      cases += 1
    }
    #expect(cases == 24)
    #expect(plain.longRunOutcomes == LongRunOutcomes(), "the comparison shaper wraps as Pango does")
    #expect(linear.longRunOutcomes.laidOutPlainly <= 4, "\(linear.longRunOutcomes)")
    #expect(linear.longRunOutcomes.held + linear.longRunOutcomes.heldAfterRetries >= 20, "\(linear.longRunOutcomes)")
  }

  @Test func aWordAsLongAsTheTallestLabelWrapsLineByLine() throws {
    let shaper = try TextEnvironment.standard.makeShaper()
    let word = String(repeating: "abcdefghij", count: 1_817).dropLast(8)  // 18,162 characters
    let layout = shaper.shape(String(word), style: TextStyle(font: Font(family: "Inter", size: 14), width: 355))
    #expect(shaper.longRunOutcomes == LongRunOutcomes(held: 1))
    #expect(layout.lineCount > 300)
    #expect(layout.size.width <= 355)
    // Broken between characters: every line but the last is one hyphen short of full.
    #expect(layout.size.width > 340)
  }

  @Test func onlyATextThatMayHoldALongRunIsSearchedForOne() {
    let words = Array(repeating: "table row cell", count: 100).joined(separator: " ")
    #expect(!TextShaper.mayHaveLongRun(words))
    #expect(TextShaper.mayHaveLongRun(words + " " + String(repeating: "x", count: 257)))
    // A space after an opening parenthesis allows no break: such a text is searched.
    #expect(TextShaper.mayHaveLongRun(String(repeating: "( a", count: 100)))
    let lines = Array(repeating: String(repeating: "x", count: 200), count: 5)
    #expect(!TextShaper.mayHaveLongRun(lines.joined(separator: "\u{2028}")))
    #expect(!TextShaper.mayHaveLongRun(lines.joined(separator: "\n")))
    #expect(TextShaper.mayHaveLongRun(lines.joined(separator: "-")))
  }

  @Test func shortRunsAndCharacterWrappingAreLeftToPango() throws {
    let shaper = try TextEnvironment.standard.makeShaper()
    let inter = Font(family: "Inter", size: 14)
    let url = "https://example.com/" + String(repeating: "a1b2c3d4", count: 29)  // 252 characters
    _ = shaper.shape(url + " and more", style: TextStyle(font: inter, width: 200))
    _ = shaper.shape(String(repeating: "x", count: 5_000), style: TextStyle(font: inter, width: 200, wrap: .character))
    _ = shaper.shape(String(repeating: "x", count: 5_000), style: TextStyle(font: inter))
    #expect(shaper.longRunOutcomes == LongRunOutcomes())
  }
}
