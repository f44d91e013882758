import RowKitGraphics
import RowKitTestSupport
import Testing

@testable import RowKit

/// Frames and heights of the text family, as numbers.
@Suite struct TextCellTests {
  let shaper: TextShaper
  init() throws { shaper = try TextEnvironment.standard.makeShaper() }

  func row(_ item: any TableItem, width: Double = 375) throws -> PlacedRow {
    try TestSupport.layoutRow(item, width: width, shaper: shaper)
  }

  @Test func shortTextIsInsetByTenAndTheRowIsFortyFourTall() throws {
    let row = try row(TextItem(text: "Text"))
    let label = try #require(row.layout.label("text"))
    #expect(row.height == 44)
    #expect(label.frame.x == 10)
    #expect(abs(label.frame.midY - 22) <= 0.5, "vertically centered")
    #expect(label.text.style.font == Font(family: "Inter", size: 17, weight: 700))
    #expect(label.color == .black)
  }

  @Test func longTextWrapsAndTheRowGrowsToFitIt() throws {
    let text = String(repeating: "Wrapping text fills every line it needs. ", count: 5)
    let row = try row(TextItem(text: text))
    let label = try #require(row.layout.label("text"))
    #expect(label.text.lineCount > 3)
    #expect(row.height == PixelGrid(scale: 2).ceil(label.frame.height + 20))
    #expect(label.frame.minY == 10)
    #expect(label.frame.maxX <= 375 - 10)
  }

  @Test func theAccessoryWidthComesOutBeforeTextIsMeasured() throws {
    let text = String(repeating: "Text must never run under the chevron. ", count: 4)
    let plain = try row(TextItem(text: text))
    let linked = try row(TextItem(text: text, options: ItemOptions(url: "app://x")))
    let label = try #require(linked.layout.label("text"))
    let accessory = try #require(linked.layout.accessory)
    #expect(accessory.kind == .disclosureIndicator)
    #expect(label.text.style.width == Double(375 - 20 - CellMetrics.default.width(of: .disclosureIndicator)))
    #expect(label.frame.maxX <= accessory.frame.minX - 10)
    #expect(linked.height >= plain.height)
  }

  @Test func urlAndAccessoryURLGiveADetailButton() throws {
    let row = try row(TextItem(text: "Both", options: ItemOptions(url: "app://a", accessoryURL: "app://b")))
    let accessory = try #require(row.layout.accessory)
    #expect(accessory.kind == .detailDisclosureButton)
    #expect(accessory.frame.maxX == 375 - Accessory.detailDisclosureButton.rightMargin)
    #expect(row.layout.label("text")!.text.style.width == Double(375 - 20 - 33))
  }

  @Test func buttonsAreCenteredInTheLinkColorWithNoAccessory() throws {
    let row = try row(ButtonItem(text: "Button", options: ItemOptions(url: "app://x")))
    let label = try #require(row.layout.label("text"))
    #expect(row.layout.accessory == nil)
    #expect(abs(label.frame.midX - 375 / 2) < 0.01)
    #expect(label.color == Color(r: 87, g: 107, b: 149))
    #expect(label.text.style.font.size == 13)
  }

  @Test func eachTextVariantHasThreeTwentysFontAndColor() throws {
    let cases: [(any TableItem, Double, Int, Color)] = [
      (LinkItem(text: "x"), 17, 700, Color(r: 87, g: 107, b: 149)),
      (LongTextItem(text: "x"), 14, 400, .black),
      (GrayTextItem(text: "x"), 14, 400, Color(r: 79, g: 89, b: 105)),
      (SummaryItem(text: "x"), 17, 400, Color(r: 79, g: 89, b: 105)),
    ]
    for (item, size, weight, color) in cases {
      let label = try #require(try row(item).layout.label("text"))
      #expect(label.text.style.font.size == size)
      #expect(label.text.style.font.weight == weight)
      #expect(label.color == color)
    }
  }

  @Test func selectedRowsDrawTheirTextWhite() throws {
    let row = try row(TextItem(text: "Selected", options: ItemOptions(isSelected: true)))
    #expect(row.layout.label("text")?.color == .white)
    #expect(row.layout.isSelected)
  }

  @Test func emptyTextShapesNothing() throws {
    let before = shaper.shapeCount
    let row = try row(TextItem(text: ""))
    #expect(row.layout.labels.isEmpty)
    #expect(row.height == 44)
    #expect(shaper.shapeCount == before)
  }

  @Test func veryLongTextIsCutAtThreeTwentysMaximumLabelHeight() throws {
    let row = try row(LongTextItem(text: String(repeating: "A very long text indeed. ", count: 2000)))
    let label = try #require(row.layout.label("text"))
    #expect(label.frame.height == LayoutContext.maximumLabelHeight)
    #expect(row.height == LayoutContext.maximumLabelHeight + 20)
  }

  @Test(arguments: [
    ("Arabic", "هذا نص عربي طويل يلتف على أكثر من سطر واحد في الجدول حتى يملأ العرض"),
    ("Hebrew", "זהו טקסט עברי ארוך שנשבר ליותר משורה אחת בטבלה כדי למלא את הרוחב"),
  ])
  func rightToLeftTextHugsTheRightPadding(script: String, text: String) throws {
    let row = try row(LongTextItem(text: text, options: ItemOptions(url: "app://x")))
    let label = try #require(row.layout.label("text"))
    let contentWidth = 375 - CellMetrics.default.width(of: .disclosureIndicator)
    #expect(label.text.isRightToLeft)
    #expect(label.text.unknownGlyphCount == 0)
    #expect(abs(label.frame.maxX - (contentWidth - 10)) < 0.01, "\(script) ends at the right padding")
    #expect(label.frame.minX >= 10)
    #expect(label.text.lineCount >= 2)
  }

  @Test(arguments: [
    ("Cyrillic", "Съешь же ещё этих мягких французских булок, да выпей чаю"),
    ("Greek", "Ξεσκεπάζω την ψυχοφθόρα βδελυγμία των ανθρώπων"),
  ])
  func cyrillicAndGreekShapeWithInter(script: String, text: String) throws {
    let label = try #require(try row(TextItem(text: text)).layout.label("text"))
    #expect(label.text.unknownGlyphCount == 0, "\(script)")
    #expect(!label.text.isRightToLeft)
    #expect(label.frame.minX == 10)
    #expect(label.text.lineCount == 2)
  }

  @Test func checkmarkRowsReserveTheCheckmarkOnlyWhenChecked() throws {
    let checked = try row(CheckmarkItem(text: "On", isChecked: true))
    let unchecked = try row(CheckmarkItem(text: "Off", isChecked: false))
    #expect(checked.layout.accessory?.kind == .checkmark)
    #expect(checked.layout.label("text")!.text.style.width == Double(375 - 20 - CellMetrics.default.width(of: .checkmark)))
    #expect(unchecked.layout.accessory == nil)
    #expect(unchecked.layout.label("text")!.text.style.width == Double(375 - 20))
    #expect(checked.layout.cellName == "CheckmarkCell")
  }
}
