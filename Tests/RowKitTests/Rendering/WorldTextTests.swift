import Foundation
import RowKitGraphics
import RowKitSnapshot
import RowKitSnapshotAssertions
import RowKitTestSupport
import Testing

@testable import RowKit

/// Text of the whole world: every script drawn by a loaded font, emoji in color and in the
/// line, characters no font has counted and named, brand fonts, and the one-layout rule with
/// fallback fonts.
@Suite struct WorldTextTests {
  static func layout(_ item: any TableItem, environment: TextEnvironment = .standard) throws -> RowLayout {
    let renderer = TableRenderer(environment: environment)
    return try renderer.layout(SectionedDataSource(sections: [TableSection(items: [item])])).rows[0].layout
  }

  /// Pixels whose channels differ by more than 60 of 255: color, not gray text.
  static func colorfulPixels(_ bitmap: Bitmap, in frame: Rect, scale: Double) -> Int {
    var count = 0
    let x0 = max(0, Int(frame.x * scale)), x1 = min(bitmap.width, Int((frame.x + frame.width) * scale))
    let y0 = max(0, Int(frame.y * scale)), y1 = min(bitmap.height, Int((frame.y + frame.height) * scale))
    for y in y0..<y1 {
      for x in x0..<x1 {
        let offset = (y * bitmap.width + x) * 4
        let channels = bitmap.pixels[offset..<offset + 3]
        if Int(channels.max()!) - Int(channels.min()!) > 60 { count += 1 }
      }
    }
    return count
  }

  @Test func theWorldSampleDrawsEveryCharacterOfFifteenScriptsAndEmoji() async throws {
    let document = try TableDocument.load(
      TestSupport.assets.appendingPathComponent("Samples/world.yaml"), fontFamilies: TextEnvironment.standard.fontSet().families)
    let rendered = try await document.render(with: document.makeRenderer(), outputs: [.rows])
    let layout = try document.makeRenderer().layout(document.dataSource)
    #expect(rendered.manifest.rows.count == 19)
    for row in rendered.manifest.rows {
      #expect(row.missingGlyphs == 0, "\(row.name): \(row.missingCharacters ?? [])")
    }
    // The family row's message has 👍🏽, 🎉 and ❤️, drawn in color. (Noto's 👨‍👩‍👧 in its
    // title is gray by design.)
    let family = try #require(layout.rows.first { $0.layout.labels.contains { $0.text.text.hasPrefix("Family") } })
    let title = try #require(family.layout.labels.first { $0.text.text.contains("Sounds good") })
    let index = layout.rows.firstIndex { $0.section == family.section && $0.row == family.row }!
    let colorful = Self.colorfulPixels(rendered.rowImages[index], in: title.frame, scale: 2)
    #expect(colorful > 150, "\(title.frame) in \(rendered.rowImages[index].width)×\(rendered.rowImages[index].height)")
  }

  @Test func emojiAreDrawnInColorAndTextIsNot() async throws {
    for (text, expectsColor) in [("👍🏽", true), ("🇯🇵", true), ("❤️", true), ("Plain text", false), ("東京", false)] {
      let item = TextItem(text: text)
      let layout = try Self.layout(item)
      let bitmap = try await TableRenderer().render(ListDataSource(items: [item]), outputs: [.rows]).rowImages[0]
      let colorful = Self.colorfulPixels(bitmap, in: layout.labels[0].frame, scale: 2)
      #expect(expectsColor ? colorful > 100 : colorful == 0, "\(text): \(colorful) colorful pixels")
      #expect(layout.missingGlyphCount == 0)
    }
  }

  /// A line's height comes from the fonts it uses. Emoji stay within 0.3% of Inter's line
  /// (20.62 against 20.57 points at 17 points); Noto Sans CJK's ascent and descent are
  /// larger than Inter's, so a line with Han or Hangul is taller, measured once and painted
  /// at that height.
  @Test func emojiKeepTheLineHeightOfTheTextAndCJKLinesAreMeasuredTaller() throws {
    let latin = try Self.layout(TextItem(text: "Hello"))
    #expect(latin.labels[0].frame.height == 20.57421875)
    for text in ["Hello 👍🏽", "Hello 👨‍👩‍👧 🇯🇵"] {
      let mixed = try Self.layout(TextItem(text: text))
      #expect(abs(mixed.labels[0].frame.height - latin.labels[0].frame.height) < 0.05, "\(text)")
      #expect(mixed.height <= latin.height + 1, "\(text)")
    }
    for text in ["Hello 東京", "Hello 東京 👍🏽 서울"] {
      let mixed = try Self.layout(TextItem(text: text))
      #expect(mixed.labels[0].frame.height == 24.6162109375, "\(text)")
    }
    // Emoji follow the font size: at twice the size the label is twice as wide.
    let shaper = try TextEnvironment.standard.makeShaper()
    let small = shaper.shape("👍🏽👍🏽", style: TextStyle(font: Font(family: "Inter", size: 17)))
    let large = shaper.shape("👍🏽👍🏽", style: TextStyle(font: Font(family: "Inter", size: 34)))
    #expect(abs(large.size.width - 2 * small.size.width) < 0.01)
    #expect(small.size.width > 30 && small.size.width < 50)
  }

  /// Private-use characters that no font in the set draws. (Inter draws some of U+E000…:
  /// its own private-use glyphs, so those are not missing.)
  @Test func aPrivateUseCharacterIsCountedAndNamed() async throws {
    let layout = try Self.layout(SubtitleItem(text: "Private \u{F0000}", subtitle: "and \u{F8FF}\u{F0000}"))
    #expect(layout.missingGlyphCount == 3)
    #expect(layout.missingCharacters == ["\u{F0000}", "\u{F8FF}"])
    let manifest = try await TableRenderer().measure(
      SectionedDataSource(sections: [TableSection(items: [TextItem(text: "ok"), TextItem(text: "x \u{F0000}")])]))
    #expect(manifest.rows.map(\.missingGlyphs) == [0, 1])
    #expect(manifest.rows[1].missingCharacters == ["U+F0000"])
    #expect(manifest.rows[1].missingGlyphWarning(file: "t.yaml") == "t.yaml: row 1 (s0-r1): no glyph for U+F0000")
  }

  @Test func hanCharactersTakeTheFormsOfTheTablesLanguage() throws {
    let text = "直骨"
    let font = Font(family: "Inter", size: 17)
    let expected = [
      "en-us": "Noto Sans CJK SC", "zh-Hans": "Noto Sans CJK SC", "ja": "Noto Sans CJK JP", "ko": "Noto Sans CJK KR",
      "zh-Hant": "Noto Sans CJK TC", "zh-TW": "Noto Sans CJK TC", "zh-HK": "Noto Sans CJK HK",
    ]
    for (language, family) in expected {
      let shaper = try TextEnvironment.standard(language: language).makeShaper()
      #expect(shaper.fontRuns(text, font: font).map(\.family) == [family], "\(language)")
    }
  }

  @Test func theFallbackOrderIsFixedAndWrittenDown() throws {
    let fallback = try TextEnvironment.standard.fontSet().fallbackFamilies
    #expect(Array(fallback.prefix(4)) == ["Inter", "DejaVu Sans", "DejaVu Sans Mono", "Noto Sans"])
    #expect(fallback.last == "Noto Color Emoji")
    let shaper = try TextEnvironment.standard.makeShaper()
    let runs = shaper.fontRuns("Aब ก አ 東 👍", font: Font(family: "Inter", size: 17))
    // A space after a character goes with that character's font.
    #expect(runs.map(\.family) == [
      "Inter", "Noto Sans Devanagari", "Noto Sans Thai", "Noto Sans Ethiopic", "Noto Sans CJK SC", "Noto Color Emoji",
    ])
  }

  @Test func mixedLabelsKeepTheOneLayoutRuleAndRenderTheSameBytesOnAnyWorkers() async throws {
    let folder = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let items: [any TableItem] = [
      TextItem(text: "Tokyo 東京 👍🏽 and 서울 with नमस्ते"),
      SubtitleItem(text: "Trip ✈️ 東京 🇯🇵", subtitle: "Long mixed text: 東京 and Seoul 서울 and São Paulo 🇧🇷 " + String(repeating: "字", count: 60)),
      MessageItem(title: "家族 👨‍👩‍👧", caption: "مرحبا", text: "שלום עולם, hello 世界 🎉", timestamp: Catalog.now),
    ]
    let source = SectionedDataSource(sections: [TableSection(items: items)])
    var bytes: [Data] = []
    for workers in [1, 2, 1] {
      let renderer = TableRenderer(pool: RenderPool(workers: workers))
      let name = "w\(workers)-\(bytes.count)"
      let report = try await renderer.render(
        source,
        to: .init(
          table: folder.appendingPathComponent("\(name).png"), rowsDirectory: folder.appendingPathComponent(name),
          manifest: folder.appendingPathComponent("\(name).json")))
      #expect(report.rowsWithMissingGlyphs.isEmpty)
      for row in report.manifest.rows {
        let image = try PNG.decode(contentsOf: folder.appendingPathComponent(name).appendingPathComponent(row.file!))
        #expect(Double(image.height) == row.height * 2, "\(row.name)")
        #expect(row.missingGlyphs == 0)
      }
      bytes.append(try Data(contentsOf: folder.appendingPathComponent("\(name).png")))
    }
    #expect(bytes[0] == bytes[1])
    #expect(bytes[1] == bytes[2])
  }

  @Test func aBrandFontIsUsedByAStylesheetAndFingerprinted() async throws {
    let folder = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    // Noto Serif: an OFL font from fonts-noto-core that RowKit does not load by default.
    let serif = "/usr/share/fonts/truetype/noto/NotoSerif-Regular.ttf"
    #expect(!TextEnvironment.standard.fontFiles.contains { $0.path == serif })
    try """
      fonts: [\(serif)]
      vars: { tableFont: "Noto Serif 17" }
      """.write(to: folder.appendingPathComponent("brand.yaml"), atomically: true, encoding: .utf8)
    try """
      stylesheet: brand.yaml
      items: [{ type: text, text: Brand text }]
      """.write(to: folder.appendingPathComponent("table.yaml"), atomically: true, encoding: .utf8)
    let document = try TableDocument.load(
      folder.appendingPathComponent("table.yaml"), fontFamilies: TextEnvironment.standard.fontSet().families)
    #expect(document.stylesheet.fonts.map(\.families) == [["Noto Serif"]])
    let environment = document.textEnvironment
    #expect(environment.brandFontFiles.map(\.path) == [serif])
    let shaper = try environment.makeShaper()
    #expect(shaper.fontRuns("Brand", font: Font(family: "Noto Serif", size: 17)).map(\.family) == ["Noto Serif"])
    let layout = try document.makeRenderer().layout(document.dataSource)
    #expect(layout.rows[0].layout.labels[0].text.style.font.family == "Noto Serif")
    let fingerprint = EnvironmentFingerprint.current(environment)
    let entry = try #require(fingerprint.fonts.first { $0.file == serif })
    #expect(entry.sha256.count == 64)
    #expect(
      EnvironmentFingerprint.current(.standard).differences(from: fingerprint) == ["font NotoSerif-Regular.ttf added"])
  }

  @Test func aMissingOrCorruptBrandFontNamesTheFileAndLine() throws {
    let folder = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    try Data("not a font".utf8).write(to: folder.appendingPathComponent("corrupt.ttf"))
    for (fonts, expected) in [
      ("[missing.ttf]", "t.yaml:1:9: fonts[0]: font file 'missing.ttf' does not exist"),
      ("[corrupt.ttf]", "t.yaml:1:9: fonts[0]: font file 'corrupt.ttf':"),
      ("[notes.txt]", "t.yaml:1:9: fonts[0]: font file 'notes.txt' is not a .ttf, .otf or .ttc file"),
    ] {
      let url = folder.appendingPathComponent("t.yaml")
      try "fonts: \(fonts)\nitems: [{ type: text, text: x }]\n".write(to: url, atomically: true, encoding: .utf8)
      #expect {
        try TableDocument.load(url, fontFamilies: TextEnvironment.standard.fontSet().families)
      } throws: { error in
        "\(error)".hasSuffix(expected) || "\(error)".contains(expected)
      }
    }
  }
}
