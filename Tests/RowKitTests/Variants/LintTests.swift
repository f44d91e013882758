import Foundation
import RowKit
import RowKitGraphics
import RowKitTestSupport
import Testing

/// The design lint: each rule with a document that triggers it and one that does not, and
/// WCAG's contrast formula.
@Suite struct LintTests {
  @Test func contrastIsWCAGsFormula() throws {
    let white = Color.white
    let gray77 = try #require(Color(hex: "#777777"))
    let gray76 = try #require(Color(hex: "#767676"))
    #expect(WCAGContrast.format(WCAGContrast.ratio(gray77, white)) == "4.48:1")
    #expect(WCAGContrast.format(WCAGContrast.ratio(gray76, white)) == "4.54:1")
    #expect(WCAGContrast.format(4.499, below: 4.5) == "4.49:1")
    #expect(abs(WCAGContrast.ratio(gray77, white) - 4.48) < 0.005)
    #expect(abs(WCAGContrast.ratio(gray76, white) - 4.54) < 0.005)
    #expect(WCAGContrast.ratio(.black, white) == 21)
    #expect(WCAGContrast.ratio(white, white) == 1)
    // Large text: 24 points, or 18.66 bold.
    #expect(WCAGContrast.requiredRatio(for: Font(family: "Inter", size: 17, weight: 700)) == 4.5)
    #expect(WCAGContrast.requiredRatio(for: Font(family: "Inter", size: 19, weight: 700)) == 3)
    #expect(WCAGContrast.requiredRatio(for: Font(family: "Inter", size: 24)) == 3)
  }

  /// The findings of a document written from `yaml` (with `files` beside it).
  func findings(_ yaml: String, files: [String: String] = [:]) async throws -> [LintFinding] {
    let folder = try TestSupport.temporaryDirectory()
    for (name, text) in files { try text.write(to: folder.appendingPathComponent(name), atomically: true, encoding: .utf8) }
    let url = folder.appendingPathComponent("table.yaml")
    try yaml.write(to: url, atomically: true, encoding: .utf8)
    let document = try TableDocument.load(url, fontFamilies: try TextEnvironment.standard.fontSet().families)
    let reports = try await document.lint(with: document.makeRenderer(), name: "table.yaml")
    return reports.flatMap { $0.rows.flatMap(\.findings) }
  }

  func rules(_ yaml: String, files: [String: String] = [:]) async throws -> [LintRule] {
    try await findings(yaml, files: files).map(\.rule)
  }

  @Test func contrastFindsGray777777OnWhiteAndPasses767676() async throws {
    let failing = try await findings("""
      stylesheet: { vars: { tableSubTextColor: "#777777" } }
      items: [{ type: subtext, text: Body text, caption: Caption }]
      """)
    #expect(failing.map(\.rule) == [.contrast])
    #expect(failing.first?.message.contains("#777777 on #FFFFFF is 4.48:1") == true, "\(failing)")
    let clean = try await rules("""
      stylesheet: { vars: { tableSubTextColor: "#767676" } }
      items: [{ type: subtext, text: Body text, caption: Caption }]
      """)
    #expect(clean.isEmpty)
  }

  @Test func contrastIsJudgedAgainstThePixelsUnderTheText() async throws {
    // Black text is fine on white, but not on a dark background style under it.
    let rules = try await rules("""
      stylesheet:
        styles:
          dark: [{ fill: "#202020" }]
      items: [{ type: text, text: Hello, background: dark }]
      """)
    #expect(rules == [.contrast])
    #expect(try await self.rules("items: [{ type: text, text: Hello }]").isEmpty)
  }

  @Test func textOverAGradientIsJudgedWhereItIsWorstWithItsPercentile() async throws {
    // White text over a gradient from near black to light gray: fine at the dark end,
    // unreadable at the light one. Over the dark end's flat color alone, it passes.
    let gradient = try await findings("""
      stylesheet:
        vars: { textColor: "#FFFFFF" }
        styles:
          fade: [{ linearGradient: ["#101010", "#E0E0E0"] }]
      table: { rowHeight: 44 }
      items: [{ type: text, text: Hello over a gradient, background: fade }]
      """)
    #expect(gradient.map(\.rule) == [.contrast], "\(gradient)")
    let message = gradient.first?.message ?? ""
    #expect(message.hasPrefix("text #FFFFFF on #"), "\(message)")
    #expect(message.contains(" at worst, ") && message.contains(" at the 5th percentile, below WCAG AA's 4.5:1"), "\(message)")
    let flat = try await rules("""
      stylesheet:
        vars: { textColor: "#FFFFFF" }
        styles:
          dark: [{ fill: "#101010" }]
      items: [{ type: text, text: Hello over a gradient, background: dark }]
      """)
    #expect(flat.isEmpty)
  }

  @Test func aTranslucentSelectedBackgroundIsJudgedAsComposited() async throws {
    // 25% blue over the white row is light blue: white text fails on it, dark blue passes.
    let stylesheet = """
      stylesheet:
        vars: { highlightedTextColor: "COLOR" }
        styles:
          tint: [{ fill: "#0000FF40" }]
      """
    let white = try await findings(stylesheet.replacingOccurrences(of: "COLOR", with: "#FFFFFF") + """

      items: [{ type: text, text: Selected, selected: true, selectedBackground: tint }]
      """)
    #expect(white.map(\.rule) == [.contrast], "\(white)")
    #expect(white.first?.message.contains("text #FFFFFF on #BFBFFF") == true, "\(white)")
    let navy = try await rules(stylesheet.replacingOccurrences(of: "COLOR", with: "#000080") + """

      items: [{ type: text, text: Selected, selected: true, selectedBackground: tint }]
      """)
    #expect(navy.isEmpty)
  }

  @Test func truncated() async throws {
    let long = String(repeating: "A very long title ", count: 20)
    #expect(try await rules("items: [{ type: subtitle, text: \"\(long)\", subtitle: Short }]") == [.truncated])
    #expect(try await rules("items: [{ type: subtitle, text: Short, subtitle: Short }]").isEmpty)
  }

  @Test func clipped() async throws {
    let item = "items: [{ type: subtitle, text: Title, subtitle: Subtitle }]"
    #expect(try await rules("table: { rowHeight: 20 }\n" + item).contains(.clipped))
    #expect(try await rules("table: { rowHeight: 60 }\n" + item).isEmpty)
  }

  @Test func tapTarget() async throws {
    let item = "items: [{ type: text, text: Go, url: \"app://go\" }]"
    #expect(try await rules("table: { rowHeight: 30 }\n" + item) == [.tapTarget])
    #expect(try await rules("table: { rowHeight: 44 }\n" + item).isEmpty)
    #expect(try await rules("table: { rowHeight: 30 }\nitems: [{ type: text, text: Go }]").isEmpty)
  }

  @Test func missingGlyph() async throws {
    #expect(try await rules("items: [{ type: text, text: \"A \\U000F0000\" }]") == [.missingGlyph])
    #expect(try await rules("items: [{ type: text, text: \"A\" }]").isEmpty)
  }

  @Test func overlap() async throws {
    let stacked = "body: { zstack: { children: [ { label: { bind: a } }, { label: { bind: b } } ] } }\n"
    let side = "body: { hstack: { spacing: 8, children: [ { label: { bind: a } }, { label: { bind: b } } ] } }\n"
    let document = "cells: { Pair: pair.yaml }\nitems: [{ type: Pair, a: Left, b: Right }]"
    #expect(try await rules(document, files: ["pair.yaml": stacked]) == [.overlap])
    #expect(try await rules(document, files: ["pair.yaml": side]).isEmpty)
  }

  @Test func imageFailed() async throws {
    #expect(
      try await rules("items: [{ type: subtitle, text: T, subtitle: S, imageURL: \"bundle://missing.png\" }]") == [.imageFailed])
    #expect(try await rules("items: [{ type: subtitle, text: T, subtitle: S }]").isEmpty)
  }

  @Test func aDocumentSwitchesRulesOff() async throws {
    let item = "items: [{ type: text, text: Go, url: \"app://go\" }]"
    #expect(try await rules("table: { rowHeight: 30 }\nlint: { off: [tapTarget] }\n" + item).isEmpty)
    let folder = try TestSupport.temporaryDirectory()
    let url = folder.appendingPathComponent("table.yaml")
    try "lint: { off: [loud] }\n\(item)\n".write(to: url, atomically: true, encoding: .utf8)
    let error = #expect(throws: DocumentError.self) { try TableDocument.load(url, fontFamilies: ["Inter"]) }
    #expect("\(error!)".contains("1:15: lint.off[0]: 'loud' is not one of contrast, truncated"), "\(error!)")
  }

  @Test func findingsAreInTheManifestOnlyWhenLinting() async throws {
    let source = SectionedDataSource(sections: [TableSection(items: [TextItem(text: "Hi")])])
    var renderer = TableRenderer()
    let plain = try await renderer.render(source, outputs: [])
    #expect(plain.manifest.rows[0].findings == nil)
    renderer.lint = LintOptions()
    let linted = try await renderer.render(source, outputs: [])
    #expect(linted.manifest.rows[0].findings == [])
  }

  @Test func theBuiltInDarkStylesheetPassesContrastInEveryCatalogRow() async throws {
    for style in TableStyle.allCases {
      var renderer = try TestSupport.catalogRenderer(style: style).rendering(Variant(appearance: .dark))
      renderer.lint = LintOptions(disabled: Set(LintRule.allCases).subtracting([.contrast]))
      let rendered = try await renderer.render(Catalog.dataSource(), outputs: [])
      let found = rendered.manifest.rows.filter { !($0.findings ?? []).isEmpty }
      #expect(found.isEmpty, "\(style): \(found.map { "\($0.name) \($0.findings!)" })")
    }
  }
}
