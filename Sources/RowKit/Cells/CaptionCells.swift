import RowKitGraphics

/// "Key: value" (Three20's `TTTableCaptionItemCell`): the caption in a column
/// `tableCaptionWidth` (75) wide, right-aligned in the link color; the text
/// `tableCaptionSpacing` (12) to its right, wrapping. The two share a first baseline.
public struct CaptionCell: TableCell {
  /// `CaptionCell`, as manifests name it.
  public let name = "CaptionCell"

  /// The caption cell; its sizes come from the stylesheet.
  public init() {}

  /// Lays out the caption column and the wrapping text beside it.
  public func layout(_ item: any CaptionedItem, in context: LayoutContext) throws -> RowLayout {
    let padding = context.metrics.padding
    let valueX = padding + context.metrics.captionWidth + context.metrics.captionSpacing
    let caption = try context.shape(
      item.caption, font: "tableTitleFont", width: context.metrics.captionWidth, lines: 1, alignment: .right)
    let value = try context.shape(item.text, font: "tableSmallFont", width: context.contentWidth - valueX - padding)
    return try CaptionCell.row(
      name: name, context: context,
      caption: caption.map { ($0, padding) }, value: value.map { ($0, valueX) })
  }

  /// Places a caption and a value side by side in link and text colors.
  static func row(
    name: String, context: LayoutContext, caption: (TextLayout, Double)?, value: (TextLayout, Double)?
  ) throws -> RowLayout {
    try baselineRow(
      name: name, context: context,
      labels: [
        caption.map { ("caption", $0.0, $0.1, "linkTextColor") },
        value.map { ("text", $0.0, $0.1, "textColor") },
      ].compactMap { $0 })
  }

  /// Places labels side by side at their x positions with their first baselines aligned,
  /// the group centered vertically in a row of at least 44 points. Each label is (name,
  /// layout, x, color reference); selected rows draw them in the highlighted color.
  static func baselineRow(
    name: String, context: LayoutContext, labels: [(String, TextLayout, Double, ColorReference)]
  ) throws -> RowLayout {
    let padding = context.metrics.padding
    let baseline = labels.map { $0.1.baseline }.max() ?? 0
    let contentHeight = labels.map { baseline - $0.1.baseline + $0.1.size.height }.max() ?? 0
    let height = context.rowHeight(fitting: contentHeight + 2 * padding)
    let top = context.grid.round((height - contentHeight) / 2)
    var row = RowLayout(cellName: name, size: Size(width: context.cellWidth, height: height))
    for (labelName, layout, x, color) in labels {
      row.labels.append(
        RowLabel(
          name: labelName, text: layout, color: try context.color(color, highlighted: "highlightedTextColor"),
          boxOrigin: Point(x: x, y: top + baseline - layout.baseline)))
    }
    return row
  }
}

/// The caption row mirrored: the text on the left, the caption right-aligned in a 75-point
/// column at the right. Three20's `TTTableRightCaptionItemCell` was an unfinished stub; this
/// is the layout its name promised.
public struct RightCaptionCell: TableCell {
  /// `RightCaptionCell`, as manifests name it.
  public let name = "RightCaptionCell"

  /// The right-caption cell; its sizes come from the stylesheet.
  public init() {}

  /// Lays out the text on the left and the caption column on the right.
  public func layout(_ item: any CaptionedItem, in context: LayoutContext) throws -> RowLayout {
    let padding = context.metrics.padding
    let captionX = context.contentWidth - padding - context.metrics.captionWidth
    let value = try context.shape(
      item.text, font: "tableSmallFont", width: captionX - context.metrics.captionSpacing - padding)
    let caption = try context.shape(
      item.caption, font: "tableTitleFont", width: context.metrics.captionWidth, lines: 1, alignment: .right)
    return try CaptionCell.row(
      name: name, context: context,
      caption: caption.map { ($0, captionX) }, value: value.map { ($0, padding) })
  }
}

/// Bold text with smaller gray text below it (Three20's `TTTableSubtextItemCell`).
public struct SubtextCell: TableCell {
  /// `SubtextCell`, as manifests name it.
  public let name = "SubtextCell"

  /// The subtext cell; its fonts come from the stylesheet.
  public init() {}

  /// Lays out the bold text and the gray text below it.
  public func layout(_ item: any CaptionedItem, in context: LayoutContext) throws -> RowLayout {
    let padding = context.metrics.padding
    let width = context.contentWidth - 2 * padding
    let text = try context.shape(item.text, font: "tableFont", width: width, lines: 1)
    let caption = try context.shape(item.caption, font: "font", width: width)
    let textHeight = text?.size.height ?? 0
    let contentHeight = textHeight + (caption?.size.height ?? 0)
    let height = context.rowHeight(fitting: contentHeight + 2 * padding)
    let top = context.grid.round((height - contentHeight) / 2)
    var row = RowLayout(cellName: name, size: Size(width: context.cellWidth, height: height))
    if let text {
      row.labels.append(
        RowLabel(
          name: "text", text: text, color: try context.color("textColor", highlighted: "highlightedTextColor"),
          boxOrigin: Point(x: padding, y: top)))
    }
    if let caption {
      row.labels.append(
        RowLabel(
          name: "caption", text: caption,
          color: try context.color("tableSubTextColor", highlighted: "highlightedTextColor"),
          boxOrigin: Point(x: padding, y: top + textHeight)))
    }
    return row
  }
}

/// A settings row (UIKit's value-1 style, Three20's `TTTableSettingsItemCell`): the caption
/// on the left in bold, the value right-aligned in blue-gray. The value takes up to 60% of
/// the width and the caption the rest; both stay on one line.
public struct SettingsCell: TableCell {
  /// `SettingsCell`, as manifests name it.
  public let name = "SettingsCell"

  /// The settings cell; its fonts come from the stylesheet.
  public init() {}

  /// Lays out the caption on the left and the value on the right, each on one line.
  public func layout(_ item: any CaptionedItem, in context: LayoutContext) throws -> RowLayout {
    let padding = context.metrics.padding
    let gap = context.metrics.padding
    let available = context.contentWidth - 2 * padding
    let value = try context.shape(
      item.text, font: "tableValueFont", width: available * 0.6, lines: 1, alignment: .right)
    let valueWidth = value?.size.width ?? 0
    let captionWidth = available - (valueWidth > 0 ? valueWidth + gap : 0)
    let caption = try context.shape(item.caption, font: "tableFont", width: captionWidth, lines: 1)
    return try CaptionCell.baselineRow(
      name: name, context: context,
      labels: [
        caption.map { ("caption", $0, padding, "textColor") },
        value.map { ("text", $0, context.contentWidth - padding - available * 0.6, "tableValueTextColor") },
      ].compactMap { $0 })
  }
}
