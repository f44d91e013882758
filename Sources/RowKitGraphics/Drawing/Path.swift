import Foundation

/// A vector path in points: what a shape, a border or an accessory glyph is made of.
public struct Path: Hashable, Sendable {
  /// One step of a path.
  public enum Element: Hashable, Sendable {
    /// Starts a new subpath at a point.
    case move(Point)
    /// A straight line from the current point.
    case line(Point)
    /// A cubic Bézier curve: two control points, then the end point.
    case curve(Point, Point, Point)
    /// A circular arc around a center from one angle to another (radians; clockwise on
    /// screen means increasing angles), joined to the current point by a line.
    case arc(center: Point, radius: Double, start: Double, end: Double, clockwise: Bool)
    /// Closes the subpath with a line back to where it started.
    case close
  }

  /// The path's steps, in drawing order.
  public private(set) var elements: [Element] = []
  /// Where the path ends now.
  public private(set) var currentPoint: Point?
  private var subpathStart: Point?

  /// An empty path.
  public init() {}

  /// Starts a new subpath at `point`.
  public mutating func move(to point: Point) {
    elements.append(.move(point))
    currentPoint = point
    subpathStart = point
  }

  /// Adds a straight line from the current point to `point`.
  public mutating func line(to point: Point) {
    elements.append(.line(point))
    currentPoint = point
  }

  /// Adds a cubic Bézier curve from the current point to `point`, bent by two control points.
  public mutating func curve(to point: Point, control1: Point, control2: Point) {
    elements.append(.curve(control1, control2, point))
    currentPoint = point
  }

  /// An arc from `start` to `end` (radians). Clockwise on screen unless `clockwise` says
  /// otherwise; by default it follows the sign of `end - start`.
  public mutating func arc(center: Point, radius: Double, start: Double, end: Double, clockwise: Bool? = nil) {
    elements.append(.arc(center: center, radius: radius, start: start, end: end, clockwise: clockwise ?? (end >= start)))
    currentPoint = Point(x: center.x + radius * cos(end), y: center.y + radius * sin(end))
  }

  /// A line toward `corner` that turns toward `next` along a circle of `radius` touching
  /// both lines (PostScript's `arct`, Core Graphics' `addArc(tangent1End:tangent2End:)`).
  public mutating func arc(tangentTo corner: Point, then next: Point, radius: Double) {
    guard let start = currentPoint else {
      move(to: corner)
      return
    }
    guard let arc = Path.tangentArc(from: start, corner: corner, next: next, radius: radius) else {
      line(to: corner)
      return
    }
    line(to: arc.start)
    self.arc(
      center: arc.center, radius: arc.radius, start: arc.startAngle, end: arc.startAngle + arc.sweep,
      clockwise: arc.sweep > 0)
  }

  /// The circle touching the lines `from`→`corner` and `corner`→`next`.
  public struct TangentArc: Hashable, Sendable {
    /// The circle's center.
    public var center: Point
    /// The circle's radius, in points.
    public var radius: Double
    /// Where the arc leaves the first line.
    public var start: Point
    /// The angle of ``start`` seen from ``center``, in radians.
    public var startAngle: Double
    /// The signed angle swept: positive is clockwise on screen.
    public var sweep: Double
  }

  /// The tangent arc at `corner`, or nil when the lines are straight or a length is zero.
  public static func tangentArc(from: Point, corner: Point, next: Point, radius: Double) -> TangentArc? {
    let v1 = (x: from.x - corner.x, y: from.y - corner.y)
    let v2 = (x: next.x - corner.x, y: next.y - corner.y)
    let l1 = (v1.x * v1.x + v1.y * v1.y).squareRoot()
    let l2 = (v2.x * v2.x + v2.y * v2.y).squareRoot()
    let cross = v1.x * v2.y - v1.y * v2.x
    guard radius > 0, l1 > 0, l2 > 0, abs(cross) > 1e-9 else { return nil }
    let u1 = (x: v1.x / l1, y: v1.y / l1)
    let u2 = (x: v2.x / l2, y: v2.y / l2)
    let angle = acos(max(-1, min(1, u1.x * u2.x + u1.y * u2.y)))
    let distance = radius / tan(angle / 2)
    let t1 = Point(x: corner.x + u1.x * distance, y: corner.y + u1.y * distance)
    let t2 = Point(x: corner.x + u2.x * distance, y: corner.y + u2.y * distance)
    let bisector = (x: u1.x + u2.x, y: u1.y + u2.y)
    let bisectorLength = (bisector.x * bisector.x + bisector.y * bisector.y).squareRoot()
    let centerDistance = radius / sin(angle / 2)
    let center = Point(
      x: corner.x + bisector.x / bisectorLength * centerDistance, y: corner.y + bisector.y / bisectorLength * centerDistance)
    let startAngle = atan2(t1.y - center.y, t1.x - center.x)
    var endAngle = atan2(t2.y - center.y, t2.x - center.x)
    // Turning right on screen (y down) sweeps clockwise: increasing angles.
    let clockwise = cross < 0
    if clockwise {
      while endAngle < startAngle { endAngle += 2 * .pi }
    } else {
      while endAngle > startAngle { endAngle -= 2 * .pi }
    }
    return TangentArc(center: center, radius: radius, start: t1, startAngle: startAngle, sweep: endAngle - startAngle)
  }

  /// Closes the current subpath with a line back to its start.
  public mutating func close() {
    elements.append(.close)
    currentPoint = subpathStart
  }

  /// Adds the elements of `other` after this path's own.
  public mutating func append(_ other: Path) {
    elements += other.elements
    currentPoint = other.currentPoint ?? currentPoint
  }

  /// A closed path around `rect`, clockwise from its top-left corner.
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

  /// A rectangle whose four corners are rounded with the same radius.
  public static func roundedRect(_ rect: Rect, radius: Double) -> Path {
    roundedRect(rect, corners: CornerRadii(all: radius))
  }

  /// A closed circle around `center`.
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
  /// The radius of the top-left corner, in points.
  public var topLeft: Double
  /// The radius of the top-right corner, in points.
  public var topRight: Double
  /// The radius of the bottom-right corner, in points.
  public var bottomRight: Double
  /// The radius of the bottom-left corner, in points.
  public var bottomLeft: Double

  /// Radii that differ from corner to corner.
  public init(topLeft: Double, topRight: Double, bottomRight: Double, bottomLeft: Double) {
    self.topLeft = topLeft
    self.topRight = topRight
    self.bottomRight = bottomRight
    self.bottomLeft = bottomLeft
  }

  /// The same radius at all four corners.
  public init(all radius: Double) {
    self.init(topLeft: radius, topRight: radius, bottomRight: radius, bottomLeft: radius)
  }

  /// Square corners.
  public static let zero = CornerRadii(all: 0)

  /// Whether every corner is square.
  public var isZero: Bool { topLeft == 0 && topRight == 0 && bottomRight == 0 && bottomLeft == 0 }
}

/// A linear gradient between two points, with color stops at offsets from 0 to 1.
public struct LinearGradient: Hashable, Sendable {
  /// A color at a position along the gradient.
  public struct Stop: Hashable, Sendable {
    /// Where the stop sits along the gradient, from 0 (start) to 1 (end).
    public var offset: Double
    /// The gradient's color at the stop.
    public var color: Color

    /// A stop of `color` at `offset` along the gradient.
    public init(_ offset: Double, _ color: Color) {
      self.offset = offset
      self.color = color
    }
  }

  /// Where the gradient begins (offset 0).
  public var start: Point
  /// Where the gradient ends (offset 1); past the ends the end colors continue.
  public var end: Point
  /// The colors along the gradient, in order of offset.
  public var stops: [Stop]

  /// A gradient along the line from `start` to `end`.
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
