import RowKitGraphics

/// An image at the left, 10 points in and vertically centered, with the text 12 points to
/// its right (Three20's `TTTableImageItemCell`). The slot is `tableImageSize` (50) square
/// whatever the image's size, and the row is at least the slot plus its paddings.
public struct ImageCell: TableCell {
  /// `ImageCell`, as manifests name it.
  public let name = "ImageCell"

  /// The image cell; its sizes come from the stylesheet.
  public init() {}

  /// Lays out the image slot at the left and the text to its right.
  public func layout(_ item: ImageItem, in context: LayoutContext) throws -> RowLayout {
    try Self.layout(
      name: name, text: item.text, imageURL: item.imageURL, defaultImage: item.defaultImage,
      imageStyle: item.imageStyle, imageOnRight: false, in: context)
  }

  static func layout(
    name: String, text: String, imageURL: String?, defaultImage: String?, imageStyle: String?,
    imageOnRight: Bool, in context: LayoutContext
  ) throws -> RowLayout {
    let padding = context.metrics.padding
    let imageSize = context.metrics.imageSize
    let hasImage = imageURL != nil || defaultImage != nil
    let imageWidth = hasImage ? imageSize + context.metrics.imageSpacing : 0
    let textWidth = context.contentWidth - 2 * padding - imageWidth
    let label = try context.shape(
      text, font: imageOnRight ? "tableSmallFont" : "tableFont", width: textWidth,
      alignment: imageOnRight ? .center : .left)
    let textHeight = label?.size.height ?? 0
    let height = context.rowHeight(fitting: max(textHeight, hasImage ? imageSize : 0) + 2 * padding)
    var row = RowLayout(cellName: name, size: Size(width: context.cellWidth, height: height))
    let textX = imageOnRight || !hasImage ? padding : padding + imageWidth
    if hasImage {
      let imageX = imageOnRight ? context.contentWidth - padding - imageSize : padding
      row.images.append(
        ImageSlot(
          frame: Rect(
            x: imageX, y: context.grid.round((height - imageSize) / 2), width: imageSize,
            height: imageSize),
          url: imageURL, defaultURL: defaultImage, style: try imageStyle.map { try context.stylesheet.style($0) }))
    }
    if let label {
      row.labels.append(
        RowLabel(
          name: "text", text: label, color: try context.color("textColor", highlighted: "highlightedTextColor"),
          boxOrigin: Point(x: textX, y: context.grid.round((height - textHeight) / 2))))
    }
    return row
  }
}

/// Centered text with the image on its right, never with an accessory (Three20's
/// right-image branch of `TTTableImageItemCell`).
public struct RightImageCell: TableCell {
  /// `RightImageCell`, as manifests name it.
  public let name = "RightImageCell"

  /// The right-image cell; its sizes come from the stylesheet.
  public init() {}

  /// None: the image takes the accessory's place.
  public func accessory(for item: RightImageItem) -> Accessory? { nil }

  /// Lays out the centered text and the image on its right.
  public func layout(_ item: RightImageItem, in context: LayoutContext) throws -> RowLayout {
    try ImageCell.layout(
      name: name, text: item.text, imageURL: item.imageURL, defaultImage: item.defaultImage,
      imageStyle: item.imageStyle, imageOnRight: true, in: context)
  }
}
