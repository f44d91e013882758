import RowKitGraphics

/// A cell described as a ``CellDesign``: stacks of labels and images that the stack engine
/// lays out.
///
/// ```swift
/// struct ProductCell: DesignedCell {
///   var titleColor: ColorReference = "textColor"
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
  /// The type of item the cell draws.
  associatedtype Item
  /// The design for one item: stacks of labels, images and spacers.
  func design(for item: Item) throws -> CellDesign
}

extension DesignedCell {
  /// Lays out ``design(for:)``'s stacks with the stack engine.
  public func layout(_ item: Item, in context: LayoutContext) throws -> RowLayout {
    try StackLayout.layout(design(for: item), name: name, in: context)
  }
}
