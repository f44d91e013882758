import Foundation
import RowKitGraphics

/// How a slot's image ended up.
public enum ImageState: String, Hashable, Sendable, Codable, CaseIterable {
  /// The slot's own image is shown.
  case loaded
  /// The slot has no image URL, or images were not waited for: the default image (if any) is
  /// shown.
  case `default`
  /// The slot's image could not be loaded; the default image (if any) is shown.
  case failed
}

/// An image as the pipeline hands it out: resampled to the pixels it covers in a slot when
/// the request named a ``ImageTarget``, else at its own size.
public struct LoadedImage: Sendable {
  /// The decoded pixels.
  public var bitmap: Bitmap
  /// The size of the image as stored, before any decoder scaling or resampling.
  public var originalWidth: Int
  /// The stored image's height, before any decoder scaling or resampling.
  public var originalHeight: Int

  /// An image whose stored size was `originalWidth` × `originalHeight` pixels.
  public init(bitmap: Bitmap, originalWidth: Int, originalHeight: Int) {
    self.bitmap = bitmap
    self.originalWidth = originalWidth
    self.originalHeight = originalHeight
  }

  /// An image used at its own size.
  public init(_ bitmap: Bitmap) {
    self.init(bitmap: bitmap, originalWidth: bitmap.width, originalHeight: bitmap.height)
  }
}

/// Where an image will be drawn, so that the pipeline can decode and resample it once for
/// every slot of that size: the slot's size in points, its content mode and the scale.
public struct ImageTarget: Hashable, Sendable, CustomStringConvertible {
  /// The slot's size in points.
  public var slotSize: Size
  /// How the image fills the slot.
  public var contentMode: ContentMode
  /// Device pixels per point of the render.
  public var scale: Double

  /// A target of `slotSize` points, filled by `contentMode`, at `scale`.
  public init(slotSize: Size, contentMode: ContentMode, scale: Double) {
    self.slotSize = slotSize
    self.contentMode = contentMode
    self.scale = scale
  }

  /// The target of `slot`, or nil when its content mode draws images at their own size.
  init?(_ slot: ImageSlot, scale: Double) {
    guard slot.contentMode.scalesImage else { return nil }
    self.init(slotSize: slot.imageFrame.size, contentMode: slot.contentMode, scale: scale)
  }

  /// The device pixels the slot covers: a decoder may shrink an image down to these, no
  /// further.
  public var slotPixels: (width: Int, height: Int) {
    (max(1, Int((slotSize.width * scale).rounded(.up))), max(1, Int((slotSize.height * scale).rounded(.up))))
  }

  /// Where an image of `pixels` is drawn in a slot at the origin, on the pixel grid.
  public func drawingRect(imagePixels pixels: (width: Int, height: Int)) -> Rect {
    let grid = PixelGrid(scale: scale)
    let rect = contentMode.drawingRect(
      imagePixels: pixels, slot: Rect(origin: .zero, size: slotSize), scale: scale)
    return Rect(x: grid.round(rect.x), y: grid.round(rect.y), width: grid.round(rect.width), height: grid.round(rect.height))
  }

  /// The content mode, slot size and scale in one short string, for messages.
  public var description: String {
    "\(contentMode.rawValue) \(slotSize.width)x\(slotSize.height)@\(scale)"
  }
}

/// What an image slot shows.
public struct SlotImage: Sendable {
  /// The image as loaded: resampled for the slot, or at its own size.
  public var image: LoadedImage?
  /// Whether the slot shows its own image, the default one, or the default after a failure.
  public var state: ImageState
  /// Why the image failed, for the manifest.
  public var reason: String?
  /// The image resampled to the device pixels it covers, and where it goes (in the slot's
  /// row, on the pixel grid). Painting copies these pixels without resampling, so a row is
  /// the same wherever it is painted.
  public var pixels: Bitmap?
  /// Where ``pixels`` go in the slot's row, on the pixel grid.
  public var drawingRect: Rect?

  /// A slot's image and how it ended up; `reason` says why it failed.
  public init(image: LoadedImage?, state: ImageState, reason: String? = nil) {
    self.image = image
    self.state = state
    self.reason = reason
  }

  /// Places the image in `slot` at `scale`, resampling it unless the pipeline already did.
  mutating func fit(_ slot: ImageSlot, scale: Double) throws {
    guard let image else { return }
    let frame = slot.imageFrame
    let grid = PixelGrid(scale: scale)
    let target = slot.contentMode.drawingRect(
      imagePixels: (image.originalWidth, image.originalHeight), slot: frame, scale: scale)
    let rect = Rect(
      x: grid.round(target.x), y: grid.round(target.y), width: grid.round(target.width),
      height: grid.round(target.height))
    let width = grid.pixels(rect.width)
    let height = grid.pixels(rect.height)
    guard width > 0, height > 0 else { return }
    pixels = try image.bitmap.scaled(width: width, height: height)
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

/// Why an image slot's image could not be loaded.
public struct ImageLoadError: Error, Hashable, Sendable, CustomStringConvertible {
  /// Why the image could not be loaded, naming the URL.
  public var message: String

  /// An error explained by `message`.
  public init(_ message: String) {
    self.message = message
  }

  /// The ``message``.
  public var description: String { message }
}
