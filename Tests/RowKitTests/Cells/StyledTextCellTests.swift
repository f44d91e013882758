import RowKitGraphics
import RowKitTestSupport
import Testing

@testable import RowKit

@Suite struct StyledTextCellTests {
  @Test func styledTextIsPaddedBySixAndLeavesRoomForTheAccessory() throws {
    let long = String(repeating: "Styled <b>bold</b> and <a href=\"app://x\">linked</a> words. ", count: 6)
    let row = try TestSupport.layoutRow(StyledTextItem(text: long, options: ItemOptions(url: "app://x")))
    let label = try #require(row.layout.label("text"))
    #expect(label.frame.minX == 6)
    #expect(label.frame.minY == 6)
    #expect(label.text.style.width == Double(375 - 12 - CellMetrics.default.width(of: .disclosureIndicator)))
    #expect(label.text.lineCount > 2)
    #expect(row.height == PixelGrid(scale: 2).ceil(label.frame.height + 12))
    #expect(label.text.text.hasPrefix("Styled bold and linked words."))
  }

  @Test func boldAndLinksWidenTheirRuns() throws {
    let plain = try #require(try TestSupport.layoutRow(StyledTextItem(text: "word word")).layout.label("text"))
    let bold = try #require(try TestSupport.layoutRow(StyledTextItem(text: "<b>word word</b>")).layout.label("text"))
    let link = try #require(try TestSupport.layoutRow(StyledTextItem(text: "<a href=\"x\">word word</a>")).layout.label("text"))
    #expect(bold.frame.width > plain.frame.width)
    #expect(link.frame.width == bold.frame.width, "links are bold")
  }
}
