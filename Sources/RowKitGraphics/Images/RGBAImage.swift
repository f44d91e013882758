/// Pixels as image files hold them: 8-bit RGBA with straight (not premultiplied) alpha, rows
/// top to bottom with no padding, the layout pixelmatch reads.
///
/// Image comparison works on these rather than on ``Bitmap``'s premultiplied pixels, where
/// two semi-transparent colors that premultiply to the same bytes would be one color.
public struct RGBAImage: Hashable, Sendable, CustomStringConvertible {
  public let width: Int
  public let height: Int
  public var pixels: [UInt8]

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
