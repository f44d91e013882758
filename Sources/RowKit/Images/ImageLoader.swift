import Foundation
import RowKitGraphics

/// How a slot's image ended up.
public enum ImageState: String, Hashable, Sendable, Codable {
  /// The slot's own image is shown.
  case loaded
  /// The slot has no image URL, or images were not waited for: the default image (if any) is
  /// shown.
  case `default`
  /// The slot's image could not be loaded; the default image (if any) is shown.
  case failed
}

/// What an image slot shows.
public struct SlotImage: Sendable {
  /// The decoded image at its own size.
  public var bitmap: Bitmap?
  public var state: ImageState
  /// Why the image failed, for the manifest.
  public var reason: String?
  /// The image resampled to the device pixels it covers, and where it goes (in the slot's
  /// row, on the pixel grid). Painting copies these pixels without resampling, so a row is
  /// the same wherever it is painted.
  public var pixels: Bitmap?
  public var drawingRect: Rect?

  /// Resamples the image for `slot` at `scale`.
  mutating func fit(_ slot: ImageSlot, scale: Double) throws {
    guard let bitmap else { return }
    let grid = PixelGrid(scale: scale)
    let target = slot.contentMode.drawingRect(
      imagePixels: (bitmap.width, bitmap.height), slot: slot.frame, scale: scale)
    let rect = Rect(
      x: grid.round(target.x), y: grid.round(target.y), width: grid.round(target.width),
      height: grid.round(target.height))
    let width = grid.pixels(rect.width)
    let height = grid.pixels(rect.height)
    guard width > 0, height > 0 else { return }
    pixels = try bitmap.scaled(width: width, height: height)
    drawingRect = rect
  }
}

/// Whether a render waits for images.
public enum ImagePolicy: String, Hashable, Sendable {
  /// Load every image before painting; the same input always gives the same pixels.
  case complete
  /// Paint at once with default images. Rows have the same geometry either way.
  case placeholder
}

public struct ImageLoadError: Error, Hashable, Sendable, CustomStringConvertible {
  public var message: String

  public init(_ message: String) {
    self.message = message
  }

  public var description: String { message }
}
