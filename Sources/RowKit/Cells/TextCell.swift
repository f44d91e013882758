import RowKitGraphics

/// One paragraph of text inset by 10 points, vertically centered (Three20's
/// `TTTableTextItemCell`). Its ``Style`` makes the link, button, long-text, gray-text and
/// summary variants: the same cell, styled differently.
public struct TextCell: TableCell {
  /// The fonts, colors and alignment of a text row, by stylesheet names or literals.
  public struct Style: Hashable, Sendable {
    public var font: String
    public var color: String
    public var highlightedColor: String
    public var alignment: TextStyle.Alignment
    public var showsAccessory: Bool

    public init(
      font: String, color: String, highlightedColor: String = "highlightedTextColor",
      alignment: TextStyle.Alignment = .left, showsAccessory: Bool = true
    ) {
      self.font = font
      self.color = color
      self.highlightedColor = highlightedColor
      self.alignment = alignment
      self.showsAccessory = showsAccessory
    }

    public static let text = Style(font: "tableFont", color: "textColor")
    public static let link = Style(font: "tableFont", color: "linkTextColor")
    public static let button = Style(
      font: "tableButtonFont", color: "linkTextColor", alignment: .center, showsAccessory: false)
    public static let longText = Style(font: "font", color: "textColor")
    public static let grayText = Style(font: "font", color: "tableSubTextColor")
    public static let summary = Style(font: "tableSummaryFont", color: "tableSubTextColor", alignment: .center)
  }

  public var style: Style
  public let name: String

  public init(style: Style = .text, name: String = "TextCell") {
    self.style = style
    self.name = name
  }

  public func accessory(for item: any TextContentItem) -> Accessory? {
    style.showsAccessory ? Accessory.standard(for: item.options) : nil
  }

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
  public let name = "CheckmarkCell"
  public var style: TextCell.Style

  public init(style: TextCell.Style = .text) {
    self.style = style
  }

  public func accessory(for item: CheckmarkItem) -> Accessory? {
    item.isChecked ? .checkmark : Accessory.standard(for: item.options)
  }

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
  public let name = FallbackCell.cellName

  public init() {}

  public func accessory(for item: any TableItem) -> Accessory? { nil }

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
