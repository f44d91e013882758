internal import CWebP

/// WebP decoding and lossless encoding through libwebp.
public enum WebP {
  /// Decodes a WebP image to premultiplied BGRA; the header is checked against
  /// `maximumPixels` before any pixels are allocated.
  public static func decode(_ data: [UInt8], maximumPixels: Int = PNG.defaultMaximumPixels) throws -> Bitmap {
    var (width, height, pixels) = try decodeStraight(data, maximumPixels: maximumPixels, rgba: false)
    Bitmap.premultiply(&pixels)
    return Bitmap(width: width, height: height, pixels: pixels)
  }

  /// Decodes a WebP image to RGBA with straight alpha, for comparison.
  public static func decodeRGBA(_ data: [UInt8], maximumPixels: Int = PNG.defaultMaximumPixels) throws -> RGBAImage {
    let (width, height, pixels) = try decodeStraight(data, maximumPixels: maximumPixels, rgba: true)
    return RGBAImage(width: width, height: height, pixels: pixels)
  }

  private static func decodeStraight(_ data: [UInt8], maximumPixels: Int, rgba: Bool) throws -> (Int, Int, [UInt8]) {
    let (w, h) = try header(data)
    let width = Int32(w)
    let height = Int32(h)
    guard w * h <= maximumPixels else {
      throw GraphicsError(
        .imageTooLarge, "WebP of \(width)×\(height) pixels is larger than the limit of \(maximumPixels) pixels")
    }
    var pixels = [UInt8](repeating: 0, count: Int(width) * Int(height) * 4)
    let decoded = data.withUnsafeBufferPointer { source in
      pixels.withUnsafeMutableBufferPointer { target in
        rgba
          ? WebPDecodeRGBAInto(source.baseAddress, data.count, target.baseAddress, target.count, width * 4)
          : WebPDecodeBGRAInto(source.baseAddress, data.count, target.baseAddress, target.count, width * 4)
      }
    }
    guard decoded != nil else { throw GraphicsError(.webpDecode, "WebP data is damaged") }
    return (w, h, pixels)
  }

  /// The width and height a WebP header claims, without decoding anything else.
  public static func header(_ data: [UInt8]) throws -> (width: Int, height: Int) {
    var width: Int32 = 0
    var height: Int32 = 0
    let ok = data.withUnsafeBufferPointer { WebPGetInfo($0.baseAddress, data.count, &width, &height) }
    guard ok != 0, width > 0, height > 0 else { throw GraphicsError(.webpDecode, "not a readable WebP image") }
    return (Int(width), Int(height))
  }

  /// Encodes `bitmap` as a lossless WebP.
  public static func encodeLossless(_ bitmap: Bitmap) throws -> [UInt8] {
    let straight = bitmap.straightRGB(alpha: true)
    var output: UnsafeMutablePointer<UInt8>?
    let size = straight.withUnsafeBufferPointer {
      WebPEncodeLosslessRGBA($0.baseAddress, Int32(bitmap.width), Int32(bitmap.height), Int32(bitmap.width * 4), &output)
    }
    defer { if let output { WebPFree(output) } }
    guard size > 0, let output else { throw GraphicsError(.webpEncode, "WebP encoding failed") }
    return Array(UnsafeBufferPointer(start: output, count: size))
  }
}
