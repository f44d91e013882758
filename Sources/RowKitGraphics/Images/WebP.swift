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
    var config = WebPDecoderConfig()
    guard WebPInitDecoderConfig(&config) != 0 else { throw GraphicsError(.webpDecode, "libwebp is not the version RowKit was built with") }
    let status = data.withUnsafeBufferPointer { source in
      pixels.withUnsafeMutableBufferPointer { target in
        // Straight alpha, into RowKit's own buffer: libwebp allocates nothing to free.
        config.output.colorspace = rgba ? MODE_RGBA : MODE_BGRA
        config.output.is_external_memory = 1
        config.output.u.RGBA.rgba = target.baseAddress
        config.output.u.RGBA.stride = width * 4
        config.output.u.RGBA.size = target.count
        return WebPDecode(source.baseAddress, data.count, &config)
      }
    }
    try WebPStatus.check(status, .webpDecode, "WebP data is damaged")
    return (w, h, pixels)
  }

  /// The width and height a WebP header claims, without decoding anything else.
  public static func header(_ data: [UInt8]) throws -> (width: Int, height: Int) {
    var features = WebPBitstreamFeatures()
    let status = data.withUnsafeBufferPointer { WebPGetFeatures($0.baseAddress, data.count, &features) }
    try WebPStatus.check(status, .webpDecode, "not a readable WebP image")
    guard features.width > 0, features.height > 0 else {
      throw GraphicsError(.webpDecode, "not a readable WebP image: it claims \(features.width)×\(features.height) pixels")
    }
    return (Int(features.width), Int(features.height))
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

/// libwebp's decoding statuses turned into errors in one place, each with what it means.
enum WebPStatus {
  /// Throws an error of `kind` saying that `what` failed and why, unless `status` is OK.
  static func check(_ status: VP8StatusCode, _ kind: GraphicsError.Kind, _ what: @autoclosure () -> String) throws(GraphicsError) {
    guard status != VP8_STATUS_OK else { return }
    throw GraphicsError(kind, "\(what()): \(message(status))")
  }

  /// What `status` means, in words.
  static func message(_ status: VP8StatusCode) -> String {
    switch status {
    case VP8_STATUS_OK: "no error"
    case VP8_STATUS_OUT_OF_MEMORY: "out of memory"
    case VP8_STATUS_INVALID_PARAM: "invalid parameter"
    case VP8_STATUS_BITSTREAM_ERROR: "the bitstream is not valid WebP"
    case VP8_STATUS_UNSUPPORTED_FEATURE: "a feature libwebp does not support"
    case VP8_STATUS_SUSPENDED: "decoding suspended"
    case VP8_STATUS_USER_ABORT: "decoding aborted"
    case VP8_STATUS_NOT_ENOUGH_DATA: "the data ends early"
    default: "libwebp status \(status.rawValue)"
    }
  }
}
