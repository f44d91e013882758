/// A point in points (1/72 inch at scale 1), with the y axis pointing down.
public struct Point: Hashable, Sendable, Codable {
  /// The horizontal position, growing to the right.
  public var x: Double
  /// The vertical position, growing downward.
  public var y: Double

  /// A point at `x`, `y`.
  public init(x: Double, y: Double) {
    self.x = x
    self.y = y
  }

  /// The origin.
  public static let zero = Point(x: 0, y: 0)
}

/// A width and a height in points.
public struct Size: Hashable, Sendable, Codable {
  /// The horizontal extent, in points.
  public var width: Double
  /// The vertical extent, in points.
  public var height: Double

  /// A size of `width` by `height` points.
  public init(width: Double, height: Double) {
    self.width = width
    self.height = height
  }

  /// A size with no area.
  public static let zero = Size(width: 0, height: 0)
}

/// An axis-aligned rectangle in points.
public struct Rect: Hashable, Sendable, Codable, CustomStringConvertible {
  /// The top-left corner.
  public var origin: Point
  /// The width and height.
  public var size: Size

  /// A rectangle from its top-left corner and its size.
  public init(origin: Point, size: Size) {
    self.origin = origin
    self.size = size
  }

  /// A rectangle from its top-left corner's coordinates and its size.
  public init(x: Double, y: Double, width: Double, height: Double) {
    self.init(origin: Point(x: x, y: y), size: Size(width: width, height: height))
  }

  /// The empty rectangle at the origin.
  public static let zero = Rect(x: 0, y: 0, width: 0, height: 0)

  /// The left edge (the origin's x).
  public var x: Double { origin.x }
  /// The top edge (the origin's y).
  public var y: Double { origin.y }
  /// The size's width.
  public var width: Double { size.width }
  /// The size's height.
  public var height: Double { size.height }
  /// The left edge.
  public var minX: Double { origin.x }
  /// The top edge.
  public var minY: Double { origin.y }
  /// The right edge.
  public var maxX: Double { origin.x + size.width }
  /// The bottom edge.
  public var maxY: Double { origin.y + size.height }
  /// The horizontal center.
  public var midX: Double { origin.x + size.width / 2 }
  /// The vertical center.
  public var midY: Double { origin.y + size.height / 2 }
  /// Whether the rectangle has no area (a zero or negative side).
  public var isEmpty: Bool { size.width <= 0 || size.height <= 0 }

  /// The rectangle shrunk by `insets` on each side (grown where an inset is negative).
  public func inset(by insets: EdgeInsets) -> Rect {
    Rect(
      x: x + insets.left, y: y + insets.top,
      width: max(0, width - insets.left - insets.right),
      height: max(0, height - insets.top - insets.bottom))
  }

  /// The rectangle shrunk by `dx` on the left and right and by `dy` at the top and bottom.
  public func insetBy(dx: Double, dy: Double) -> Rect {
    inset(by: EdgeInsets(top: dy, left: dx, bottom: dy, right: dx))
  }

  /// The same rectangle moved by `dx` and `dy`.
  public func offsetBy(dx: Double, dy: Double) -> Rect {
    Rect(x: x + dx, y: y + dy, width: width, height: height)
  }

  /// Whether the two rectangles overlap (touching edges do not count).
  public func intersects(_ other: Rect) -> Bool {
    minX < other.maxX && other.minX < maxX && minY < other.maxY && other.minY < maxY
  }

  /// Whether `other` lies entirely inside this rectangle.
  public func contains(_ other: Rect) -> Bool {
    other.minX >= minX && other.maxX <= maxX && other.minY >= minY && other.maxY <= maxY
  }

  /// `(x, y, width, height)`, for test failures and logs.
  public var description: String { "(\(x), \(y), \(width), \(height))" }
}

/// Distances from the four edges of a rectangle, in points.
public struct EdgeInsets: Hashable, Sendable, Codable {
  /// The distance from the top edge.
  public var top: Double
  /// The distance from the left edge.
  public var left: Double
  /// The distance from the bottom edge.
  public var bottom: Double
  /// The distance from the right edge.
  public var right: Double

  /// Insets that differ from edge to edge.
  public init(top: Double, left: Double, bottom: Double, right: Double) {
    self.top = top
    self.left = left
    self.bottom = bottom
    self.right = right
  }

  /// The same inset on all four edges.
  public init(all value: Double) {
    self.init(top: value, left: value, bottom: value, right: value)
  }

  /// No inset on any edge.
  public static let zero = EdgeInsets(all: 0)

  /// The left and right insets together.
  public var horizontal: Double { left + right }
  /// The top and bottom insets together.
  public var vertical: Double { top + bottom }
}

/// Rounds point values to whole device pixels, the grid every row edge sits on.
public struct PixelGrid: Hashable, Sendable {
  /// Device pixels per point: 2 on a 2x display.
  public var scale: Double

  /// The grid of a display with `scale` device pixels per point.
  public init(scale: Double) {
    self.scale = scale
  }

  /// The smallest multiple of `1/scale` that is not less than `value`.
  public func ceil(_ value: Double) -> Double {
    // NB: a tiny tolerance keeps 44.000000001 (float noise from Pango units) at 44.
    (value * scale - 1e-6).rounded(.up) / scale
  }

  /// The multiple of `1/scale` nearest to `value`.
  public func round(_ value: Double) -> Double {
    (value * scale).rounded() / scale
  }

  /// The largest multiple of `1/scale` that is not greater than `value`.
  public func floor(_ value: Double) -> Double {
    (value * scale + 1e-6).rounded(.down) / scale
  }

  /// The number of device pixels that `value` points span.
  public func pixels(_ value: Double) -> Int {
    Int((value * scale).rounded())
  }
}
