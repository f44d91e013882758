import Foundation
import RowKitGraphics
import RowKitSnapshot
import RowKitSnapshotAssertions
import RowKitTestSupport
import Testing

@testable import RowKit

@Suite struct StyleCatalogTests {
  @Test func theStyleCatalogMatchesItsReference() async throws {
    let shaper = try TextEnvironment.standard.makeShaper()
    let document = try StyleCatalog.load(fontFamilies: shaper.families, assets: TestSupport.assets)
    let strategy = ImageSnapshotting.table(
      configuration: document.configuration, stylesheet: document.stylesheet, images: .bitmaps(try StyleCatalog.images()))
    await assertSnapshot(of: document.dataSource, as: strategy, named: "catalog", suite: "Styles")
  }

  @Test func theAssetsDocumentIsTheBuiltInOne() throws {
    let file = try String(contentsOf: TestSupport.assets.appendingPathComponent("Styles/catalog.yaml"), encoding: .utf8)
    #expect(file == StyleCatalog.documentText, "run scripts/embed-style-catalog.py after editing the YAML")
  }

  @Test func everyElementAndShapeIsInTheCatalog() throws {
    let shaper = try TextEnvironment.standard.makeShaper()
    let document = try StyleCatalog.load(fontFamilies: shaper.families)
    let used = document.dataSource.sections.flatMap(\.items).compactMap { ($0 as? StyleItem)?.style }
    let elements = Set(used.flatMap { document.stylesheet.styles[$0]!.elements }.map { element -> String in
      switch element {
      case .shape: return "shape"
      case .inset: return "inset"
      case .box: return "box"
      case .fill: return "fill"
      case .linearGradient: return "linearGradient"
      case .reflectiveFill: return "reflectiveFill"
      case .shadow: return "shadow"
      case .innerShadow: return "innerShadow"
      case .border: return "border"
      case .highlightBorder: return "highlightBorder"
      case .fourBorder: return "fourBorder"
      case .bevelBorder: return "bevelBorder"
      case .gradientBorder: return "gradientBorder"
      case .blend: return "blend"
      case .text: return "text"
      case .content: return "content"
      }
    })
    #expect(elements == Set(Style.elementNames))
    let shapes = Set(used.flatMap { document.stylesheet.styles[$0]!.elements }.compactMap { element -> String? in
      guard case .shape(let shape) = element else { return nil }
      switch shape {
      case .rectangle: return "rectangle"
      case .roundedRect: return "roundedRect"
      case .roundedLeftArrow: return "roundedLeftArrow"
      case .roundedRightArrow: return "roundedRightArrow"
      case .speechBubble: return "speechBubble"
      }
    })
    #expect(shapes == ["rectangle", "roundedRect", "roundedLeftArrow", "roundedRightArrow", "speechBubble"])
  }
}
