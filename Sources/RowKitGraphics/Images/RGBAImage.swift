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
  public var bitmap: Bitmap {
    var bgra = pixels
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
  public func hasStraightPixels(rows: Range<Int>, of other: UnsafeRawPointer) -> Bool {
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
}
