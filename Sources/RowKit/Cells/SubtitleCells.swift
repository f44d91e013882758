import RowKitGraphics

/// A bold title over a one- or two-line subtitle, with an optional square image flush at the
/// left (Three20's `TTTableSubtitleItemCell`).
///
/// Fixed from Three20: the image slot counts in the row's height, and its side comes from the
/// fonts (a title line, a subtitle line and the 10-point paddings), never from the image;
/// without an image the text starts at 10 points and keeps the whole width.
public struct SubtitleCell: TableCell {
  /// `SubtitleCell`, as manifests name it.
  public let name = "SubtitleCell"

  /// The subtitle cell; its fonts come from the stylesheet.
  public init() {}

  /// The side of the image slot: one title line, one subtitle line and two paddings.
  public static func imageSide(in context: LayoutContext) throws -> Double {
    let title = context.shaper.metrics(for: try context.font("tableFont")).lineHeight
    let subtitle = context.shaper.metrics(for: try context.font("font")).lineHeight
    return context.grid.ceil(max(title + subtitle + 2 * context.metrics.padding, context.metrics.rowHeight))
  }

  /// Lays out the image slot, the title and the subtitle below it.
  public func layout(_ item: SubtitleItem, in context: LayoutContext) throws -> RowLayout {
    let hasImage = item.imageURL != nil || item.defaultImage != nil
    let side = hasImage ? try Self.imageSide(in: context) : 0
    return try Self.layout(
      name: name, text: item.text, subtitle: item.subtitle, image: hasImage ? (item.imageURL, item.defaultImage) : nil,
      imageSide: side, textX: hasImage ? side + context.metrics.subtitleImageSpacing : context.metrics.padding,
      textFont: "tableFont", textColor: "textColor", minimumHeight: max(side, context.metrics.rowHeight), in: context)
  }

  static func layout(
    name: String, text: String, subtitle: String?, image: (String?, String?)?, imageSide: Double,
    textX: Double, textFont: FontReference, textColor: ColorReference, minimumHeight: Double, in context: LayoutContext
  ) throws -> RowLayout {
    let padding = context.metrics.padding
    let width = context.contentWidth - textX - padding
    let title = try context.shape(text, font: textFont, width: width, lines: 1)
    let detail = try context.shape(subtitle, font: "font", width: width, lines: 2)
    let titleHeight = title?.size.height ?? 0
    let contentHeight = titleHeight + (detail?.size.height ?? 0)
    let height = context.rowHeight(fitting: contentHeight + 2 * padding, minimum: minimumHeight)
    let top = context.grid.round((height - contentHeight) / 2)
    var row = RowLayout(cellName: name, size: Size(width: context.cellWidth, height: height))
    if let (url, defaultURL) = image {
      row.images.append(
        ImageSlot(
          frame: Rect(x: 0, y: context.grid.round((height - imageSide) / 2), width: imageSide, height: imageSide),
          url: url, defaultURL: defaultURL))
    }
    if let title {
      row.labels.append(
        RowLabel(
          name: "text", text: title, color: try context.color(textColor, highlighted: "highlightedTextColor"),
          boxOrigin: Point(x: textX, y: top)))
    }
    if let detail {
      row.labels.append(
        RowLabel(
          name: "subtitle", text: detail,
          color: try context.color("tableSubTextColor", highlighted: "highlightedTextColor"),
          boxOrigin: Point(x: textX, y: top + titleHeight)))
    }
    return row
  }
}

/// "Load more" (Three20's `TTTableMoreButtonCell`): bold text in the more-link blue from
/// x = 40, a spinner to its left while loading, at least 66 points tall, never an accessory.
public struct MoreButtonCell: TableCell {
  /// `MoreButtonCell`, as manifests name it.
  public let name = "MoreButtonCell"

  /// The more-button cell; its fonts come from the stylesheet.
  public init() {}

  /// None: a more button never shows an accessory.
  public func accessory(for item: MoreButtonItem) -> Accessory? { nil }

  /// Lays out the text, with the spinner to its left while the item is loading.
  public func layout(_ item: MoreButtonItem, in context: LayoutContext) throws -> RowLayout {
    var row = try SubtitleCell.layout(
      name: name, text: item.text, subtitle: item.subtitle, image: nil, imageSide: 0,
      textX: context.metrics.moreButtonMargin, textFont: "tableSmallFont", textColor: "moreLinkTextColor",
      minimumHeight: context.metrics.moreButtonMinimumHeight, in: context)
    if item.isLoading {
      let side = context.metrics.spinnerSize
      row.decorations.append(
        .spinner(
          frame: Rect(
            x: context.metrics.moreButtonMargin - context.metrics.subtitleImageSpacing - side, y: context.grid.round((row.height - side) / 2), width: side, height: side),
          color: try context.color("activityIndicatorColor", highlighted: "highlightedTextColor")))
    }
    return row
  }
}

/// A spinner and a message centered together (Three20's `TTTableActivityItemCell`).
public struct ActivityCell: TableCell {
  /// `ActivityCell`, as manifests name it.
  public let name = "ActivityCell"

  /// The activity cell; its fonts come from the stylesheet.
  public init() {}

  /// None: an activity row never shows an accessory.
  public func accessory(for item: ActivityItem) -> Accessory? { nil }

  /// Lays out the spinner and the message, centered together.
  public func layout(_ item: ActivityItem, in context: LayoutContext) throws -> RowLayout {
    let padding = context.metrics.padding
    let spacing = context.metrics.subtitleImageSpacing
    let side = context.metrics.spinnerSize
    let text = try context.shape(
      item.text, font: "activityLabelFont", width: context.contentWidth - 2 * padding - side - spacing, lines: 1)
    let textSize = text?.size ?? .zero
    let height = context.rowHeight(fitting: max(textSize.height, side) + 2 * padding)
    let blockWidth = side + (text == nil ? 0 : spacing + textSize.width)
    let left = context.grid.round((context.contentWidth - blockWidth) / 2)
    var row = RowLayout(cellName: name, size: Size(width: context.cellWidth, height: height))
    row.decorations.append(
      .spinner(
        frame: Rect(x: left, y: context.grid.round((height - side) / 2), width: side, height: side),
        color: try context.color("activityIndicatorColor", highlighted: "highlightedTextColor")))
    if let text {
      // The text starts after the spinner; its box starts where that puts it (the same in
      // `ltr`, and mirrored correctly in `rtl`).
      var label = RowLabel(
        name: "text", text: text, color: try context.color("tableActivityTextColor", highlighted: "highlightedTextColor"),
        boxOrigin: Point(x: left + side + spacing - context.leftToRightOffset(of: text), y: 0))
      label.frame.origin.y = context.grid.round((height - textSize.height) / 2)
      row.labels.append(label)
    }
    return row
  }
}
