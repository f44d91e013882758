import Foundation
import RowKitGraphics

extension Canvas {
  /// Draws `style` in `rect`. `content` draws the styled thing's own content when the chain
  /// reaches its `content` element (or after the chain, if it has none), given the canvas to
  /// draw on (a shadow's layer, inside a shadow), the content frame and the shape there.
  public func draw(_ style: Style, in rect: Rect, content: ((Canvas, Rect, StyleShape) -> Void)? = nil) {
    var drewContent = false
    StylePainter(content: content).run(
      style.elements[...], canvas: self, frame: rect, contentFrame: rect, shape: .rectangle, drewContent: &drewContent)
    if !drewContent, let content { content(self, style.contentFrame(in: rect), style.clipShape) }
  }
}

/// Runs a style chain: each element does its work and hands the rest of the chain on, as
/// `-[TTStyle draw:]` did.
struct StylePainter {
  let content: ((Canvas, Rect, StyleShape) -> Void)?

  func run(
    _ elements: ArraySlice<StyleElement>, canvas: Canvas, frame: Rect, contentFrame: Rect, shape: StyleShape,
    drewContent: inout Bool
  ) {
    var frame = frame
    var contentFrame = contentFrame
    var shape = shape
    var index = elements.startIndex
    while index < elements.endIndex {
      let rest = elements[(index + 1)...]
      switch elements[index] {
      case .shape(let newShape):
        contentFrame = contentFrame.moved(by: newShape.contentInsets(for: frame.size))
        shape = newShape
      case .inset(let insets):
        frame = frame.moved(by: insets)
      case .box(let margin, let padding):
        frame = frame.moved(by: margin)
        contentFrame = contentFrame.moved(by: margin).moved(by: padding)
      case .fill(let color):
        canvas.fill(shape.path(in: frame), color: color)
      case .linearGradient(let top, let bottom):
        canvas.fill(shape.path(in: frame), gradient: .vertical(frame, from: top, to: bottom))
      case .reflectiveFill(let color, let bottomHighlight):
        let path = shape.path(in: frame)
        canvas.fill(path, color: color)
        let white = Color.white
        var stops: [LinearGradient.Stop] = [
          .init(0, white.withAlpha(0.685)), .init(0.5, white.withAlpha(0.13)), .init(0.5, white.withAlpha(0)),
          .init(0.6, white.withAlpha(0)),
        ]
        stops.append(.init(1, white.withAlpha(bottomHighlight ? 0.27 : 0)))
        canvas.fill(
          path,
          gradient: LinearGradient(
            start: Point(x: frame.minX, y: frame.minY), end: Point(x: frame.minX, y: frame.maxY), stops: stops))
      case .shadow(let color, let blur, let offset):
        let insets = Style.shadowInsets(blur: blur, offset: offset)
        frame = frame.moved(by: insets)
        contentFrame = contentFrame.moved(by: insets)
        let margin = blur * 2 + max(abs(offset.width), abs(offset.height)) + 2
        // The rest of the chain is drawn on a layer; its coverage, blurred, is the shadow.
        if let layer = canvas.makeLayer(covering: frame, margin: margin) {
          run(rest, canvas: layer.canvas, frame: frame, contentFrame: contentFrame, shape: shape, drewContent: &drewContent)
          canvas.drawShadow(of: layer, color: color, blur: blur, offset: offset)
          canvas.composite(layer)
        }
        return
      case .innerShadow(let color, let blur, let offset):
        let path = shape.path(in: frame)
        let margin = blur * 2 + max(abs(offset.width), abs(offset.height)) + 2
        if let layer = canvas.makeLayer(covering: frame, margin: margin) {
          // What lies outside the shape casts the shadow; only its part inside shows.
          var inverse = Path.rect(frame.insetBy(dx: -margin, dy: -margin))
          inverse.append(path)
          layer.canvas.fill(inverse, color: .black, evenOdd: true)
          canvas.withSavedState {
            canvas.clip(to: path)
            canvas.drawShadow(of: layer, color: color, blur: blur, offset: offset)
          }
        }
      case .border(let color, let width):
        canvas.stroke(shape.path(in: frame.insetBy(dx: width / 2, dy: width / 2)), color: color, width: width)
        frame = frame.insetBy(dx: width, dy: width)
      case .highlightBorder(let color, let highlight, let width):
        var stroke = frame.insetBy(dx: width / 2, dy: width / 2)
        stroke.size.height -= 2
        canvas.stroke(shape.path(in: stroke.offsetBy(dx: 0, dy: 1)), color: highlight, width: width)
        canvas.stroke(shape.path(in: stroke), color: color, width: width)
        frame = frame.moved(by: EdgeInsets(top: width * 2, left: width, bottom: width * 2, right: width))
      case .fourBorder(let top, let right, let bottom, let left, let width):
        let half = width / 2
        let stroke = frame.moved(
          by: EdgeInsets(
            top: top == nil ? 0 : half, left: left == nil ? 0 : half, bottom: bottom == nil ? 0 : half,
            right: right == nil ? 0 : half))
        let edges = shape.edgePaths(in: stroke)
        for (edge, color) in [(StyleShape.Edge.top, top), (.right, right), (.bottom, bottom), (.left, left)] {
          if let color, let path = edges[edge] { canvas.stroke(path, color: color, width: width) }
        }
        frame = frame.moved(
          by: EdgeInsets(
            top: top == nil ? 0 : width, left: left == nil ? 0 : width, bottom: bottom == nil ? 0 : width,
            right: right == nil ? 0 : width))
      case .bevelBorder(let highlight, let shadowColor, let width, let lightSource):
        let light = lightSource.truncatingRemainder(dividingBy: 360) + (lightSource < 0 ? 360 : 0)
        let colors: [StyleShape.Edge: Color?] = [
          .top: (light >= 0 && light <= 180) ? highlight : shadowColor,
          .left: (light >= 90 && light <= 270) ? highlight : shadowColor,
          .bottom: (light >= 180 && light <= 360) || light == 0 ? highlight : shadowColor,
          .right: (light >= 270 && light <= 360) || (light >= 0 && light <= 90) ? highlight : shadowColor,
        ]
        let edges = shape.edgePaths(in: frame.insetBy(dx: width / 2, dy: width / 2))
        var insets = EdgeInsets.zero
        for edge in StyleShape.Edge.allCases {
          guard let color = colors[edge] ?? nil, let path = edges[edge] else { continue }
          canvas.stroke(path, color: color, width: width)
          switch edge {
          case .top: insets.top = width
          case .right: insets.right = width
          case .bottom: insets.bottom = width
          case .left: insets.left = width
          }
        }
        frame = frame.moved(by: insets)
      case .gradientBorder(let first, let second, let location1, let location2, let width):
        let gradient = LinearGradient(
          start: Point(x: frame.minX, y: frame.minY), end: Point(x: frame.minX, y: frame.maxY),
          stops: [.init(location1, first), .init(location2, second)])
        canvas.stroke(shape.path(in: frame.insetBy(dx: width / 2, dy: width / 2)), gradient: gradient, width: width)
        frame = frame.insetBy(dx: width, dy: width)
      case .blend(let mode):
        canvas.withSavedState {
          canvas.setBlendMode(mode)
          run(rest, canvas: canvas, frame: frame, contentFrame: contentFrame, shape: shape, drewContent: &drewContent)
        }
        return
      case .text:
        break
      case .content:
        if let content {
          content(canvas, contentFrame, shape)
          drewContent = true
        }
      }
      index += 1
    }
  }
}
