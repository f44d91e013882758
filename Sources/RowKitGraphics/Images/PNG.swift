import Foundation
internal import CPNG

/// PNG decoding by RowKit's own reader, and by libpng's simplified API where a file's gamma,
/// color space or 16-bit samples call for libpng's conversions; encoding is RowKit's own
/// streaming writer (`PNGStreamWriter`), with ISA-L's deflate, several times faster than
/// libpng's fastest settings.
public enum PNG {
  /// The largest image, in pixels, that ``decode(_:maximumPixels:)`` accepts by default.
  public static let defaultMaximumPixels = 40_000_000

  /// Decodes a PNG of any color type and bit depth to premultiplied BGRA. The header is read
  /// first: an image larger than `maximumPixels` is refused before its pixels are allocated.
  ///
  /// libpng inflates every byte of the image data, however far past the last row it goes: a
  /// 20 MB file inflating to 20 GB there held a render for 28 seconds. RowKit's own reader
  /// (``decodeRGBA(_:maximumPixels:)``) stops within a bound and makes the checks libpng makes
  /// (the rows' filters, the checksum, the critical chunks' CRCs). Where libpng would give
  /// the values the file stores, that reader decodes the image alone, several times faster;
  /// otherwise it goes through the data first, so that libpng gets only data it reads in time.
  public static func decode(_ data: [UInt8], maximumPixels: Int = defaultMaximumPixels) throws -> Bitmap {
    let reader = try PNGReader(data, maximumPixels: maximumPixels)
    if reader.libpngGivesStoredValues {
      var image = try reader.decode()
      return image.takeBitmap()
    }
    try reader.checkRows()
    return try decodeThroughLibpng(data, maximumPixels: maximumPixels)
  }

  /// Decodes a PNG through libpng's simplified API, with its conversions (a file's gamma, a
  /// 16-bit image taken as linear), to premultiplied BGRA.
  static func decodeThroughLibpng(_ data: [UInt8], maximumPixels: Int) throws -> Bitmap {
    var image = png_image()
    image.version = png_uint_32(PNG_IMAGE_VERSION)
    let began = data.withUnsafeBytes { bytes in
      png_image_begin_read_from_memory(&image, bytes.baseAddress, bytes.count)
    }
    try PNGImageStatus.check(began, &image, "not a readable PNG")
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
    try PNGImageStatus.check(finished, &image, "PNG data is damaged")
    Bitmap.premultiply(&pixels)
    return Bitmap(width: width, height: height, pixels: pixels)
  }

  /// The width and height a PNG header claims, without decoding anything else.
  @discardableResult
  public static func header(_ data: [UInt8]) throws -> (width: Int, height: Int) {
    guard data.count >= 8, data[0..<8].elementsEqual(PNGFormat.signature) else {
      throw GraphicsError(.pngDecode, "not a PNG file (no PNG signature)")
    }
    // Cut short after its signature, a file is a damaged PNG, as the decoder says.
    guard data.count >= 24 else { throw PNGReader.damaged("a chunk runs past the end of the file") }
    guard data[12..<16].elementsEqual("IHDR".utf8) else { throw PNGReader.damaged("the first chunk is not a header") }
    func word(_ at: Int) -> Int {
      Int(data[at]) << 24 | Int(data[at + 1]) << 16 | Int(data[at + 2]) << 8 | Int(data[at + 3])
    }
    return (word(16), word(20))
  }

  /// Decodes the PNG file at `url`; throws for an image of more than `maximumPixels` pixels.
  public static func decode(contentsOf url: URL, maximumPixels: Int = defaultMaximumPixels) throws -> Bitmap {
    let bytes: [UInt8]
    do {
      bytes = try InputFile.read(url.path)
    } catch {
      throw GraphicsError(.pngDecode, "\(url.path): \(error)")
    }
    return try decode(bytes, maximumPixels: maximumPixels)
  }
}

/// libpng's simplified API's results turned into errors in one place: its message for the
/// image, and the image's memory freed.
enum PNGImageStatus {
  /// Frees `image` and throws an error saying that `what` failed and why, unless `result`
  /// is libpng's success (non-zero).
  static func check(_ result: Int32, _ image: inout png_image, _ what: @autoclosure () -> String) throws(GraphicsError) {
    guard result == 0 else { return }
    let message = withUnsafeBytes(of: &image.message) { raw in String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self) }
    png_image_free(&image)
    throw GraphicsError(.pngDecode, "\(what()): \(message)")
  }
}
