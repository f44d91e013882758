/// A point in points (1/72 inch at scale 1), with the y axis pointing down.
public struct Point: Hashable, Sendable, Codable {
  public var x: Double
  public var y: Double

  public init(x: Double, y: Double) {
    self.x = x
    self.y = y
  }

  public static let zero = Point(x: 0, y: 0)
}

/// A width and a height in points.
public struct Size: Hashable, Sendable, Codable {
  public var width: Double
  public var height: Double

  public init(width: Double, height: Double) {
    self.width = width
    self.height = height
  }

  public static let zero = Size(width: 0, height: 0)
}

/// An axis-aligned rectangle in points.
public struct Rect: Hashable, Sendable, Codable, CustomStringConvertible {
  public var origin: Point
  public var size: Size

  public init(origin: Point, size: Size) {
    self.origin = origin
    self.size = size
  }

  public init(x: Double, y: Double, width: Double, height: Double) {
    self.init(origin: Point(x: x, y: y), size: Size(width: width, height: height))
  }

  public static let zero = Rect(x: 0, y: 0, width: 0, height: 0)

  public var x: Double { origin.x }
  public var y: Double { origin.y }
  public var width: Double { size.width }
  public var height: Double { size.height }
  public var minX: Double { origin.x }
  public var minY: Double { origin.y }
  public var maxX: Double { origin.x + size.width }
  public var maxY: Double { origin.y + size.height }
  public var midX: Double { origin.x + size.width / 2 }
  public var midY: Double { origin.y + size.height / 2 }
  public var isEmpty: Bool { size.width <= 0 || size.height <= 0 }

  /// The rectangle shrunk by `insets` on each side (grown where an inset is negative).
  public func inset(by insets: EdgeInsets) -> Rect {
    Rect(
      x: x + insets.left, y: y + insets.top,
      width: max(0, width - insets.left - insets.right),
      height: max(0, height - insets.top - insets.bottom))
  }

  public func insetBy(dx: Double, dy: Double) -> Rect {
    inset(by: EdgeInsets(top: dy, left: dx, bottom: dy, right: dx))
  }

  public func offsetBy(dx: Double, dy: Double) -> Rect {
    Rect(x: x + dx, y: y + dy, width: width, height: height)
  }

  public func intersects(_ other: Rect) -> Bool {
    minX < other.maxX && other.minX < maxX && minY < other.maxY && other.minY < maxY
  }

  public func contains(_ other: Rect) -> Bool {
    other.minX >= minX && other.maxX <= maxX && other.minY >= minY && other.maxY <= maxY
  }

  public var description: String { "(\(x), \(y), \(width), \(height))" }
}

/// Distances from the four edges of a rectangle, in points.
public struct EdgeInsets: Hashable, Sendable, Codable {
  public var top: Double
  public var left: Double
  public var bottom: Double
  public var right: Double

  public init(top: Double, left: Double, bottom: Double, right: Double) {
    self.top = top
    self.left = left
    self.bottom = bottom
    self.right = right
  }

  public init(all value: Double) {
    self.init(top: value, left: value, bottom: value, right: value)
  }

  public static let zero = EdgeInsets(all: 0)

  public var horizontal: Double { left + right }
  public var vertical: Double { top + bottom }
}

/// Rounds point values to whole device pixels, the grid every row edge sits on.
public struct PixelGrid: Hashable, Sendable {
  public var scale: Double

  public init(scale: Double) {
    self.scale = scale
  }

  /// The smallest multiple of `1/scale` that is not less than `value`.
  public func ceil(_ value: Double) -> Double {
    // NB: a tiny tolerance keeps 44.000000001 (float noise from Pango units) at 44.
    (value * scale - 1e-6).rounded(.up) / scale
  }

  public func round(_ value: Double) -> Double {
    (value * scale).rounded() / scale
  }

  public func floor(_ value: Double) -> Double {
    (value * scale + 1e-6).rounded(.down) / scale
  }

  /// The number of device pixels that `value` points span.
  public func pixels(_ value: Double) -> Int {
    Int((value * scale).rounded())
  }
}
