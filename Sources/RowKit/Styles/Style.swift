import RowKitGraphics

/// A style: a chain of drawing elements applied first to last, as in Three20's `TTStyle`.
/// Each element draws into the current frame and shape, or changes them for the elements
/// after it; ``StyleElement`` says which does what.
public struct Style: Hashable, Sendable {
  /// The drawing elements, applied first to last.
  public var elements: [StyleElement]

  /// A style of `elements`, applied in order.
  public init(_ elements: [StyleElement]) {
    self.elements = elements
  }

  /// The element names a stylesheet may use.
  public static let elementNames = [
    "shape", "inset", "box", "fill", "linearGradient", "reflectiveFill", "shadow", "innerShadow", "border",
    "highlightBorder", "fourBorder", "bevelBorder", "gradientBorder", "blend", "text", "content",
  ]

  /// The shape an image drawn with this style is clipped to: the style's last shape.
  public var clipShape: StyleShape {
    var shape = StyleShape.rectangle
    for case .shape(let s) in elements { shape = s }
    return shape
  }

  /// The style's first text element, which gives text drawn inside it its font and color.
  public var textStyle: TextElement? {
    for case .text(let text) in elements { return text }
    return nil
  }
}

/// One link of a ``Style`` chain.
public enum StyleElement: Hashable, Sendable {
  /// Sets the shape for the rest of the chain; shrinks the content frame by the shape's
  /// insets.
  case shape(StyleShape)
  /// Moves the frame's edges in (or out, where negative) for the rest of the chain.
  case inset(EdgeInsets)
  /// The margin is space outside the box: the frame (and the content) shrink by it for the
  /// rest of the chain, and a style sized to fit its content grows by it. The padding shrinks
  /// only the content frame. (Three20 used the margin only between boxes of styled text;
  /// RowKit's styled-text classes take their font, color and fill from a style, not its box.)
  case box(margin: EdgeInsets, padding: EdgeInsets)
  /// Fills the shape.
  case fill(Color)
  /// Fills the shape with a top-to-bottom gradient.
  case linearGradient(Color, Color)
  /// A fill with a glossy white highlight over its top half (Three20's button gloss), and
  /// optionally a faint one at the bottom.
  case reflectiveFill(Color, bottomHighlight: Bool)
  /// Shrinks the frame to leave room, then draws the rest of the chain with a blurred shadow
  /// under it.
  case shadow(color: Color, blur: Double, offset: Size)
  /// A blurred shadow cast inward from the shape's edges; passes the frame on unchanged.
  case innerShadow(color: Color, blur: Double, offset: Size)
  /// Strokes the shape inside the frame; the frame then shrinks by the width.
  case border(color: Color, width: Double)
  /// A border with a second, lighter stroke one point lower; the frame shrinks.
  case highlightBorder(color: Color, highlight: Color, width: Double)
  /// Each side in its own color (nil draws none); the frame shrinks on drawn sides.
  case fourBorder(top: Color?, right: Color?, bottom: Color?, left: Color?, width: Double)
  /// Sides facing a light source (degrees, 90 = from above) in the highlight color, the
  /// others in the shadow color; the frame shrinks on drawn sides.
  case bevelBorder(highlight: Color?, shadow: Color?, width: Double, lightSource: Double)
  /// A border stroked with a top-to-bottom gradient; the frame shrinks by the width.
  case gradientBorder(Color, Color, location1: Double, location2: Double, width: Double)
  /// Combines the rest of the chain with what is below in this mode.
  case blend(BlendMode)
  /// The font and color of text drawn inside the style (and of styled-text spans of its
  /// class).
  case text(TextElement)
  /// Where the styled thing's own content (text, image, a row's labels) is drawn; without
  /// it, content is drawn after the chain.
  case content
}

/// Text attributes a style gives what is drawn inside it.
public struct TextElement: Hashable, Sendable {
  /// The font of the text inside; nil keeps the font the text would have.
  public var font: Font?
  /// The color of the text inside; nil keeps its color.
  public var color: Color?
  /// The color of a second drawing of the text behind it; nil draws no shadow.
  public var shadowColor: Color?
  /// How far the text's shadow is moved from the text, in points.
  public var shadowOffset: Size
  /// How the text is aligned inside the style's frame.
  public var alignment: TextStyle.Alignment

  /// Text attributes; by default centered, with a shadow 1 point above when it has a color.
  public init(
    font: Font? = nil, color: Color? = nil, shadowColor: Color? = nil, shadowOffset: Size = Size(width: 0, height: -1),
    alignment: TextStyle.Alignment = .center
  ) {
    self.font = font
    self.color = color
    self.shadowColor = shadowColor
    self.shadowOffset = shadowOffset
    self.alignment = alignment
  }
}

// MARK: - Geometry

extension Style {
  /// Three20's shadow insets: room for the blur all round, plus the offset on its side.
  static func shadowInsets(blur: Double, offset: Size) -> EdgeInsets {
    let blurSize = (blur / 2).rounded()
    var insets = EdgeInsets(all: blurSize)
    if offset.width < 0 {
      insets.left += abs(offset.width) + blurSize * 2
      insets.right -= blurSize
    } else if offset.width > 0 {
      insets.right += abs(offset.width) + blurSize * 2
      insets.left -= blurSize
    }
    if offset.height < 0 {
      insets.top += abs(offset.height) + blurSize * 2
      insets.bottom -= blurSize
    } else if offset.height > 0 {
      insets.bottom += abs(offset.height) + blurSize * 2
      insets.top -= blurSize
    }
    return insets
  }

  /// Where content goes when the style is drawn in `rect`: the content frame at the
  /// `content` element, or at the end of the chain. Computed without drawing, so cells can
  /// shape text for it at layout time.
  public func contentFrame(in rect: Rect) -> Rect {
    var content = rect
    var frame = rect
    for element in elements {
      switch element {
      case .shape(let shape): content = content.inset(by: shape.contentInsets(for: frame.size))
      case .box(let margin, let padding):
        frame = frame.inset(by: margin)
        content = content.inset(by: margin).inset(by: padding)
      case .shadow(_, let blur, let offset):
        let insets = Style.shadowInsets(blur: blur, offset: offset)
        frame = frame.inset(by: insets)
        content = content.inset(by: insets)
      case .content: return content
      default: break
      }
    }
    return content
  }

  /// The size that holds content of `size`: Three20's `addToSize:` (padding, arrow insets,
  /// shadows).
  public func size(fitting size: Size) -> Size {
    var result = size
    for element in elements {
      switch element {
      case .box(let margin, let padding):
        result.width += margin.horizontal + padding.horizontal
        result.height += margin.vertical + padding.vertical
      case .shape(let shape):
        let insets = shape.contentInsets(for: result)
        result.width += insets.horizontal
        result.height += insets.vertical
      case .shadow(_, let blur, let offset):
        let blurSize = (blur / 2).rounded()
        result.width += abs(offset.width) + (offset.width != 0 ? blurSize : 0) + blurSize * 2
        result.height += abs(offset.height) + (offset.height != 0 ? blurSize : 0) + blurSize * 2
      default: break
      }
    }
    return result
  }
}

extension Rect {
  /// The rectangle with each edge moved in by the inset (out where negative), without
  /// clamping: a style chain may grow its frame.
  func moved(by insets: EdgeInsets) -> Rect {
    Rect(
      x: x + insets.left, y: y + insets.top, width: width - insets.horizontal, height: height - insets.vertical)
  }
}
