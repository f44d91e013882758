import Foundation

/// Pixels as image files hold them: 8-bit RGBA with straight (not premultiplied) alpha, rows
/// top to bottom with no padding, the layout pixelmatch reads.
///
/// Image comparison works on these rather than on ``Bitmap``'s premultiplied pixels, where
/// two semi-transparent colors that premultiply to the same bytes would be one color.
public struct RGBAImage: Hashable, Sendable, CustomStringConvertible {
  /// The width in pixels.
  public let width: Int
  /// The height in pixels.
  public let height: Int
  /// The straight RGBA bytes, four per pixel, row after row.
  public var pixels: [UInt8]

  /// An image over existing straight RGBA bytes; `pixels` must hold exactly `width × height × 4` of them.
  public init(width: Int, height: Int, pixels: [UInt8]) {
    precondition(width >= 0 && height >= 0 && pixels.count == width * height * 4)
    self.width = width
    self.height = height
    self.pixels = pixels
  }

  /// A bitmap's pixels un-premultiplied, byte for byte as ``PNG/encode(_:compression:)``
  /// writes them: a rendered image compares with its recorded PNG as that PNG decodes.
  public init(_ bitmap: Bitmap) {
    self.init(width: bitmap.width, height: bitmap.height, pixels: bitmap.straightRGB(alpha: true))
  }

  /// `RGBAImage(width×height)`, without the pixels.
  public var description: String { "RGBAImage(\(width)×\(height))" }

  /// The pixels premultiplied, for drawing.
  public var bitmap: Bitmap { Self.premultiplied(width: width, height: height, pixels) }

  /// The pixels premultiplied, for drawing, converted in place: the image gives its pixels up,
  /// so that a large image is never held twice.
  mutating func takeBitmap() -> Bitmap {
    var pixels: [UInt8] = []
    swap(&pixels, &self.pixels)
    return Self.premultiplied(width: width, height: height, consume pixels)
  }

  private static func premultiplied(width: Int, height: Int, _ pixels: consuming [UInt8]) -> Bitmap {
    var bgra = consume pixels
    bgra.withUnsafeMutableBufferPointer { p in
      var index = 0
      while index < p.count {
        p.swapAt(index, index + 2)
        index += 4
      }
    }
    Bitmap.premultiply(&bgra)
    return Bitmap(width: width, height: height, pixels: bgra)
  }
}

extension Bitmap {
  /// Whether these pixels, un-premultiplied, are exactly `image`'s: what
  /// `RGBAImage(self) == image` says, in one pass and without the copy (a check whose render
  /// matches its reference asks this once per case).
  public func hasStraightPixels(of image: RGBAImage) -> Bool {
    guard width == image.width, height == image.height, pixels.count == image.pixels.count else { return false }
    return image.pixels.withUnsafeBytes { other in other.isEmpty || hasStraightPixels(rows: 0..<height, of: other.baseAddress!) }
  }

  /// Whether rows `rows` of these pixels, un-premultiplied, are exactly the straight RGBA
  /// bytes at `other` (`rows.count × width × 4` of them): a strip of a render against the
  /// same rows of its reference.
  package func hasStraightPixels(rows: Range<Int>, of other: UnsafeRawPointer) -> Bool {
    precondition(rows.lowerBound >= 0 && rows.upperBound <= height, "rows outside the bitmap")
    return pixels.withUnsafeBytes { own in
      let first = rows.lowerBound * width
      let count = rows.count * width
      func matches(_ index: Int) -> Bool {
        let bgra = own.loadUnaligned(fromByteOffset: (first + index) * 4, as: UInt32.self)
        let rgba = other.loadUnaligned(fromByteOffset: index * 4, as: UInt32.self)
        let alpha = bgra >> 24
        let straight: UInt32
        if alpha == 0xFF {
          straight = (bgra & 0xFF00_FF00) | (bgra & 0xFF) << 16 | (bgra >> 16) & 0xFF
        } else if alpha == 0 {
          straight = 0
        } else {
          // The same rounding as RGBAImage(_:) (Cairo's own un-premultiplication).
          func channel(_ shift: UInt32) -> UInt32 { (((bgra >> shift) & 0xFF) * 255 + alpha / 2) / alpha }
          straight = channel(16) | channel(8) << 8 | channel(0) << 16 | alpha << 24
        }
        return straight == rgba
      }
      // Two pixels at a time where both are opaque, the common case: BGRA to RGBA swaps the
      // first and third byte of each.
      var index = 0
      while index + 2 <= count {
        let bgra = own.loadUnaligned(fromByteOffset: (first + index) * 4, as: UInt64.self)
        if bgra & 0xFF00_0000_FF00_0000 == 0xFF00_0000_FF00_0000 {
          let rgba = (bgra & 0xFF00_FF00_FF00_FF00) | (bgra & 0x0000_00FF_0000_00FF) &<< 16 | (bgra &>> 16) & 0x0000_00FF_0000_00FF
          if rgba != other.loadUnaligned(fromByteOffset: index * 4, as: UInt64.self) { return false }
        } else if !matches(index) || !matches(index + 1) {
          return false
        }
        index &+= 2
      }
      if index < count, !matches(index) { return false }
      return true
    }
  }

  /// Whether rows `rows` of these pixels, un-premultiplied, are `other`'s rows `otherRows`
  /// un-premultiplied: equal bytes are equal pixels, and only where the bytes differ are
  /// both sides un-premultiplied (two premultiplied values may stand for one straight one).
  public func hasSameStraightPixels(rows: Range<Int>, as other: Bitmap, rows otherRows: Range<Int>) -> Bool {
    precondition(width == other.width && rows.count == otherRows.count, "regions of different sizes")
    precondition(rows.lowerBound >= 0 && rows.upperBound <= height, "rows outside the bitmap")
    precondition(otherRows.lowerBound >= 0 && otherRows.upperBound <= other.height, "rows outside the bitmap")
    let sameBytes = pixels.withUnsafeBytes { own in
      other.pixels.withUnsafeBytes { theirs in
        rows.isEmpty
          || memcmp(own.baseAddress! + rows.lowerBound * bytesPerRow, theirs.baseAddress! + otherRows.lowerBound * bytesPerRow, rows.count * bytesPerRow) == 0
      }
    }
    if sameBytes { return true }
    var straight = [UInt8](repeating: 0, count: otherRows.count * bytesPerRow)
    return straight.withUnsafeMutableBytes { buffer in
      other.writeStraightRGBA(rows: otherRows, into: buffer.baseAddress!)
      return hasStraightPixels(rows: rows, of: buffer.baseAddress!)
    }
  }

  /// Whether row `row` is opaque and its colors are the `width × 3` RGB bytes at `rgb`: a
  /// row of the render against the same row of an opaque reference as its PNG stores it,
  /// with nothing converted to memory in between. Four pixels at a time, as
  /// `opaqueRGB` converts them, stopping at the first four that differ.
  func hasOpaquePixels(row: Int, rgb: UnsafeRawPointer) -> Bool {
    precondition(row >= 0 && row < height, "a row outside the bitmap")
    return pixels.withUnsafeBytes { own in
      let from = own.baseAddress! + row * bytesPerRow
      var index = 0
      while index &+ 4 <= width {
        let pixel = from + index &* 4
        let p0 = pixel.loadUnaligned(as: UInt32.self)
        let p1 = pixel.loadUnaligned(fromByteOffset: 4, as: UInt32.self)
        let p2 = pixel.loadUnaligned(fromByteOffset: 8, as: UInt32.self)
        let p3 = pixel.loadUnaligned(fromByteOffset: 12, as: UInt32.self)
        guard p0 & p1 & p2 & p3 & 0xFF00_0000 == 0xFF00_0000 else { return false }
        // Each pixel's R, G, B in the low three bytes, in file order.
        let c0 = UInt64(UInt32(littleEndian: p0).byteSwapped &>> 8)
        let c1 = UInt64(UInt32(littleEndian: p1).byteSwapped &>> 8)
        let c2 = UInt32(littleEndian: p2).byteSwapped &>> 8
        let c3 = UInt32(littleEndian: p3).byteSwapped &>> 8
        let stored = rgb + index &* 3
        let low = (c0 | c1 &<< 24 | UInt64(c2) &<< 48).littleEndian
        let high = (c2 &>> 16 | c3 &<< 8).littleEndian
        guard low == stored.loadUnaligned(as: UInt64.self), high == stored.loadUnaligned(fromByteOffset: 8, as: UInt32.self) else {
          return false
        }
        index &+= 4
      }
      while index < width {
        let bgra = UInt32(littleEndian: (from + index &* 4).loadUnaligned(as: UInt32.self))
        let stored = rgb + index &* 3
        guard bgra &>> 24 == 0xFF, UInt8(truncatingIfNeeded: bgra &>> 16) == stored.load(as: UInt8.self),
          UInt8(truncatingIfNeeded: bgra &>> 8) == stored.load(fromByteOffset: 1, as: UInt8.self),
          UInt8(truncatingIfNeeded: bgra) == stored.load(fromByteOffset: 2, as: UInt8.self)
        else { return false }
        index &+= 1
      }
      return true
    }
  }
}
