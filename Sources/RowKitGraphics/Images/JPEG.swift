import Foundation
internal import CTurboJPEG

/// JPEG decoding and encoding through libjpeg-turbo's TurboJPEG API.
public enum JPEG {
  /// Decodes a JPEG. The header is read first: an image larger than `maximumPixels` is
  /// refused before any pixels are allocated. With `atLeast`, the decoder's DCT scaling
  /// (1/2, 1/4, 1/8…) shrinks the image as far as it can while keeping it at least that many
  /// pixels wide and high: decoding a thumbnail costs a fraction of decoding the photo.
  public static func decode(
    _ data: [UInt8], maximumPixels: Int = PNG.defaultMaximumPixels, atLeast target: (width: Int, height: Int)? = nil
  ) throws -> Bitmap {
    let (width, height, pixels) = try decompress(data, maximumPixels: maximumPixels, atLeast: target, format: TJPF_BGRA)
    return Bitmap(width: width, height: height, pixels: pixels)
  }

  /// Decodes a JPEG, whole, to RGBA (every pixel opaque), for comparison.
  public static func decodeRGBA(_ data: [UInt8], maximumPixels: Int = PNG.defaultMaximumPixels) throws -> RGBAImage {
    let (width, height, pixels) = try decompress(data, maximumPixels: maximumPixels, atLeast: nil, format: TJPF_RGBA)
    return RGBAImage(width: width, height: height, pixels: pixels)
  }

  private static func decompress(
    _ data: [UInt8], maximumPixels: Int, atLeast target: (width: Int, height: Int)?, format: TJPF
  ) throws -> (Int, Int, [UInt8]) {
    let turbo = try TurboJPEGHandle(compressing: false)
    // The owner must outlive every C call below, not just the last read of its handle.
    defer { withExtendedLifetime(turbo) {} }
    let (width, height, colorspace) = try readHeader(data, with: turbo)
    guard Int(width) * Int(height) <= maximumPixels else {
      throw GraphicsError(
        .imageTooLarge, "JPEG of \(width)×\(height) pixels is larger than the limit of \(maximumPixels) pixels")
    }
    let scans = scanCount(data, upTo: maximumScans + 1)
    guard scans <= maximumScans else {
      throw GraphicsError(
        .imageTooLarge, "JPEG of more than \(maximumScans) scans: each is another pass over the whole image, so it is not decoded")
    }
    var outWidth = width
    var outHeight = height
    if let target {
      var count: Int32 = 0
      if let factors = tjGetScalingFactors(&count) {
        // The smallest scaled size that still covers the target.
        for index in 0..<Int(count) {
          let factor = factors[index]
          let w = cturbojpeg_scaled(width, factor.num, factor.denom)
          let h = cturbojpeg_scaled(height, factor.num, factor.denom)
          if w >= Int32(target.width), h >= Int32(target.height), Int(w) * Int(h) < Int(outWidth) * Int(outHeight) {
            outWidth = w
            outHeight = h
          }
        }
      }
    }
    // libjpeg converts no four-channel JPEG (CMYK, or YCCK) to RGB: it gives its CMYK, which
    // is converted here.
    let isCMYK = colorspace == Int32(TJCS_CMYK.rawValue) || colorspace == Int32(TJCS_YCCK.rawValue)
    var pixels = [UInt8](repeating: 0, count: Int(outWidth) * Int(outHeight) * 4)
    let result = data.withUnsafeBufferPointer { source in
      pixels.withUnsafeMutableBufferPointer { target in
        tjDecompress2(
          turbo.handle, source.baseAddress, UInt(data.count), target.baseAddress, outWidth, outWidth * 4, outHeight,
          Int32((isCMYK ? TJPF_CMYK : format).rawValue), TJFLAG_STOPONWARNING)
      }
    }
    // NB: a warning (such as a truncated file) still leaves a whole image, gray below the cut;
    // RowKit treats it as a failure so a damaged image never passes for a good one.
    try TurboJPEGStatus.check(result, turbo.handle, .jpegDecode, "JPEG data is damaged")
    if isCMYK { convertCMYK(&pixels, inverted: hasAdobeMarker(data), blueFirst: format == TJPF_BGRA) }
    return (Int(outWidth), Int(outHeight), pixels)
  }

  /// Turns CMYK pixels, as libjpeg gives them, into opaque RGBA (BGRA when `blueFirst`). Adobe's applications write CMYK inverted (0 is full ink) and mark the file with
  /// an `Adobe` APP14 segment; browsers read such a file as inverted, and one without the
  /// segment as plain CMYK. Ink is taken as ink, with no color profile: R = (1 − C)(1 − K).
  static func convertCMYK(_ pixels: inout [UInt8], inverted: Bool, blueFirst: Bool) {
    pixels.withUnsafeMutableBufferPointer { buffer in
      var index = 0
      while index + 3 < buffer.count {
        var (c, m, y, k) = (Int(buffer[index]), Int(buffer[index + 1]), Int(buffer[index + 2]), Int(buffer[index + 3]))
        if !inverted { (c, m, y, k) = (255 - c, 255 - m, 255 - y, 255 - k) }
        // Now 255 is no ink: each channel is what is left of white under its ink and black's.
        let red = UInt8((c * k + 127) / 255)
        let green = UInt8((m * k + 127) / 255)
        let blue = UInt8((y * k + 127) / 255)
        (buffer[index], buffer[index + 1], buffer[index + 2]) = blueFirst ? (blue, green, red) : (red, green, blue)
        buffer[index + 3] = 255
        index += 4
      }
    }
  }

  /// Whether the JPEG has an `Adobe` APP14 segment before its first scan.
  static func hasAdobeMarker(_ data: [UInt8]) -> Bool {
    var index = 2
    while index + 9 < data.count, data[index] == 0xFF {
      let marker = data[index + 1]
      if marker == 0xDA || marker == 0xD9 { return false }
      let length = Int(data[index + 2]) << 8 | Int(data[index + 3])
      if marker == 0xEE, length >= 7, data[(index + 4)..<(index + 9)].elementsEqual("Adobe".utf8) { return true }
      index += 2 + max(2, length)
    }
    return false
  }

  /// The most scans a JPEG may have. A progressive JPEG's scans each refine every block of
  /// the image, and libjpeg-turbo accepts any number of them, even the same one again and
  /// again: a file of 550 KB with 8,000 scans took 28 s to decode. Encoders write about 10;
  /// libjpeg-turbo's own advice for its scan limit is 500.
  public static let maximumScans = 500

  /// The start-of-scan markers in `data`, counted up to `limit`: the segments are walked by
  /// their lengths, and each scan's entropy-coded data up to the next marker.
  static func scanCount(_ data: [UInt8], upTo limit: Int) -> Int {
    data.withUnsafeBufferPointer { bytes in
      /// The offset of the first 0xFF at or after `index`; nil when there is none.
      func nextFF(from index: Int) -> Int? {
        guard index < bytes.count, let base = bytes.baseAddress, let found = memchr(base + index, 0xFF, bytes.count - index) else {
          return nil
        }
        return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
      }
      var (index, scans) = (2, 0)
      while index + 3 < bytes.count, scans < limit {
        // Bytes where a marker should be are skipped up to the next 0xFF, as libjpeg skips
        // them (with a warning, which stops RowKit's decode anyway).
        guard bytes[index] == 0xFF else {
          guard let found = nextFF(from: index) else { return scans }
          index = found
          continue
        }
        let marker = bytes[index + 1]
        switch marker {
        case 0xFF:
          index += 1
        case 0xD9:
          return scans
        case 0x01, 0xD0...0xD7:
          index += 2
        default:
          // A length below 2 (which counts itself) skips only the length, as libjpeg reads it.
          let length = Int(bytes[index + 2]) << 8 | Int(bytes[index + 3])
          index += 2 + max(2, length)
          guard marker == 0xDA else { continue }
          scans += 1
          // The entropy-coded data: a 0xFF in it is followed by 0x00 (a data byte), a
          // restart marker or more 0xFF padding; any other byte after it starts a marker.
          while true {
            guard let found = nextFF(from: index), found + 1 < bytes.count else { return scans }
            index = found
            let next = bytes[index + 1]
            if next == 0x00 || (0xD0...0xD7).contains(next) {
              index += 2
            } else if next == 0xFF {
              index += 1
            } else {
              break
            }
          }
        }
      }
      return scans
    }
  }

  /// The width and height a JPEG header claims, without decoding anything else.
  public static func header(_ data: [UInt8]) throws -> (width: Int, height: Int) {
    let turbo = try TurboJPEGHandle(compressing: false)
    // The owner must outlive every C call below, not just the last read of its handle.
    defer { withExtendedLifetime(turbo) {} }
    let (width, height, _) = try readHeader(data, with: turbo)
    return (Int(width), Int(height))
  }

  /// The width and height the header of `data` claims, read by `turbo`; a header that
  /// claims no pixels is refused as not a readable JPEG.
  private static func readHeader(_ data: [UInt8], with turbo: TurboJPEGHandle) throws -> (Int32, Int32, Int32) {
    var width: Int32 = 0
    var height: Int32 = 0
    var subsampling: Int32 = 0
    var colorspace: Int32 = 0
    let header = data.withUnsafeBufferPointer {
      tjDecompressHeader3(turbo.handle, $0.baseAddress, UInt(data.count), &width, &height, &subsampling, &colorspace)
    }
    try TurboJPEGStatus.check(header, turbo.handle, .jpegDecode, "not a readable JPEG")
    guard width > 0, height > 0 else { throw GraphicsError(.jpegDecode, "not a readable JPEG: it claims \(width)×\(height) pixels") }
    return (width, height, colorspace)
  }

  /// Encodes an opaque bitmap as a baseline JPEG of `quality` (1–100), 4:2:0 subsampled.
  public static func encode(_ bitmap: Bitmap, quality: Int = 85) throws -> [UInt8] {
    let turbo = try TurboJPEGHandle(compressing: true)
    defer { withExtendedLifetime(turbo) {} }
    var buffer: UnsafeMutablePointer<UInt8>?
    var size: UInt = 0
    let result = bitmap.pixels.withUnsafeBufferPointer {
      tjCompress2(
        turbo.handle, $0.baseAddress, Int32(bitmap.width), Int32(bitmap.width * 4), Int32(bitmap.height),
        Int32(TJPF_BGRA.rawValue), &buffer, &size, Int32(TJSAMP_420.rawValue), Int32(quality), 0)
    }
    defer { if let buffer { tjFree(buffer) } }
    try TurboJPEGStatus.check(result, turbo.handle, .jpegEncode, "JPEG encoding failed")
    guard let buffer else { throw GraphicsError(.jpegEncode, "JPEG encoding failed: libjpeg-turbo gave no buffer") }
    return Array(UnsafeBufferPointer(start: buffer, count: Int(size)))
  }
}

/// libjpeg-turbo's results turned into errors in one place, in its own words for what
/// failed, read from the handle that failed.
enum TurboJPEGStatus {
  /// Throws an error of `kind` saying that `what` failed and why, unless `result` is 0.
  static func check(_ result: Int32, _ handle: tjhandle?, _ kind: GraphicsError.Kind, _ what: @autoclosure () -> String) throws(GraphicsError) {
    guard result != 0 else { return }
    throw GraphicsError(kind, "\(what()): \(message(handle))")
  }

  /// libjpeg-turbo's words for the last failure of `handle` (or of the last handle that
  /// could not be made, for nil).
  static func message(_ handle: tjhandle?) -> String {
    tjGetErrorStr2(handle).map { String(cString: $0) } ?? "unknown error"
  }
}

/// Owns a TurboJPEG compressor or decompressor.
private final class TurboJPEGHandle {
  let handle: tjhandle

  init(compressing: Bool) throws {
    guard let handle = compressing ? tjInitCompress() : tjInitDecompress() else {
      throw GraphicsError(compressing ? .jpegEncode : .jpegDecode, "libjpeg-turbo could not start: \(TurboJPEGStatus.message(nil))")
    }
    self.handle = handle
  }

  deinit {
    tjDestroy(handle)
  }
}
