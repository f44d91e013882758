import Foundation
import Testing
@testable import RowKitGraphics

/// Shapers with FreeType faces of their own, which no other shaper opens, closes or shares.
@Suite(.disabled(if: PangoHooks.refused, "these test the hooks into Pango, which ROWKIT_PANGO_HOOKS=off refuses"))
struct OwnFacesTests {
  /// Text of many scripts, emoji and a character no font has.
  static let worldText = [
    "Zoë Ångström", "محمد الأحمد", "שלום עליכם", "नमस्ते दुनिया", "東京都 渋谷区", "서울특별시", "สวัสดีครับ",
    "Ελληνικά", "Привет, мир", "👍🏽 ❤️ 🇯🇵", "ꦄꦏꦲ", "\u{10FFFD}",
  ]

  @Test func opensOnlyTheFacesItsTextUses() throws {
    // Faces of its own, not a set another test's shaper gave back with faces open.
    let own = try TextShaper(fontSet: TextEnvironment.standard.fontSet(), faces: FontFaces())
    let shared = try TextEnvironment.standard.makeShaper()
    #expect(own.hasOwnFaces && !shared.hasOwnFaces)
    #expect(own.ownFacesOpened == 0)
    let style = TextStyle(font: try #require(Font.parse("Inter 17")))
    _ = own.shape("Plain Latin text", style: style)
    let latin = own.ownFacesOpened
    #expect(latin > 0, "Pango made the font's Cairo face through the hook")
    let kept = own.ownFontFacesKept
    #expect(kept == latin, "one Cairo font face kept for each face")
    _ = own.shape("Plain Latin text, again", style: style)
    #expect(own.ownFacesOpened == latin, "a face is opened once")
    #expect(own.ownFontFacesKept == kept, "Cairo gives the same font face for the same face again")
    _ = own.shape("東京都 渋谷区 ภาษาไทย", style: style)
    #expect(own.ownFacesOpened > latin, "fallback fonts open their faces when first used")
    #expect(own.ownFacesOpened < 10, "not every font of the environment")
  }

  @Test func shapesAndDrawsAsASharedShaperDoes() throws {
    let own = try TextEnvironment.standard.makeShaper(ownFaces: true)
    let shared = try TextEnvironment.standard.makeShaper()
    let style = TextStyle(font: try #require(Font.parse("Inter 17")), width: 160)
    for text in Self.worldText {
      let a = own.shape(text, style: style)
      let b = shared.shape(text, style: style)
      #expect(a.logicalRect == b.logicalRect, "\(text)")
      #expect(a.inkRect == b.inkRect, "\(text)")
      #expect(a.missingCharacters == b.missingCharacters, "\(text)")
      #expect(a.fontRuns().map(\.family) == b.fontRuns().map(\.family), "\(text)")
      let (ownPixels, sharedPixels) = (try drawn(a), try drawn(b))
      #expect(ownPixels == sharedPixels, "\(text)")
    }
  }

  /// Shapers laying out on two threads at once break lines as one shaper alone does. Pango
  /// measures a font the first time its metrics are asked for, under one flag for the whole
  /// process: a font measured while the other thread measured kept no approximate character
  /// width, and the word too long for its line ran one letter longer (`FontMetricsHook`).
  @Test func shapersOnTwoThreadsAtOnceBreakLinesAsOneAlone() async throws {
    let style = TextStyle(font: try #require(Font.parse("Inter Bold 17")), width: 300)
    let text = "नमस्ते, straße, Hello, दुनिया, straße, दुनिया, हिन्दी, " + String(repeating: "x", count: 40) + ", Ångström"
    let alone = try await Self.onThread { try TextEnvironment.standard.makeShaper(ownFaces: true).shape(text, style: style).linesInView }
    #expect(alone.count == 4)
    for _ in 0..<20 {
      // New shapers each time: their fonts are measured anew, by both threads at once.
      async let first = Self.onThread { try TextEnvironment.standard.makeShaper(ownFaces: true).shape(text, style: style).linesInView }
      async let second = Self.onThread { try TextEnvironment.standard.makeShaper(ownFaces: true).shape(text, style: style).linesInView }
      let (a, b) = try await (first, second)
      #expect(a == alone && b == alone)
    }
  }

  /// A font file that FreeType cannot open when its font is first drawn (damaged or removed
  /// after fontconfig read it) makes Pango draw that text as nothing: its characters count as
  /// missing glyphs, as characters no font has do, so that warnings and `--strict` see them.
  @Test func textInAFontWhoseFileCannotBeOpenedCountsAsMissing() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("own-faces-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let brand = folder.appendingPathComponent("Brand.ttf")
    try FileManager.default.copyItem(atPath: "/usr/share/fonts/truetype/noto/NotoSerif-Regular.ttf", toPath: brand.path)
    let environment = TextEnvironment.standard.adding(brandFonts: [brand])
    let fontSet = try environment.fontSet()
    let style = TextStyle(font: Font(family: "Noto Serif", size: 17))
    let drawn = try TextShaper(fontSet: fontSet, faces: FontFaces()).shape("Brand", style: style)
    #expect(drawn.unknownGlyphCount == 0 && drawn.missingCharacters.isEmpty)
    // Damaged after fontconfig read it: FreeType cannot open it for a new shaper's faces.
    try Data().write(to: brand)
    let shaper = try TextShaper(fontSet: fontSet, faces: FontFaces())
    let blank = shaper.shape("Brand", style: style)
    #expect(shaper.unopenedFontFiles.count == 1)
    #expect(blank.unknownGlyphCount == 5)
    #expect(blank.missingCharacters == Array("Brand".unicodeScalars))
  }

  /// `body`'s result, from a thread of its own: a shaper and its layouts live on one thread,
  /// and the test's waiting blocks none of Swift's cooperative threads.
  private static func onThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
      let thread = Thread { continuation.resume(with: Result { try body() }) }
      // Pango's shaping recurses deeply for long paragraphs, as on the render workers.
      thread.stackSize = 8 << 20
      thread.start()
    }
  }

  private func drawn(_ layout: TextLayout) throws -> Bitmap {
    let canvas = try Canvas(pixelWidth: 400, pixelHeight: 120, scale: 2)
    canvas.clear(.white)
    canvas.draw(layout, at: Point(x: 10, y: 5), color: .black)
    return try canvas.bitmap()
  }
}
