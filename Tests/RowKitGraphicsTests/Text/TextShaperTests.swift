import Testing
@testable import RowKitGraphics

@Suite struct TextShaperTests {
  let shaper: TextShaper
  let body: Font

  init() throws {
    shaper = try TextEnvironment.standard.makeShaper()
    body = try #require(Font.parse("Inter 14"))
  }

  @Test func countsEveryLayoutItMakes() {
    #expect(shaper.shapeCount == 0)
    _ = shaper.shape("one", style: TextStyle(font: body))
    _ = shaper.shape("two", style: TextStyle(font: body))
    #expect(shaper.shapeCount == 2)
  }

  @Test func wrapsWithinTheWidth() {
    let text = String(repeating: "wrap these words ", count: 12)
    let layout = shaper.shape(text, style: TextStyle(font: body, width: 150))
    #expect(layout.lineCount > 3)
    #expect(layout.logicalRect.maxX <= 150)
  }

  @Test func limitsLinesAndEllipsizes() {
    let text = String(repeating: "a long sentence ", count: 20)
    let layout = shaper.shape(text, style: TextStyle(font: body, width: 150, maxLines: 2))
    #expect(layout.lineCount == 2)
    #expect(layout.isEllipsized)
  }

  @Test func countsNewlinesAgainstTheLineLimit() {
    let layout = shaper.shape("one\ntwo\nthree\nfour", style: TextStyle(font: body, width: 300, maxLines: 2))
    #expect(layout.lineCount == 2)
  }

  @Test func cutsLinesWithoutEllipsisWhenAsked() {
    let text = String(repeating: "a long sentence ", count: 20)
    let full = shaper.shape(text, style: TextStyle(font: body, width: 150, ellipsize: .none))
    let cut = shaper.shape(text, style: TextStyle(font: body, width: 150, maxLines: 2, ellipsize: .none))
    #expect(cut.lineCount == 2 && cut.isClipped)
    #expect(cut.logicalRect.height < full.logicalRect.height / 2)
  }

  @Test(arguments: [
    ("Arabic", "مرحبا بالعالم، هذا جدول", true),
    ("Hebrew", "שלום עולם, זו טבלה", true),
    ("Cyrillic", "Привет, мир! Это таблица", false),
    ("Greek", "Γειά σου κόσμε, αυτός είναι πίνακας", false),
  ])
  func shapesEveryScriptWithRealGlyphs(script: String, text: String, rightToLeft: Bool) {
    let layout = shaper.shape(text, style: TextStyle(font: body, width: 300))
    #expect(layout.unknownGlyphCount == 0, "\(script) has glyphs without a font")
    #expect(layout.isRightToLeft == rightToLeft)
    #expect(layout.logicalRect.width > 50)
    if rightToLeft {
      // Leading alignment puts right-to-left text against the right edge of its width.
      #expect(abs(layout.logicalRect.maxX - 300) < 0.01)
    } else {
      #expect(layout.logicalRect.minX == 0)
    }
  }

  @Test func metricsMatchALineOfText() {
    let metrics = shaper.metrics(for: body)
    let layout = shaper.shape("Hxg", style: TextStyle(font: body))
    #expect(abs(metrics.lineHeight - layout.logicalRect.height) < 0.5)
  }

  @Test func boldRunsAreWiderThanRegularText() {
    let plain = shaper.shape("bold words", style: TextStyle(font: body))
    let bold = shaper.shape("bold words", style: TextStyle(font: body), runs: [TextRun(0..<10, .weight(700))])
    #expect(bold.logicalRect.width > plain.logicalRect.width)
  }

  @Test func textIsNeverReadAsMarkup() {
    let layout = shaper.shape("<b>x</b>", style: TextStyle(font: body))
    let x = shaper.shape("x", style: TextStyle(font: body))
    #expect(layout.text == "<b>x</b>")
    #expect(layout.logicalRect.width > 4 * x.logicalRect.width)
  }
}
