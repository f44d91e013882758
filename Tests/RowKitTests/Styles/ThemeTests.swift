import Foundation
import RowKitGraphics
import RowKitSnapshot
import RowKitSnapshotAssertions
import RowKitTestSupport
import Testing

@testable import RowKit

/// A theme is a stylesheet that extends the default one; it changes exactly what uses the
/// variables it overrides.
@Suite struct ThemeTests {
  static let families = ["DejaVu Sans", "DejaVu Sans Mono", "Inter"]

  /// Rows, and which of the three overridden variables each uses.
  let items: [(any TableItem, usesTheme: Bool)] = [
    (TextItem(text: "Plain text, black and bold"), false),
    (LinkItem(text: "A link uses linkTextColor"), true),
    (GrayTextItem(text: "Gray text uses tableSubTextColor"), true),
    (LongTextItem(text: "Long text is black"), false),
    (SubtitleItem(text: "Subtitle", subtitle: "uses tableSubTextColor"), true),
    (MessageItem(title: "Message", text: "Body in sub-text color", timestamp: Catalog.now.addingTimeInterval(-60)), true),
    (SettingsItem(text: "On", caption: "Settings use neither"), false),
    (CheckmarkItem(text: "Checked", isChecked: true), false),
  ]

  func render(_ stylesheet: Stylesheet) async throws -> RenderedTable {
    let source = ListDataSource(items: items.map(\.0))
    return try await TableRenderer(configuration: TableConfiguration(now: Catalog.now), stylesheet: stylesheet)
      .render(source, outputs: [.rows])
  }

  @Test func overridingThreeVariablesChangesExactlyTheRowsThatUseThem() async throws {
    let theme = try TableDocument.decode(
      Array(
        """
        stylesheet:
          extends: default
          vars:
            linkTextColor: "#D0021B"
            tableSubTextColor: "#417505"
            timestampTextColor: "#9013FE"
        items: [ { type: text, text: unused } ]
        """.utf8), as: URL(fileURLWithPath: "/tmp/theme.yaml"), fontFamilies: Self.families
    ).stylesheet
    let plain = try await render(.default)
    let themed = try await render(theme)
    #expect(plain.manifest.rows.map(\.height) == themed.manifest.rows.map(\.height), "colors never move anything")
    for (index, item) in items.enumerated() {
      let changed = plain.rowImages[index] != themed.rowImages[index]
      #expect(changed == item.usesTheme, "row \(index) (\(item.0.typeName))")
    }
  }

  /// The selection gradient and the plain header are styles made from variables: a theme
  /// that sets the variables restyles them, and one that defines the style keeps its own.
  @Test func selectionAndHeaderStylesFollowTheirVariables() throws {
    func stylesheet(_ yaml: String) throws -> Stylesheet {
      try TableDocument.decode(
        Array("stylesheet:\n  extends: default\n\(yaml)items: [ { type: text, text: unused } ]\n".utf8),
        as: URL(fileURLWithPath: "/tmp/theme.yaml"), fontFamilies: Self.families
      ).stylesheet
    }
    let themed = try stylesheet(
      """
        vars:
          selectionTopColor: "#FF8800"
          selectionBottomColor: "#CC4400"
          tableHeaderTintColor: "#506070"
          tableHeaderBorderColor: "#00000080"

      """)
    #expect(themed.styles["tableCellSelected"] == Style([.linearGradient(Color(hex: "#FF8800")!, Color(hex: "#CC4400")!)]))
    // The gradient's top is the tint with a tenth more value: 0x70 × 1.1 = 123.2 → 123.
    #expect(themed.styles["tableHeader"]?.elements.first == .linearGradient(Color(r: 88, g: 106, b: 123), Color(hex: "#506070")!))
    #expect(themed.styles["tableHeader"]?.elements.last == .fourBorder(top: nil, right: nil, bottom: Color(hex: "#00000080")!, left: nil, width: 1))
    // The default stylesheet's own header is Three20's: (167, 184, 199) → (152, 167, 181).
    #expect(Stylesheet.default.styles["tableHeader"]?.elements.first == .linearGradient(Color(r: 167, g: 184, b: 199), Color(r: 152, g: 167, b: 181)))

    let ownStyle = try stylesheet(
      """
        vars:
          selectionTopColor: "#FF8800"
        styles:
          tableCellSelected:
            - fill: "#123456"

      """)
    #expect(ownStyle.styles["tableCellSelected"] == Style([.fill(Color(hex: "#123456")!)]))
  }

  @Test func overridingASizeMovesTheLayout() throws {
    var sheet = Stylesheet.default
    sheet.variables["tableCellPadding"] = .number(16)
    sheet.variables["tableImageSize"] = .number(64)
    let row = try TableRenderer(stylesheet: sheet).layout(ListDataSource(items: [ImageItem(text: "Big", imageURL: "x.png")])).rows[0]
    #expect(row.layout.image("image")?.frame == Rect(x: 16, y: 16, width: 64, height: 64))
    #expect(row.height == 96)
    #expect(row.layout.label("text")?.frame.minX == Double(16 + 64 + 12))
  }
}
