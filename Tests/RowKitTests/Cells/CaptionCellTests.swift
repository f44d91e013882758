import RowKitGraphics
import RowKitTestSupport
import Testing

@testable import RowKit

@Suite struct CaptionCellTests {
  let renderer: TableRenderer
  init() throws { renderer = try TestSupport.renderer() }

  func row(_ item: any TableItem) throws -> PlacedRow { try TestSupport.layoutRow(item, renderer: renderer) }

  @Test func captionSitsRightAlignedInASeventyFivePointColumn() throws {
    let row = try row(CaptionItem(text: "Joe Hewitt", caption: "Name"))
    let caption = try #require(row.layout.label("caption"))
    let value = try #require(row.layout.label("text"))
    #expect(abs(caption.frame.maxX - 85) < 0.01, "right edge at 10 + 75")
    #expect(caption.frame.minX > 10)
    #expect(value.frame.minX == 97, "10 + 75 + 12")
    #expect(value.text.style.width == Double(375 - 97 - 10))
    #expect(caption.text.style.font == Font(family: "Inter", size: 13, weight: 700))
    #expect(value.text.style.font == Font(family: "Inter", size: 15, weight: 700))
    #expect(row.height == 44)
  }

  @Test func captionAndValueShareABaseline() throws {
    let row = try row(CaptionItem(text: "Value", caption: "Key"))
    let caption = try #require(row.layout.label("caption"))
    let value = try #require(row.layout.label("text"))
    #expect(abs((caption.frame.minY + caption.text.baseline) - (value.frame.minY + value.text.baseline)) < 0.001)
  }

  @Test func aLongValueWrapsAndTheRowGrows() throws {
    let row = try row(CaptionItem(text: String(repeating: "1 Hacker Way, Menlo Park ", count: 4), caption: "Address"))
    let value = try #require(row.layout.label("text"))
    #expect(value.text.lineCount >= 3)
    #expect(row.height == PixelGrid(scale: 2).ceil(value.frame.maxY + 10))
  }

  @Test func aLongCaptionIsEllipsizedOnOneLine() throws {
    let caption = try #require(try row(CaptionItem(text: "x", caption: "A caption far too long")).layout.label("caption"))
    #expect(caption.text.lineCount == 1)
    #expect(caption.text.isEllipsized)
  }

  @Test func rightCaptionMirrorsTheCaptionRow() throws {
    let row = try row(RightCaptionItem(text: "Battery", caption: "85%"))
    let caption = try #require(row.layout.label("caption"))
    let value = try #require(row.layout.label("text"))
    #expect(value.frame.minX == 10)
    #expect(abs(caption.frame.maxX - (375 - 10)) < 0.01)
    #expect(value.text.style.width == Double(375 - 10 - 75 - 12 - 10))
  }

  @Test func subtextStacksTheCaptionUnderTheText() throws {
    let row = try row(SubtextItem(text: "Subtext", caption: String(repeating: "Smaller text below. ", count: 6)))
    let text = try #require(row.layout.label("text"))
    let caption = try #require(row.layout.label("caption"))
    #expect(text.frame.minX == 10 && caption.frame.minX == 10)
    #expect(text.frame.minY == 10)
    #expect(caption.frame.minY == text.frame.maxY)
    #expect(text.text.lineCount == 1)
    #expect(caption.text.lineCount > 1)
    #expect(row.height == PixelGrid(scale: 2).ceil(20 + text.frame.height + caption.frame.height))
  }

  @Test func settingsPutTheValueRightAlignedAndTheCaptionLeft() throws {
    let row = try row(SettingsItem(text: "On", caption: "Airplane Mode", options: ItemOptions(url: "app://x")))
    let caption = try #require(row.layout.label("caption"))
    let value = try #require(row.layout.label("text"))
    let contentWidth = 375 - CellMetrics.default.width(of: .disclosureIndicator)
    #expect(caption.frame.minX == 10)
    #expect(abs(value.frame.maxX - (contentWidth - 10)) < 0.01)
    #expect(caption.frame.maxX < value.frame.minX)
    #expect(value.color == Color(r: 56, g: 84, b: 135))
    #expect(row.height == 44)
  }

  @Test func settingsEllipsizeBothSidesWhenTheyAreLong() throws {
    let row = try row(SettingsItem(text: String(repeating: "value ", count: 20), caption: String(repeating: "caption ", count: 20)))
    let caption = try #require(row.layout.label("caption"))
    let value = try #require(row.layout.label("text"))
    #expect(caption.text.isEllipsized && value.text.isEllipsized)
    #expect(caption.frame.maxX <= value.frame.minX)
  }
}
