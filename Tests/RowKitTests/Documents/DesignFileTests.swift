import Foundation
import RowKitGraphics
import RowKitTestSupport
import Testing

@testable import RowKit

@Suite struct DesignFileTests {
  let families = ["DejaVu Sans", "DejaVu Sans Mono", "Inter"]
  var designs: URL { TestSupport.assets.appendingPathComponent("Designs") }

  func stylesheet() throws -> Stylesheet {
    try Stylesheet.load(contentsOf: designs.appendingPathComponent("styles.yaml"), fontFamilies: families)
  }

  @Test func designsKeepTheOneLayoutRule() async throws {
    for name in ["people", "stocks", "settings", "feed"] {
      let document = try TableDocument.load(
        TestSupport.assets.appendingPathComponent("Samples/\(name).yaml"), fontFamilies: families)
      let renderer = document.makeRenderer(pool: RenderPool(workers: 2))
      // Laid out once on this thread, to know every label; then rendered on a fresh pool,
      // whose shapers shape each label once and nothing else.
      let shaper = try renderer.environment.makeShaper()
      var shaped: [String] = []
      shaper.shapeObserver = { shaped.append($0) }
      let labels = try renderer.layout(document.dataSource, shaper: shaper).allLabels
      #expect(shaped.sorted() == labels.map(\.text.text).sorted(), "\(name)")
      let rendered = try await document.render(with: renderer, outputs: [.table, .rows])
      #expect(rendered.labelsShaped == labels.count, "\(name)")
    }
  }

  /// A stylesheet's own `fonts:` are families its designs may name: `rowkit check --designs`
  /// and `rowkit preview` refused a design naming one ("not loaded") that the catalog drew.
  @Test func aDesignNamesTheFamiliesOfItsStylesheetsFonts() throws {
    let folder = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    try FileManager.default.copyItem(
      atPath: "/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf", toPath: folder.appendingPathComponent("brand.ttf").path)
    try Data("extends: default\nfonts: [brand.ttf]\nvars: { brandFont: \"DejaVu Serif 17\" }\n".utf8)
      .write(to: folder.appendingPathComponent("styles.yaml"))
    try Data("body:\n  label: { bind: title, font: brandFont, name: title }\npreview:\n  - { title: Brand }\n".utf8)
      .write(to: folder.appendingPathComponent("brand.yaml"))
    let sheet = try Stylesheet.load(contentsOf: folder.appendingPathComponent("styles.yaml"), fontFamilies: families)
    let template = try DesignTemplate.load(contentsOf: folder.appendingPathComponent("brand.yaml"), stylesheet: sheet, fontFamilies: families)
    #expect(DesignCatalog.previewFields(of: template).count == 1)
    #expect(throws: DocumentError.self) {
      try DesignTemplate.load(contentsOf: folder.appendingPathComponent("brand.yaml"), fontFamilies: families)
    }
  }

  @Test func previewsBecomeSampleItems() throws {
    let stock = try DesignTemplate.load(
      contentsOf: designs.appendingPathComponent("stock.yaml"), stylesheet: stylesheet(), fontFamilies: families)
    #expect(stock.fields == ["symbol", "company", "price", "change", "percent", "trend"])
    #expect(stock.previews.count == 2)
    #expect(stock.previews[0]["symbol"] == "AAPL")
  }

  @Test func templatedColorsFollowTheItem() throws {
    let document = try TableDocument.load(TestSupport.assets.appendingPathComponent("Samples/stocks.yaml"), fontFamilies: families)
    let table = try document.makeRenderer().layout(document.dataSource)
    #expect(table.rows[0].layout.label("change")?.color == Color(hex: "#1E8E3E"))
    #expect(table.rows[1].layout.label("change")?.color == Color(hex: "#C5221F"))
    #expect(table.rows[2].layout.label("change")?.color == .white, "a selected row takes the highlighted color")
  }

  @Test func aStockRowHugsItsPriceAndGrowsItsName() throws {
    let document = try TableDocument.load(TestSupport.assets.appendingPathComponent("Samples/stocks.yaml"), fontFamilies: families)
    let row = try document.makeRenderer().layout(document.dataSource).rows[3]
    let price = try #require(row.layout.label("price"))
    let change = try #require(row.layout.label("change"))
    let company = try #require(row.layout.label("company"))
    #expect(abs(price.frame.maxX - (375 - 12)) < 0.01, "end alignment puts the price at the right padding")
    #expect(abs(change.frame.maxX - (375 - 12)) < 0.01)
    #expect(company.frame.maxX <= change.frame.minX - 10 + 0.01)
  }

  @Test func designFilesDrawSwiftItemsByTheirPropertyNames() throws {
    struct Person: TableItem {
      var name: String
      var role: String
      var photoURL: String?
    }
    let template = try DesignTemplate.load(
      contentsOf: designs.appendingPathComponent("person.yaml"), stylesheet: stylesheet(), fontFamilies: families,
      assets: TestSupport.assets)
    var mapping = CellMapping()
    mapping.register(DesignFileCell(name: "PersonCell", template: template), for: Person.self)
    let renderer = try TableRenderer(stylesheet: stylesheet())
    let row = try TestSupport.layoutRow(Person(name: "Joe", role: "Author", photoURL: nil), mapping: mapping, renderer: renderer)
    #expect(row.layout.cellName == "PersonCell")
    #expect(row.layout.label("name")?.text.text == "Joe")
    #expect(row.layout.label("role")?.text.text == "Author")
    #expect(row.layout.images.first?.url == nil, "a nil property reads as missing")
    #expect(row.layout.images.first?.defaultURL == "bundle://images/placeholder.png")
  }

  /// `field: null` in a document is what `nil` is for a Swift item: the field left out.
  @Test func aNullFieldIsLeftOutAsASwiftNilIs() throws {
    let folder = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let document = folder.appendingPathComponent("people.yaml")
    let text = [
      "stylesheet: \(designs.appendingPathComponent("styles.yaml").path)",
      "assets: \(TestSupport.assets.path)",
      "cells:",
      "  Person: \(designs.appendingPathComponent("person.yaml").path)",
      "items:",
      "  - { type: Person, name: Joe, role: Author, photoURL: null }",
      "  - { type: Person, name: Joe, role: Author, photoURL: ~ }",
    ].joined(separator: "\n")
    try Data(text.utf8).write(to: document)
    let loaded = try TableDocument.load(document, fontFamilies: families)
    let rows = try loaded.makeRenderer().layout(loaded.dataSource).rows
    #expect(rows.count == 2)
    for row in rows {
      #expect(row.layout.label("name")?.text.text == "Joe")
      #expect(row.layout.images.first?.url == nil, "null reads as missing")
      #expect(row.layout.images.first?.defaultURL == "bundle://images/placeholder.png")
    }
  }

  @Test func previewMistakesNameTheDesignFile() throws {
    let folder = try TestSupport.temporaryDirectory()
    let cases: [(String, String)] = [
      ("body:\n  label: { bind: name }\npreview:\n  - { nme: Joe }\n", "unknown key 'nme'"),
      ("body:\n  label: { bind: name }\npreview:\n  - { }\n", "missing field 'name', which"),
      ("body:\n  label: { bind: name }\npreview:\n  - { }\n", "(write 'name: null' to leave it out)"),
      ("body:\n  label: { bind: name, color: \"{tone}\" }\npreview:\n  - { name: x, tone: neonColor }\n", "undefined variable 'neonColor'"),
      ("body:\n  image: { bind: photo, width: 10, height: 10 }\npreview:\n  - { photo: \"bundle://../x.png\" }\n", "escapes the assets folder"),
      ("body:\n  vstack: { children: [ { label: { text: hi } } ], spacing: wide }\n", "expected a number or a number variable"),
    ]
    for (index, (text, message)) in cases.enumerated() {
      let url = folder.appendingPathComponent("d\(index).yaml")
      try Data(text.utf8).write(to: url)
      #expect {
        try DesignTemplate.load(contentsOf: url, fontFamilies: families)
      } throws: { error in
        let description = "\(error)"
        return description.contains("d\(index).yaml:") && description.contains(message)
      }
    }
  }
}
