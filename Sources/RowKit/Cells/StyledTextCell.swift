import RowKitGraphics

/// Styled text with 6-point padding (Three20's `TTStyledTextTableItemCell`): bold, italic,
/// underlined runs and links in the link color. Its height counts the accessory's width,
/// which Three20 did only for this cell.
public struct StyledTextCell: TableCell {
  public let name = "StyledTextCell"

  public init() {}

  public func layout(_ item: StyledTextItem, in context: LayoutContext) throws -> RowLayout {
    let markup = try StyledTextMarkup(parsing: item.text)
    let padding = context.metrics.styledTextPadding
    let base = try context.font("font")
    let linkColor = try context.color("linkTextColor")
    var runs: [TextRun] = []
    for span in markup.spans {
      switch span.attribute {
      case .bold: runs.append(TextRun(span.range, .weight(700)))
      case .italic: runs.append(TextRun(span.range, .italic))
      case .underline: runs.append(TextRun(span.range, .underline))
      case .link:
        runs.append(TextRun(span.range, .weight(700)))
        // A selected row draws all its text in the highlighted color, as Three20 did.
        if !context.isSelected { runs.append(TextRun(span.range, .color(linkColor))) }
      case .styleClass: break
      }
    }
    let text = try context.shape(
      markup.text, font: base.description, width: context.contentWidth - 2 * padding, runs: runs)
    return RowLayout.paddedLabel(
      cellName: name, text: text, color: try context.color("textColor", highlighted: "highlightedTextColor"),
      padding: padding, in: context)
  }
}
