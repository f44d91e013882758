import Foundation
internal import CPNG

/// PNG encoding and decoding through libpng's simplified API.
///
/// Encoding uses libpng's fast settings: Cairo's own PNG writer uses zlib's default level
/// and every filter, and is several times slower for the flat colors of table rows.
public enum PNG {
  /// Encodes `bitmap`. Opaque bitmaps are written as 8-bit RGB, others as 8-bit RGBA.
  public static func encode(_ bitmap: Bitmap) throws -> [UInt8] {
    let opaque = bitmap.isOpaque
    let channels = opaque ? 3 : 4
    let straight = opaque ? bitmap.packedBGR() : bitmap.straightBGRA()
    var image = png_image()
    image.version = png_uint_32(PNG_IMAGE_VERSION)
    image.width = png_uint_32(bitmap.width)
    image.height = png_uint_32(bitmap.height)
    image.format = png_uint_32(opaque ? PNG_FORMAT_BGR : PNG_FORMAT_BGRA)
    image.flags = png_uint_32(PNG_IMAGE_FLAG_FAST)
    // A buffer as large as the raw pixels plus room for headers avoids libpng's two-pass
    // size query, which doubles the time; the query is the fallback.
    let rowStride = Int32(bitmap.width * channels)
    func write(into output: inout [UInt8]) -> Int? {
      var size = output.count
      let ok = output.withUnsafeMutableBytes { buffer in
        straight.withUnsafeBytes { pixels in
          png_image_write_to_memory(&image, buffer.baseAddress, &size, 0, pixels.baseAddress, rowStride, nil)
        }
      }
      return ok != 0 ? size : nil
    }
    var output = [UInt8](unsafeUninitializedCapacity: straight.count + bitmap.height + 65536) { _, count in
      count = straight.count + bitmap.height + 65536
    }
    var size = write(into: &output)
    if size == nil {
      image.warning_or_error = 0
      var needed = 0
      _ = straight.withUnsafeBytes { pixels in
        png_image_write_to_memory(&image, nil, &needed, 0, pixels.baseAddress, rowStride, nil)
      }
      if needed > 0 {
        output = [UInt8](repeating: 0, count: needed)
        size = write(into: &output)
      }
    }
    guard let size else {
      let message = messageText(&image)
      png_image_free(&image)
      throw GraphicsError(.pngEncode, "PNG encoding failed: \(message)")
    }
    output.removeSubrange(size...)
    return output
  }

  /// The largest image, in pixels, that ``decode(_:maximumPixels:)`` accepts by default.
  public static let defaultMaximumPixels = 40_000_000

  /// Decodes a PNG of any color type and bit depth to premultiplied BGRA. The header is read
  /// first: an image larger than `maximumPixels` is refused before its pixels are allocated.
  public static func decode(_ data: [UInt8], maximumPixels: Int = defaultMaximumPixels) throws -> Bitmap {
    try header(data)
    var image = png_image()
    image.version = png_uint_32(PNG_IMAGE_VERSION)
    let began = data.withUnsafeBytes { bytes in
      png_image_begin_read_from_memory(&image, bytes.baseAddress, bytes.count)
    }
    guard began != 0 else {
      let message = messageText(&image)
      png_image_free(&image)
      throw GraphicsError(.pngDecode, "not a readable PNG: \(message)")
    }
    let width = Int(image.width)
    let height = Int(image.height)
    guard width > 0, height > 0, width * height <= maximumPixels else {
      png_image_free(&image)
      throw GraphicsError(
        .imageTooLarge, "PNG of \(width)×\(height) pixels is larger than the limit of \(maximumPixels) pixels")
    }
    image.format = png_uint_32(PNG_FORMAT_BGRA)
    var pixels = [UInt8](repeating: 0, count: width * height * 4)
    let finished = data.withUnsafeBytes { _ in
      pixels.withUnsafeMutableBytes { buffer in
        png_image_finish_read(&image, nil, buffer.baseAddress, Int32(width * 4), nil)
      }
    }
    guard finished != 0 else {
      let message = messageText(&image)
      png_image_free(&image)
      throw GraphicsError(.pngDecode, "PNG data is damaged: \(message)")
    }
    Bitmap.premultiply(&pixels)
    return Bitmap(width: width, height: height, pixels: pixels)
  }

  /// The width and height a PNG header claims, without decoding anything else.
  @discardableResult
  public static func header(_ data: [UInt8]) throws -> (width: Int, height: Int) {
    let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    guard data.count >= 24, Array(data[0..<8]) == signature, Array(data[12..<16]) == Array("IHDR".utf8)
    else {
      throw GraphicsError(.pngDecode, "not a PNG file (no PNG signature)")
    }
    func word(_ at: Int) -> Int {
      Int(data[at]) << 24 | Int(data[at + 1]) << 16 | Int(data[at + 2]) << 8 | Int(data[at + 3])
    }
    return (word(16), word(20))
  }

  public static func decode(contentsOf url: URL, maximumPixels: Int = defaultMaximumPixels) throws -> Bitmap {
    try decode([UInt8](Data(contentsOf: url)), maximumPixels: maximumPixels)
  }

  private static func messageText(_ image: inout png_image) -> String {
    withUnsafeBytes(of: &image.message) { raw in
      let bytes = raw.prefix { $0 != 0 }
      return String(decoding: bytes, as: UTF8.self)
    }
  }
}
