import Foundation
import RowKitGraphics
import RowKitTestSupport
import Testing

@testable import RowKit
@testable import RowKitSnapshot

/// Toolchain upgrades verified, not re-recorded: references of another environment are
/// compared anyway, and a difference is "rasterization only" when the layout record is the
/// same and every differing pixel lies inside glyphs. A real rasterization change (glyphs
/// drawn without antialiasing) is classified so; real changes never are.
@Suite struct RasterizationOnlyTests {
  /// The glyphs drawn one bit per pixel: only rasterization differs from RowKit's own.
  static let monochrome: TextEnvironment = {
    var environment = TextEnvironment.standard
    environment.antialiasing = .none
    return environment
  }()

  /// The mutation table of the layout-change tests, with `replacing` applied, rendered in
  /// `environment` with its layout record.
  static func rendered(
    _ replacing: [(String, String)] = [], stylesheet: String = "", environment: TextEnvironment = .standard
  ) async throws -> RenderedSnapshot {
    var text = LayoutChangesTests.base.replacingOccurrences(of: "{stylesheet}", with: stylesheet)
      .replacingOccurrences(of: "{table}", with: "")
    for (old, new) in replacing {
      #expect(text.contains(old), "the base table has \(old)")
      text = text.replacingOccurrences(of: old, with: new)
    }
    let document = try TableDocument.decode(
      Array(text.utf8), as: TestSupport.assets.appendingPathComponent("Samples/mutation.yaml"),
      fontFamilies: LayoutChangesTests.families)
    var renderer = document.makeRenderer()
    renderer.environment = environment
    renderer.recordsLayout = true
    let table = try await document.render(with: renderer)
    return RenderedSnapshot(image: table.image, layout: table.layoutRecord)
  }

  /// A store over `root` rendering in `environment`; each check needs a store of its own.
  static func store(_ root: URL, _ environment: TextEnvironment = .standard) -> ReferenceStore {
    ReferenceStore(
      root: root, artifactsRoot: root.deletingLastPathComponent().appendingPathComponent("artifacts"), environment: environment,
      processEnvironment: [:])
  }

  /// A folder with the base table recorded in RowKit's own environment.
  static func recordedReferences() async throws -> (folder: URL, root: URL) {
    let folder = try TestSupport.temporaryDirectory()
    let root = folder.appendingPathComponent("Snapshots")
    let reference = try await rendered()
    let recorded = try await store(root).check(suite: "S", name: "t", record: .missing) { _ in reference }
    guard case .recorded = recorded.outcome else { throw SnapshotError("not recorded: \(recorded.outcome)") }
    return (folder, root)
  }

  @Test func anotherAntialiasingIsRasterizationOnly() async throws {
    let (folder, root) = try await Self.recordedReferences()
    defer { try? FileManager.default.removeItem(at: folder) }
    let actual = try await Self.rendered(environment: Self.monochrome)
    // The environments differ by their font options alone.
    let differences = EnvironmentFingerprint.current(.standard).differences(from: .current(Self.monochrome))
    #expect(differences == ["font options antialias=gray hint-style=none hint-metrics=off → antialias=none hint-style=none hint-metrics=off"])

    // A store that stops at the mismatch compares nothing, as always.
    let stopped = try await Self.store(root, Self.monochrome).check(suite: "S", name: "t") { _ in actual }
    guard case .environmentMismatch = stopped.outcome else { Issue.record("compared: \(stopped.outcome)"); return }

    let checked = try await Self.store(root, Self.monochrome).comparingInAnotherEnvironment().check(suite: "S", name: "t", record: .missing) { _ in
      actual
    }
    guard case .failed(_, let result?, _) = checked.outcome else { Issue.record("not a failure: \(checked.outcome)"); return }
    #expect(result.differentPixels > 100, "a real rasterization change: \(result.summary)")
    #expect(checked.layout.changes.isEmpty)
    #expect(checked.layout.pixelOnly?.insideGlyphsOnly == true, "\(checked.layout.pixelOnly?.sentence ?? "no pixel finding")")
    #expect(checked.layout.rasterizationOnly)
    // The ink boxes may differ; nothing else of the record does.
    let reference = try LayoutRecord.decode(
      Array(Data(contentsOf: root.appendingPathComponent("S/t.layout.json"))), file: "t.layout.json")
    #expect(LayoutChanges.compare(reference, try #require(actual.layout)).isEmpty)
    // Nothing was recorded in the other environment, though the mode was `missing`.
    let fingerprint = try #require(try Self.store(root).storedFingerprint())
    #expect(fingerprint == EnvironmentFingerprint.current(.standard))
  }

  /// Real changes, drawn in the other environment as well: each is a layout change, never
  /// rasterization only.
  static let realChanges: [(String, [(String, String)], String)] = [
    ("text change", [("text: Wi-Fi }", "text: WLAN }")], ""),
    ("color change", [], ##"tableSubTextColor: "#FF3B30""##),
    ("moved label", [], "tableCaptionWidth: 90"),
    ("changed image", [("images/video.png", "images/music.png")], ""),
  ]

  @Test(arguments: 0..<realChanges.count)
  func aRealChangeIsNeverRasterizationOnly(_ index: Int) async throws {
    let (name, replacing, stylesheet) = Self.realChanges[index]
    let (folder, root) = try await Self.recordedReferences()
    defer { try? FileManager.default.removeItem(at: folder) }
    for environment in [TextEnvironment.standard, Self.monochrome] {
      let actual = try await Self.rendered(replacing, stylesheet: stylesheet, environment: environment)
      let checked = try await Self.store(root, environment).comparingInAnotherEnvironment().check(
        suite: "S", name: "t", record: .never
      ) { _ in actual }
      #expect(!checked.outcome.passed, "\(name)")
      #expect(!checked.layout.changes.isEmpty, "\(name): told as a layout change")
      #expect(!checked.layout.rasterizationOnly, "\(name)")
    }
  }

  /// A styled-text row and a designed row with a label of several lines: what their glyph
  /// boxes do not show (span colors, underlines, how lines are aligned).
  static let styledDocument = """
    table: { width: 320, scale: 2, style: plain }
    stylesheet: { styles: { warning: [ { text: { color: "{warning}" } } ] } }
    cells:
      Note: note.yaml
    sections:
      - items:
          - { type: styledText, text: "Battery <span class=\\"warning\\">low</span>, {charge} soon." }
          - { type: Note, body: "A note long enough to wrap over two lines or more in a row this narrow, and a third." }
    """

  /// The styled document with its placeholders (`{warning}`, `{charge}`) replaced by
  /// `replacing` where it names them, rendered in `environment`, its design
  /// file written in `folder`.
  static func renderedStyled(
    in folder: URL, _ replacing: [(String, String)] = [], align: String = "left", environment: TextEnvironment = .standard
  ) async throws -> RenderedSnapshot {
    let design = """
      padding: [10, 10, 10, 10]
      body:
        vstack:
          align: stretch
          children:
            - label: { bind: body, font: "Inter 15", name: body, align: \(align) }
      """
    try Data(design.utf8).write(to: folder.appendingPathComponent("note.yaml"))
    var values = ["{warning}": "#C5221F", "{charge}": "<u>charge</u>"]
    for (placeholder, value) in replacing { values[placeholder] = value }
    var text = styledDocument
    for (placeholder, value) in values { text = text.replacingOccurrences(of: placeholder, with: value) }
    let document = try TableDocument.decode(
      Array(text.utf8), as: folder.appendingPathComponent("styled.yaml"), fontFamilies: LayoutChangesTests.families)
    var renderer = document.makeRenderer()
    renderer.environment = environment
    renderer.recordsLayout = true
    let table = try await document.render(with: renderer)
    return RenderedSnapshot(image: table.image, layout: table.layoutRecord)
  }

  /// Styled-text and alignment changes drawn in another environment: each is told, and
  /// neither the check nor `accept --rasterization-only` takes it as rasterization.
  static let styleChanges: [(String, [(String, String)], String, [String])] = [
    ("span color", [("{warning}", "#1E8E3E")], "left", [#"s0-r0 text span "low" color #C5221F → #1E8E3E"#]),
    ("underline removed", [("{charge}", "charge")], "left", [#"s0-r0 text span "charge" underline removed"#]),
    ("alignment", [], "center", ["s0-r1 body text alignment left → center"]),
  ]

  @Test(arguments: 0..<styleChanges.count)
  func aStyledTextOrAlignmentChangeIsNeverRasterizationOnly(_ index: Int) async throws {
    let (name, replacing, align, expected) = Self.styleChanges[index]
    let folder = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let root = folder.appendingPathComponent("Snapshots")
    let reference = try await Self.renderedStyled(in: folder)
    let recorded = try await Self.store(root).check(suite: "S", name: "t", record: .missing) { _ in reference }
    guard case .recorded = recorded.outcome else { Issue.record("not recorded: \(recorded.outcome)"); return }

    let actual = try await Self.renderedStyled(in: folder, replacing, align: align, environment: Self.monochrome)
    let checked = try await Self.store(root, Self.monochrome).comparingInAnotherEnvironment().check(
      suite: "S", name: "t", record: .never
    ) { _ in actual }
    #expect(!checked.outcome.passed, "\(name)")
    #expect(checked.layout.changes.map(\.sentence) == expected, "\(name)")
    #expect(!checked.layout.rasterizationOnly, "\(name)")
    let problem = Self.store(root, Self.monochrome).rasterizationOnlyProblem(
      actual: try PNG.encode(actual.image), layout: try #require(actual.layout), reference: root.appendingPathComponent("S/t.png"))
    #expect(problem == "its layout changed (\(expected[0]))", "\(name)")
  }

  /// A reference record written before alignment and spans were recorded tells no change of
  /// them, and cannot vouch for them either: rasterization only is refused with the reason.
  @Test func aRecordWithoutStylingTellsNoStylingChangeButIsNotRasterizationOnly() async throws {
    let folder = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    var old = try #require(try await Self.renderedStyled(in: folder).layout)
    for row in old.rows.indices {
      for element in old.rows[row].elements.indices {
        old.rows[row].elements[element].text?.alignment = nil
        old.rows[row].elements[element].text?.spans = nil
      }
    }
    let actual = try #require(try await Self.renderedStyled(in: folder, environment: Self.monochrome).layout)
    #expect(LayoutChanges.compare(old, actual).isEmpty)
    #expect(
      LayoutChanges.unverifiedStyling(old, actual)
        == "the reference's layout record does not say how s0-r0 text is aligned and styled (it predates their recording); "
        + "record the reference again to verify it")
  }

  @Test func glyphPixelsThatDifferInOneEnvironmentAreNotRasterizationOnly() async throws {
    let (folder, root) = try await Self.recordedReferences()
    defer { try? FileManager.default.removeItem(at: folder) }
    let table = try await Self.rendered()
    let layout = try #require(table.layout)
    let row = layout.rows[0]
    let ink = try #require(row.element("text")?.ink)
    let (x, y) = (Int((row.x + ink[0] + ink[2] / 2) * layout.scale), Int((row.y + ink[1] + ink[3] / 2) * layout.scale))
    let changed = CraftedImages.block(table.image, x: x, y: y, width: 2, height: 2, Color(r: 255, g: 0, b: 0))
    let checked = try await Self.store(root).comparingInAnotherEnvironment().check(suite: "S", name: "t", record: .never) { _ in
      RenderedSnapshot(image: changed, layout: table.layout)
    }
    #expect(checked.layout.pixelOnly?.insideGlyphsOnly == true)
    #expect(!checked.layout.rasterizationOnly)
  }

  @Test func onlyAFontFilesDigestWithItsNameKeptIsARasterizationInput() {
    func change(_ from: String, _ to: String) -> LayoutChange {
      LayoutChange(row: "s0-r0", element: "text", property: "fontFile", from: from, to: to, sentence: "")
    }
    #expect(change("Inter-Bold.otf (0123456789ab)", "Inter-Bold.otf (ba9876543210)").isFontDigestOnly)
    #expect(!change("Inter-Bold.otf (0123456789ab)", "Inter-Regular.otf (0123456789ab)").isFontDigestOnly)
    #expect(!LayoutChange(row: "s0-r0", element: "text", property: "text", from: "a", to: "a", sentence: "").isFontDigestOnly)
  }
}
