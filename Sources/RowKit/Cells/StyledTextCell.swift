import RowKitGraphics

/// Styled text with 6-point padding (Three20's `TTStyledTextTableItemCell`): bold, italic,
/// underlined runs, links in the `linkText` style, spans styled by stylesheet classes, and
/// inline images. Its height counts the accessory's width, which Three20 did only for this
/// cell.
public struct StyledTextCell: TableCell {
  /// `StyledTextCell`, as manifests name it.
  public let name = "StyledTextCell"

  /// The styled-text cell; its fonts and styles come from the stylesheet.
  public init() {}

  /// Lays out the styled text, with its inline images, inside the padding.
  public func layout(_ item: StyledTextItem, in context: LayoutContext) throws -> RowLayout {
    let markup = try StyledTextMarkup(parsing: item.text)
    let padding = context.metrics.styledTextPadding
    let linkColor = try context.stylesheet.styles["linkText"]?.textStyle?.color ?? context.color("linkTextColor")
    var runs: [TextRun] = []
    var images: [(range: Range<Int>, src: String, size: Size)] = []
    for span in markup.spans {
      switch span.attribute {
      case .bold: runs.append(TextRun(span.range, .weight(700)))
      case .italic: runs.append(TextRun(span.range, .italic))
      case .underline: runs.append(TextRun(span.range, .underline))
      case .link:
        runs.append(TextRun(span.range, .weight(700)))
        // A selected row draws all its text in the highlighted color, as Three20 did.
        if !context.isSelected { runs.append(TextRun(span.range, .color(linkColor))) }
      case .styleClass(let name):
        let style = try context.stylesheet.style(name)
        // Already at the text size: a stylesheet scales its styles' fonts when it is made.
        if let font = style.textStyle?.font { runs.append(TextRun(span.range, .font(font))) }
        if !context.isSelected, let color = style.textStyle?.color { runs.append(TextRun(span.range, .color(color))) }
        for case .fill(let color) in style.elements { runs.append(TextRun(span.range, .background(color))) }
      case .image(let src, let width, let height):
        let size = Size(width: width, height: height)
        runs.append(TextRun(span.range, .placeholder(size)))
        images.append((span.range, src, size))
      }
    }
    // The variable itself: a font the context has scaled to the text size would be scaled
    // again by shape (AX3 drew styled text at 5.7 times its size, not 2.4).
    let text = try context.shape(markup.text, font: "font", width: context.contentWidth - 2 * padding, runs: runs)
    var row = RowLayout.paddedLabel(
      cellName: name, text: text, color: try context.color("textColor", highlighted: "highlightedTextColor"),
      padding: padding, in: context)
    if let label = row.label("text") {
      for (index, image) in images.enumerated() {
        guard let rect = label.text.placeholderRect(atScalarOffset: image.range.lowerBound, size: image.size) else { continue }
        row.images.append(
          ImageSlot(
            name: "image\(index)", frame: rect.offsetBy(dx: label.drawingOrigin.x, dy: label.drawingOrigin.y),
            url: image.src, defaultURL: nil, contentMode: .aspectFit, anchorLabel: label.name))
      }
    }
    return row
  }
}
