internal import CPixels

/// Pixels in memory: premultiplied 8-bit BGRA, rows top to bottom with no padding. This is
/// Cairo's ARGB32 layout on little-endian machines, so a bitmap moves in and out of a
/// ``Canvas`` with plain copies.
public struct Bitmap: Hashable, Sendable, CustomStringConvertible {
  /// The width in pixels.
  public let width: Int
  /// The height in pixels.
  public let height: Int
  /// The premultiplied BGRA bytes, four per pixel, row after row.
  public var pixels: [UInt8]

  /// A bitmap over existing premultiplied BGRA bytes; `pixels` must hold exactly `width × height × 4` of them.
  public init(width: Int, height: Int, pixels: [UInt8]) {
    precondition(width >= 0 && height >= 0 && pixels.count == width * height * 4)
    self.width = width
    self.height = height
    self.pixels = pixels
  }

  /// A bitmap filled with one color.
  public init(width: Int, height: Int, color: Color = .clear) {
    let a = color.alpha
    let pixel: [UInt8] = [
      Bitmap.byte(color.blue * a), Bitmap.byte(color.green * a), Bitmap.byte(color.red * a),
      Bitmap.byte(a),
    ]
    var pixels = [UInt8](repeating: 0, count: width * height * 4)
    if pixel != [0, 0, 0, 0] {
      let word = pixel.withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) }
      pixels.withUnsafeMutableBytes { bytes in
        for index in 0..<(width * height) { bytes.storeBytes(of: word, toByteOffset: index * 4, as: UInt32.self) }
      }
    }
    self.init(width: width, height: height, pixels: pixels)
  }

  /// `Bitmap(width×height)`, without the pixels.
  public var description: String {
    return "Bitmap(\(width)×\(height))"
  }

  static func byte(_ value: Double) -> UInt8 { UInt8((min(max(value, 0), 1) * 255).rounded()) }

  /// The bytes one row of pixels takes: four per pixel.
  public var bytesPerRow: Int { width * 4 }

  /// The straight (not premultiplied) color of one pixel.
  public func color(x: Int, y: Int) -> Color {
    let index = (y * width + x) * 4
    let alpha = Double(pixels[index + 3]) / 255
    guard alpha > 0 else { return .clear }
    return Color(
      red: Double(pixels[index + 2]) / 255 / alpha, green: Double(pixels[index + 1]) / 255 / alpha,
      blue: Double(pixels[index]) / 255 / alpha, alpha: alpha)
  }

  /// Whether every pixel is fully opaque.
  public var isOpaque: Bool {
    pixels.withUnsafeBytes { bytes in
      // One AND over whole pixels, with no early exit, so the loop vectorizes.
      var alphas: UInt32 = 0xFF00_0000
      for pixel in bytes.bindMemory(to: UInt32.self) { alphas &= pixel }
      return alphas & 0xFF00_0000 == 0xFF00_0000
    }
  }

  /// The rows from `rows.lowerBound` up to (not including) `rows.upperBound`.
  public func cropping(rows: Range<Int>) -> Bitmap {
    precondition(rows.lowerBound >= 0 && rows.upperBound <= height)
    let start = rows.lowerBound * bytesPerRow
    let end = rows.upperBound * bytesPerRow
    return Bitmap(width: width, height: rows.count, pixels: Array(pixels[start..<end]))
  }

  /// A copy of the region `x..<x+width`, `y..<y+height` (in pixels).
  public func cropping(x: Int, y: Int, width: Int, height: Int) -> Bitmap {
    precondition(x >= 0 && y >= 0 && x + width <= self.width && y + height <= self.height)
    var result = [UInt8]()
    result.reserveCapacity(width * height * 4)
    for row in y..<(y + height) {
      let start = (row * self.width + x) * 4
      result += pixels[start..<(start + width * 4)]
    }
    return Bitmap(width: width, height: height, pixels: result)
  }

  /// Premultiplies straight BGRA pixels by their alpha, as Cairo does.
  static func premultiply(_ pixels: inout [UInt8]) {
    pixels.withUnsafeMutableBufferPointer { p in
      var index = 0
      while index < p.count {
        let alpha = UInt32(p[index + 3])
        if alpha != 255 {
          // Cairo's premultiplication: exact division by 255 with rounding.
          for channel in 0..<3 {
            let t = alpha * UInt32(p[index + channel]) + 0x80
            p[index + channel] = UInt8((t + (t >> 8)) >> 8)
          }
        }
        index += 4
      }
    }
  }

  /// The pixels in image files' byte order: RGB, or RGBA with straight (not premultiplied)
  /// alpha; with `filterBytes`, each row starts with PNG's filter type 0.
  func straightRGB(rows: Range<Int>? = nil, alpha: Bool, filterBytes: Bool = false) -> [UInt8] {
    convert(rows: rows ?? 0..<height, alpha: alpha, filterBytes: filterBytes).bytes
  }

  /// Rows `rows` as PNG scanlines of opaque RGB (filter type 0, then R, G, B), or nil when a
  /// pixel of them is not opaque: ``isOpaque`` and ``pngScanlines(rows:color:)`` in one pass
  /// over the pixels, for a stream that expects opaque rows.
  package func opaquePNGScanlines(rows: Range<Int>) -> [UInt8]? {
    let converted = convert(rows: rows, alpha: false, filterBytes: true)
    return converted.opaque ? converted.bytes : nil
  }

  /// ``straightRGB(rows:alpha:filterBytes:)``, and whether every pixel of `rows` is opaque
  /// (known only without `alpha`; true with it). Without `vectorized` (for tests, which
  /// check both loops against each other), no vector loop is used.
  func convert(rows: Range<Int>, alpha: Bool, filterBytes: Bool, vectorized: Bool = true) -> (bytes: [UInt8], opaque: Bool) {
    precondition(rows.lowerBound >= 0 && rows.upperBound <= height)
    let channels = alpha ? 4 : 3
    let lineLength = (filterBytes ? 1 : 0) + width * channels
    let count = rows.count * lineLength
    // An empty array of capacity 0 is the shared empty storage, whose count the initializer
    // below would write from any thread (ThreadSanitizer reports it).
    guard count > 0 else { return ([], true) }
    var opaque = true
    // NB: an uninitialized buffer: zero-filling megabytes per row showed up as a third of the
    // encoding time in page faults and memset.
    let bytes = [UInt8](unsafeUninitializedCapacity: count) { target, initialized in
      pixels.withUnsafeBytes { source in
        let output = UnsafeMutableRawPointer(target.baseAddress!)
        let input = source.baseAddress!
        // Wrapping arithmetic and raw pointers: a big render converts a billion pixels, and
        // the overflow and bounds checks of indexed code made this loop as slow as deflate.
        for (line, y) in rows.enumerated() {
          var to = output + line &* lineLength
          if filterBytes {
            to.storeBytes(of: 0, as: UInt8.self)
            to += 1
          }
          let from = input + y &* width &* 4
          if alpha {
            Self.straightRGBA(from, to, count: width)
          } else if !Self.opaqueRGB(from, to, count: width, vectorized: vectorized) {
            opaque = false
          }
        }
        initialized = count
      }
    }
    return (bytes, opaque)
  }

  /// Writes rows `rows` as straight RGBA, as image files hold them, to `target`
  /// (`rows.count × width × 4` bytes): what ``RGBAImage/init(_:)`` makes of them.
  package func writeStraightRGBA(rows: Range<Int>, into target: UnsafeMutableRawPointer) {
    precondition(rows.lowerBound >= 0 && rows.upperBound <= height, "rows outside the bitmap")
    guard !rows.isEmpty else { return }
    pixels.withUnsafeBytes { source in
      Self.straightRGBA(source.baseAddress! + rows.lowerBound * bytesPerRow, target, count: rows.count * width)
    }
  }

  /// Whether the processor can shuffle bytes (x86-64's SSSE3), for ``opaqueRGB``'s vector loop.
  static let hasByteShuffle: Bool = {
    #if arch(x86_64)
      return cpixels_has_ssse3() != 0
    #else
      return false
    #endif
  }()

  /// BGRA pixels to RGB, dropping alpha; returns whether every pixel was opaque. Sixteen
  /// pixels at a time with byte shuffles where the processor has them (and `vectorized`), then
  /// four at a time: four loads, three stores (twice as fast as one pixel at a time, which
  /// is store-bound). The alphas are ANDed on the way, which costs either loop nothing.
  private static func opaqueRGB(
    _ source: UnsafeRawPointer, _ target: UnsafeMutableRawPointer, count: Int, vectorized: Bool
  ) -> Bool {
    var from = source
    var to = target
    var left = count
    // Pixels are BGRA in memory: alpha is the high byte of each little-endian word.
    var alphas: UInt32 = 0xFF00_0000
    #if arch(x86_64)
      if vectorized && hasByteShuffle {
        let done = cpixels_bgra_to_rgb_ssse3(
          from.assumingMemoryBound(to: UInt8.self), to.assumingMemoryBound(to: UInt8.self), count, &alphas)
        from += done &* 4
        to += done &* 3
        left &-= done
      }
    #endif
    while left >= 4 {
      let b0 = from.loadUnaligned(as: UInt32.self)
      let b1 = from.loadUnaligned(fromByteOffset: 4, as: UInt32.self)
      let b2 = from.loadUnaligned(fromByteOffset: 8, as: UInt32.self)
      let b3 = from.loadUnaligned(fromByteOffset: 12, as: UInt32.self)
      alphas &= b0 & b1 & b2 & b3
      // Each pixel's R, G, B in the low three bytes, in file order.
      let p0 = UInt64(b0.byteSwapped &>> 8)
      let p1 = UInt64(b1.byteSwapped &>> 8)
      let p2 = b2.byteSwapped &>> 8
      let p3 = b3.byteSwapped &>> 8
      to.storeBytes(of: (p0 | p1 &<< 24 | UInt64(p2) &<< 48).littleEndian, as: UInt64.self)
      to.storeBytes(of: (p2 &>> 16 | p3 &<< 8).littleEndian, toByteOffset: 8, as: UInt32.self)
      from += 16
      to += 12
      left &-= 4
    }
    while left > 0 {
      alphas &= from.loadUnaligned(as: UInt32.self)
      to.storeBytes(of: from.load(fromByteOffset: 2, as: UInt8.self), as: UInt8.self)
      to.storeBytes(of: from.load(fromByteOffset: 1, as: UInt8.self), toByteOffset: 1, as: UInt8.self)
      to.storeBytes(of: from.load(as: UInt8.self), toByteOffset: 2, as: UInt8.self)
      from += 4
      to += 3
      left &-= 1
    }
    return alphas & 0xFF00_0000 == 0xFF00_0000
  }

  /// Premultiplied BGRA pixels to straight RGBA.
  private static func straightRGBA(_ source: UnsafeRawPointer, _ target: UnsafeMutableRawPointer, count: Int) {
    var from = source
    var to = target
    for _ in 0..<count {
      let bgra = UInt32(littleEndian: from.loadUnaligned(as: UInt32.self))
      let a = bgra &>> 24
      if a == 255 {
        // Opaque, the common case: BGRA to RGBA is a swap of the first and third bytes.
        let rgba = (bgra & 0xFF00_FF00) | (bgra & 0xFF) &<< 16 | (bgra &>> 16) & 0xFF
        to.storeBytes(of: rgba.littleEndian, as: UInt32.self)
      } else if a == 0 {
        to.storeBytes(of: 0, as: UInt32.self)
      } else {
        // Cairo's own un-premultiplication, rounding to nearest: (c × 255 + a/2) / a, by a
        // multiplication with a reciprocal, exact for every numerator below 2^16.
        let reciprocal = Self.reciprocals[Int(a)]
        let half = a &>> 1
        // The clamp only matters for malformed pixels (a channel above alpha).
        func straight(_ c: UInt32) -> UInt32 {
          min(255, UInt32(truncatingIfNeeded: (UInt64(c &* 255 &+ half) &* reciprocal) &>> 32))
        }
        let rgba = straight((bgra &>> 16) & 0xFF) | straight((bgra &>> 8) & 0xFF) &<< 8 | straight(bgra & 0xFF) &<< 16 | a &<< 24
        to.storeBytes(of: rgba.littleEndian, as: UInt32.self)
      }
      from += 4
      to += 4
    }
  }

  /// ⌈2^32 / a⌉ for every alpha a (0 for 0, never used): for n < 2^16,
  /// (n × ⌈2^32 / a⌉) >> 32 is n / a rounded down, since the error, below n / 2^32, is
  /// smaller than the 1 / a that separates n / a from the next integer.
  private static let reciprocals: [UInt64] = (0..<256).map { a in a == 0 ? 0 : ((1 << 32) + UInt64(a) - 1) / UInt64(a) }
}
