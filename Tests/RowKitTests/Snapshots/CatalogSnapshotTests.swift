import Foundation
import RowKitGraphics
import RowKitSnapshot
import RowKitSnapshotAssertions
import RowKitTestSupport
import Testing

@testable import RowKit

/// The catalog of every built-in cell, plain and grouped, and the sample document, compared
/// pixel for pixel with the references under `Snapshots/`.
@Suite struct CatalogSnapshotTests {
  @Test(arguments: [TableStyle.plain, .grouped])
  func catalog(style: TableStyle) async throws {
    let strategy = ImageSnapshotting.table(
      configuration: TableConfiguration(style: style, now: Catalog.now), images: .bitmaps(try Catalog.images()),
      allowing: .failedImages)  // The catalog shows a failed image's default on purpose.
    await assertSnapshot(of: Catalog.dataSource(), as: strategy, named: style.rawValue, suite: "Catalog")
  }

  /// Every document in `Assets/Samples`: the feature tour and the designed people, stocks,
  /// settings and feed tables, and the image styles of photos.
  /// The scripts page: a name and a message in each of the world's major scripts.
  @Test func scriptsPage() async throws {
    await assertSnapshot(of: Catalog.scriptsDataSource(), as: .table(), named: "scripts", suite: "Catalog")
  }

  @Test(arguments: ["features", "people", "stocks", "settings", "feed", "photos", "world"])
  func sampleDocument(name: String) async throws {
    let shaper = try TextEnvironment.standard.makeShaper()
    let document = try TableDocument.load(
      TestSupport.assets.appendingPathComponent("Samples/\(name).yaml"), fontFamilies: shaper.families)
    // Three samples show a failed image's default on purpose; every other image must load.
    let substitutes: SnapshotSubstitutes = ["features", "people", "photos"].contains(name) ? .failedImages : []
    await assertSnapshot(of: document, as: .document(allowing: substitutes), named: name, suite: "Samples")
  }

  @Test func everySampleIsChecked() throws {
    let names = try SnapshotCheck.discover(in: TestSupport.assets.appendingPathComponent("Samples")).map(\.name)
    #expect(names == ["features", "feed", "people", "photos", "settings", "stocks", "world"])
  }

  @Test func theDesignsContactSheet() async throws {
    let shaper = try TextEnvironment.standard.makeShaper()
    let designs = TestSupport.assets.appendingPathComponent("Designs")
    let stylesheet = try Stylesheet.load(contentsOf: designs.appendingPathComponent("styles.yaml"), fontFamilies: shaper.families)
    let catalog = try DesignCatalog.load(folder: designs, stylesheet: stylesheet, fontFamilies: shaper.families, assets: TestSupport.assets)
    #expect(catalog.entries.map(\.name) == ["feed", "person", "setting", "stock"])
    let first = try await catalog.contactSheet(stylesheet: stylesheet, assets: TestSupport.assets).image
    let second = try await catalog.contactSheet(stylesheet: stylesheet, assets: TestSupport.assets).image
    #expect(first == second)
    await assertSnapshot(of: first, as: .image, named: "contact-sheet", suite: "Designs")
  }

  @Test func selectionChangesOnlyTheSelectedRows() async throws {
    func render(selected: Set<Int>) async throws -> (Manifest, Bitmap) {
      let items: [any TableItem] = (0..<5).map { index in
        SubtitleItem(
          text: "Row \(index)", subtitle: "Subtitle", options: ItemOptions(url: "app://\(index)", isSelected: selected.contains(index)))
      }
      let renderer = try TestSupport.renderer(TableConfiguration(style: .grouped))
      let rendered = try await renderer.render(SectionedDataSource(sections: [TableSection(header: "Rows", items: items)]))
      return (rendered.manifest, rendered.tiles[0].bitmap)
    }
    let (manifest, none) = try await render(selected: [])
    let (_, some) = try await render(selected: [1, 3])
    let grid = PixelGrid(scale: 2)
    let selectedRows = [1, 3].map { manifest.rows[$0] }.map { grid.pixels($0.y)..<grid.pixels($0.y + $0.height) }
    var changedOutside = 0
    var changedInside = [0, 0]
    for y in 0..<none.height {
      let rowStart = y * none.bytesPerRow
      let same = none.pixels[rowStart..<rowStart + none.bytesPerRow] == some.pixels[rowStart..<rowStart + none.bytesPerRow]
      if let index = selectedRows.firstIndex(where: { $0.contains(y) }) {
        if !same { changedInside[index] += 1 }
      } else if !same {
        changedOutside += 1
      }
    }
    #expect(changedOutside == 0)
    #expect(changedInside.allSatisfy { $0 > 0 })
  }
}
