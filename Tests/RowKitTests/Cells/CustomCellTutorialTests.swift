import RowKitGraphics
import RowKitTestSupport
import Testing

@testable import RowKit

// The progression Three20's tutorials walked through, in RowKit: a cell with a title and a
// sub-text; the same cell with a red title, by styling; and a variant with a third label (a
// URL) that grows to fit it. The "A custom cell in Swift" article shows the same code, from
// Snippets/CustomCell.swift.

struct ProductItem: TableItem {
  var title: String
  var subtext: String
}

struct ProductCell: DesignedCell {
  var titleColor: ColorReference = "textColor"

  func design(for item: ProductItem) -> CellDesign {
    CellDesign(body: .vstack(spacing: 2, [
      .label(item.title, name: "title", font: "tableFont", color: titleColor, lines: 1),
      .label(item.subtext, name: "subtext", font: "font", color: "tableSubTextColor"),
    ]))
  }
}

struct LinkedProductItem: TableItem {
  var title: String
  var subtext: String
  var link: String
}

struct LinkedProductCell: DesignedCell {
  var base = ProductCell()

  func design(for item: LinkedProductItem) -> CellDesign {
    var design = base.design(for: ProductItem(title: item.title, subtext: item.subtext))
    design.body = .vstack(spacing: 2, [
      design.body,
      .label(item.link, name: "link", font: "font", color: "linkTextColor", lines: 1),
    ])
    return design
  }
}

@Suite struct CustomCellTutorialTests {
  func layout(_ items: [any TableItem], mapping: CellMapping) throws -> TableLayout {
    try TestSupport.renderer().layout(SectionedDataSource(sections: [TableSection(items: items)], cellMapping: mapping))
  }

  @Test func aTitleAndSubtextCellTakesOneRegistration() throws {
    var mapping = CellMapping()
    mapping.register(ProductCell(), for: ProductItem.self)
    let row = try layout([ProductItem(title: "Three20", subtext: "Facebook's iOS library")], mapping: mapping).rows[0]
    let title = try #require(row.layout.label("title"))
    let subtext = try #require(row.layout.label("subtext"))
    #expect(row.layout.cellName == "ProductCell")
    #expect(title.frame.minX == 10 && subtext.frame.minX == 10)
    #expect(subtext.frame.minY == title.frame.maxY + 2)
    #expect(title.color == .black)
    #expect(row.height == PixelGrid(scale: 2).ceil(title.frame.height + 2 + subtext.frame.height + 20))
  }

  @Test func aRedTitleIsTheSameCellStyledDifferently() throws {
    var mapping = CellMapping()
    mapping.register(ProductCell(titleColor: "#FF0000"), for: ProductItem.self)
    let row = try layout([ProductItem(title: "Red", subtext: "Styled, not subclassed")], mapping: mapping).rows[0]
    #expect(row.layout.label("title")?.color == Color(r: 255, g: 0, b: 0))
    #expect(row.layout.label("subtext")?.color == Color(r: 79, g: 89, b: 105))
  }

  @Test func aThirdLabelMakesTheRowGrowToFitIt() throws {
    var mapping = CellMapping()
    mapping.register(ProductCell(), for: ProductItem.self)
    mapping.register(LinkedProductCell(), for: LinkedProductItem.self)
    let table = try layout(
      [
        ProductItem(title: "Three20", subtext: "Facebook's iOS library"),
        LinkedProductItem(title: "Three20", subtext: "Facebook's iOS library", link: "https://github.com/facebookarchive/three20"),
      ], mapping: mapping)
    let plain = table.rows[0]
    let linked = table.rows[1]
    let link = try #require(linked.layout.label("link"))
    let subtext = try #require(linked.layout.label("subtext"))
    #expect(link.frame.minY == subtext.frame.maxY + 2)
    let title = try #require(linked.layout.label("title"))
    #expect(linked.height == PixelGrid(scale: 2).ceil(20 + title.frame.height + 2 + subtext.frame.height + 2 + link.frame.height))
    #expect(linked.height > plain.height)
  }

  @Test func aSelectedCustomRowUsesHighlightedColors() throws {
    struct Selectable: TableItem {
      var options: ItemOptions { ItemOptions(isSelected: true) }
    }
    struct SelectableCell: DesignedCell {
      func design(for item: Selectable) -> CellDesign {
        CellDesign(body: .label("Selected", name: "text", font: "tableFont"))
      }
    }
    var mapping = CellMapping()
    mapping.register(SelectableCell(), for: Selectable.self)
    let row = try layout([Selectable()], mapping: mapping).rows[0]
    #expect(row.layout.label("text")?.color == .white)
  }
}
