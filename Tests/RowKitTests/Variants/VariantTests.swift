import Foundation
import RowKit
import RowKitGraphics
import RowKitTestSupport
import Testing

/// Variants: text sizes from Apple's Dynamic Type table, the dark appearance, widths, and
/// their names.
@Suite struct VariantTests {
  /// Apple's Human Interface Guidelines, Dynamic Type sizes for iOS, the Body style.
  static let appleBodySizes: [(ContentSizeCategory, Double)] = [
    (.xSmall, 14), (.small, 15), (.medium, 16), (.large, 17), (.xLarge, 19), (.xxLarge, 21), (.xxxLarge, 23),
    (.AX1, 28), (.AX2, 33), (.AX3, 40), (.AX4, 47), (.AX5, 53),
  ]

  @Test(arguments: appleBodySizes)
  func bodyTextTakesApplesSizeAtEachCategory(category: ContentSizeCategory, size: Double) throws {
    #expect(category.bodySize == size)
    // A 17-point font (body at `large`) reads at exactly the table's size, variable or literal.
    let sheet = Stylesheet.default.scalingFonts(to: category)
    #expect(try sheet.font("tableSummaryFont").size == size)
    #expect(try sheet.font("Inter 17").size == size)
    #expect(try Variant(textSize: category).apply(to: Stylesheet.default).font("tableValueFont").size == size)
  }

  @Test func everyCategoryIsOneOfApplesTwelve() {
    #expect(ContentSizeCategory.allCases.count == Self.appleBodySizes.count)
    #expect(ContentSizeCategory.allCases == Self.appleBodySizes.map(\.0))
  }

  @Test func otherFontsScaleAsBodyTextAndSizesThatAreNotTextStay() throws {
    let sheet = Stylesheet.default.scalingFonts(to: .AX5)
    #expect(try sheet.font("font").size == (14.0 * 53 / 17).rounded())
    #expect(try sheet.number("tableCellPadding") == 10)
    #expect(try sheet.number("tableImageSize") == 50)
    // The fonts of styles' text elements scale too.
    #expect(sheet.styles["badge"]?.textStyle?.font?.size == (15.0 * 53 / 17).rounded())
  }

  /// Styled text takes its size once: its 14-point `font` is 33 points at AX3 (40/17 of 14),
  /// as a text row's is. It took the size twice (77 points).
  @Test func styledTextScalesOnceWithTheCategory() throws {
    let renderer = TableRenderer().rendering(Variant(textSize: .AX3))
    let row = try TestSupport.layoutRow(StyledTextItem(text: "Hello <span class=\"badge\">world</span>"), renderer: renderer)
    let text = try #require(row.layout.label("text")?.text)
    #expect(text.style.font.size == (14.0 * 40 / 17).rounded())
    #expect(text.style.font.size == ContentSizeCategory.AX3.scaledSize(14))
  }

  @Test func rowHeightGrowsMonotonicallyWithTheCategory() throws {
    let items: [any TableItem] = [
      TextItem(text: "Wi-Fi", options: ItemOptions(url: "app://wifi")),
      SubtitleItem(text: "Video", subtitle: "Shoot, edit and share video.", imageURL: nil),
      CaptionItem(text: "12.4 GB", caption: "Storage"),
      LongTextItem(text: "A paragraph long enough to wrap over a few lines at the larger text sizes."),
    ]
    for item in items {
      var heights: [Double] = []
      for category in ContentSizeCategory.allCases {
        let renderer = TableRenderer().rendering(Variant(textSize: category))
        heights.append(try TestSupport.layoutRow(item, renderer: renderer).height)
      }
      #expect(heights == heights.sorted(), "\(item.typeName): \(heights)")
      #expect(heights.last! > heights[ContentSizeCategory.allCases.firstIndex(of: .large)!], "\(item.typeName)")
    }
  }

  @Test func theDarkStylesheetHasADarkValueForEveryDefaultColor() throws {
    let colors = Stylesheet.default.variables.compactMap { name, value -> String? in
      if case .color = value { return name }
      return nil
    }
    #expect(Set(colors) == Set(Stylesheet.defaultDarkColors.keys))
    #expect(try Stylesheet.defaultDark.color("tablePlainBackgroundColor") == .black)
    #expect(try Stylesheet.defaultDark.color("textColor") == .white)
    #expect(Stylesheet.defaultDark.styles["tableCellSelected"] != Stylesheet.default.styles["tableCellSelected"])
  }

  @Test func aStylesheetGivesItsOwnDarkValuesPerVariable() throws {
    let url = try TestSupport.temporaryDirectory().appendingPathComponent("theme.yaml")
    try """
      extends: default
      vars:
        linkTextColor: "#D0021B"
        tableSubTextColor: "#333333"
      darkVars:
        linkTextColor: "#FF6B6B"
      """.write(to: url, atomically: true, encoding: .utf8)
    let sheet = try Stylesheet.load(contentsOf: url, fontFamilies: ["Inter"])
    let dark = Variant(appearance: .dark).apply(to: sheet)
    #expect(try dark.color("linkTextColor") == Color(hex: "#FF6B6B"))
    // Set without a dark value: kept, as a fixed UIColor is.
    #expect(try dark.color("tableSubTextColor") == Color(hex: "#333333"))
    // Left at the default: the default's dark value.
    #expect(try dark.color("textColor") == .white)
    #expect(try sheet.color("linkTextColor") == Color(hex: "#D0021B"))
  }

  @Test func extendsDefaultDark() throws {
    let url = try TestSupport.temporaryDirectory().appendingPathComponent("theme.yaml")
    try "extends: default-dark\nvars: { tableFont: \"Inter Bold 18\" }\n".write(to: url, atomically: true, encoding: .utf8)
    let sheet = try Stylesheet.load(contentsOf: url, fontFamilies: ["Inter"])
    #expect(try sheet.color("tableGroupedCellBackgroundColor") == Color(r: 28, g: 28, b: 30))
  }

  @Test func variantsAreTheProductOfTheAxesAndNameTheirFiles() throws {
    let axes = VariantAxes(widths: [320, 768], textSizes: [.large, .AX3], appearances: [.light, .dark])
    #expect(axes.variants.count == 8)
    #expect(axes.variants.map(\.name).prefix(3) == ["320pt,light,large", "320pt,light,AX3", "320pt,dark,large"])
    let dark = Variant(textSize: .AX3, appearance: .dark)
    #expect(dark.name == "dark,AX3")
    #expect(dark.fileName("table.png") == "table@dark,AX3.png")
    #expect(dark.fileName("case") == "case@dark,AX3")
    #expect(Variant().fileName("table.png") == "table.png")
    #expect(VariantAxes().variants == [Variant()])
    #expect(VariantAxes(widths: [10]).problem != nil)
    #expect(VariantAxes(appearances: [.dark, .dark]).problem != nil)
  }

  @Test func aDocumentDeclaresItsVariants() throws {
    let url = try TestSupport.temporaryDirectory().appendingPathComponent("table.yaml")
    try """
      variants:
        width: [320, 430]
        textSize: [xSmall, AX5]
        appearance: [dark]
      items:
        - { type: text, text: Hello }
      """.write(to: url, atomically: true, encoding: .utf8)
    let document = try TableDocument.load(url, fontFamilies: ["Inter"])
    #expect(document.variantAxes == VariantAxes(widths: [320, 430], textSizes: [.xSmall, .AX5], appearances: [.dark]))
  }

  @Test(arguments: [
    ("variants: { textSize: [huge] }", "4:24: variants.textSize[0]: 'huge' is not one of xSmall"),
    ("variants: { width: [10] }", "4:21: variants.width[0]: 10 is out of range (64 to 4096 points)"),
    ("variants: { colour: [dark] }", "4:13: variants.colour: unknown key 'colour'"),
    ("variants: { appearance: [] }", "appearance lists no values"),
    ("table: { scale: 4 }\nvariants: { width: [4000] }", "width × scale is 16000 pixels"),
  ])
  func badVariantsNameTheFileLineAndKey(block: String, expected: String) throws {
    let url = try TestSupport.temporaryDirectory().appendingPathComponent("table.yaml")
    try "items:\n  - { type: text, text: Hello }\n\n\(block)\n".write(to: url, atomically: true, encoding: .utf8)
    let error = #expect(throws: DocumentError.self) { try TableDocument.load(url, fontFamilies: ["Inter"]) }
    #expect("\(error!)".contains(expected), "\(error!)")
  }
}
