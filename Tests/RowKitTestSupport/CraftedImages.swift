import RowKitGraphics

/// Small images drawn by code for comparison tests.
public enum CraftedImages {
  /// A white image with a dark rounded card and a circle: edges with antialiasing.
  public static func card(width: Int = 64, height: Int = 48, shift: Double = 0) throws -> Bitmap {
    let canvas = try Canvas(pixelWidth: width, pixelHeight: height, scale: 1)
    canvas.clear(.white)
    canvas.fill(.roundedRect(Rect(x: 8 + shift, y: 8, width: 40, height: 24), radius: 6), color: Color(r: 40, g: 60, b: 90))
    canvas.fill(.circle(center: Point(x: 52 + shift, y: 38), radius: 7.3), color: Color(r: 200, g: 40, b: 40))
    return try canvas.bitmap()
  }

  /// `image` with the given pixels set to `color`.
  public static func painting(_ image: Bitmap, _ points: [(Int, Int)], _ color: Color) -> Bitmap {
    var copy = image
    let a = color.alpha
    for (x, y) in points {
      let index = (y * image.width + x) * 4
      copy.pixels[index] = UInt8((color.blue * a * 255).rounded())
      copy.pixels[index + 1] = UInt8((color.green * a * 255).rounded())
      copy.pixels[index + 2] = UInt8((color.red * a * 255).rounded())
      copy.pixels[index + 3] = UInt8((a * 255).rounded())
    }
    return copy
  }

  /// `image` with a solid block.
  public static func block(_ image: Bitmap, x: Int, y: Int, width: Int, height: Int, _ color: Color) -> Bitmap {
    var points: [(Int, Int)] = []
    for row in y..<(y + height) { for column in x..<(x + width) { points.append((column, row)) } }
    return painting(image, points, color)
  }
}
