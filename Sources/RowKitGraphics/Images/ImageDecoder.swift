/// Decodes an image of any format RowKit reads, told apart by its first bytes.
public enum ImageDecoder {
  /// An image file format, told apart by the file's first bytes.
  public enum Format: String, Sendable {
    /// PNG, decoded by libpng.
    case png
    /// JPEG, decoded by libjpeg-turbo.
    case jpeg
    /// WebP, decoded by libwebp.
    case webp
  }

  /// The format the data's signature names, or nil.
  public static func format(of data: [UInt8]) -> Format? {
    if data.count >= 8, data[0] == 0x89, data[1] == 0x50, data[2] == 0x4E, data[3] == 0x47 { return .png }
    if data.count >= 3, data[0] == 0xFF, data[1] == 0xD8, data[2] == 0xFF { return .jpeg }
    if data.count >= 12, Array(data[0..<4]) == Array("RIFF".utf8), Array(data[8..<12]) == Array("WEBP".utf8) {
      return .webp
    }
    return nil
  }

  /// The width and height the data's header claims; an image of more than `maximumPixels`
  /// is refused here, before anything is decoded.
  public static func size(of data: [UInt8], maximumPixels: Int = PNG.defaultMaximumPixels) throws -> (width: Int, height: Int) {
    let size: (width: Int, height: Int)
    switch format(of: data) {
    case .png: size = try PNG.header(data)
    case .jpeg: size = try JPEG.header(data)
    case .webp: size = try WebP.header(data)
    case nil: throw GraphicsError(.unknownImageFormat, "not an image (neither PNG, JPEG nor WebP)")
    }
    guard size.width.multipliedReportingOverflow(by: size.height).partialValue <= maximumPixels,
      size.width <= maximumPixels, size.height <= maximumPixels
    else {
      throw GraphicsError(
        .imageTooLarge,
        "\(format(of: data)!.rawValue.uppercased()) of \(size.width)×\(size.height) pixels is larger than the limit of \(maximumPixels) pixels")
    }
    return size
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

  /// Checks that `data` is an image RowKit decodes, and returns its size. A PNG is checked
  /// without decoding its pixels (see ``PNG/check(_:maximumPixels:)``); JPEG and WebP are
  /// decoded.
  public static func check(_ data: [UInt8], maximumPixels: Int = PNG.defaultMaximumPixels) throws -> (width: Int, height: Int) {
    if format(of: data) == .png { return try PNG.check(data, maximumPixels: maximumPixels) }
    let image = try decodeRGBA(data, maximumPixels: maximumPixels)
    return (image.width, image.height)
  }

  /// Decodes PNG, JPEG or WebP, whole, to the RGBA values the file holds (alpha straight),
  /// for comparison; larger images than `maximumPixels` are refused from their headers.
  public static func decodeRGBA(_ data: [UInt8], maximumPixels: Int = PNG.defaultMaximumPixels) throws -> RGBAImage {
    switch format(of: data) {
    case .png: return try PNG.decodeRGBA(data, maximumPixels: maximumPixels)
    case .jpeg: return try JPEG.decodeRGBA(data, maximumPixels: maximumPixels)
    case .webp: return try WebP.decodeRGBA(data, maximumPixels: maximumPixels)
    case nil: throw GraphicsError(.unknownImageFormat, "not an image (neither PNG, JPEG nor WebP)")
    }
  }
}
