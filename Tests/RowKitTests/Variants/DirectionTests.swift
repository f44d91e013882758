import Foundation
import RowKit
import RowKitGraphics
import RowKitSnapshot
import RowKitSnapshotAssertions
import RowKitTestSupport
import Testing

/// The `direction` axis: in `rtl` every built-in cell is mirrored as UIKit mirrors a cell with
/// a right-to-left semantic content attribute, tested with numbers and with references.
@Suite struct DirectionTests {
  /// Frames agree to within a Pango unit (1/1024 point): Pango measures in whole units.
  static let tolerance = 1.0 / 512

  static func reflected(_ frame: Rect, in width: Double) -> Rect {
    Rect(x: width - frame.x - frame.width, y: frame.y, width: frame.width, height: frame.height)
  }

  static func expectSame(_ a: Rect, _ b: Rect, _ what: String) {
    let same =
      abs(a.x - b.x) <= tolerance && abs(a.y - b.y) <= tolerance && abs(a.width - b.width) <= tolerance
      && abs(a.height - b.height) <= tolerance
    #expect(same, "\(what): \(a) is not \(b)")
  }

  /// Every row of the catalog (every built-in cell, each accessory, selected rows, images and
  /// controls), plain and grouped, at a narrow and a wide width and at AX3: each `rtl` frame is
  /// the `ltr` frame reflected in the cell's width, x' = cellWidth − x − width. (UIKit mirrors
  /// a cell's content view in its own width and moves it past the accessory, which is now on
  /// the left: in cell coordinates that is the same reflection.) Heights do not change.
  @Test(arguments: TableStyle.allCases, [Variant(width: 320), Variant(width: 768, textSize: .AX3)])
  func everyRTLFrameIsTheLTRFrameReflectedInTheCellWidth(style: TableStyle, base: Variant) throws {
    let renderer = try TestSupport.catalogRenderer(style: style)
    var ltrVariant = base
    ltrVariant.direction = .ltr
    var rtlVariant = base
    rtlVariant.direction = .rtl
    let ltr = try renderer.rendering(ltrVariant).layout(Catalog.dataSource())
    let rtl = try renderer.rendering(rtlVariant).layout(Catalog.dataSource())
    let (cells, checkedAccessories) = try Self.expectMirrored(ltr: ltr, rtl: rtl, name: "\(base) \(style)")
    #expect(checkedAccessories > 5)
    // Every built-in cell is in the catalog and was compared.
    for cell in [
      "TextCell", "CaptionCell", "RightCaptionCell", "SubtextCell", "SettingsCell", "SubtitleCell", "MessageCell",
      "ImageCell", "RightImageCell", "StyledTextCell", "ControlCell", "ActivityCell", "MoreButtonCell", "CheckmarkCell",
    ] {
      #expect(cells.contains(cell), "\(cell) is not in the catalog")
    }
  }

  /// Cells drawn by design files (stacks of labels and images) and the sample documents
  /// mirror the same way.
  @Test(arguments: ["people", "stocks", "settings", "feed", "features"])
  func sampleDocumentsMirror(name: String) throws {
    let shaper = try TextEnvironment.standard.makeShaper()
    let document = try TableDocument.load(
      TestSupport.assets.appendingPathComponent("Samples/\(name).yaml"), fontFamilies: shaper.families)
    let renderer = document.makeRenderer()
    let ltr = try renderer.rendering(Variant(direction: .ltr)).layout(document.dataSource)
    let rtl = try renderer.rendering(Variant(direction: .rtl)).layout(document.dataSource)
    _ = try Self.expectMirrored(ltr: ltr, rtl: rtl, name: name)
  }

  /// Checks that every frame of `rtl` is the frame of `ltr` reflected (rows in their cell's
  /// width, headers and footers in the table's); gives the cells it saw and the number of
  /// accessories it compared.
  static func expectMirrored(ltr: TableLayout, rtl: TableLayout, name table: String) throws -> (Set<String>, Int) {
    #expect(ltr.rows.count == rtl.rows.count)
    #expect(ltr.size == rtl.size)
    var cells = Set<String>()
    var checkedAccessories = 0
    for (left, right) in zip(ltr.rows, rtl.rows) {
      let name = "\(table) s\(left.section)-r\(left.row) \(left.layout.cellName)"
      cells.insert(left.layout.cellName)
      let width = left.cellFrame.width
      #expect(left.layout.direction == .ltr)
      #expect(right.layout.direction == .rtl)
      #expect(left.frame == right.frame, "\(name)")
      #expect(left.cellFrame == right.cellFrame, "\(name)")
      #expect(left.layout.labels.map(\.name) == right.layout.labels.map(\.name), "\(name)")
      for (a, b) in zip(left.layout.labels, right.layout.labels) {
        #expect(a.text.text == b.text.text, "\(name) \(a.name)")
        Self.expectSame(b.frame, Self.reflected(a.frame, in: width), "\(name) label \(a.name)")
      }
      #expect(left.layout.images.count == right.layout.images.count, "\(name)")
      for (a, b) in zip(left.layout.images, right.layout.images) {
        if let anchor = a.anchorLabel {
          // An image inside styled text moves with its text: it stays inside its label.
          let label = try #require(right.layout.label(anchor))
          #expect(b.frame.minX >= label.frame.minX - Self.tolerance && b.frame.maxX <= label.frame.maxX + Self.tolerance, "\(name)")
          #expect(b.frame.size == a.frame.size && b.frame.y == a.frame.y, "\(name)")
        } else {
          Self.expectSame(b.frame, Self.reflected(a.frame, in: width), "\(name) image \(a.name)")
        }
      }
      #expect(left.layout.decorations.count == right.layout.decorations.count, "\(name)")
      for (a, b) in zip(left.layout.decorations, right.layout.decorations) {
        Self.expectSame(b.frame, Self.reflected(a.frame, in: width), "\(name) decoration")
      }
      #expect(left.layout.accessory?.kind == right.layout.accessory?.kind, "\(name)")
      if let a = left.layout.accessory, let b = right.layout.accessory {
        Self.expectSame(b.frame, Self.reflected(a.frame, in: width), "\(name) accessory")
        // The accessory is on the left, and no label runs over it.
        #expect(b.frame.maxX < width / 2, "\(name)")
        for label in right.layout.labels { #expect(label.frame.minX >= b.frame.maxX - 0.01, "\(name) \(label.name)") }
        checkedAccessories += 1
      }
    }
    // Section headers and footers mirror in the table's width.
    for (a, b) in zip(ltr.sections, rtl.sections) {
      for (x, y) in [(a.header?.label, b.header?.label), (a.footer?.label, b.footer?.label)] {
        guard let x, let y else {
          #expect(x == nil && y == nil)
          continue
        }
        Self.expectSame(y.frame, Self.reflected(x.frame, in: ltr.size.width), "\(table) section \(a.index) title")
      }
    }
    return (cells, checkedAccessories)
  }

  /// Multi-line text in `rtl` is aligned to the right: each line ends at the label's right
  /// edge, so the text's box is right-aligned, not just moved.
  @Test func wrappedTextIsAlignedRightInRTL() throws {
    let item = LongTextItem(text: "A long paragraph of text that wraps onto several lines in a narrow table row.")
    let rtl = try TestSupport.layoutRow(
      item, renderer: TableRenderer(configuration: TableConfiguration(width: 320, direction: .rtl)))
    let label = try #require(rtl.layout.label("text"))
    #expect(label.text.lineCount > 1)
    #expect(label.text.style.alignment == .right)
    let ltr = try TestSupport.layoutRow(item, renderer: TableRenderer(configuration: TableConfiguration(width: 320)))
    #expect(try #require(ltr.layout.label("text")).text.style.alignment == .left)
    #expect(abs(label.frame.maxX - (320 - 10)) < Self.tolerance)
  }

  /// Text in a right-to-left script goes to the right in `rtl` as every label does (UIKit
  /// aligns a right-to-left layout's labels right), though Pango's natural alignment already
  /// puts it at the right in `ltr`: such a label is not the mirror of its `ltr` self.
  @Test(arguments: ["مرحبا بالعالم", "שלום עולם", "Hello world", "123 مرحبا"])
  func everyScriptIsAlignedRightInRTL(text: String) throws {
    let rtl = try TestSupport.layoutRow(
      LongTextItem(text: text), renderer: TableRenderer(configuration: TableConfiguration(width: 320, direction: .rtl)))
    let label = try #require(rtl.layout.label("text"))
    #expect(abs(label.frame.maxX - (320 - 10)) < Self.tolerance, "\(label.frame)")
  }

  /// The disclosure chevron points left in `rtl`: at the chevron's middle row of pixels its
  /// ink (the tip) is at the left of its frame, and at its top and bottom rows at the right;
  /// the `ltr` chevron is the other way round.
  @Test func chevronsPointLeftInRTL() async throws {
    let item = TextItem(text: "Settings", options: ItemOptions(url: "app://settings"))
    func inkColumns(_ direction: LayoutDirection, row: (Rect) -> Double) async throws -> (tip: Int, frame: Rect) {
      let renderer = TableRenderer(configuration: TableConfiguration(width: 320, direction: direction))
      let data = SectionedDataSource(sections: [TableSection(items: [item])])
      let layout = try renderer.layout(data)
      let frame = try #require(layout.rows[0].layout.accessory?.frame)
      let image = try await renderer.render(data, outputs: [.rows]).rowImages[0]
      let y = Int(row(frame) * 2)
      // The darkest pixel (lowest green) of the row of pixels, across the accessory's frame.
      var darkest = (column: 0, green: 256)
      for x in Int(frame.minX * 2)..<Int((frame.maxX * 2).rounded(.up)) {
        let green = Int(image.pixels[(y * image.width + x) * 4 + 1])
        if green < darkest.green { darkest = (x, green) }
      }
      #expect(darkest.green < 200, "no ink at row \(y) in \(direction)")
      return (darkest.column, frame)
    }
    let ltrTip = try await inkColumns(.ltr) { $0.midY }
    let rtlTip = try await inkColumns(.rtl) { $0.midY }
    #expect(Double(ltrTip.tip) / 2 > ltrTip.frame.midX)
    #expect(Double(rtlTip.tip) / 2 < rtlTip.frame.midX)
    let ltrTop = try await inkColumns(.ltr) { $0.minY + 2 }
    let rtlTop = try await inkColumns(.rtl) { $0.minY + 2 }
    #expect(Double(ltrTop.tip) / 2 < ltrTop.frame.midX)
    #expect(Double(rtlTop.tip) / 2 > rtlTop.frame.midX)
    #expect(rtlTip.frame.maxX < 50)
  }

  @Test func directionIsAVariantAxisWithItsName() throws {
    #expect(Variant(direction: .rtl).name == "rtl")
    #expect(Variant(textSize: .AX3, appearance: .dark, direction: .rtl).fileName("table.png") == "table@dark,AX3,rtl.png")
    let axes = VariantAxes(appearances: [.light, .dark], directions: [.ltr, .rtl])
    #expect(axes.variants.map(\.name) == ["light,ltr", "light,rtl", "dark,ltr", "dark,rtl"])
    #expect(VariantAxes(directions: [.rtl, .rtl]).problem == "the direction axis lists rtl twice")
    #expect(VariantAxes(directions: [.ltr]).overriding(with: VariantAxes(directions: [.rtl])).directions == [.rtl])
    #expect(Variant(direction: .rtl).apply(to: TableConfiguration()).direction == .rtl)
  }

  /// `ltr` is the renderer as it was: the same bytes as no variant at all.
  @Test func ltrRendersExactlyAsNoDirection() async throws {
    let renderer = try TestSupport.catalogRenderer(style: .grouped)
    let plain = try await renderer.render(Catalog.dataSource())
    let ltr = try await renderer.rendering(Variant(direction: .ltr)).render(Catalog.dataSource())
    #expect(plain.image == ltr.image)
    let rtl = try await renderer.rendering(Variant(direction: .rtl)).render(Catalog.dataSource())
    #expect(plain.image != rtl.image)
    #expect(rtl.manifest.variant == "rtl")
    #expect(plain.manifest.rows.map(\.height) == rtl.manifest.rows.map(\.height))
  }

  @Test func aDocumentNamesItsDirections() throws {
    let families = try TextEnvironment.standard.makeShaper().families
    let folder = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let good = folder.appendingPathComponent("good.yaml")
    try "variants:\n  direction: [ltr, rtl]\nitems:\n  - { type: text, text: Hi }\n".write(
      to: good, atomically: true, encoding: .utf8)
    #expect(try TableDocument.load(good, fontFamilies: families).variantAxes.directions == [.ltr, .rtl])
    let bad = folder.appendingPathComponent("bad.yaml")
    try "variants:\n  direction: [ltr, backwards]\nitems:\n  - { type: text, text: Hi }\n".write(
      to: bad, atomically: true, encoding: .utf8)
    let error = #expect(throws: (any Error).self) { try TableDocument.load(bad, fontFamilies: families) }
    let message = "\(error.map { "\($0)" } ?? "")"
    #expect(message.contains("bad.yaml:2"), "\(message)")
    #expect(message.contains("'backwards' is not one of ltr, rtl"), "\(message)")
  }

  /// References of the catalog mirrored, plain and grouped, looked at when recorded.
  @Test(arguments: [TableStyle.plain, .grouped])
  func catalogInRTL(style: TableStyle) async throws {
    var configuration = TableConfiguration(style: style, now: Catalog.now)
    configuration.direction = .rtl
    // The catalog shows a failed image's default on purpose.
    let strategy = ImageSnapshotting.table(
      configuration: configuration, images: .bitmaps(try Catalog.images()), allowing: .failedImages)
    await assertSnapshot(
      of: Catalog.dataSource(), as: strategy, named: style.rawValue + "-rtl", suite: "Catalog")
  }
}

/// The variants contact sheet through the API: one column per variant, each named.
@Suite struct ContactSheetTests {
  @Test func everyVariantIsAColumnUnderItsName() async throws {
    let renderer = try TestSupport.catalogRenderer(style: .grouped)
    let items: [any TableItem] = [
      SubtitleItem(text: "Video", subtitle: "Shoot", options: ItemOptions(url: "app://video")),
      CaptionItem(text: "Joe", caption: "Name"),
    ]
    let data = SectionedDataSource(sections: [TableSection(header: "Rows", items: items)])
    let axes = VariantAxes(appearances: [.light, .dark], directions: [.ltr, .rtl])
    let sheet = try await renderer.contactSheet(data, variants: axes)
    #expect(try await renderer.contactSheet(data, variants: axes) == sheet)
    let tables = try await renderer.render(data, variants: axes).map(\.table.image)
    #expect(sheet.width == tables.map(\.width).reduce(0, +) + 3 * TableRenderer.contactSheetGap)
    // The title band is a plain header naming the variant: its height is the band's.
    let title = try await TableRenderer(configuration: TableConfiguration(style: .plain)).measure(
      SectionedDataSource(sections: [TableSection(header: "light,ltr", items: [])]))
    #expect(sheet.height == tables[0].height + Int(title.height * 2))
    // Bad axes are refused before anything is drawn.
    await #expect(throws: (any Error).self) {
      try await renderer.contactSheet(data, variants: VariantAxes(directions: [.rtl, .rtl]))
    }
  }
}
