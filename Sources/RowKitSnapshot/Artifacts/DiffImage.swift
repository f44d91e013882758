import RowKitGraphics

/// Pictures of a comparison: a diff image and a side-by-side composite.
public enum DiffImage {
  /// Counted differences in red; antialiasing in yellow; ignored regions in blue.
  public static let differentColor = (r: UInt8(255), g: UInt8(0), b: UInt8(0))
  /// Differences classified as antialiasing, in yellow.
  public static let antialiasedColor = (r: UInt8(255), g: UInt8(200), b: UInt8(0))
  /// Differences inside ignored regions, in blue.
  public static let ignoredColor = (r: UInt8(80), g: UInt8(140), b: UInt8(255))
  /// Stripes over the part of the canvas only one image covers (when the sizes differ).
  public static let onlyOneImageColor = (r: UInt8(255), g: UInt8(0), b: UInt8(255))
  /// The part of the canvas neither image covers.
  public static let noImageColor = (r: UInt8(128), g: UInt8(128), b: UInt8(128))

  /// The comparison's canvas: the reference faded to a light gray (where only the actual
  /// covers the canvas, the actual), with every differing pixel painted in its class's color
  /// and the part only one image covers striped in magenta. Pixels within the color
  /// threshold stay gray.
  public static func make(_ outcome: ImageComparison.Outcome, reference: RGBAImage, actual: RGBAImage) -> Bitmap {
    let canvas = outcome.result.canvasSize
    var pixels = [UInt8](repeating: 255, count: canvas.width * canvas.height * 4)
    reference.pixels.withUnsafeBufferPointer { first in
      actual.pixels.withUnsafeBufferPointer { second in
        pixels.withUnsafeMutableBufferPointer { output in
          for y in 0..<canvas.height {
            for x in 0..<canvas.width {
              let index = y * canvas.width + x
              var color = noImageColor
              let covering =
                x < reference.width && y < reference.height
                ? (first, (y * reference.width + x) * 4)
                : x < actual.width && y < actual.height ? (second, (y * actual.width + x) * 4) : nil
              if let (p, at) = covering {
                // pixelmatch's faded pixel: 10% of its brightness over white.
                let luma = Double(p[at]) * 0.29889531 + Double(p[at + 1]) * 0.58662247 + Double(p[at + 2]) * 0.11448223
                let gray = UInt8(255 + (luma - 255) * 0.1 * Double(p[at + 3]) / 255)
                color = (gray, gray, gray)
              }
              switch outcome.classes?[index] ?? .same {
              case .same, .belowThreshold, .noImage: break
              case .different: color = differentColor
              case .antialiased: color = antialiasedColor
              case .ignored: color = ignoredColor
              case .onlyOneImage: if (x + y) % 8 < 4 { color = onlyOneImageColor }
              }
              output[index * 4] = color.b
              output[index * 4 + 1] = color.g
              output[index * 4 + 2] = color.r
            }
          }
        }
      }
    }
    return Bitmap(width: canvas.width, height: canvas.height, pixels: pixels)
  }

  /// The images side by side with a gap between them, top-aligned on a neutral gray: for a
  /// failed comparison, reference | diff | actual.
  public static func composite(_ images: [Bitmap], gap: Int = 8) -> Bitmap {
    Bitmap.sideBySide(images, gap: gap)
  }
}
