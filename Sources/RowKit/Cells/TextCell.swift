import RowKitGraphics

/// One paragraph of text inset by 10 points, vertically centered (Three20's
/// `TTTableTextItemCell`). Its ``Style`` makes the link, button, long-text, gray-text and
/// summary variants: the same cell, styled differently.
public struct TextCell: TableCell {
  /// The fonts, colors and alignment of a text row, by stylesheet names or literals.
  public struct Style: Hashable, Sendable {
    /// The font: a stylesheet name (`tableFont`) or a literal font.
    public var font: FontReference
    /// The text color: a stylesheet name (`textColor`) or a literal color.
    public var color: ColorReference
    /// The text color of a selected row.
    public var highlightedColor: ColorReference
    /// How the paragraph is aligned.
    public var alignment: TextStyle.Alignment
    /// Whether the row shows the accessory its item's options ask for.
    public var showsAccessory: Bool

    /// A style of `font` and `color`; left-aligned, with the accessory, and the stylesheet's highlighted color when selected, unless told otherwise.
    public init(
      font: FontReference, color: ColorReference, highlightedColor: ColorReference = "highlightedTextColor",
      alignment: TextStyle.Alignment = .left, showsAccessory: Bool = true
    ) {
      self.font = font
      self.color = color
      self.highlightedColor = highlightedColor
      self.alignment = alignment
      self.showsAccessory = showsAccessory
    }

    /// Plain text (`TTTableTextItem`).
    public static let text = Style(font: "tableFont", color: "textColor")
    /// Text in the link color (`TTTableLink`).
    public static let link = Style(font: "tableFont", color: "linkTextColor")
    /// Centered text in the button font and link color, without an accessory (`TTTableButton`).
    public static let button = Style(
      font: "tableButtonFont", color: "linkTextColor", alignment: .center, showsAccessory: false)
    /// Long text in the body font (`TTTableLongTextItem`).
    public static let longText = Style(font: "font", color: "textColor")
    /// Body text in the subtext gray (`TTTableGrayTextItem`).
    public static let grayText = Style(font: "font", color: "tableSubTextColor")
    /// Centered summary text in gray (`TTTableSummaryItem`).
    public static let summary = Style(font: "tableSummaryFont", color: "tableSubTextColor", alignment: .center)
  }

  /// The fonts, colors and alignment the cell draws with.
  public var style: Style
  /// The name manifests show (`TextCell` unless given).
  public let name: String

  /// A text cell drawn in `style`, named `name` in manifests.
  public init(style: Style = .text, name: String = "TextCell") {
    self.style = style
    self.name = name
  }

  /// The accessory the item's options ask for, unless the style shows none.
  public func accessory(for item: any TextContentItem) -> Accessory? {
    style.showsAccessory ? Accessory.standard(for: item.options) : nil
  }

  /// Lays out the paragraph inside the padding, vertically centered.
  public func layout(_ item: any TextContentItem, in context: LayoutContext) throws -> RowLayout {
    let padding = context.metrics.padding
    let text = try context.shape(
      item.text, font: style.font, width: context.contentWidth - 2 * padding, alignment: style.alignment)
    return RowLayout.paddedLabel(
      cellName: name, text: text, color: try context.color(style.color, highlighted: style.highlightedColor),
      padding: padding, in: context)
  }
}

/// A text row with a checkmark when its item is checked.
public struct CheckmarkCell: TableCell {
  /// `CheckmarkCell`, as manifests name it.
  public let name = "CheckmarkCell"
  /// The fonts, colors and alignment of the text.
  public var style: TextCell.Style

  /// A checkmark cell drawn in `style`.
  public init(style: TextCell.Style = .text) {
    self.style = style
  }

  /// A checkmark when the item is checked, else the accessory its options ask for.
  public func accessory(for item: CheckmarkItem) -> Accessory? {
    item.isChecked ? .checkmark : Accessory.standard(for: item.options)
  }

  /// Lays out the text as ``TextCell`` does.
  public func layout(_ item: CheckmarkItem, in context: LayoutContext) throws -> RowLayout {
    var row = try TextCell(style: style, name: name).layout(item, in: context)
    row.cellName = name
    return row
  }
}

/// The visible stand-in for an item no cell is registered for: a pale red row that names
/// the item's type, where Three20 drew an empty white cell.
public struct FallbackCell: TableCell {
  /// The fallback cell's name, as the manifest records it.
  public static let cellName = "FallbackCell"
  /// ``cellName``.
  public let name = FallbackCell.cellName

  /// The fallback cell.
  public init() {}

  /// None.
  public func accessory(for item: any TableItem) -> Accessory? { nil }

  /// Lays out the pale red row that names the item's type.
  public func layout(_ item: any TableItem, in context: LayoutContext) throws -> RowLayout {
    let padding = context.metrics.padding
    let text = try context.shape(
      "No cell for \(item.typeName)", font: "font", width: context.contentWidth - 2 * padding, lines: 2)
    var row = RowLayout.paddedLabel(
      cellName: name, text: text, color: try context.color("fallbackTextColor"), padding: padding, in: context)
    row.decorations.append(
      .fill(frame: Rect(origin: .zero, size: row.size), color: try context.color("fallbackCellColor")))
    return row
  }
}
