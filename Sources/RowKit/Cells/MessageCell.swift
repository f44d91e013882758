import Foundation
import RowKitGraphics

/// A mail or feed row (Three20's `TTTableMessageItemCell`): a 34-point avatar at (6, 6), the
/// title with the timestamp at its right, a caption line and two lines of body text.
///
/// Fixed from Three20: the height comes from the content (Three20 fixed it at 90), and the
/// text keeps a 10-point right padding.
public struct MessageCell: TableCell {
  /// `MessageCell`, as manifests name it.
  public let name = "MessageCell"

  /// The message cell; its fonts come from the stylesheet.
  public init() {}

  /// Lays out the title, timestamp, caption and body, with the image when there is one.
  public func layout(_ item: MessageItem, in context: LayoutContext) throws -> RowLayout {
    let margin = context.metrics.messageMargin
    let padding = context.metrics.padding
    let imageSize = context.metrics.messageImageSize
    let hasImage = item.imageURL != nil || item.defaultImage != nil
    let left = hasImage ? margin + imageSize + margin : padding
    let width = context.contentWidth - left - padding
    let timestamp = try context.shape(
      item.timestamp.map { Self.format($0, now: context.now) }, font: "tableTimestampFont", width: width / 2,
      lines: 1, alignment: .right)
    let timestampWidth = timestamp?.size.width ?? 0
    let title = try context.shape(
      item.title, font: "tableFont", width: width - (timestampWidth > 0 ? timestampWidth + 12 : 0), lines: 1)
    let caption = try context.shape(item.caption, font: "font", width: width, lines: 1)
    let body = try context.shape(item.text, font: "font", width: width, lines: 2)

    var row = RowLayout(cellName: name, size: .zero)
    var y = margin
    let highlighted: ColorReference = "highlightedTextColor"
    if let title {
      row.labels.append(
        RowLabel(
          name: "title", text: title, color: try context.color("textColor", highlighted: highlighted),
          boxOrigin: Point(x: left, y: y)))
    }
    if let timestamp {
      // The timestamp shares the title's baseline.
      let top = title.map { y + $0.baseline - timestamp.baseline } ?? y
      row.labels.append(
        RowLabel(
          name: "timestamp", text: timestamp,
          color: try context.color("timestampTextColor", highlighted: highlighted),
          boxOrigin: Point(x: left + width / 2, y: top)))
    }
    y += max(title?.size.height ?? 0, title == nil ? (timestamp?.size.height ?? 0) : 0)
    if let caption {
      row.labels.append(
        RowLabel(
          name: "caption", text: caption, color: try context.color("textColor", highlighted: highlighted),
          boxOrigin: Point(x: left, y: y)))
      y += caption.size.height
    }
    if let body {
      row.labels.append(
        RowLabel(
          name: "body", text: body, color: try context.color("tableSubTextColor", highlighted: highlighted),
          boxOrigin: Point(x: left, y: y)))
      y += body.size.height
    }
    let contentBottom = max(y, hasImage ? margin + imageSize : 0)
    row.size = Size(width: context.cellWidth, height: context.rowHeight(fitting: contentBottom + margin))
    if hasImage {
      row.images.append(
        ImageSlot(
          frame: Rect(x: margin, y: margin, width: imageSize, height: imageSize),
          url: item.imageURL, defaultURL: item.defaultImage))
    }
    return row
  }

  /// Three20's `formatShortTime`, in UTC: a time under a day before `now`, a weekday under
  /// five days, otherwise a short date. Without `now` it is always the short date, so a
  /// document renders the same whenever it is rendered.
  public static func format(_ date: Date, now: Date?) -> String {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "UTC")
    formatter.dateFormat = "M/d/yy"
    if let now {
      let age = now.timeIntervalSince(date)
      if age >= 0, age < 24 * 3600 {
        formatter.dateFormat = "h:mm a"
      } else if age >= 0, age < 5 * 24 * 3600 {
        formatter.dateFormat = "EEEE"
      }
    }
    return formatter.string(from: date)
  }
}
