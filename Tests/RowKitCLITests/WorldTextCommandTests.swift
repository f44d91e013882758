import Foundation
import RowKitGraphics
import RowKitTestSupport
import Testing

/// Missing glyphs, `--strict`, brand fonts and `rowkit fonts`, through the built binary.
@Suite struct WorldTextCommandTests {
  static let privateUse = "\u{F0000}"

  static func document(in folder: URL, _ text: String, extra: String = "") throws -> String {
    let url = folder.appendingPathComponent("table.yaml")
    try "\(extra)items:\n  - { type: text, text: ok }\n  - { type: text, text: \"\(text)\" }\n"
      .write(to: url, atomically: true, encoding: .utf8)
    return url.path
  }

  @Test func aMissingGlyphIsWarnedAboutAndInTheManifest() async throws {
    let folder = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let table = try Self.document(in: folder, "Private \(Self.privateUse) char")
    let result = try await CommandRunner.run(
      ["render", table, "-o", folder.appendingPathComponent("t.png").path, "--manifest", folder.appendingPathComponent("t.json").path])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stderr == "rowkit: warning: \(table): row 1 (s0-r1): no glyph for U+F0000\n")
    let manifest = try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent("t.json"))) as! [String: Any]
    let rows = manifest["rows"] as! [[String: Any]]
    #expect(rows.map { $0["missingGlyphs"] as? Int } == [0, 1])
    #expect(rows[1]["missingCharacters"] as? [String] == ["U+F0000"])
  }

  /// Han forms come from the document's language alone: the user's `LANGUAGE` or
  /// `PANGO_LANGUAGE` (which Pango reads) drew Japanese forms on one machine and Chinese on
  /// another; `language: ja` still draws Japanese ones.
  @Test func theUsersLanguageVariablesChangeNoPixel() async throws {
    let folder = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let table = try Self.document(in: folder, "直角 誤解 骨 这是一个句子", extra: "table: { scale: 2 }\n")
    var images: [Data] = []
    // Through env(1): this process's own shapers have set PANGO_LANGUAGE, which rowkit would
    // inherit and which would hide LANGUAGE.
    for (index, variables) in [["-u", "PANGO_LANGUAGE"], ["-u", "PANGO_LANGUAGE", "LANGUAGE=ja"], ["PANGO_LANGUAGE=ja:ko"]].enumerated() {
      let png = folder.appendingPathComponent("t\(index).png")
      let result = try await CommandRunner.runProgram(
        URL(fileURLWithPath: "/usr/bin/env"), variables + [CommandRunner.binary.path, "render", table, "-o", png.path])
      #expect(result.status == 0, "\(variables): \(result.stderr)")
      images.append(try Data(contentsOf: png))
    }
    #expect(images[1] == images[0] && images[2] == images[0])
    let japanese = folder.appendingPathComponent("ja.png")
    #expect(try await CommandRunner.run(["render", table, "-o", japanese.path, "--language", "ja"]).status == 0)
    #expect(try Data(contentsOf: japanese) != images[0], "the document's language still picks the forms")
  }

  /// FreeType's and HarfBuzz's own variables change no pixel either:
  /// `FREETYPE_PROPERTIES=cff:no-stem-darkening=0` (which font-tuning guides put in
  /// `/etc/environment`) drew Inter's and Noto Sans CJK's stems darker, and
  /// `HB_SHAPER_LIST=fallback` dropped the fonts' own shaping of Devanagari and Arabic.
  @Test func theUsersFreeTypeAndHarfBuzzVariablesChangeNoPixel() async throws {
    let folder = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    // Stem darkening shows on small CFF text: Noto Sans CJK at the subtitle's 13 points.
    let table = folder.appendingPathComponent("subtitle.yaml").path
    try """
      table: { scale: 2 }
      items:
        - { type: subtitle, text: "明天下午三点开会 Inter text नमस्ते مرحبا", subtitle: "謝謝你的幫忙 small grey Inter text" }

      """.write(toFile: table, atomically: true, encoding: .utf8)
    var images: [Data] = []
    let settings = [
      ["-u", "FREETYPE_PROPERTIES", "-u", "HB_SHAPER_LIST"], ["FREETYPE_PROPERTIES=cff:no-stem-darkening=0"], ["HB_SHAPER_LIST=fallback"],
    ]
    for (index, variables) in settings.enumerated() {
      let png = folder.appendingPathComponent("t\(index).png")
      let result = try await CommandRunner.runProgram(
        URL(fileURLWithPath: "/usr/bin/env"), variables + [CommandRunner.binary.path, "render", table, "-o", png.path])
      #expect(result.status == 0, "\(variables): \(result.stderr)")
      images.append(try Data(contentsOf: png))
    }
    #expect(images[1] == images[0], "FREETYPE_PROPERTIES changed the pixels")
    #expect(images[2] == images[0], "HB_SHAPER_LIST changed the pixels")
  }

  /// `..` is taken out of a path as written, however the document is named (relative,
  /// absolute, through a link before a `..`): the files read are the ones the words name,
  /// and the document read is the one an output may not replace.
  @Test func aPathNamesTheSameFilesHoweverTheDocumentIsNamed() async throws {
    let folder = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let manager = FileManager.default
    try manager.createDirectory(at: folder.appendingPathComponent("docs"), withIntermediateDirectories: true)
    try manager.createDirectory(at: folder.appendingPathComponent("other/sub"), withIntermediateDirectories: true)
    try manager.createSymbolicLink(atPath: folder.appendingPathComponent("docs/link").path, withDestinationPath: "../other/sub")
    try "extends: default\nvars: { backgroundColor: \"#FFDDDD\" }\n".write(
      to: folder.appendingPathComponent("docs/s.yaml"), atomically: true, encoding: .utf8)
    try "extends: default\nvars: { backgroundColor: \"#2222AA\" }\n".write(
      to: folder.appendingPathComponent("other/s.yaml"), atomically: true, encoding: .utf8)
    let document = "stylesheet: link/../s.yaml\nitems: [{ type: text, text: Named }]\n"
    try document.write(to: folder.appendingPathComponent("docs/t.yaml"), atomically: true, encoding: .utf8)
    let names = ["docs/t.yaml", folder.appendingPathComponent("docs/t.yaml").path, folder.path + "/docs/link/../t.yaml"]
    var images: [Data] = []
    for (index, name) in names.enumerated() {
      let result = try await CommandRunner.run(["render", name, "-o", "t\(index).png"], in: folder)
      #expect(result.status == 0, "\(name): \(result.stderr)")
      images.append(try Data(contentsOf: folder.appendingPathComponent("t\(index).png")))
    }
    #expect(images[1] == images[0] && images[2] == images[0], "docs/s.yaml each time")
    let over = try await CommandRunner.run(
      ["render", names[2], "-o", "t.png", "--manifest", folder.appendingPathComponent("docs/t.yaml").path], in: folder)
    #expect(over.status == 2, "the document read is not replaced: \(over.stderr)")
    #expect(try String(contentsOf: folder.appendingPathComponent("docs/t.yaml"), encoding: .utf8) == document)
  }

  @Test func strictFailsWithStatusTwoAndWritesNothing() async throws {
    let folder = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let table = try Self.document(in: folder, "Private \(Self.privateUse)")
    let png = folder.appendingPathComponent("t.png")
    let result = try await CommandRunner.run([
      "render", table, "-o", png.path, "--rows-dir", folder.appendingPathComponent("rows").path, "--manifest",
      folder.appendingPathComponent("t.json").path, "--strict",
    ])
    #expect(result.status == 2)
    #expect(result.stderr.contains("\(table): row 1 (s0-r1): no glyph for U+F0000"))
    #expect(result.stderr.contains("rowkit: error: \(table): 1 row has characters no font can draw (--strict); nothing was written"))
    var left = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    #expect(left == ["table.yaml"])
    // Variants are laid out before any is painted: the first to fail is named, with its row.
    let variants = try await CommandRunner.run(["render", table, "-o", png.path, "--strict", "--variant-width", "320,400"])
    #expect(variants.status == 2)
    #expect(variants.stderr.contains("[320pt] \(table): row 1 (s0-r1): no glyph for U+F0000"), "\(variants.stderr)")
    #expect(variants.stderr.contains("rowkit: error: [320pt] \(table): 1 row has characters no font can draw (--strict)"))
    left = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    #expect(left == ["table.yaml"])
    // The same document without the character passes --strict.
    let clean = try Self.document(in: folder, "東京 👍🏽 नमस्ते")
    let ok = try await CommandRunner.run(["render", clean, "-o", png.path, "--strict"])
    #expect(ok.status == 0, "\(ok.stderr)")
    #expect(ok.stderr.isEmpty)
  }

  @Test func checkWarnsAboutMissingGlyphsAndStrictMakesThemAnError() async throws {
    let folder = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let cases = folder.appendingPathComponent("cases")
    try FileManager.default.createDirectory(at: cases, withIntermediateDirectories: true)
    let table = try Self.document(in: cases, "Private \(Self.privateUse)")
    let snapshots = folder.appendingPathComponent("refs")
    let strict = try await CommandRunner.run(
      ["check", cases.path, "--snapshots", snapshots.path, "--record", "missing", "--strict"], environment: ["CI": ""])
    #expect(strict.status == 2, "\(strict.stdout)")
    #expect(strict.stderr.contains("\(table): row 1 (s0-r1): no glyph for U+F0000 (--strict)"))
    #expect(!FileManager.default.fileExists(atPath: snapshots.appendingPathComponent("table.png").path))
    let lenient = try await CommandRunner.run(
      ["check", cases.path, "--snapshots", snapshots.path, "--record", "missing"], environment: ["CI": ""])
    #expect(lenient.status == 1)
    #expect(lenient.stderr == "rowkit: warning: \(table): row 1 (s0-r1): no glyph for U+F0000\n")
    #expect(FileManager.default.fileExists(atPath: snapshots.appendingPathComponent("table.png").path))
  }

  @Test func strictCatalogOfScriptsPasses() async throws {
    let folder = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let result = try await CommandRunner.run(
      ["catalog", "--scripts", "--strict", "-o", folder.appendingPathComponent("s.png").path])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stderr.isEmpty)
    #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("s.png").path))
  }

  @Test func fontsListsTheFallbackOrderAndLooksUpText() async throws {
    let listing = try await CommandRunner.run(["fonts"])
    #expect(listing.status == 0)
    let lines = listing.stdout.split(separator: "\n").map(String.init)
    #expect(lines.first?.hasPrefix("Fallback order for en-us (") == true)
    #expect(lines.dropFirst().first?.hasPrefix("  1. Inter  Latin, Greek, Cyrillic") == true)
    #expect(listing.stdout.contains("Noto Sans CJK SC  Latin, Greek, Cyrillic, Han, Hiragana, Katakana, Hangul, Bopomofo"))
    #expect(listing.stdout.contains("/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf"))

    let lookUp = try await CommandRunner.run(["fonts", "A東👍🏽\(Self.privateUse)", "--json"])
    #expect(lookUp.status == 1)
    let json = try JSONSerialization.jsonObject(with: Data(lookUp.stdout.utf8)) as! [String: Any]
    let runs = json["runs"] as! [[String: Any]]
    #expect(runs.map { $0["family"] as? String } == ["Inter", "Noto Sans CJK SC", "Noto Color Emoji", nil])
    #expect(json["missing"] as? [String] == ["U+F0000"])

    let japanese = try await CommandRunner.run(["fonts", "直", "--language", "ja"])
    #expect(japanese.stdout.contains("Noto Sans CJK JP"))
  }

  @Test func brandFontsFromAFolderAreListedFirstAndUsable() async throws {
    let folder = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let fonts = folder.appendingPathComponent("fonts")
    try FileManager.default.createDirectory(at: fonts, withIntermediateDirectories: true)
    try FileManager.default.copyItem(
      atPath: "/usr/share/fonts/truetype/noto/NotoSerif-Regular.ttf", toPath: fonts.appendingPathComponent("Brand.ttf").path)
    let listing = try await CommandRunner.run(["fonts", "--fonts", fonts.path])
    #expect(listing.status == 0, "\(listing.stderr)")
    #expect(listing.stdout.contains("  1. Noto Serif (brand)"))
    #expect(listing.stdout.contains(fonts.appendingPathComponent("Brand.ttf").path))
    try "vars: { tableFont: \"Noto Serif 17\" }\n".write(to: folder.appendingPathComponent("s.yaml"), atomically: true, encoding: .utf8)
    let table = try Self.document(in: folder, "Brand", extra: "stylesheet: s.yaml\n")
    let withoutFonts = try await CommandRunner.run(["render", table, "-o", folder.appendingPathComponent("t.png").path])
    #expect(withoutFonts.status == 2)
    #expect(withoutFonts.stderr.contains("s.yaml:1:20: vars.tableFont: font family 'Noto Serif' is not loaded"))
    let rendered = try await CommandRunner.run(
      ["render", table, "-o", folder.appendingPathComponent("t.png").path, "--fonts", fonts.path])
    #expect(rendered.status == 0, "\(rendered.stderr)")
  }

  @Test func aMissingBrandFontIsStatusTwoNamingTheFileAndLine() async throws {
    let folder = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let table = try Self.document(in: folder, "x", extra: "table: { width: 320 }\nfonts:\n  - brand/Missing.otf\n")
    let png = folder.appendingPathComponent("t.png")
    let result = try await CommandRunner.run(["render", table, "-o", png.path])
    #expect(result.status == 2)
    #expect(result.stderr.contains("table.yaml:3:5: fonts[0]: font file 'brand/Missing.otf' does not exist"), "\(result.stderr)")
    #expect(!FileManager.default.fileExists(atPath: png.path))
  }
}
