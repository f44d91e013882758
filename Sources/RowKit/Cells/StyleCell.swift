import RowKitGraphics

/// Draws a ``StyleItem``: the label on the left, the styled box on the right, vertically
/// centered, its caption at the style's `content` element.
public struct StyleCell: TableCell {
  /// `StyleCell`, as manifests name it.
  public let name = "StyleCell"

  /// The style cell.
  public init() {}

  /// Lays out the label and the styled box beside it.
  public func layout(_ item: StyleItem, in context: LayoutContext) throws -> RowLayout {
    let padding = context.metrics.padding
    let style = try context.stylesheet.style(item.style)
    let text = style.textStyle
    // A style's own font is kept at the stylesheet's text size already (`scalingFonts`), and
    // shaping scales a font to the text size: it goes in at its size for `large`, or AX5 drew
    // a 20-point caption at 193 points, not 62.
    let captionFont: FontReference = text?.font.map { font in
      var base = font
      base.size /= context.stylesheet.textSize.fontScale
      return .font(base)
    } ?? "tableSmallFont"
    let captionColor = try text?.color ?? context.color("textColor")
    let alignment = text?.alignment ?? .center
    let maximumWidth = (context.contentWidth - 2 * padding) * 0.6

    // A fixed size decides the content frame before the caption is shaped; a fitting box is
    // sized from the caption, shaped once without a width.
    var caption: TextLayout?
    var box: Size
    if let width = item.width, let height = item.height {
      box = Size(width: min(width, maximumWidth), height: height)
      let content = style.contentFrame(in: Rect(origin: .zero, size: box))
      caption = try context.shape(item.caption, font: captionFont, width: content.width, lines: 1, alignment: alignment)
    } else {
      caption = try context.shape(item.caption, font: captionFont, width: nil, lines: 1)
      let fitted = style.size(fitting: caption?.size ?? Size(width: 24, height: 16))
      box = Size(width: min(item.width ?? fitted.width, maximumWidth), height: item.height ?? fitted.height)
    }
    let label = try context.shape(
      item.text, font: "font", width: context.contentWidth - 3 * padding - box.width)
    let labelHeight = label?.size.height ?? 0
    let height = context.rowHeight(fitting: max(labelHeight, box.height) + 2 * padding)
    var row = RowLayout(cellName: name, size: Size(width: context.cellWidth, height: height))
    if let label {
      row.labels.append(
        RowLabel(
          name: "text", text: label, color: try context.color("textColor", highlighted: "highlightedTextColor"),
          boxOrigin: Point(x: padding, y: context.grid.round((height - labelHeight) / 2))))
    }
    let frame = Rect(
      x: context.contentWidth - padding - box.width, y: context.grid.round((height - box.height) / 2),
      width: box.width, height: box.height)
    var contentLabel: Int?
    if let caption {
      let content = style.contentFrame(in: frame)
      let size = caption.size
      let x: Double
      switch alignment {
      case .left: x = content.minX
      case .center: x = content.midX - size.width / 2
      case .right: x = content.maxX - size.width
      }
      var placed = RowLabel(name: "caption", text: caption, color: captionColor, boxOrigin: .zero)
      placed.frame.origin = Point(x: context.grid.round(x), y: context.grid.round(content.midY - size.height / 2))
      placed.isStyleContent = true
      if let shadow = text?.shadowColor {
        placed.shadow = shadow
        placed.shadowOffset = text?.shadowOffset ?? Size(width: 0, height: -1)
      }
      contentLabel = row.labels.count
      row.labels.append(placed)
    }
    row.decorations.append(.style(frame: frame, style: style, contentLabel: contentLabel))
    return row
  }
}
