import Foundation
import RowKit
import RowKitGraphics
import RowKitTestSupport
import Testing

/// The `locale` axis: Android's pseudo-locales en-XA (accented, bracketed, padded) and ar-XB
/// (every word right to left, rows mirrored), applied to every text a row shapes.
@Suite struct PseudoLocaleTests {
  static let rightToLeftMarks: Set<Unicode.Scalar> = ["\u{200F}", "\u{202E}", "\u{202C}"]

  /// Whether `text` holds a plain ASCII letter: text that escaped en-XA.
  static func hasASCIILetter(_ text: String) -> Bool {
    text.unicodeScalars.contains { $0.isASCII && $0.properties.isAlphabetic }
  }

  /// The padding en-XA added to `original`, checked against Android's rule: more characters
  /// than the target (half the text's length, or all of it past three counted words), and
  /// stopping at the end of the padding word that passes the target.
  static func expectPaddingWithinAndroidsRule(_ original: String, _ transformed: String) {
    let target = PseudoLocale.paddingTarget(forLength: original.count, words: PseudoLocale.countedWords(original))
    // "[" + text + " " + padding + "]"
    let paddingLength = transformed.count - original.count - 3
    let longestWord = PseudoLocale.paddingWords.map(\.count).max()!
    #expect(paddingLength > target, "'\(transformed)' pads \(paddingLength), not past \(target)")
    #expect(paddingLength <= target + longestWord + 1, "'\(transformed)' pads \(paddingLength) past \(target)")
  }

  @Test func enXAAccentsEveryLetterBracketsAndPads() {
    let locale = PseudoLocale.accented
    #expect(locale.transform("OK") == "[ÖĶ öñé]")
    #expect(locale.transform("Airplane Mode") == "[Åîŕþļáñé Ḿöðé öñé ţŵö]")
    #expect(locale.transform("acen") == "[áçéñ öñé]")
    // Digits stay digits; signs that Android swaps are swapped.
    #expect(locale.transform("12.4 GB!").hasPrefix("[12.4 Ĝβ¡ "))
    #expect(!Self.hasASCIILetter(locale.transform(String((65...90).map { Character(Unicode.Scalar($0)!) }) + "abcdefghijklmnopqrstuvwxyz")))
    // Text of another script is left as it is, and only padded.
    #expect(locale.transform("عمر").hasPrefix("[عمر "))
    for text in ["OK", "Settings", "Wi-Fi only", "Downloads continue over Wi-Fi only unless cellular is checked."] {
      Self.expectPaddingWithinAndroidsRule(text, locale.transform(text))
    }
  }

  /// Android's rule grows short texts most: a two-letter word triples, a sentence takes half.
  @Test func shortTextsGrowMost() {
    func growth(_ text: String) -> Double {
      Double(PseudoLocale.accented.transform(text).count) / Double(text.count)
    }
    #expect(growth("OK") == 4)
    #expect(growth("Settings") > 1.8)
    let sentence = "Downloads continue over Wi-Fi only unless cellular is checked."
    #expect(growth(sentence) > 1.5 && growth(sentence) < 1.7)
    #expect(growth("OK") > growth("Settings") && growth("Settings") > growth(sentence))
    // More than three words Android counts (words starting with a digit here): the padding is as long as the text.
    #expect(PseudoLocale.countedWords("1 2 3 4") == 4)
    #expect(PseudoLocale.paddingTarget(forLength: 7, words: 4) == 7)
    #expect(PseudoLocale.padding(forLength: 7, words: 4) == "one two three")
    #expect(PseudoLocale.padding(forLength: 1, words: 0) == "one")
  }

  /// The padding is Android's to the character (aapt2's `Pseudolocalizer.cpp`): words counted
  /// by Android's table, in which `F` is a plain letter; its padding words, spelled as it
  /// spells them; and its recursion past the last of them.
  @Test func paddingIsAndroidsToTheCharacter() {
    #expect(PseudoLocale.countedWords("From Five Fine Farms") == 4)
    #expect(PseudoLocale.accented.transform("From Five Fine Farms") == "[Ƒŕöḿ Ƒîṽé Ƒîñé Ƒáŕḿš öñé ţŵö ţĥŕéé ƒöûŕ ƒîṽé]")
    #expect(PseudoLocale.countedWords("Settings for you") == 0)
    let all = "one two three four five six seven eight nine ten eleven twelve thirteen fourteen fiveteen sixteen seventeen nineteen twenty"
    #expect(PseudoLocale.paddingWords.joined(separator: " ") == all)
    #expect(PseudoLocale.padding(forLength: 80, words: 4) == "one two three four five six seven eight nine ten eleven twelve thirteen fourteen fiveteen")
    // Past every word (123 characters): all of them, a space, and the padding of what is
    // left once both are counted (126 − 124 = 2).
    #expect(PseudoLocale.padding(forLength: 126, words: 4) == all + " one")
    #expect(PseudoLocale.padding(forLength: 250, words: 4) == all + " " + all + " one")
    #expect(PseudoLocale.padding(forLength: all.count, words: 4) == all)
    // A target inside the last word: aapt2 stops a letter short of the end.
    for target in 116...122 { #expect(PseudoLocale.padding(forLength: target, words: 4) == String(all.dropLast())) }
    #expect(PseudoLocale.padding(forLength: 115, words: 4) == String(all.dropLast(7)))
  }

  @Test func arXBWrapsEveryWordInAndroidsMarks() {
    #expect(PseudoLocale.bidi.transform("Wi-Fi only") == "\u{200F}\u{202E}Wi-Fi\u{202C}\u{200F} \u{200F}\u{202E}only\u{202C}\u{200F}")
    #expect(PseudoLocale.bidi.transform(" a ") == " \u{200F}\u{202E}a\u{202C}\u{200F} ")
    #expect(PseudoLocale.bidi.direction == .rtl && PseudoLocale.accented.direction == nil)
  }

  /// A styled text's runs stay on their characters: the bold word is still the bold word.
  @Test func runsFollowTheirCharacters() {
    let runs = [TextRun(4..<8, .weight(700))]
    let accented = PseudoLocale.accented.transform("Say bold now", runs: runs)
    let scalars = Array(accented.text.unicodeScalars)
    #expect(String(String.UnicodeScalarView(scalars[accented.runs[0].range])) == "ɓöļð")
    let bidi = PseudoLocale.bidi.transform("Say bold now", runs: runs)
    let bidiScalars = Array(bidi.text.unicodeScalars)
    #expect(String(String.UnicodeScalarView(bidiScalars[bidi.runs[0].range])).filter { $0.isLetter } == "bold")
  }

  @Test func localeIsAVariantAxisNamedBeforeTheTextSize() throws {
    #expect(Variant(textSize: .AX3, locale: .accented).fileName("case.png") == "case@en-XA,AX3.png")
    #expect(
      Variant(width: 320, textSize: .AX3, appearance: .dark, direction: .rtl, locale: .bidi).name
        == "320pt,dark,ar-XB,AX3,rtl")
    let axes = VariantAxes(textSizes: [.large, .AX3], locales: [.accented, .bidi])
    #expect(axes.variants.map(\.name) == ["en-XA,large", "en-XA,AX3", "ar-XB,large", "ar-XB,AX3"])
    #expect(VariantAxes(locales: [.bidi, .bidi]).problem == "the locale axis lists ar-XB twice")
    #expect(VariantAxes(locales: [.bidi]).overriding(with: VariantAxes(locales: [.accented])).locales == [.accented])
    let arXB = Variant(direction: .ltr, locale: .bidi).apply(to: TableConfiguration())
    #expect(arXB.direction == .rtl && arXB.pseudoLocale == .bidi)
    #expect(Variant(locale: .accented).apply(to: TableConfiguration()).direction == .ltr)
    // `en` is the texts as written, named beside the pseudo-locales.
    #expect(Variant(locale: .source).apply(to: TableConfiguration()) == TableConfiguration())
    #expect(PseudoLocale.source.transform("Airplane Mode") == "Airplane Mode")
    #expect(VariantAxes(locales: [.source, .accented, .bidi]).variants.map(\.name) == ["en", "en-XA", "ar-XB"])
  }

  /// `en` renders exactly as no locale at all, and a contact sheet shows it beside the others.
  @Test func theSourceLocaleRendersAsWritten() async throws {
    let renderer = try TestSupport.catalogRenderer(style: .grouped)
    let written = try await renderer.render(Catalog.dataSource())
    let source = try await renderer.rendering(Variant(locale: .source)).render(Catalog.dataSource())
    #expect(written.image == source.image)
    #expect(source.manifest.variant == "en")
  }

  @Test func aDocumentNamesItsLocales() throws {
    let families = try TextEnvironment.standard.makeShaper().families
    let folder = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let good = folder.appendingPathComponent("good.yaml")
    try "variants:\n  locale: [en-XA, ar-XB]\nitems:\n  - { type: text, text: Hi }\n".write(
      to: good, atomically: true, encoding: .utf8)
    #expect(try TableDocument.load(good, fontFamilies: families).variantAxes.locales == [.accented, .bidi])
    let bad = folder.appendingPathComponent("bad.yaml")
    try "variants:\n  locale: [en-XA, fr-XX]\nitems:\n  - { type: text, text: Hi }\n".write(
      to: bad, atomically: true, encoding: .utf8)
    let error = #expect(throws: (any Error).self) { try TableDocument.load(bad, fontFamilies: families) }
    let message = "\(error.map { "\($0)" } ?? "")"
    #expect(message.contains("bad.yaml:2"), "\(message)")
    #expect(message.contains("'fr-XX' is not one of en, en-XA, ar-XB"), "\(message)")
  }

  /// The tables the pseudo-locale tests lay out: the catalog, plain and grouped, and every sample document.
  static let tables = ["catalog-plain", "catalog-grouped", "people", "stocks", "settings", "feed", "features", "photos", "world"]

  static func table(_ name: String) throws -> (renderer: TableRenderer, dataSource: any TableDataSource) {
    switch name {
    case "catalog-plain": return (try TestSupport.catalogRenderer(style: .plain), Catalog.dataSource())
    case "catalog-grouped": return (try TestSupport.catalogRenderer(style: .grouped), Catalog.dataSource())
    default:
      let shaper = try TextEnvironment.standard.makeShaper()
      let document = try TableDocument.load(
        TestSupport.assets.appendingPathComponent("Samples/\(name).yaml"), fontFamilies: shaper.families)
      return (document.makeRenderer(), document.dataSource)
    }
  }

  /// In en-XA every text of every row, header and footer is the written text transformed:
  /// no plain ASCII letter left, padded within Android's rule, and no glyph missing.
  @Test(arguments: tables)
  func everyTextIsAccentedInEnXA(table name: String) throws {
    let (renderer, dataSource) = try Self.table(name)
    let written = try renderer.layout(dataSource)
    let accented = try renderer.rendering(Variant(locale: .accented)).layout(dataSource)
    #expect(written.rows.count == accented.rows.count)
    let before = written.allLabels
    let after = accented.allLabels
    #expect(before.map(\.name) == after.map(\.name), "\(name)")
    #expect(after.count > 5)
    for (plain, label) in zip(before, after) {
      let text = label.text.text
      #expect(!Self.hasASCIILetter(text), "\(name) \(label.name): '\(text)'")
      #expect(label.text.unknownGlyphCount == 0, "\(name) \(label.name): '\(text)'")
      #expect(text.first == "[", "\(name) \(label.name): '\(text)'")
      let expected = PseudoLocale.accented.transform(plain.text.text)
      // A label shapes only as much text as it can show; past that, the two agree.
      #expect(expected.hasPrefix(text), "\(name) \(label.name): '\(text)' is not '\(expected)'")
      if text == expected { Self.expectPaddingWithinAndroidsRule(plain.text.text, text) }
    }
    #expect(accented.rows.map(\.layout.missingGlyphCount).reduce(0, +) == 0)
  }

  /// In ar-XB every word of every text is in Android's right-to-left marks, no glyph is
  /// missing, and every row is mirrored exactly as `direction: rtl` mirrors it: each frame
  /// is the reflection of the same text laid out left to right, and the rows keep the
  /// heights and the accessories of the written text in `rtl`.
  @Test(arguments: tables)
  func everyTextIsRightToLeftAndMirroredInArXB(table name: String) throws {
    let (renderer, dataSource) = try Self.table(name)
    let arXB = try renderer.rendering(Variant(locale: .bidi)).layout(dataSource)
    for label in arXB.allLabels {
      let text = label.text.text
      #expect(label.text.unknownGlyphCount == 0, "\(name) \(label.name)")
      let words = text.split(whereSeparator: \.isWhitespace).map { String($0) }
      #expect(!words.isEmpty)
      for word in words {
        #expect(word.hasPrefix("\u{200F}\u{202E}"), "\(name) \(label.name): '\(text)'")
      }
      #expect(text.unicodeScalars.contains { Self.rightToLeftMarks.contains($0) })
    }
    // Words of other scripts forced backwards shape differently (Arabic letters no longer
    // join, Indic clusters reorder) and may take another font's line height: the table of
    // every script is checked for its marks and glyphs only.
    guard name != "world" else { return }
    let rtl = try renderer.rendering(Variant(direction: .rtl)).layout(dataSource)
    #expect(rtl.size == arXB.size, "\(name)")
    for (plain, pseudo) in zip(rtl.rows, arXB.rows) {
      let row = "\(name) s\(plain.section)-r\(plain.row) \(plain.layout.cellName)"
      #expect(plain.frame == pseudo.frame, "\(row)")
      #expect(pseudo.layout.direction == .rtl, "\(row)")
      if let a = plain.layout.accessory, let b = pseudo.layout.accessory {
        DirectionTests.expectSame(a.frame, b.frame, "\(row) accessory")
      }
      #expect(plain.layout.labels.map(\.name) == pseudo.layout.labels.map(\.name), "\(row)")
      // A label stands where its `rtl` label stands, on the same lines and against the same
      // edge; only its width may differ, by the kerning of its letters read backwards.
      for (a, b) in zip(plain.layout.labels, pseudo.layout.labels) {
        let tolerance = DirectionTests.tolerance
        #expect(abs(a.frame.y - b.frame.y) <= tolerance && abs(a.frame.height - b.frame.height) <= tolerance, "\(row) \(a.name)")
        #expect(
          abs(a.frame.minX - b.frame.minX) <= tolerance || abs(a.frame.maxX - b.frame.maxX) <= tolerance
            || abs(a.frame.midX - b.frame.midX) <= tolerance,
          "\(row) \(a.name): \(b.frame) is not aligned as \(a.frame)")
        #expect(abs(a.frame.width - b.frame.width) <= 0.05 * a.frame.width + 1, "\(row) \(a.name): \(b.frame), \(a.frame)")
        #expect(a.text.lineCount == b.text.lineCount, "\(row) \(a.name)")
      }
      for (a, b) in zip(plain.layout.images, pseudo.layout.images) {
        DirectionTests.expectSame(a.frame, b.frame, "\(row) image \(a.name)")
      }
    }
  }

  /// Text of many short words keeps every word in ar-XB: the four direction marks around each
  /// word take no room, and counted as letters they cut the text short of what the label had
  /// room for, with no ellipsis and no lint finding (11 of 24 "i"s drawn).
  @Test func shortWordsAreAllShownInArXBAsInRightToLeft() throws {
    let words = Array(repeating: "i", count: 24).joined(separator: " ")
    let item = SettingsItem(text: words, caption: "C")
    let renderer = TableRenderer(configuration: TableConfiguration(width: 375))
    let rtl = try TestSupport.layoutRow(item, renderer: renderer.rendering(Variant(direction: .rtl)))
    let arXB = try TestSupport.layoutRow(item, renderer: renderer.rendering(Variant(locale: .bidi)))
    let written = try #require(rtl.layout.label("text")).text
    let pseudo = try #require(arXB.layout.label("text")).text
    #expect(written.text.filter { $0 == "i" }.count == 24 && !written.isEllipsized)
    #expect(pseudo.text.filter { $0 == "i" }.count == 24, "'\(pseudo.text)'")
    #expect(pseudo.isEllipsized == written.isEllipsized)
  }

  /// Every table, the catalog and each sample, renders in each pseudo-locale to the same PNG
  /// bytes every time, with no glyph missing in the render, and not to the bytes of the
  /// table as written.
  @Test(arguments: tables, [PseudoLocale.accented, .bidi])
  func pseudoLocalesRenderDeterministically(table name: String, locale: PseudoLocale) async throws {
    let (renderer, dataSource) = try Self.table(name)
    let pseudo = renderer.rendering(Variant(locale: locale))
    let first = try await pseudo.render(dataSource)
    let second = try await pseudo.render(dataSource)
    #expect(try first.pngData() == second.pngData(), "\(name) \(locale.rawValue)")
    #expect(first.manifest.rowsWithMissingGlyphs.isEmpty, "\(name) \(locale.rawValue)")
    #expect(first.manifest.variant == locale.rawValue)
    let written = try await renderer.render(dataSource)
    #expect(try written.pngData() != first.pngData(), "\(name) \(locale.rawValue)")
  }
}
