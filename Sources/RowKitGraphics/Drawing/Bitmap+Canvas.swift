import Foundation

extension Bitmap {
  /// This bitmap resampled to `width` × `height` pixels with a good filter (a box filter
  /// when shrinking), edges extended rather than faded.
  public func scaled(width: Int, height: Int) throws -> Bitmap {
    if width == self.width && height == self.height { return self }
    let canvas = try Canvas(pixelWidth: width, pixelHeight: height, scale: 1)
    canvas.draw(self, in: Rect(x: 0, y: 0, width: Double(width), height: Double(height)))
    return try canvas.bitmap()
  }

  /// Images side by side with a gap between them, top-aligned, flattened onto white, on a
  /// background of `background`; as tall as the tallest, or `height` rows (the strip of a
  /// taller picture whose images end higher).
  public static func sideBySide(
    _ images: [Bitmap], gap: Int = 8, background: Color = Color(white: 0.5), height: Int? = nil
  ) -> Bitmap {
    let width = images.map(\.width).reduce(0, +) + gap * max(0, images.count - 1)
    let height = height ?? images.map(\.height).max() ?? 0
    guard width > 0, height > 0 else { return Bitmap(width: 0, height: 0, pixels: []) }
    var result = Bitmap(width: width, height: height, color: background)
    result.pixels.withUnsafeMutableBytes { target in
      var left = 0
      for image in images {
        image.pixels.withUnsafeBytes { source in
          for row in 0..<min(image.height, height) {
            let from = source.baseAddress! + row * image.bytesPerRow
            let to = target.baseAddress! + (row * width + left) * 4
            // An opaque row, the common case, covers the white: it is copied as it is.
            var alphas: UInt32 = 0xFF00_0000
            for column in 0..<image.width { alphas &= from.loadUnaligned(fromByteOffset: column * 4, as: UInt32.self) }
            if alphas & 0xFF00_0000 == 0xFF00_0000 {
              to.copyMemory(from: from, byteCount: image.bytesPerRow)
              continue
            }
            for column in 0..<image.width {
              // Premultiplied pixels over white: add the uncovered share of white.
              var pixel = from.loadUnaligned(fromByteOffset: column * 4, as: SIMD4<UInt8>.self)
              let white = 255 &- pixel[3]
              pixel &+= SIMD4(white, white, white, 0)
              pixel[3] = 255
              to.storeBytes(of: pixel, toByteOffset: column * 4, as: SIMD4<UInt8>.self)
            }
          }
        }
        left += image.width + gap
      }
    }
    return result
  }
}
