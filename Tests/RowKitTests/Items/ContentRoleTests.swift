import RowKit
import RowKitGraphics
import RowKitTestSupport
import Testing

/// The built-in rows of one shape are one item type in several roles: the names Swift code
/// and documents used stay, a role names its rows, and a role of one's own gets a cell of its
/// own without a new item type.
@Suite struct ContentRoleTests {
  enum Warning: ContentRole { static let typeName = "warning" }

  @Test func theOldNamesAreTheRolesOfOneShape() {
    #expect(LinkItem.self == TextContent<TextRoles.Link>.self)
    #expect(SettingsItem.self == CaptionContent<CaptionRoles.Settings>.self)
    #expect(RightImageItem.self == ImageContent<ImageRoles.RightImage>.self)
    let names = [
      TextItem.typeName, LinkItem.typeName, ButtonItem.typeName, LongTextItem.typeName, GrayTextItem.typeName,
      SummaryItem.typeName, ActivityItem.typeName, StyledTextItem.typeName, CaptionItem.typeName,
      RightCaptionItem.typeName, SubtextItem.typeName, SettingsItem.typeName, ImageItem.typeName, RightImageItem.typeName,
    ]
    #expect(names == [
      "text", "link", "button", "longText", "grayText", "summary", "activity", "styledText", "caption", "rightCaption",
      "subtext", "settings", "image", "rightImage",
    ])
    // Same text, other roles: other items, never equal.
    #expect(AnyHashable(LinkItem(text: "Wi-Fi")) != AnyHashable(TextItem(text: "Wi-Fi")))
    #expect(AnyHashable(ImageItem(text: "Wi-Fi")) != AnyHashable(RightImageItem(text: "Wi-Fi")))
  }

  @Test func eachTextRoleIsDrawnInItsOwnStyle() throws {
    // A link and a button of one text: the link's color and the button's centered title.
    let link = try TestSupport.layoutRow(LinkItem(text: "Wi-Fi"))
    let button = try TestSupport.layoutRow(ButtonItem(text: "Wi-Fi"))
    let linkLabel = try #require(link.layout.label("text"))
    let buttonLabel = try #require(button.layout.label("text"))
    #expect(linkLabel.color == (try Stylesheet.default.color("linkTextColor")))
    #expect(buttonLabel.text.style.alignment == .center && linkLabel.text.style.alignment == .left)
    #expect(link.layout.cellName == "TextCell" && link.item.typeName == "link")
  }

  @Test func aRoleOfOnesOwnHasItsNameAndTheCellItIsGiven() throws {
    let row = TextContent<Warning>(text: "The disk is almost full")
    #expect(row.typeName == "warning")
    // Unregistered: the fallback cell names the role.
    let fallback = try TestSupport.layoutRow(row)
    #expect(fallback.layout.cellName == FallbackCell.cellName)
    var mapping = CellMapping()
    mapping.register(TextCell(style: TextCell.Style(font: "tableFont", color: "#B00020"), name: "WarningCell"), for: TextContent<Warning>.self)
    let drawn = try TestSupport.layoutRow(row, mapping: mapping)
    #expect(drawn.layout.cellName == "WarningCell")
    #expect(drawn.layout.label("text")?.color == Color(hex: "#B00020"))
  }
}
