import Foundation
import RowKitGraphics

/// The outline that fills, borders and clips follow, as Three20's `TTShape`s drew them.
public enum StyleShape: Hashable, Sendable {
  /// A plain rectangle.
  case rectangle
  /// A rounded rectangle; a radius of -1 makes that corner fully round (a pill).
  case roundedRect(CornerRadii)
  /// A back button: a point on the left, `floor(height / 2.8)` deep.
  case roundedLeftArrow(radius: Double)
  /// A forward button: a point on the right.
  case roundedRightArrow(radius: Double)
  /// A rounded rectangle with a triangular pointer. `pointLocation` (degrees) picks the edge
  /// and the place along it: 45–135 top, 135–225 right, 225–315 bottom, otherwise left;
  /// `pointAngle` (degrees) points it outward or inward.
  case speechBubble(radius: Double, pointLocation: Double, pointAngle: Double, pointSize: Size)

  /// Three20's `kArrowPointWidth` and `kArrowRadius`.
  static let arrowPointRatio = 2.8
  static let arrowRadiusFactor = 2.0

  /// A side of a box.
  public enum Edge: CaseIterable, Hashable, Sendable {
    /// The top side.
    case top
    /// The right side.
    case right
    /// The bottom side.
    case bottom
    /// The left side.
    case left
  }

  /// The closed outline of this shape in `rect`.
  public func path(in rect: Rect) -> Path {
    outline(in: rect).closedPath
  }

  /// Each edge of the outline as an open path, for borders drawn side by side (Three20's
  /// `addTopEdgeToPath:` and siblings). Each rounded corner is split between its two edges
  /// at its middle.
  public func edgePaths(in rect: Rect) -> [Edge: Path] {
    outline(in: rect).edgePaths
  }

  /// How much the shape takes from the content frame: the radius on an arrow's pointed
  /// side, nothing for the others (Three20's `insetsForSize:`).
  public func contentInsets(for size: Size) -> EdgeInsets {
    switch self {
    case .roundedLeftArrow(let radius):
      return EdgeInsets(top: 0, left: floor(Self.resolve(radius, size.height)), bottom: 0, right: 0)
    case .roundedRightArrow(let radius):
      return EdgeInsets(top: 0, left: 0, bottom: 0, right: floor(Self.resolve(radius, size.height)))
    default:
      return .zero
    }
  }

  static func resolve(_ radius: Double, _ height: Double) -> Double { radius < 0 ? height / 2 : radius }

  // MARK: - Outlines

  private func outline(in rect: Rect) -> Outline {
    var outline = Outline()
    switch self {
    case .rectangle:
      outline.start(at: Point(x: rect.minX, y: rect.minY), edge: .top)
      outline.line(to: Point(x: rect.maxX, y: rect.minY))
      outline.switchEdge(to: .right)
      outline.line(to: Point(x: rect.maxX, y: rect.maxY))
      outline.switchEdge(to: .bottom)
      outline.line(to: Point(x: rect.minX, y: rect.maxY))
      outline.switchEdge(to: .left)
      outline.line(to: Point(x: rect.minX, y: rect.minY))
    case .roundedRect(let radii):
      let limit = min(rect.width, rect.height) / 2
      func r(_ radius: Double) -> Double { min(Self.resolve(radius, rect.height), limit) }
      roundedRect(rect, tl: r(radii.topLeft), tr: r(radii.topRight), br: r(radii.bottomRight), bl: r(radii.bottomLeft), into: &outline)
    case .roundedLeftArrow(let radius), .roundedRightArrow(let radius):
      arrow(rect, radius: min(Self.resolve(radius, rect.height), rect.height / 4), pointsLeft: self == .roundedLeftArrow(radius: radius), into: &outline)
    case .speechBubble(let radius, let location, let angle, let pointSize):
      speechBubble(rect, radius: radius, location: location, angle: angle, pointSize: pointSize, into: &outline)
    }
    return outline
  }

  private func roundedRect(_ rect: Rect, tl: Double, tr: Double, br: Double, bl: Double, into outline: inout Outline) {
    let quarter = Double.pi / 4
    let tlCenter = Point(x: rect.minX + tl, y: rect.minY + tl)
    let trCenter = Point(x: rect.maxX - tr, y: rect.minY + tr)
    let brCenter = Point(x: rect.maxX - br, y: rect.maxY - br)
    let blCenter = Point(x: rect.minX + bl, y: rect.maxY - bl)
    outline.start(at: Outline.point(on: tlCenter, tl, 5 * quarter), edge: .top)
    outline.arc(tlCenter, tl, 5 * quarter, 6 * quarter)
    outline.arc(trCenter, tr, 6 * quarter, 7 * quarter)
    outline.switchEdge(to: .right)
    outline.arc(trCenter, tr, 7 * quarter, 8 * quarter)
    outline.arc(brCenter, br, 0, quarter)
    outline.switchEdge(to: .bottom)
    outline.arc(brCenter, br, quarter, 2 * quarter)
    outline.arc(blCenter, bl, 2 * quarter, 3 * quarter)
    outline.switchEdge(to: .left)
    outline.arc(blCenter, bl, 3 * quarter, 4 * quarter)
    outline.arc(tlCenter, tl, 4 * quarter, 5 * quarter)
  }

  private func arrow(_ rect: Rect, radius: Double, pointsLeft: Bool, into outline: inout Outline) {
    // Drawn pointing left in a frame of its own, then mirrored for a forward button.
    let w = rect.width
    let h = rect.height
    let point = floor(h / Self.arrowPointRatio)
    let radius2 = radius * Self.arrowRadiusFactor
    func at(_ x: Double, _ y: Double) -> Point {
      Point(x: pointsLeft ? rect.minX + x : rect.maxX - x, y: rect.minY + y)
    }
    let tip = at(0, floor(h / 2))
    // Mirroring swaps left and right, so the edges are named for where they end up.
    let (near, far): (Edge, Edge) = pointsLeft ? (.left, .right) : (.right, .left)
    outline.start(at: tip, edge: .top)
    outline.tangentArc(corner: at(point, 0), next: at(w - radius, 0), radius: radius2)
    outline.tangentArc(corner: at(w, 0), next: at(w, radius), radius: radius, switchingTo: far)
    outline.tangentArc(corner: at(w, h), next: at(point + radius2, h), radius: radius, switchingTo: .bottom)
    outline.tangentArc(corner: at(point, h), next: tip, radius: radius2, switchingTo: near)
    outline.line(to: tip)
  }

  private func speechBubble(
    _ rect: Rect, radius: Double, location: Double, angle: Double, pointSize: Size, into outline: inout Outline
  ) {
    let location = location.truncatingRemainder(dividingBy: 360) + (location < 0 ? 360 : 0)
    let angle = angle.truncatingRemainder(dividingBy: 360) + (angle < 0 ? 360 : 0)
    // The body leaves room for a pointer that points outward.
    var body = rect
    let edge: Edge
    let outward: Bool
    switch location {
    case 45..<135:
      edge = .top
      outward = angle <= 180
      if outward { body = Rect(x: rect.x, y: rect.y + pointSize.height, width: rect.width, height: rect.height - pointSize.height) }
    case 135..<225:
      edge = .right
      outward = angle >= 90 && angle <= 270
      if outward { body.size.width -= pointSize.width }
    case 225..<315:
      edge = .bottom
      outward = angle >= 180
      if outward { body.size.height -= pointSize.height }
    default:
      edge = .left
      outward = angle >= 270 || angle <= 90
      if outward { body = Rect(x: rect.x + pointSize.width, y: rect.y, width: rect.width - pointSize.width, height: rect.height) }
    }
    let r = min(Self.resolve(radius, body.height), min(body.width, body.height) / 2)
    let half = floor(pointSize.width / 2)
    let halfHeight = floor(pointSize.height / 2)
    func along(_ from: Double) -> Double { (location - from) / 90 }
    let quarter = Double.pi / 4
    let tl = Point(x: body.minX + r, y: body.minY + r)
    let tr = Point(x: body.maxX - r, y: body.minY + r)
    let br = Point(x: body.maxX - r, y: body.maxY - r)
    let bl = Point(x: body.minX + r, y: body.maxY - r)
    outline.start(at: Outline.point(on: tl, r, 5 * quarter), edge: .top)
    outline.arc(tl, r, 5 * quarter, 6 * quarter)
    if edge == .top {
      let x = body.minX + along(45) * (body.width - 2 * r - pointSize.width) + r + half
      let depth = outward ? -pointSize.height : pointSize.height
      outline.line(to: Point(x: x - half, y: body.minY))
      outline.line(to: Point(x: x, y: body.minY + depth))
      outline.line(to: Point(x: x + half, y: body.minY))
    }
    outline.arc(tr, r, 6 * quarter, 7 * quarter)
    outline.switchEdge(to: .right)
    outline.arc(tr, r, 7 * quarter, 8 * quarter)
    if edge == .right {
      let y = body.minY + along(135) * (body.height - 2 * r - pointSize.height) + r + halfHeight
      let depth = outward ? pointSize.width : -pointSize.width
      outline.line(to: Point(x: body.maxX, y: y - halfHeight))
      outline.line(to: Point(x: body.maxX + depth, y: y))
      outline.line(to: Point(x: body.maxX, y: y + halfHeight))
    }
    outline.arc(br, r, 0, quarter)
    outline.switchEdge(to: .bottom)
    outline.arc(br, r, quarter, 2 * quarter)
    if edge == .bottom {
      let x = body.maxX - (along(225) * (body.width - 2 * r - pointSize.width) + r + half)
      let depth = outward ? pointSize.height : -pointSize.height
      outline.line(to: Point(x: x + half, y: body.maxY))
      outline.line(to: Point(x: x, y: body.maxY + depth))
      outline.line(to: Point(x: x - half, y: body.maxY))
    }
    outline.arc(bl, r, 2 * quarter, 3 * quarter)
    outline.switchEdge(to: .left)
    outline.arc(bl, r, 3 * quarter, 4 * quarter)
    if edge == .left {
      let leftLocation = location < 45 ? location + 360 : location
      let y = body.maxY - ((leftLocation - 315) / 90 * (body.height - 2 * r - pointSize.height) + r + halfHeight)
      let depth = outward ? -pointSize.width : pointSize.width
      outline.line(to: Point(x: body.minX, y: y + halfHeight))
      outline.line(to: Point(x: body.minX + depth, y: y))
      outline.line(to: Point(x: body.minX, y: y - halfHeight))
    }
    outline.arc(tl, r, 4 * quarter, 5 * quarter)
  }
}

/// An outline built edge by edge: the whole closed path, and each edge's part of it.
private struct Outline {
  var closedPath = Path()
  var edgePaths: [StyleShape.Edge: Path] = [:]
  var edge = StyleShape.Edge.top
  var current = Point.zero

  static func point(on center: Point, _ radius: Double, _ angle: Double) -> Point {
    Point(x: center.x + radius * cos(angle), y: center.y + radius * sin(angle))
  }

  mutating func start(at point: Point, edge: StyleShape.Edge) {
    closedPath.move(to: point)
    self.edge = edge
    edgePaths[edge, default: Path()].move(to: point)
    current = point
  }

  mutating func switchEdge(to edge: StyleShape.Edge) {
    self.edge = edge
    edgePaths[edge, default: Path()].move(to: current)
  }

  mutating func line(to point: Point) {
    closedPath.line(to: point)
    edgePaths[edge, default: Path()].line(to: point)
    current = point
  }

  mutating func arc(_ center: Point, _ radius: Double, _ start: Double, _ end: Double) {
    closedPath.arc(center: center, radius: radius, start: start, end: end, clockwise: true)
    edgePaths[edge, default: Path()].arc(center: center, radius: radius, start: start, end: end, clockwise: true)
    current = Outline.point(on: center, radius, end)
  }

  /// A tangent arc at `corner`; with `switchingTo`, the arc's second half belongs to that
  /// edge.
  mutating func tangentArc(corner: Point, next: Point, radius: Double, switchingTo newEdge: StyleShape.Edge? = nil) {
    guard let arc = Path.tangentArc(from: current, corner: corner, next: next, radius: radius) else {
      line(to: corner)
      if let newEdge { switchEdge(to: newEdge) }
      return
    }
    line(to: arc.start)
    if let newEdge {
      let middle = arc.startAngle + arc.sweep / 2
      arcPiece(arc, from: arc.startAngle, to: middle)
      switchEdge(to: newEdge)
      arcPiece(arc, from: middle, to: arc.startAngle + arc.sweep)
    } else {
      arcPiece(arc, from: arc.startAngle, to: arc.startAngle + arc.sweep)
    }
  }

  private mutating func arcPiece(_ arc: Path.TangentArc, from: Double, to: Double) {
    closedPath.arc(center: arc.center, radius: arc.radius, start: from, end: to, clockwise: arc.sweep > 0)
    edgePaths[edge, default: Path()].arc(center: arc.center, radius: arc.radius, start: from, end: to, clockwise: arc.sweep > 0)
    current = Outline.point(on: arc.center, arc.radius, to)
  }
}
