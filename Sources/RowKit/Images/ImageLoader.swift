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

/// Loads and decodes the images of a render, each URL once, and remembers failures.
///
/// Local files only for now: `http://` URLs end as failed slots with their reason.
public final class ImageLoader: @unchecked Sendable {
  public let resolver: ImageURLResolver
  /// The largest image accepted, in pixels; larger ones are refused before decoding.
  public var maximumPixels: Int
  private let lock = NSLock()
  private var cache: [String: Result<Bitmap, ImageLoadError>] = [:]
  /// How many files were read and decoded; each URL is read at most once.
  public private(set) var decodeCount = 0

  public init(resolver: ImageURLResolver, maximumPixels: Int = PNG.defaultMaximumPixels) {
    self.resolver = resolver
    self.maximumPixels = maximumPixels
  }

  /// Makes `bitmap` the image for `url` without reading anything, e.g. for generated images.
  public func preload(_ bitmap: Bitmap, for url: String) {
    lock.withLock { cache[url] = .success(bitmap) }
  }

  /// The decoded image at `url`, loading it the first time.
  public func image(at url: String) -> Result<Bitmap, ImageLoadError> {
    if let cached = lock.withLock({ cache[url] }) { return cached }
    let result = load(url)
    lock.withLock {
      decodeCount += 1
      cache[url] = result
    }
    return result
  }

  /// What `slot` shows under `policy`.
  public func resolve(_ slot: ImageSlot, policy: ImagePolicy) -> SlotImage {
    let fallback = slot.defaultURL.flatMap { try? image(at: $0).get() }
    guard let url = slot.url, policy == .complete else {
      return SlotImage(bitmap: fallback, state: .default, reason: nil)
    }
    switch image(at: url) {
    case .success(let bitmap): return SlotImage(bitmap: bitmap, state: .loaded, reason: nil)
    case .failure(let error): return SlotImage(bitmap: fallback, state: .failed, reason: error.message)
    }
  }

  private func load(_ url: String) -> Result<Bitmap, ImageLoadError> {
    do {
      switch try resolver.resolve(url) {
      case .remote:
        return .failure(ImageLoadError("loading images over HTTP is not supported yet"))
      case .file(let file):
        guard let data = FileManager.default.contents(atPath: file.path) else {
          return .failure(ImageLoadError("no readable file at \(file.path)"))
        }
        return .success(try PNG.decode([UInt8](data), maximumPixels: maximumPixels))
      }
    } catch let error as ImageURLError {
      return .failure(ImageLoadError(error.message))
    } catch {
      return .failure(ImageLoadError("\(error)"))
    }
  }
}

public struct ImageLoadError: Error, Hashable, Sendable, CustomStringConvertible {
  public var message: String

  public init(_ message: String) {
    self.message = message
  }

  public var description: String { message }
}
