import RowKitGraphics

/// Pictures of a comparison: a diff image and a side-by-side composite.
public enum DiffImage {
  /// Counted differences in red; antialiasing in yellow; ignored regions in blue.
  public static let differentColor = (r: UInt8(255), g: UInt8(0), b: UInt8(0))
  public static let antialiasedColor = (r: UInt8(255), g: UInt8(200), b: UInt8(0))
  public static let ignoredColor = (r: UInt8(80), g: UInt8(140), b: UInt8(255))

  /// The reference faded to a light gray, with every differing pixel painted in its class's
  /// color. Pixels within the color threshold stay gray.
  public static func make(reference: Bitmap, classes: [ImageComparison.PixelClass]?) -> Bitmap {
    var pixels = [UInt8](repeating: 255, count: reference.pixels.count)
    reference.pixels.withUnsafeBufferPointer { source in
      for index in 0..<(reference.width * reference.height) {
        let offset = index * 4
        let white = 255 - Double(source[offset + 3])
        let luma =
          (Double(source[offset + 2]) + white) * 0.299 + (Double(source[offset + 1]) + white) * 0.587
          + (Double(source[offset]) + white) * 0.114
        // Faded: 10% of the image over white, so the changes stand out.
        var color = (r: UInt8(255 - (255 - luma) * 0.1), g: UInt8(0), b: UInt8(0))
        color.g = color.r
        color.b = color.r
        switch classes?[index] ?? .same {
        case .same, .belowThreshold: break
        case .different: color = differentColor
        case .antialiased: color = antialiasedColor
        case .ignored: color = ignoredColor
        }
        pixels[offset] = color.b
        pixels[offset + 1] = color.g
        pixels[offset + 2] = color.r
      }
    }
    return Bitmap(width: reference.width, height: reference.height, pixels: pixels)
  }

  /// The images side by side with a gap between them, top-aligned on a neutral gray: for a
  /// failed comparison, reference | diff | actual.
  public static func composite(_ images: [Bitmap], gap: Int = 8) -> Bitmap {
    Bitmap.sideBySide(images, gap: gap)
  }
}
