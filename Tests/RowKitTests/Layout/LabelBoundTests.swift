import RowKitGraphics
import RowKitTestSupport
import Testing

@testable import RowKit

/// A label shapes only as much of its text as its frame can ever show, so that no text makes
/// layout slower than linear in its length (Pango's wrapping of an unbreakable run takes time
/// that grows with the square of its length). These tests count characters, never time.
@Suite struct LabelBoundTests {
  let inter14 = Font(family: "Inter", size: 14)

  @Test func anUnbreakableWordIsShapedOnlyAsFarAsTheLabelCanShow() throws {
    let word = String(repeating: "abcdefghij", count: 4_000)
    let shaper = try TextEnvironment.standard.makeShaper()
    var shaped: [Int] = []
    shaper.shapeObserver = { shaped.append($0.count) }
    let row = try TestSupport.layoutRow(LongTextItem(text: word), shaper: shaper)
    let label = try #require(row.layout.label("text"))
    // A longText row: Inter 14 in 375 − 2 × 10 points.
    let bound = Bounds.maximumLabelCharacters(fontSize: 14, width: 355, lines: 0)
    #expect(bound == 127 * 143 + 1)
    #expect(label.text.text.count == bound)
    #expect(word.hasPrefix(label.text.text))
    #expect(shaped == [bound], "the shaped text is the label's text, shaped once")
    #expect(label.text.isClipped, "the label is cut off at its tallest")
    #expect(row.height == 2020, "2000 points of label and its padding, as before the bound")
  }

  @Test func aNormalLongTextIsUnaffected() throws {
    let words = ["table", "row", "cell", "item", "layout", "Pango", "Cairo", "Three20", "section", "header"]
    let paragraph = (0..<2_000).map { words[($0 * 7) % words.count] }.joined(separator: " ")
    let shaper = try TextEnvironment.standard.makeShaper()
    let row = try TestSupport.layoutRow(LongTextItem(text: paragraph), shaper: shaper)
    let label = try #require(row.layout.label("text"))
    #expect(label.text.text == paragraph)
    let unbounded = shaper.shape(paragraph, style: label.text.style)
    #expect(label.text.size == unbounded.size)
    #expect(label.text.lineCount == unbounded.lineCount)
    #expect(label.text.isClipped == unbounded.isClipped)
  }

  @Test func theBoundFollowsTheFrameTheLinesAndTheSmallestFont() {
    let oneLine = TextStyle(font: inter14, width: 100, maxLines: 1)
    let text = String(repeating: "x", count: 10_000)
    // ⌈100 ÷ (0.2 × 14)⌉ = 36 a line.
    #expect(LayoutContext.shownText(text, style: oneLine).count == 37)
    let twoLines = TextStyle(font: inter14, width: 100, maxLines: 2)
    #expect(LayoutContext.shownText(text, style: twoLines).count == 73)
    let small = [TextRun(0..<5, .font(Font(family: "Inter", size: 7)))]
    #expect(LayoutContext.shownText(text, style: oneLine, runs: small).count == 73)
    let scaled = [TextRun(0..<5, .scale(0.5))]
    #expect(LayoutContext.shownText(text, style: oneLine, runs: scaled).count == 73)
    let unwrapped = TextStyle(font: inter14, width: nil, maxLines: 1)
    #expect(LayoutContext.shownText(text, style: unwrapped).count == Bounds.maximumLabelCharacters(fontSize: 14, width: 4096, lines: 1))
    #expect(LayoutContext.shownText("short", style: oneLine) == "short")
  }

  @Test func theBoundKeepsWholeGraphemeClusters() {
    let style = TextStyle(font: inter14, width: 10, maxLines: 1)  // 5 clusters
    let accented = LayoutContext.shownText(String(repeating: "e\u{301}", count: 100), style: style)
    #expect(accented.count == 5)
    #expect(accented.unicodeScalars.count == 10)
    let family = "👨‍👩‍👧‍👦"
    let families = LayoutContext.shownText(String(repeating: family, count: 100), style: style)
    #expect(families == String(repeating: family, count: 5))
    // One cluster of ten thousand marks passes the byte budget (32 bytes a cluster) and is
    // left out whole.
    let heavy = "a" + String(repeating: "\u{301}", count: 10_000) + "b"
    #expect(LayoutContext.shownText(heavy, style: style) == "")
    let mixed = "ab" + heavy
    #expect(LayoutContext.shownText(mixed, style: style) == "ab")
  }
}
