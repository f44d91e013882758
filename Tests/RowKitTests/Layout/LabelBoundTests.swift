@testable import RowKitGraphics
import RowKitTestSupport
import Testing

@testable import RowKit

/// A label shapes only as much of its text as its frame can ever show, so that no text makes
/// layout slower than linear in its length (Pango's wrapping of an unbreakable run takes time
/// that grows with the square of its length). These tests count characters, never time.
@Suite struct LabelBoundTests {
  let inter14 = Font(family: "Inter", size: 14)

  /// The "text" label of `item` laid out in a row 375 points wide, with the row, and the
  /// lengths of the texts its layout shaped.
  func textLabel(of item: any TableItem) throws -> (label: RowLabel, row: PlacedRow, shaped: [Int]) {
    let shaper = try TextEnvironment.standard.makeShaper()
    var shaped: [Int] = []
    shaper.shapeObserver = { shaped.append($0.count) }
    let row = try TestSupport.layoutRow(item, shaper: shaper)
    return (try #require(row.layout.label("text")), row, shaped)
  }

  @Test func anUnbreakableWordIsShapedOnlyAsFarAsTheLabelCanShow() throws {
    let word = String(repeating: "abcdefghij", count: 4_000)
    let (label, row, shaped) = try textLabel(of: LongTextItem(text: word))
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
    // Direction marks are kept but not counted: 37 letters and spaces, every mark around them.
    let marked = String(repeating: "\u{200F}\u{202E}x\u{202C}\u{200F} ", count: 100)
    let shown = LayoutContext.shownText(marked, style: oneLine)
    #expect(shown.filter { $0 == "x" || $0 == " " }.count == 37)
    #expect(shown.hasSuffix("x\u{202C}\u{200F}"), "the marks that close the last word: '\(shown.suffix(8).unicodeScalars.map { String($0.value, radix: 16) })'")
  }

  /// Issue 24: cutting a text at the bound changes nothing its label shows. Texts just under,
  /// at and just over the bound (one word, and words) lay out as the whole text does: the same
  /// size, lines in view, truncation, ellipsis and pixels.
  @Test func textsAroundTheBoundLayOutAsTheWholeTextDoes() throws {
    let shaper = try TextEnvironment.standard.makeShaper()
    let context = LayoutContext(
      cellWidth: 100, accessory: nil, tableStyle: .plain, scale: 2, isSelected: false, stylesheet: .default, shaper: shaper)
    let vocabulary = ["il", "a", "tilt", "ill", "Wii", "lilt", "if"]
    for (lines, ellipsize) in [(0, TextStyle.Ellipsize.end), (2, .end), (3, .none), (1, .middle), (2, .start), (40, .end), (0, .middle)] {
      let bound = Bounds.maximumLabelCharacters(fontSize: 14, width: 100, lines: lines)
      for length in [bound - 1, bound, bound + 1, bound + 40] {
        var words = ""
        while words.count < length { words += vocabulary[words.count % vocabulary.count] + " " }
        for text in [String(repeating: "il", count: length).prefix(length), words.prefix(length)].map(String.init) {
          let label = try #require(try context.shape(text, font: "Inter 14", width: 100, lines: lines, ellipsize: ellipsize))
          let whole = shaper.shape(text, style: label.style)
          let place = "\(length) characters, \(lines) lines, ellipsis \(ellipsize)"
          // A start or middle ellipsis shows the text's end: such a label shapes it all.
          let showsEnd = lines > 0 && (ellipsize == .start || ellipsize == .middle)
          #expect(label.text.count == (showsEnd ? length : min(length, bound)), "\(place)")
          #expect(label.size == whole.size, "\(place)")
          #expect(label.isEllipsized == whole.isEllipsized, "\(place)")
          #expect(label.isClipped == whole.isClipped, "\(place)")
          #expect(label.linesInView == whole.linesInView, "\(place)")
          if lines > 0 { #expect(label.lineCount == whole.lineCount, "\(place)") }
          #expect(try pixels(label) == pixels(whole), "\(place)")
        }
      }
    }
  }

  func pixels(_ layout: TextLayout) throws -> [UInt8] {
    let canvas = try Canvas(pixelWidth: 240, pixelHeight: Int((layout.logicalRect.maxY * 2).rounded(.up)) + 8, scale: 2)
    canvas.clear(.white)
    canvas.draw(layout, at: Point(x: 10, y: 0), color: .black)
    return try canvas.bitmap().pixels
  }

  /// Issue 24: a 5 MB styled text took 44 s. Its label shapes only what it can show, and Pango
  /// gets only the runs that style that part: it sorts and filters attributes in time that
  /// grows with the square of their number.
  @Test func aHugeStyledTextShapesOnlyWhatItsLabelShows() throws {
    let markup = String(repeating: "<b>bold</b> <i>slanted</i> plain <a href=\"app://x\">link</a> ", count: 5_000)
    let (label, _, shaped) = try textLabel(of: StyledTextItem(text: markup))
    let parsed = try StyledTextMarkup(parsing: markup)
    // A styled-text row: Inter 14 in 375 − 2 × 6 points.
    let bound = Bounds.maximumLabelCharacters(fontSize: 14, width: 363, lines: 0)
    #expect(parsed.text.count > 5 * bound)
    #expect(shaped == [label.text.text.count])
    #expect(label.text.text.count <= bound)
    #expect(parsed.text.hasPrefix(label.text.text))

    let runs = [TextRun(0..<4, .weight(700)), TextRun(3..<9, .italic), TextRun(9..<12, .underline)]
    #expect(LayoutContext.runs(runs, within: "0123456") == [TextRun(0..<4, .weight(700)), TextRun(3..<7, .italic)])
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
