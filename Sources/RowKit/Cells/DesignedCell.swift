import RowKitGraphics

/// A cell described as a ``CellDesign``: stacks of labels and images that the stack engine
/// lays out.
///
/// ```swift
/// struct ProductCell: DesignedCell {
///   var titleColor = "textColor"
///   func design(for item: ProductItem) -> CellDesign {
///     CellDesign(body: .vstack(spacing: 2, [
///       .label(item.title, font: "tableFont", color: titleColor, lines: 1),
///       .label(item.subtext, font: "font", color: "tableSubTextColor"),
///     ]))
///   }
/// }
/// ```
public protocol DesignedCell<Item>: TableCell {
  // NB: restated so that Swift infers `Item` from `design(for:)` alone.
  associatedtype Item
  func design(for item: Item) throws -> CellDesign
}

extension DesignedCell {
  public func layout(_ item: Item, in context: LayoutContext) throws -> RowLayout {
    try StackLayout.layout(design(for: item), name: name, in: context)
  }
}
