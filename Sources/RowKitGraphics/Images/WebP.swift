internal import CWebP

/// WebP decoding through libwebp.
public enum WebP {
  /// Decodes a WebP image to premultiplied BGRA; the header is checked against
  /// `maximumPixels` before any pixels are allocated.
  public static func decode(_ data: [UInt8], maximumPixels: Int = PNG.defaultMaximumPixels) throws -> Bitmap {
    var width: Int32 = 0
    var height: Int32 = 0
    let ok = data.withUnsafeBufferPointer { WebPGetInfo($0.baseAddress, data.count, &width, &height) }
    guard ok != 0, width > 0, height > 0 else { throw GraphicsError(.webpDecode, "not a readable WebP image") }
    guard Int(width) * Int(height) <= maximumPixels else {
      throw GraphicsError(
        .imageTooLarge, "WebP of \(width)×\(height) pixels is larger than the limit of \(maximumPixels) pixels")
    }
    var pixels = [UInt8](repeating: 0, count: Int(width) * Int(height) * 4)
    let decoded = data.withUnsafeBufferPointer { source in
      pixels.withUnsafeMutableBufferPointer { target in
        WebPDecodeBGRAInto(source.baseAddress, data.count, target.baseAddress, target.count, width * 4)
      }
    }
    guard decoded != nil else { throw GraphicsError(.webpDecode, "WebP data is damaged") }
    Bitmap.premultiply(&pixels)
    return Bitmap(width: Int(width), height: Int(height), pixels: pixels)
  }
}

/// Decodes an image of any format RowKit reads, told apart by its first bytes.
public enum ImageDecoder {
  public enum Format: String, Sendable { case png, jpeg, webp }

  /// The format the data's signature names, or nil.
  public static func format(of data: [UInt8]) -> Format? {
    if data.count >= 8, data[0] == 0x89, data[1] == 0x50, data[2] == 0x4E, data[3] == 0x47 { return .png }
    if data.count >= 3, data[0] == 0xFF, data[1] == 0xD8, data[2] == 0xFF { return .jpeg }
    if data.count >= 12, Array(data[0..<4]) == Array("RIFF".utf8), Array(data[8..<12]) == Array("WEBP".utf8) {
      return .webp
    }
    return nil
  }

  /// Decodes PNG, JPEG or WebP; larger images than `maximumPixels` are refused from their
  /// headers. `atLeast` lets JPEG decode smaller when the image will be shown small.
  public static func decode(
    _ data: [UInt8], maximumPixels: Int = PNG.defaultMaximumPixels, atLeast target: (width: Int, height: Int)? = nil
  ) throws -> Bitmap {
    switch format(of: data) {
    case .png: return try PNG.decode(data, maximumPixels: maximumPixels)
    case .jpeg: return try JPEG.decode(data, maximumPixels: maximumPixels, atLeast: target)
    case .webp: return try WebP.decode(data, maximumPixels: maximumPixels)
    case nil: throw GraphicsError(.unknownImageFormat, "not an image (neither PNG, JPEG nor WebP)")
    }
  }
}
