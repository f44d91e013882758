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
    // Large text: 24 points, or 18.67 bold.
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
    // A checker of declared colors reads the gradient's first color, and passes it.
    #expect(try declaredContrast("#FFFFFF", on: "#101010") > 4.5)
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

  /// A styled text's spans are judged as they are drawn: a faint color, a small font inside
  /// a label whose own font is large, a highlight under the words.
  @Test func styledTextIsJudgedRunByRun() async throws {
    let stylesheet = """
      extends: default
      vars: { font: "Inter Bold 24" }
      styles:
        faint: [ { text: { color: "#DDDDDD" } } ]
        tiny: [ { text: { font: "Inter 10", color: "#949494" } } ]
        large: [ { text: { color: "#949494" } } ]
        dark: [ { fill: "#000000" } ]
      """
    func findings(_ text: String) async throws -> [LintFinding] {
      try await self.findings("stylesheet: s.yaml\nitems:\n  - { type: styledText, text: '\(text)' }\n", files: ["s.yaml": stylesheet])
    }
    #expect(try await findings("Plain words in black").isEmpty)
    let faint = try await findings(#"Plain <span class="faint">faint words here</span>"#)
    #expect(faint.map(\.rule) == [.contrast], "\(faint)")
    #expect(faint.first?.message.hasPrefix("text #DDDDDD on #FFFFFF is 1.36:1") == true, "\(faint)")
    // #949494 on white is 3.03:1: enough for the label's bold 24 points, not for 10 points.
    #expect(try await findings(#"Big <span class="large">gray words that are large</span>"#).isEmpty)
    let tiny = try await findings(#"<span class="tiny">tiny gray text that is small</span>"#)
    #expect(tiny.first?.message.hasSuffix("below WCAG AA's 4.5:1 for 10-point text") == true, "\(tiny)")
    // Nested: the inner span starts later and wins, as in Pango, whichever closed first.
    let nested = try await findings(#"<span class="large">Readable words <span class="faint">hidden faint words</span></span>"#)
    #expect(nested.first?.message.hasPrefix("text #DDDDDD on #FFFFFF is 1.36:1") == true, "\(nested)")
    let highlighted = try await findings(#"On <span class="dark">black highlight</span>"#)
    #expect(highlighted.first?.message.hasPrefix("text #000000 on #000000 is 1.00:1") == true, "\(highlighted)")
  }

  /// A section's header and footer are text a reader reads: judged as a row's labels are,
  /// and named by their band (`s0-header`) and known to a baseline by their text.
  @Test func headersAndFootersAreJudgedToo() async throws {
    let folder = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let url = folder.appendingPathComponent("table.yaml")
    func lines(_ color: String) async throws -> [String] {
      try """
        stylesheet: { vars: { tableFooterTextColor: "\(color)", tableGroupedHeaderTextColor: "\(color)" } }
        table: { style: grouped }
        sections:
          - { header: Features, footer: Some footer text here, items: [{ type: text, text: Hello }] }
        """.write(to: url, atomically: true, encoding: .utf8)
      let document = try TableDocument.load(url, fontFamilies: try TextEnvironment.standard.fontSet().families)
      let reports = try await document.lint(with: document.makeRenderer(), name: "table.yaml")
      #expect(reports.flatMap(\.rows).filter { $0.band != nil }.map(\.title) == (color == "#DDDDDD" ? ["Features", "Some footer text here"] : []))
      return reports.flatMap(\.lines)
    }
    let faint = try await lines("#DDDDDD")
    #expect(faint.count == 2, "\(faint)")
    #expect(faint.first?.hasPrefix("table.yaml: s0-header (section header) contrast [header]: text #DDDDDD on #") == true, "\(faint)")
    #expect(faint.last?.hasPrefix("table.yaml: s0-footer (section footer) contrast [footer]: text #DDDDDD on #") == true, "\(faint)")
    #expect(try await lines("#202020").isEmpty)
  }

  /// Only pixels under a glyph's ink count: a dark image in a corner of a label's box that no
  /// letter touches is no background of its text, and one that a letter stands on is.
  @Test func contrastReadsOnlyThePixelsUnderTheGlyphs() async throws {
    let folder = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    try Data(PNG.encode(Bitmap(width: 120, height: 32, color: .black))).write(to: folder.appendingPathComponent("black.png"))
    func findings(align: String) async throws -> [LintFinding] {
      try """
        padding: 10
        body:
          zstack:
            align: start
            children:
              - image: { url: black.png, width: 60, height: 16 }
              - label: { bind: t, font: "Inter 17", color: "#000000", lines: 0, align: \(align), name: words }
        """.write(to: folder.appendingPathComponent("corner.yaml"), atomically: true, encoding: .utf8)
      let url = folder.appendingPathComponent("table.yaml")
      try """
        cells: { Corner: corner.yaml }
        lint: { off: [overlap] }
        items: [{ type: Corner, t: "Hi\\nThis is a much longer second line" }]
        """.write(to: url, atomically: true, encoding: .utf8)
      let document = try TableDocument.load(url, fontFamilies: try TextEnvironment.standard.fontSet().families)
      return try await document.lint(with: document.makeRenderer(), name: "table.yaml").flatMap { $0.rows.flatMap(\.findings) }
    }
    #expect(try await findings(align: "right").isEmpty, "the black corner is under no glyph")
    let over = try await findings(align: "left")
    #expect(over.first?.message.hasPrefix("text #000000 on #000000 is 1.00:1") == true, "\(over)")
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

  /// Two labels that overlap both have no headroom: the finding names the first, and the
  /// second was measured as fitting at +100%.
  @Test func anOverlapEndsBothLabelsHeadroom() throws {
    let folder = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let stacked = "body: { zstack: { children: [ { label: { bind: a } }, { label: { bind: b, align: right } } ] } }\n"
    try stacked.write(to: folder.appendingPathComponent("pair.yaml"), atomically: true, encoding: .utf8)
    let url = folder.appendingPathComponent("table.yaml")
    try "cells: { Pair: pair.yaml }\nitems: [{ type: Pair, a: Left, b: Right }]".write(to: url, atomically: true, encoding: .utf8)
    let document = try TableDocument.load(url, fontFamilies: try TextEnvironment.standard.fontSet().families)
    let slots = try document.makeRenderer().headroom(document.dataSource)
    #expect(slots.map(\.label).sorted() == ["label0", "label1"])
    for slot in slots { #expect(slot.percent == nil && slot.limit == .overlap, "\(slot)") }
    // The other label is not in a finding's JSON, and a finding read back equals it.
    let finding = LintFinding(rule: .overlap, label: "label0", message: "the label overlaps the label 'label1'", otherLabel: "label1")
    let decoded = try JSONDecoder().decode(LintFinding.self, from: JSONEncoder().encode(finding))
    #expect(decoded.otherLabel == nil && decoded == finding && decoded.hashValue == finding.hashValue)
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

  /// What a checker of declared colors computes: the label's color against the background
  /// color the row's style declares, whatever is drawn between them.
  func declaredContrast(_ text: String, on background: String) throws -> Double {
    WCAGContrast.ratio(try #require(Color(hex: text)), try #require(Color(hex: background)))
  }

  /// A photo-like picture, `width` × `height` pixels: dark woods on the left, a bright
  /// overcast sky with clouds in the middle (or, `dusk`, a night sky there), dark water on
  /// the right; every pixel a little different, as in a photo.
  static func photo(width: Int, height: Int, dusk: Bool) -> Bitmap {
    var pixels = [UInt8](repeating: 255, count: width * height * 4)
    for y in 0..<height {
      for x in 0..<width {
        let (u, v) = (Double(x) / Double(width), Double(y) / Double(height))
        let grain = 0.04 * sin(Double(x) * 0.9) * cos(Double(y) * 1.3) + 0.03 * sin(Double(x + 2 * y) * 0.21)
        var rgb: [Double]
        if u < 0.3 {
          rgb = [0.10, 0.17, 0.09]
        } else if u < 0.7 {
          let cloud = 0.06 * sin(u * 40) * sin(v * 9)
          rgb = dusk ? [0.11, 0.13, 0.22] : [0.87 + cloud, 0.91 + cloud, 0.95 + cloud]
        } else {
          rgb = [0.07, 0.12, 0.26]
        }
        let index = (y * width + x) * 4
        // Bitmap bytes are BGRA; the picture is opaque, so premultiplying changes nothing.
        for (offset, channel) in [2, 1, 0].enumerated() {
          pixels[index + channel] = UInt8((min(max(rgb[offset] + grain, 0), 1) * 255).rounded())
        }
      }
    }
    return Bitmap(width: width, height: height, pixels: pixels)
  }

  /// White text over a photo in an image slot, on a row whose style declares a dark
  /// background: the declared colors pass by far, but the pixels under the text are the
  /// photo's bright sky, so the pixel rule flags it. Over a dusk photo it passes. (The
  /// label lies over the image on purpose: the overlap rule is off.)
  @Test func lightTextOverAPhotoIsJudgedByThePhotosPixels() async throws {
    let folder = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    try Data(PNG.encode(Self.photo(width: 600, height: 80, dusk: false))).write(to: folder.appendingPathComponent("sky.png"))
    try Data(PNG.encode(Self.photo(width: 600, height: 80, dusk: true))).write(to: folder.appendingPathComponent("dusk.png"))
    try """
      background: night
      body:
        zstack:
          align: center
          children:
            - image: { name: photo, bind: photo, width: 300, height: 40, contentMode: scaleToFill }
            - label: { name: title, bind: title, font: "Bold 17", color: "#FFFFFF", lines: 1 }
      """.write(to: folder.appendingPathComponent("poster.yaml"), atomically: true, encoding: .utf8)
    func findings(photo: String) async throws -> [LintFinding] {
      let url = folder.appendingPathComponent("table.yaml")
      try """
        stylesheet: { styles: { night: [{ fill: "#1B2430" }] } }
        cells: { Poster: poster.yaml }
        lint: { off: [overlap] }
        items: [{ type: Poster, title: Evening, photo: \(photo) }]
        """.write(to: url, atomically: true, encoding: .utf8)
      let document = try TableDocument.load(url, fontFamilies: try TextEnvironment.standard.fontSet().families)
      return try await document.lint(with: document.makeRenderer(), name: "table.yaml").flatMap { $0.rows.flatMap(\.findings) }
    }
    // The declared rule: white on the row's declared #1B2430 is far above WCAG AA.
    #expect(try declaredContrast("#FFFFFF", on: "#1B2430") > 14)

    let sky = try await findings(photo: "sky.png")
    #expect(sky.map(\.rule) == [.contrast], "the photo loads (no imageFailed) and fails contrast: \(sky)")
    let message = sky.first?.message ?? ""
    #expect(sky.first?.label == "title")
    #expect(message.hasPrefix("text #FFFFFF on #"), "\(message)")
    // The photo's grain: the worst pixel and the 5th percentile are different colors.
    #expect(message.contains(" at worst, ") && message.contains(" at the 5th percentile, below WCAG AA's 4.5:1"), "\(message)")
    // The worst ratio and the 5th percentile are both of white on the bright sky, under
    // 1.5:1; the third ratio named is the threshold.
    let ratios = message.split(separator: " ").compactMap { word -> Double? in
      guard word.hasSuffix(":1") || word.hasSuffix(":1,") else { return nil }
      return Double(word.prefix { $0 != ":" })
    }
    #expect(ratios.count == 3 && ratios[0] < 1.5 && ratios[1] < 1.5 && ratios[0] <= ratios[1] && ratios[2] == 4.5, "\(message)")

    #expect(try await findings(photo: "dusk.png").isEmpty)
  }

  /// Dark text on white passes both rules; so does a flat color just above the threshold
  /// (#767676 on white, 4.54:1, in ``contrastFindsGray777777OnWhiteAndPasses767676``).
  @Test func darkTextOnWhitePassesBothRules() async throws {
    #expect(try declaredContrast("#000000", on: "#FFFFFF") == 21)
    #expect(try await findings("items: [{ type: text, text: Hello }]").isEmpty)
    #expect(try declaredContrast("#767676", on: "#FFFFFF") >= 4.5)
  }
}
