import RowKitGraphics

/// A style: a chain of drawing elements applied first to last, as in Three20's `TTStyle`.
/// Each element draws into the current frame and shape, or changes them for the elements
/// after it.
public struct Style: Hashable, Sendable {
  public var elements: [StyleElement]

  public init(_ elements: [StyleElement]) {
    self.elements = elements
  }

  /// The element names a stylesheet may use.
  public static let elementNames = ["shape", "inset", "fill", "linearGradient", "border"]
}

/// One link of a ``Style`` chain.
public enum StyleElement: Hashable, Sendable {
  /// Sets the shape that later fills and borders use.
  case shape(StyleShape)
  /// Shrinks the frame for the rest of the chain (grows it where an inset is negative).
  case inset(EdgeInsets)
  /// Fills the shape with a color.
  case fill(Color)
  /// Fills the shape with a top-to-bottom gradient.
  case linearGradient(Color, Color)
  /// Strokes the shape inside the frame, then shrinks the frame by the width.
  case border(color: Color, width: Double)
}

/// The outline that fills and borders follow.
public enum StyleShape: Hashable, Sendable {
  case rectangle
  /// A rounded rectangle; a radius of -1 makes the ends fully round (a pill).
  case roundedRect(CornerRadii)

  /// The path of this shape in `rect`.
  public func path(in rect: Rect) -> Path {
    switch self {
    case .rectangle:
      return .rect(rect)
    case .roundedRect(let radii):
      func resolve(_ radius: Double) -> Double { radius < 0 ? rect.height / 2 : radius }
      return .roundedRect(
        rect,
        corners: CornerRadii(
          topLeft: resolve(radii.topLeft), topRight: resolve(radii.topRight),
          bottomRight: resolve(radii.bottomRight), bottomLeft: resolve(radii.bottomLeft)))
    }
  }
}

extension Canvas {
  /// Draws `style` in `rect`, starting with a plain rectangle as the shape.
  public func draw(_ style: Style, in rect: Rect) {
    var frame = rect
    var shape = StyleShape.rectangle
    for element in style.elements {
      switch element {
      case .shape(let newShape):
        shape = newShape
      case .inset(let insets):
        frame = Rect(
          x: frame.x + insets.left, y: frame.y + insets.top,
          width: frame.width - insets.left - insets.right,
          height: frame.height - insets.top - insets.bottom)
      case .fill(let color):
        fill(shape.path(in: frame), color: color)
      case .linearGradient(let top, let bottom):
        fill(shape.path(in: frame), gradient: .vertical(frame, from: top, to: bottom))
      case .border(let color, let width):
        let half = width / 2
        stroke(shape.path(in: frame.insetBy(dx: half, dy: half)), color: color, width: width)
        frame = frame.insetBy(dx: width, dy: width)
      }
    }
  }
}
