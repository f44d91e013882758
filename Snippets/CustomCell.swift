// A custom row: an item type, a cell that designs it, one registration; then the same cell
// styled with a red title, and a second cell that composes the first one's design.
import Foundation
import RowKit

// snippet.product
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

var dataSource = ListDataSource(items: [ProductItem(title: "Three20", subtext: "Facebook's iOS library")])
dataSource.register(ProductCell(), for: ProductItem.self)
let rendered = try await TableRenderer().render(dataSource)
try rendered.write(to: URL(fileURLWithPath: "products.png"))
// snippet.end

// snippet.red
dataSource.register(ProductCell(titleColor: "#FF0000"), for: ProductItem.self)
// snippet.end

// snippet.linked
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
// snippet.end
// snippet.hide

// Both cells drawn once more, so that the snippet runs what it shows.
dataSource.register(LinkedProductCell(), for: LinkedProductItem.self)
dataSource.items.append(LinkedProductItem(title: "Three20", subtext: "Facebook's iOS library", link: "https://github.com/facebookarchive/three20"))
_ = try await TableRenderer().render(dataSource)
// A snippet leaves nothing behind when CI runs it.
try FileManager.default.removeItem(atPath: "products.png")
