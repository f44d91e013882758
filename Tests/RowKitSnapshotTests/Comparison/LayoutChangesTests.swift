import Foundation
@testable import RowKit
import RowKitGraphics
@testable import RowKitSnapshot
import RowKitTestSupport
import Testing

/// Single mutations of a recorded table: each failure carries the right sentences and
/// nothing else.
@Suite struct LayoutChangesTests {
  static let families = ["DejaVu Sans", "DejaVu Sans Mono", "Inter"]

  /// The table every mutation starts from; `{stylesheet}` and `{table}` take the mutations'
  /// stylesheet variables and table keys.
  static let base = """
    table: { width: 320, scale: 2, style: plain{table} }
    assets: ..
    stylesheet: { vars: { {stylesheet} } }
    sections:
      - header: General
        items:
          - { type: text, text: Wi-Fi }
          - { type: subtitle, text: Video, subtitle: Shoot and share., imageURL: bundle://images/video.png, url: app://v }
          - { type: caption, text: "On", caption: Bluetooth }
          - { type: longText, text: "A long text that wraps over two lines in a narrow table of three hundred and twenty points." }
          - { type: checkmark, text: Cellular, checked: false }
          - { type: control, caption: Airplane Mode, control: { switch: false } }
          - { type: image, text: Photos, imageURL: bundle://images/photo.png, imageStyle: rounded }
    """

  /// The layout record of the base table with `replacing` applied to its text.
  static func record(
    _ replacing: [(String, String)] = [], stylesheet: String = "", table: String = "", environment: TextEnvironment? = nil,
    variant: Variant? = nil
  ) async throws -> LayoutRecord {
    var text = base.replacingOccurrences(of: "{stylesheet}", with: stylesheet).replacingOccurrences(of: "{table}", with: table)
    for (old, new) in replacing {
      #expect(text.contains(old), "the base table has \(old)")
      text = text.replacingOccurrences(of: old, with: new)
    }
    let document = try TableDocument.decode(
      Array(text.utf8), as: TestSupport.assets.appendingPathComponent("Samples/mutation.yaml"), fontFamilies: families)
    var renderer = document.makeRenderer()
    if let environment { renderer.environment = environment }
    if let variant { renderer = renderer.rendering(variant) }
    renderer.recordsLayout = true
    return try #require(try await document.render(with: renderer).layoutRecord)
  }

  static func sentences(
    _ replacing: [(String, String)] = [], stylesheet: String = "", table: String = "", environment: TextEnvironment? = nil,
    variant: Variant? = nil
  ) async throws -> [String] {
    let reference = try await record(environment: nil)
    let actual = try await record(replacing, stylesheet: stylesheet, table: table, environment: environment, variant: variant)
    return LayoutChanges.compare(reference, actual).map(\.sentence)
  }

  @Test func anUnchangedTableHasNoChanges() async throws {
    #expect(try await Self.sentences() == [])
  }

  /// One mutation of the base table and the sentences its failure must carry, exactly.
  struct Mutation: CustomStringConvertible, Sendable {
    var description: String
    var replacing: [(String, String)] = []
    var stylesheet = ""
    var variant: Variant?
    var expected: [String]
  }

  static let mutations: [Mutation] = [
    Mutation(description: "text change", replacing: [("text: Wi-Fi }", "text: WLAN }")], expected: [#"s0-r0 text "Wi-Fi" → "WLAN""#]),
    Mutation(
      description: "a selected row", replacing: [("text: Wi-Fi }", "text: Wi-Fi, selected: true }")],
      expected: ["s0-r0 now selected", "s0-r0 text color #000000 → #FFFFFF"]),
    Mutation(description: "accessory added", replacing: [("checked: false", "checked: true")], expected: ["s0-r4 accessory added (checkmark)"]),
    Mutation(
      description: "accessory kind", replacing: [("url: app://v }", "url: app://v, accessoryURL: app://i }")],
      expected: [
        "s0-r1 accessory disclosure → detailDisclosure",
        "s0-r1 accessory moved left 12 pt and up 5 pt (x 302 → 290, y 22.5 → 17.5)", "s0-r1 accessory size 8×13 → 23×23 pt",
      ]),
    Mutation(
      description: "image state", replacing: [("images/photo.png", "images/none.png")],
      expected: ["s0-r6 image URL bundle://images/photo.png → bundle://images/none.png", "s0-r6 image failed (was loaded)"]),
    Mutation(
      description: "image URL", replacing: [("images/video.png", "images/music.png")],
      expected: ["s0-r1 image URL bundle://images/video.png → bundle://images/music.png"]),
    Mutation(
      description: "style change", replacing: [("imageStyle: rounded", "imageStyle: circle")],
      expected: ["s0-r6 image style changed (d5496d0c → 588a9fac)"]),
    Mutation(description: "color", stylesheet: ##"tableSubTextColor: "#FF3B30""##, expected: ["s0-r1 subtitle color #4F5969 → #FF3B30"]),
    Mutation(
      description: "font weight", stylesheet: #"tableFont: "Inter 17""#,
      expected: ["s0-r0, s0-r1, s0-r4, s0-r6 (4 rows) text weight 700 → 400", "s0-r5 caption weight 700 → 400"]),
    Mutation(
      description: "moved element", stylesheet: "tableCaptionWidth: 90",
      expected: ["s0-r2 caption moved right 15 pt (x 22.78 → 37.78)", "s0-r2 text moved right 15 pt (x 97 → 112)"]),
    Mutation(
      description: "truncation",
      replacing: [("subtitle: Shoot and share.", #"subtitle: "Shoot and share and edit and cut and crop and share again and again and again, then once more.""#)],
      expected: [
        #"s0-r1 subtitle text "Shoot and share." → "Shoot and share and edit and cut and cr…""#,
        "s0-r1 subtitle now truncated (1 line → 2)", "s0-r1 height 58 → 74.5 pt", "s0-r1 image moved down 8.5 pt (y 0 → 8.5)",
        "s0-r1 accessory moved down 8.5 pt (y 22.5 → 31)",
      ]),
    Mutation(
      description: "row height", replacing: [("twenty points.", "twenty points, and then a third line of text to make the row taller still.")],
      expected: [
        #"s0-r3 text "…nty points." → "…nty points, and then a third line of t…""#, "s0-r3 text lines 3 → 4", "s0-r3 height 71 → 88 pt",
      ]),
    Mutation(
      description: "section header", replacing: [("header: General", "header: Network")],
      expected: [#"section 0 header title text "General" → "Network""#]),
    Mutation(
      description: "section footer", replacing: [("header: General\n", "header: General\n    footer: All settings.\n")],
      expected: [#"section 0 footer added ("All settings.")"#]),
    Mutation(description: "switch", replacing: [("switch: false", "switch: true")], expected: ["s0-r5 toggle off → on"]),
    Mutation(
      description: "row added", replacing: [("imageStyle: rounded }", "imageStyle: rounded }\n      - { type: text, text: More }")],
      expected: [#"s0-r7 added (TextCell "More")"#]),
    Mutation(
      description: "cell type",
      replacing: [(#"type: caption, text: "On""#, #"type: settings, text: "On, connected to a headset with a very long name indeed""#)],
      expected: [
        "s0-r2 item type caption → settings", "s0-r2 drawn by SettingsCell instead of CaptionCell",
        "s0-r2 caption color #576B95 → #000000", "s0-r2 caption font size 13 → 17 pt", "s0-r2 caption text alignment right → left",
        "s0-r2 text color #000000 → #385487", #"s0-r2 text "On" → "On, connected to a headset with a very …""#,
        "s0-r2 text font size 15 → 17 pt", "s0-r2 text weight 700 → 400", "s0-r2 text now truncated (1 line)",
        "s0-r2 text alignment left → right", "s0-r2 caption moved up 3.44 pt (y 14.94 → 11.5)", "s0-r2 text moved up 1.5 pt (y 13 → 11.5)",
      ]),
    Mutation(
      description: "RTL", variant: Variant(direction: .rtl),
      expected: [
        "table variant none → rtl", "section 0 header title moved right 234.83 pt (x 12 → 246.83)",
        "s0-r0…s0-r6 (7 rows) laid out right to left (was left to right)",
      ]),
    Mutation(
      description: "width", variant: Variant(width: 300),
      expected: [
        "table width 320 → 300 pt", "table variant none → 300pt", "s0-r1 accessory moved left 20 pt (x 302 → 282)",
        "s0-r5 toggle moved left 20 pt (x 259 → 239)",
      ]),
    Mutation(
      description: "font size", stylesheet: #"tableFont: "Inter Bold 19""#,
      expected: [
        "s0-r0, s0-r1, s0-r4, s0-r6 (4 rows) text font size 17 → 19 pt", "s0-r0, s0-r4 text moved up 1 pt (y 11.5 → 10.5)",
        "s0-r1 height 58 → 60 pt", "s0-r1 image size 58×58 → 60×60 pt", "s0-r1 text moved right 2 pt (x 64 → 66)",
        "s0-r1 subtitle moved right 2 pt and down 2.42 pt (x 64 → 66, y 30.58 → 33)", "s0-r1 accessory moved down 1 pt (y 22.5 → 23.5)",
        "s0-r5 caption font size 17 → 19 pt", "s0-r5 caption moved up 1 pt (y 15 → 14)", "s0-r6 text moved up 1 pt (y 24.5 → 23.5)",
      ]),
  ]

  @Test(arguments: mutations)
  func eachMutationIsToldInItsSentencesAndNothingElse(_ mutation: Mutation) async throws {
    let found = try await Self.sentences(mutation.replacing, stylesheet: mutation.stylesheet, variant: mutation.variant)
    #expect(found == mutation.expected)
  }

  @Test func paddingMovesEveryRowsContentAndGrowsTheRows() async throws {
    let found = try await Self.sentences(stylesheet: "tableCellPadding: 14")
    #expect(found.contains("s0-r0, s0-r4 height 44 → 49 pt"))
    #expect(found.contains("s0-r0, s0-r4 text moved right 4 pt and down 2.5 pt (x 10 → 14, y 11.5 → 14)"))
    #expect(found.contains("s0-r6 image moved right 4 pt and down 4 pt (x 10 → 14, y 10 → 14)"))
    // Only heights, moves and the resampled slot: no text, color or font sentence.
    #expect(found.allSatisfy { $0.contains(" height ") || $0.contains(" moved ") || $0.contains("image size") })
  }

  @Test func textSizeScalesEveryFontAndGrowsTheRowsThatNeedIt() async throws {
    let found = try await Self.sentences(variant: Variant(textSize: .xLarge))
    #expect(found.first == "table variant none → xLarge")
    #expect(found.contains("section 0 header title font size 16 → 18 pt"))
    #expect(found.contains("s0-r3 text font size 14 → 16 pt"))
    #expect(found.contains("s0-r3 height 71 → 78.5 pt"))
    // Label by label: the same change in several rows is one sentence naming them.
    #expect(found.filter { $0.contains("font size") }.count == 7)
    #expect(found.contains("s0-r0, s0-r1, s0-r4, s0-r6 (4 rows) text font size 17 → 19 pt"))
    #expect(!found.contains { $0.contains(" text \"") || $0.contains(" color ") })
  }

  /// A font missing from the environment: the same text drawn by another family. (RowKit
  /// refuses to render a document naming a family it has not loaded, so the actual record is
  /// the reference's with its fonts as the fallback would draw them.)
  @Test func aFallbackFontIsToldAsAFallback() async throws {
    let reference = try await Self.record()
    var actual = reference
    let index = try #require(actual.rows[0].elements.firstIndex { $0.name == "text" })
    actual.rows[0].elements[index].text?.runs = [LayoutRecord.Run(text: "Wi-Fi", family: "DejaVu Sans", file: "DejaVuSans.ttf", sha256: "0123456789ab")]
    #expect(LayoutChanges.compare(reference, actual).map(\.sentence) == ["s0-r0 text drawn in DejaVu Sans instead of Inter (fallback)"])
    // The same family from another file: a font package upgrade.
    var upgraded = reference
    upgraded.rows[0].elements[index].text?.runs[0].sha256 = "ffffffffffff"
    let sentence = try #require(LayoutChanges.compare(reference, upgraded).first?.sentence)
    #expect(sentence.hasPrefix("s0-r0 text font file Inter-Bold.otf (") && sentence.hasSuffix(" → Inter-Bold.otf (ffffffffffff)"))
  }

  @Test func changesCarryTheirRowElementPropertyAndValues() async throws {
    let reference = try await Self.record()
    let actual = try await Self.record([("text: Wi-Fi }", "text: WLAN }")])
    var change = try #require(LayoutChanges.compare(reference, actual).first)
    // Where the label is in each image, in pixels of the scale-2 table, rounded outwards.
    func box(_ record: LayoutRecord) throws -> [Int] {
      let row = record.rows[0]
      let frame = try #require(row.element("text")).frame
      let (left, top) = (((row.x + frame[0]) * 2).rounded(.down), ((row.y + frame[1]) * 2).rounded(.down))
      let (right, bottom) = (((row.x + frame[0] + frame[2]) * 2).rounded(.up), ((row.y + frame[1] + frame[3]) * 2).rounded(.up))
      return [Int(left), Int(top), Int(right - left), Int(bottom - top)]
    }
    #expect(change.referenceBox == (try box(reference)))
    #expect(change.actualBox == (try box(actual)))
    #expect(change.referenceBox?[2] != change.actualBox?[2], "WLAN is narrower than Wi-Fi")
    #expect(change.sentenceWithoutRow == #"text "Wi-Fi" → "WLAN""#)
    change.referenceBox = nil
    change.actualBox = nil
    #expect(change == LayoutChange(row: "s0-r0", element: "text", property: "text", from: "Wi-Fi", to: "WLAN", sentence: #"s0-r0 text "Wi-Fi" → "WLAN""#))
  }

  @Test func aRowChangeIsBoxedByTheWholeRowAndATableChangeByNothing() async throws {
    let reference = try await Self.record()
    let actual = try await Self.record(variant: Variant(width: 375))
    let changes = LayoutChanges.compare(reference, actual)
    let width = try #require(changes.first { $0.row == "table" && $0.property == "width" })
    #expect(width.referenceBox == nil && width.actualBox == nil)
    let longText = try #require(changes.first { $0.row == "s0-r3" && $0.property == "height" })
    let row = actual.rows[3]
    #expect(longText.actualBox == [0, Int((row.y * 2).rounded(.down)), 750, Int(((row.y + row.height) * 2).rounded(.up) - (row.y * 2).rounded(.down))])
  }

  /// The layout record of a table document `text` (assets beside the samples).
  static func record(ofDocument text: String) async throws -> LayoutRecord {
    let document = try TableDocument.decode(
      Array(text.utf8), as: TestSupport.assets.appendingPathComponent("Samples/mutation.yaml"), fontFamilies: families)
    var renderer = document.makeRenderer()
    renderer.recordsLayout = true
    return try #require(try await document.render(with: renderer).layoutRecord)
  }

  /// A plain table of one text row for each of `texts`, in `font`.
  static func list(_ texts: [String], font: String = "Inter Bold 17") -> String {
    """
    table: { width: 320, scale: 2, style: plain }
    stylesheet: { vars: { tableFont: "\(font)" } }
    sections:
      - items:
    \(texts.map { "      - { type: text, text: \"\($0)\" }" }.joined(separator: "\n"))
    """
  }

  static let sixty = (0..<60).map { "Row \($0)" }

  @Test func aRowInsertedAtTheTopIsOneSentenceAndBlamesNoRowBelowIt() async throws {
    let reference = try await Self.record(ofDocument: Self.list(Self.sixty))
    let actual = try await Self.record(ofDocument: Self.list(["Zero"] + Self.sixty))
    #expect(LayoutChanges.compare(reference, actual).map(\.sentence) == [#"s0-r0 added (TextCell "Zero")"#])
  }

  @Test func aRowRemovedIsOneSentenceAndARowChangedInPlaceIsComparedFieldByField() async throws {
    let reference = try await Self.record(ofDocument: Self.list(Self.sixty))
    var texts = Self.sixty
    texts.remove(at: 3)
    texts[10] = "Row ten"
    let actual = try await Self.record(ofDocument: Self.list(texts))
    let changes = LayoutChanges.compare(reference, actual)
    #expect(changes.map(\.sentence) == [#"s0-r3 removed (was TextCell "Row 3")"#, #"s0-r10 text "Row 11" → "Row ten""#])
    // Each change is boxed where its row is in each image: the removed row only in the reference.
    #expect(changes[0].referenceBox == [0, 264, 640, 88] && changes[0].actualBox == nil)
    #expect(changes[1].referenceBox?[1] == 11 * 88 + 23 && changes[1].actualBox?[1] == 10 * 88 + 23)
  }

  @Test func oneFontChangeInSixtyRowsIsOneSentenceForEachThingItChanged() async throws {
    let reference = try await Self.record(ofDocument: Self.list(Self.sixty))
    let actual = try await Self.record(ofDocument: Self.list(Self.sixty, font: "Inter Bold 19"))
    let changes = LayoutChanges.compare(reference, actual)
    #expect(
      changes.map(\.sentence) == [
        "s0-r0…s0-r59 (60 rows) text font size 17 → 19 pt", "s0-r0…s0-r59 (60 rows) text moved up 1 pt (y 11.5 → 10.5)",
      ])
    #expect(changes[0].row == "s0-r0…s0-r59 (60 rows)" && changes[0].sentenceWithoutRow == "text font size 17 → 19 pt")
    #expect(changes[0].rows == (0..<60).map { "s0-r\($0)" })
  }

  /// A grouped table of one section for each of `sections`: its header title (nil: none)
  /// and its rows' texts.
  static func grouped(_ sections: [(header: String?, rows: [String])]) -> String {
    """
    table: { width: 320, scale: 2, style: grouped }
    sections:
    \(sections.map { section in
      (section.header.map { "  - header: \($0)\n    items:" } ?? "  - items:") + "\n"
        + section.rows.map { "      - { type: text, text: \"\($0)\" }" }.joined(separator: "\n")
    }.joined(separator: "\n"))
    """
  }

  static let general: (header: String?, rows: [String]) = ("General", ["Wi-Fi", "Bluetooth"])
  static let photos: (header: String?, rows: [String]) = ("Photos", ["Albums", "Shared", "Hidden"])
  static let sound: (header: String?, rows: [String]) = ("Sound", ["Volume", "Ringtone"])

  @Test func aSectionInsertedIsOneSentenceAndBlamesNoSectionBelowIt() async throws {
    let reference = try await Self.record(ofDocument: Self.grouped([Self.general, Self.sound]))
    let actual = try await Self.record(ofDocument: Self.grouped([Self.general, Self.photos, Self.sound]))
    let changes = LayoutChanges.compare(reference, actual)
    #expect(changes.map(\.sentence) == [#"section 1 added (header "Photos", 3 rows)"#])
    // Boxed where the whole section is in the actual image: its header band to its last row.
    let header = try #require(actual.bands.first { $0.section == 1 && $0.kind == "header" })
    let last = try #require(actual.rows.last { $0.section == 1 })
    #expect(changes.first?.referenceBox == nil)
    #expect(changes.first?.actualBox == [0, Int(header.y * 2), 640, Int(((last.y + last.height - header.y) * 2).rounded(.up))])

    // Taken away again, the same section is one sentence the other way.
    #expect(
      LayoutChanges.compare(actual, reference).map(\.sentence) == [#"section 1 removed (was header "Photos", 3 rows)"#])
  }

  @Test func aSectionChangedInPlaceBesideOneInsertedIsComparedWithItself() async throws {
    let reference = try await Self.record(ofDocument: Self.grouped([Self.general, Self.sound]))
    let louder: (header: String?, rows: [String]) = ("Sound", ["Loudness", "Ringtone"])
    let actual = try await Self.record(ofDocument: Self.grouped([Self.general, Self.photos, louder]))
    #expect(
      LayoutChanges.compare(reference, actual).map(\.sentence) == [
        #"section 1 added (header "Photos", 3 rows)"#, #"s2-r0 text "Volume" → "Loudness""#,
      ])
  }

  /// A section renamed beside one inserted is matched by its rows: its title is the one change.
  @Test func aSectionRenamedBesideOneInsertedIsMatchedByItsRows() async throws {
    let reference = try await Self.record(ofDocument: Self.grouped([Self.general, Self.sound]))
    let audio: (header: String?, rows: [String]) = ("Audio", Self.sound.rows)
    let actual = try await Self.record(ofDocument: Self.grouped([Self.general, Self.photos, audio]))
    let sentences = LayoutChanges.compare(reference, actual).map(\.sentence)
    #expect(sentences.first == #"section 1 added (header "Photos", 3 rows)"#, "\(sentences)")
    #expect(sentences.dropFirst().allSatisfy { $0.hasPrefix("section 2 header title ") }, "\(sentences)")
    #expect(sentences.contains(#"section 2 header title text "Sound" → "Audio""#), "\(sentences)")
  }

  @Test func untitledSectionsAreMatchedByTheirRows() async throws {
    let first: (header: String?, rows: [String]) = (nil, ["One", "Two"])
    let second: (header: String?, rows: [String]) = (nil, ["Three"])
    let inserted: (header: String?, rows: [String]) = (nil, ["New"])
    let reference = try await Self.record(ofDocument: Self.grouped([first, second]))
    let actual = try await Self.record(ofDocument: Self.grouped([first, inserted, second]))
    #expect(LayoutChanges.compare(reference, actual).map(\.sentence) == ["section 1 added (1 row)"])
    // Untitled and changed in place, a section is paired by position, not added and removed.
    let renamed = try await Self.record(ofDocument: Self.grouped([first, (nil, ["Four"])]))
    #expect(LayoutChanges.compare(reference, renamed).map(\.sentence) == [#"s1-r0 text "Three" → "Four""#])
  }

  @Test func aChangedSectionGapIsToldOnceWhereEachSectionStarts() async throws {
    func grouped(gap: Int) -> String {
      """
      table: { width: 320, scale: 2, style: grouped }
      stylesheet: { vars: { tableSectionGap: \(gap) } }
      sections:
        - items:
            - { type: text, text: One }
            - { type: text, text: Two }
        - items:
            - { type: text, text: Three }
      """
    }
    let reference = try await Self.record(ofDocument: grouped(gap: 10))
    let actual = try await Self.record(ofDocument: grouped(gap: 30))
    #expect(
      LayoutChanges.compare(reference, actual).map(\.sentence) == [
        "section 0 moved down 20 pt (gap above it 10 → 30 pt)", "section 1 moved down 40 pt (gap above it 20 → 60 pt)",
        "table height 172 → 252 pt",
      ])
  }

  @Test func aPlainBackgroundFillIsNamedByItsColorAndAnImageByItsURL() async throws {
    func paper(_ color: String) -> String {
      """
      table: { width: 320, scale: 2, style: plain }
      stylesheet: { styles: { paper: [ { fill: "\(color)" } ] } }
      sections:
        - items:
            - { type: text, text: One, background: paper }
      """
    }
    let white = try await Self.record(ofDocument: paper("#FFFFFF"))
    let gray = try await Self.record(ofDocument: paper("#F2F2F7"))
    #expect(LayoutChanges.compare(white, gray).map(\.sentence) == ["s0-r0 background color #FFFFFF → #F2F2F7"])

    let reference = try await Self.record()
    var actual = reference
    let image = try #require(actual.rows[6].elements.firstIndex { $0.name == "image" })
    actual.rows[6].elements[image].image?.digest = "0123456789abcdef"
    let digest = reference.rows[6].elements[image].image?.digest ?? "none"
    #expect(
      LayoutChanges.compare(reference, actual).map(\.sentence) == [
        "s0-r6 image shows other pixels of bundle://images/photo.png (digest \(digest) → 0123456789abcdef)"
      ])
  }

  /// A fill after the style's `content` paints over the row's content: it is no plain
  /// background, and moving `content` before the fill is told as the style's change (it was
  /// taken for the same color, and accepted as rasterization only with the text gone).
  @Test func aFillAfterItsContentIsAStyleChangeNotAColor() async throws {
    func paper(_ elements: String) -> String {
      """
      table: { width: 320, scale: 2, style: plain }
      stylesheet: { styles: { paper: [ \(elements) ] } }
      sections:
        - items:
            - { type: text, text: One, background: paper }
      """
    }
    let under = try await Self.record(ofDocument: paper(##"{ fill: "#F2F2F7" }, content"##))
    let over = try await Self.record(ofDocument: paper(##"content, { fill: "#F2F2F7" }"##))
    let sentences = LayoutChanges.compare(under, over).map(\.sentence)
    #expect(sentences.count == 1 && sentences[0].hasPrefix("s0-r0 background style changed ("), "\(sentences)")
    #expect(LayoutRecord.plainFill(of: Style([.content, .fill(.white)])) == nil)
    #expect(LayoutRecord.plainFill(of: Style([.fill(.white), .content])) == .white)
    #expect(LayoutRecord.plainFill(of: Style([.fill(.white)])) == .white)
  }

  /// A styled span that styles the same words at another place of an unchanged text has
  /// moved: `Buy <b>now</b> or later, now` → `Buy now or later, <b>now</b>`.
  @Test func aSpanMovedWithinTheSameTextIsTold() async throws {
    func styled(_ text: String) -> String {
      """
      table: { width: 320, scale: 2, style: plain }
      sections:
        - items:
            - { type: styledText, text: "\(text)" }
      """
    }
    let first = try await Self.record(ofDocument: styled("Buy <b>now</b> or later, now"))
    let last = try await Self.record(ofDocument: styled("Buy now or later, <b>now</b>"))
    let sentences = LayoutChanges.compare(first, last).map(\.sentence)
    #expect(sentences.contains { $0.contains("span \"now\"") && $0.contains("moved (characters 4–7 → 18–21)") }, "\(sentences)")
  }

  /// Positions are kept to 1/64 point, each rounded alone: a gap that differs by less than
  /// half a device pixel is no move, and makes up no sentence.
  @Test func aGapWithinHalfADevicePixelIsNoMove() async throws {
    let reference = try await Self.record()
    var actual = reference
    for index in actual.rows.indices.dropFirst(3) { actual.rows[index].y += 0.02 }
    actual.height += 0.02
    #expect(LayoutChanges.compare(reference, actual).isEmpty)
    for index in actual.rows.indices.dropFirst(3) { actual.rows[index].y += 0.5 }
    #expect(LayoutChanges.compare(reference, actual).map(\.sentence).first == "s0-r3 moved down 0.52 pt (gap above it 0 → 0.52 pt)")
  }

  /// Where an ellipsis stands is recorded where one is drawn, and a move of it is told: the
  /// glyph boxes of `…its succe…` and `…eat many…` can be the same. A reference's record from
  /// before it was recorded cannot vouch for rasterization only.
  @Test func whereAnEllipsisStandsIsRecordedAndTold() async throws {
    let long = String(repeating: "A text far too long for one line of a narrow table ", count: 4)
    let record = try await Self.record(ofDocument: """
      table: { width: 320, scale: 2, style: plain }
      sections:
        - items:
            - { type: subtitle, text: "\(long)", subtitle: Short }
      """)
    let text = try #require(record.rows[0].elements.first { $0.name == "text" }?.text)
    #expect(text.ellipsized && text.ellipsis == "end")
    #expect(record.rows[0].elements.first { $0.name == "subtitle" }?.text?.ellipsis == nil, "no ellipsis, no place")

    var moved = record
    let index = try #require(moved.rows[0].elements.firstIndex { $0.name == "text" })
    moved.rows[0].elements[index].text?.ellipsis = "middle"
    #expect(LayoutChanges.compare(record, moved).map(\.sentence) == ["s0-r0 text ellipsis at the middle (was at the end)"])

    var older = record
    older.rows[0].elements[index].text?.ellipsis = nil
    #expect(LayoutChanges.compare(older, record).isEmpty, "no sentence is made up from a key the record lacks")
    #expect(LayoutChanges.unverifiedStyling(older, record)?.contains("where s0-r0 text's ellipsis stands") == true)
    #expect(LayoutChanges.unverifiedStyling(record, moved) == nil)
  }

  @Test func pixelsOutsideEveryRowAreListedWithoutInside() throws {
    let json = #"{"version":1,"width":64,"scale":1,"style":"plain","height":3,"bands":[],"rows":[{"section":0,"row":0,"type":"text","cell":"TextCell","y":0,"height":1,"x":0,"selected":false,"direction":"ltr","elements":[]}]}"#
    let record = try LayoutRecord.decode(Array(json.utf8), file: "t")
    var classes = [ImageComparison.PixelClass](repeating: .same, count: 64 * 3)
    classes[0] = .different
    classes[64 * 2] = .different
    let found = PixelOnlyDifference.locate(classes, width: 64, in: record)
    #expect(found.sentence == "layout unchanged; 2 pixels differ, inside s0-r0 outside its elements, and outside every row")
  }

  @Test func rowsAreNamedCompactly() {
    #expect(LayoutChanges.RowName.compact(["s0-r0", "s0-r1"]) == "s0-r0, s0-r1")
    #expect(LayoutChanges.RowName.compact(["s0-r0", "s0-r1", "s0-r2", "s0-r5", "s1-r0"]) == "s0-r0…s0-r2, s0-r5, s1-r0 (5 rows)")
  }

  @Test func numbersAreShownAsPeopleWriteThem() {
    #expect(LayoutChanges.number(14) == "14")
    #expect(LayoutChanges.number(16.5) == "16.5")
    #expect(LayoutChanges.number(30.578125) == "30.58")
    #expect(LayoutChanges.number(-0.001) == "0")
  }
}
