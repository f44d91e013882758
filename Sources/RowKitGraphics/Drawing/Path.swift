/// A vector path in points: what a shape, a border or an accessory glyph is made of.
public struct Path: Hashable, Sendable {
  public enum Element: Hashable, Sendable {
    case move(Point)
    case line(Point)
    case curve(Point, Point, Point)
    /// A circular arc around a center from one angle to another (radians, clockwise on
    /// screen), joined to the current point by a line.
    case arc(center: Point, radius: Double, start: Double, end: Double)
    case close
  }

  public private(set) var elements: [Element] = []

  public init() {}

  public mutating func move(to point: Point) { elements.append(.move(point)) }
  public mutating func line(to point: Point) { elements.append(.line(point)) }
  public mutating func curve(to point: Point, control1: Point, control2: Point) {
    elements.append(.curve(control1, control2, point))
  }
  public mutating func arc(center: Point, radius: Double, start: Double, end: Double) {
    elements.append(.arc(center: center, radius: radius, start: start, end: end))
  }
  public mutating func close() { elements.append(.close) }
  public mutating func append(_ other: Path) { elements += other.elements }

  public static func rect(_ rect: Rect) -> Path {
    var path = Path()
    path.move(to: Point(x: rect.minX, y: rect.minY))
    path.line(to: Point(x: rect.maxX, y: rect.minY))
    path.line(to: Point(x: rect.maxX, y: rect.maxY))
    path.line(to: Point(x: rect.minX, y: rect.maxY))
    path.close()
    return path
  }

  /// A rectangle with each corner rounded by its own radius (0 for a square corner). Radii
  /// larger than half a side are reduced to fit.
  public static func roundedRect(_ rect: Rect, corners: CornerRadii) -> Path {
    let limit = min(rect.width, rect.height) / 2
    let tl = min(corners.topLeft, limit)
    let tr = min(corners.topRight, limit)
    let br = min(corners.bottomRight, limit)
    let bl = min(corners.bottomLeft, limit)
    var path = Path()
    path.move(to: Point(x: rect.minX + tl, y: rect.minY))
    path.arc(center: Point(x: rect.maxX - tr, y: rect.minY + tr), radius: tr, start: -.pi / 2, end: 0)
    path.arc(center: Point(x: rect.maxX - br, y: rect.maxY - br), radius: br, start: 0, end: .pi / 2)
    path.arc(center: Point(x: rect.minX + bl, y: rect.maxY - bl), radius: bl, start: .pi / 2, end: .pi)
    path.arc(center: Point(x: rect.minX + tl, y: rect.minY + tl), radius: tl, start: .pi, end: 1.5 * .pi)
    path.close()
    return path
  }

  public static func roundedRect(_ rect: Rect, radius: Double) -> Path {
    roundedRect(rect, corners: CornerRadii(all: radius))
  }

  public static func circle(center: Point, radius: Double) -> Path {
    var path = Path()
    path.move(to: Point(x: center.x + radius, y: center.y))
    path.arc(center: center, radius: radius, start: 0, end: 2 * .pi)
    path.close()
    return path
  }

  /// An open polyline through `points`.
  public static func polyline(_ points: [Point]) -> Path {
    var path = Path()
    guard let first = points.first else { return path }
    path.move(to: first)
    for point in points.dropFirst() { path.line(to: point) }
    return path
  }
}

/// The four corner radii of a rounded rectangle.
public struct CornerRadii: Hashable, Sendable {
  public var topLeft: Double
  public var topRight: Double
  public var bottomRight: Double
  public var bottomLeft: Double

  public init(topLeft: Double, topRight: Double, bottomRight: Double, bottomLeft: Double) {
    self.topLeft = topLeft
    self.topRight = topRight
    self.bottomRight = bottomRight
    self.bottomLeft = bottomLeft
  }

  public init(all radius: Double) {
    self.init(topLeft: radius, topRight: radius, bottomRight: radius, bottomLeft: radius)
  }

  public static let zero = CornerRadii(all: 0)

  public var isZero: Bool { topLeft == 0 && topRight == 0 && bottomRight == 0 && bottomLeft == 0 }
}

/// A linear gradient between two points, with color stops at offsets from 0 to 1.
public struct LinearGradient: Hashable, Sendable {
  public struct Stop: Hashable, Sendable {
    public var offset: Double
    public var color: Color

    public init(_ offset: Double, _ color: Color) {
      self.offset = offset
      self.color = color
    }
  }

  public var start: Point
  public var end: Point
  public var stops: [Stop]

  public init(start: Point, end: Point, stops: [Stop]) {
    self.start = start
    self.end = end
    self.stops = stops
  }

  /// A top-to-bottom gradient across `rect` from one color to another.
  public static func vertical(_ rect: Rect, from top: Color, to bottom: Color) -> LinearGradient {
    LinearGradient(
      start: Point(x: rect.minX, y: rect.minY), end: Point(x: rect.minX, y: rect.maxY),
      stops: [Stop(0, top), Stop(1, bottom)])
  }
}
