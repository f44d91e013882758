import RowKitGraphics

/// The image harnesses' paths: what the image pipeline does with an image slot's bytes
/// (read the header, refuse an image too large, decode at the smallest scale that covers the
/// slot, resample to the slot's pixels) and what `rowkit diff` does (decode whole, to RGBA).
public enum FuzzImage {
  /// An image slot's size in device pixels, as the pipeline asks for it.
  static let slot = (width: 40, height: 40)

  /// The pipeline's path, then diff's path, through the format-sniffing entry points.
  public static func decodeAsRowKitDoes(_ bytes: [UInt8]) {
    if let header = try? ImageDecoder.size(of: bytes),
      let bitmap = try? ImageDecoder.decode(bytes, atLeast: slot)
    {
      // The header read first and the pixels decoded must agree (up to JPEG's scaling).
      if ImageDecoder.format(of: bytes) != .jpeg, (bitmap.width, bitmap.height) != header {
        fatalError("header says \(header.width)×\(header.height), decoded \(bitmap.width)×\(bitmap.height)")
      }
      check(bitmap)
      if let fitted = try? bitmap.scaled(width: slot.width, height: slot.height) { check(fitted) }
    }
    if let image = try? ImageDecoder.decodeRGBA(bytes) { check(image) }
  }

  static func check(_ bitmap: Bitmap) {
    guard bitmap.width > 0, bitmap.height > 0, bitmap.pixels.count == bitmap.width * bitmap.height * 4 else {
      fatalError("a bitmap of \(bitmap.width)×\(bitmap.height) holds \(bitmap.pixels.count) bytes")
    }
  }

  static func check(_ image: RGBAImage) {
    guard image.width > 0, image.height > 0, image.pixels.count == image.width * image.height * 4 else {
      fatalError("an RGBA image of \(image.width)×\(image.height) holds \(image.pixels.count) bytes")
    }
  }
}
