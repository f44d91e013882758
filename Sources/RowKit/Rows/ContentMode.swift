import RowKitGraphics

/// How an image fills its slot.
public enum ContentMode: String, Hashable, Sendable, CaseIterable {
  /// Scaled to show all of it, centered; the slot may show margins.
  case aspectFit
  /// Scaled to cover the slot, centered; the image may be cropped.
  case aspectFill
  /// Stretched to the slot's size.
  case scaleToFill
  /// At its own size (one image pixel per device pixel), centered.
  case center
  /// At its own size against one edge, centered along it.
  case left, right, top, bottom

  /// Whether the image is scaled to the slot (so it may be decoded smaller).
  public var scalesImage: Bool {
    self == .aspectFit || self == .aspectFill || self == .scaleToFill
  }

  /// The rectangle the whole image is drawn into for a slot; the slot clips it.
  public func drawingRect(imagePixels: (width: Int, height: Int), slot: Rect, scale: Double) -> Rect {
    let imageWidth = Double(imagePixels.width)
    let imageHeight = Double(imagePixels.height)
    guard imageWidth > 0, imageHeight > 0 else { return slot }
    switch self {
    case .scaleToFill:
      return slot
    case .aspectFit, .aspectFill:
      let ratioX = slot.width / imageWidth
      let ratioY = slot.height / imageHeight
      let ratio = self == .aspectFit ? min(ratioX, ratioY) : max(ratioX, ratioY)
      let size = Size(width: imageWidth * ratio, height: imageHeight * ratio)
      return Rect(
        x: slot.midX - size.width / 2, y: slot.midY - size.height / 2,
        width: size.width, height: size.height)
    case .center, .left, .right, .top, .bottom:
      let size = Size(width: imageWidth / scale, height: imageHeight / scale)
      var x = slot.midX - size.width / 2
      var y = slot.midY - size.height / 2
      if self == .left { x = slot.minX }
      if self == .right { x = slot.maxX - size.width }
      if self == .top { y = slot.minY }
      if self == .bottom { y = slot.maxY - size.height }
      return Rect(x: x, y: y, width: size.width, height: size.height)
    }
  }
}
