import Foundation
import RowKit
import RowKitGraphics
import RowKitTestSupport
import Testing

/// The catalog's built-in cells over the variant matrix: 3 widths × 4 text sizes (with AX5)
/// × light and dark × ltr and rtl, through the one renderer.
@Suite struct VariantMatrixTests {
  static let axes = VariantAxes(widths: [320, 375, 768], textSizes: [.xSmall, .large, .AX3, .AX5], appearances: [.light, .dark],
    directions: [.ltr, .rtl])

  @Test(arguments: TableStyle.allCases)
  func everyRowImageIsItsManifestHeightAndTextStaysClearOfTheAccessory(style: TableStyle) async throws {
    let renderer = try TestSupport.catalogRenderer(style: style)
    let results = try await renderer.render(Catalog.dataSource(), variants: Self.axes, outputs: [.rows])
    #expect(results.count == 48)
    for (variant, table) in results {
      #expect(table.manifest.variant == variant.name)
      #expect(table.manifest.width == variant.width)
      #expect(table.rowImages.count == table.manifest.rows.count)
      for (row, image) in zip(table.manifest.rows, table.rowImages) {
        #expect(Double(image.height) == row.height * table.manifest.scale, "\(variant) \(row.name)")
        #expect(Double(image.width) == variant.width! * table.manifest.scale)
      }
      // Text never runs under an accessory, at any size: the overlap rule finds nothing
      // between labels and accessories.
      let layout = try renderer.rendering(variant).layout(Catalog.dataSource())
      for row in layout.rows {
        guard let accessory = row.layout.accessory else { continue }
        for label in row.layout.labels {
          // The accessory is at the trailing side: the right in ltr, the left in rtl.
          let clear =
            variant.direction == .rtl
            ? label.frame.minX >= accessory.frame.maxX - 0.01 : label.frame.maxX <= accessory.frame.minX + 0.01
          #expect(clear, "\(variant) s\(row.section)-r\(row.row) \(label.name)")
        }
      }
    }
  }

  @Test func theSameRowIsTallerAtAX5ThanAtXSmallAndWidthsChangeNothingButTheWidth() async throws {
    let renderer = try TestSupport.catalogRenderer(style: .plain)
    let small = try await renderer.rendering(Variant(textSize: .xSmall)).measure(Catalog.dataSource())
    let huge = try await renderer.rendering(Variant(textSize: .AX5)).measure(Catalog.dataSource())
    for (a, b) in zip(small.rows, huge.rows) { #expect(a.height <= b.height, "\(a.name)") }
    #expect(huge.height > 2 * small.height)
    // A document without variants renders exactly as before: a variant of nothing is the
    // renderer itself.
    let plain = try await renderer.render(Catalog.dataSource())
    let none = try await renderer.rendering(Variant()).render(Catalog.dataSource())
    #expect(plain.image == none.image)
    #expect(plain.manifest == none.manifest)
    #expect(none.manifest.variant == nil)
  }
}
