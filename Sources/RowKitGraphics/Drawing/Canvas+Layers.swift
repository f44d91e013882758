internal import CCairo

/// How drawn pixels combine with those below: Core Graphics' blend modes, as Three20's
/// `TTBlendStyle` used them, mapped to Cairo's operators.
public enum BlendMode: String, Hashable, Sendable, CaseIterable {
  /// The separable blend modes: each color channel combines on its own (`normal` draws over).
  case normal, multiply, screen, overlay, darken, lighten, colorDodge, colorBurn, softLight, hardLight
  /// The difference modes and the non-separable modes that mix hue, saturation and luminosity.
  case difference, exclusion, hue, saturation, color, luminosity
  /// The Porter-Duff compositing modes (`copy` replaces the pixels below).
  case clear, copy, sourceIn, sourceOut, sourceAtop, destinationOver, destinationIn, destinationOut
  /// More Porter-Duff modes; `plusLighter` adds the colors, clamped to white.
  case destinationAtop, xor, plusLighter

  var cairoOperator: cairo_operator_t {
    switch self {
    case .normal: return CAIRO_OPERATOR_OVER
    case .multiply: return CAIRO_OPERATOR_MULTIPLY
    case .screen: return CAIRO_OPERATOR_SCREEN
    case .overlay: return CAIRO_OPERATOR_OVERLAY
    case .darken: return CAIRO_OPERATOR_DARKEN
    case .lighten: return CAIRO_OPERATOR_LIGHTEN
    case .colorDodge: return CAIRO_OPERATOR_COLOR_DODGE
    case .colorBurn: return CAIRO_OPERATOR_COLOR_BURN
    case .softLight: return CAIRO_OPERATOR_SOFT_LIGHT
    case .hardLight: return CAIRO_OPERATOR_HARD_LIGHT
    case .difference: return CAIRO_OPERATOR_DIFFERENCE
    case .exclusion: return CAIRO_OPERATOR_EXCLUSION
    case .hue: return CAIRO_OPERATOR_HSL_HUE
    case .saturation: return CAIRO_OPERATOR_HSL_SATURATION
    case .color: return CAIRO_OPERATOR_HSL_COLOR
    case .luminosity: return CAIRO_OPERATOR_HSL_LUMINOSITY
    case .clear: return CAIRO_OPERATOR_CLEAR
    case .copy: return CAIRO_OPERATOR_SOURCE
    case .sourceIn: return CAIRO_OPERATOR_IN
    case .sourceOut: return CAIRO_OPERATOR_OUT
    case .sourceAtop: return CAIRO_OPERATOR_ATOP
    case .destinationOver: return CAIRO_OPERATOR_DEST_OVER
    case .destinationIn: return CAIRO_OPERATOR_DEST_IN
    case .destinationOut: return CAIRO_OPERATOR_DEST_OUT
    case .destinationAtop: return CAIRO_OPERATOR_DEST_ATOP
    case .xor: return CAIRO_OPERATOR_XOR
    case .plusLighter: return CAIRO_OPERATOR_ADD
    }
  }
}

/// A transparent offscreen canvas lined up pixel for pixel with part of another canvas:
/// drawing on it with the same coordinates lands on the same device pixels.
public final class Layer {
  /// The offscreen canvas to draw the layer's content on.
  public let canvas: Canvas
  /// The device pixel of the parent canvas where the layer's top-left pixel sits.
  let deviceX: Int
  let deviceY: Int

  init(canvas: Canvas, deviceX: Int, deviceY: Int) {
    self.canvas = canvas
    self.deviceX = deviceX
    self.deviceY = deviceY
  }
}

extension Canvas {
  /// Draws with `mode` until the state is restored.
  public func setBlendMode(_ mode: BlendMode) {
    cairo_set_operator(cr, mode.cairoOperator)
  }

  /// The scale from points to device pixels of the current transform.
  var deviceScale: Double {
    var matrix = cairo_matrix_t()
    cairo_get_matrix(cr, &matrix)
    return matrix.xx
  }

  /// A layer covering `rect` (in current coordinates) grown by `margin` points on each side,
  /// clamped to the current clip, with the current transform. Nil when nothing of it is
  /// visible, or when Cairo cannot make it: then the failure is this canvas's, and
  /// ``bitmap()`` throws it. Clamping to the clip rather than the canvas keeps a row's pixels
  /// the same whether it is painted alone or inside a whole table.
  public func makeLayer(covering rect: Rect, margin: Double) -> Layer? {
    var corners: [(Double, Double)] = []
    for (cornerX, cornerY) in [
      (rect.minX - margin, rect.minY - margin), (rect.maxX + margin, rect.minY - margin),
      (rect.minX - margin, rect.maxY + margin), (rect.maxX + margin, rect.maxY + margin),
    ] {
      var x = cornerX
      var y = cornerY
      cairo_user_to_device(cr, &x, &y)
      corners.append((x, y))
    }
    var clipX1 = 0.0, clipY1 = 0.0, clipX2 = 0.0, clipY2 = 0.0
    cairo_clip_extents(cr, &clipX1, &clipY1, &clipX2, &clipY2)
    cairo_user_to_device(cr, &clipX1, &clipY1)
    cairo_user_to_device(cr, &clipX2, &clipY2)
    let minX = max(0, Int(clipX1.rounded(.down)), Int(corners.map(\.0).min()!.rounded(.down)))
    let minY = max(0, Int(clipY1.rounded(.down)), Int(corners.map(\.1).min()!.rounded(.down)))
    let maxX = min(pixelWidth, Int(clipX2.rounded(.up)), Int(corners.map(\.0).max()!.rounded(.up)))
    let maxY = min(pixelHeight, Int(clipY2.rounded(.up)), Int(corners.map(\.1).max()!.rounded(.up)))
    guard maxX > minX, maxY > minY else { return nil }
    let layer: Canvas
    do {
      layer = try Canvas(pixelWidth: maxX - minX, pixelHeight: maxY - minY, scale: scale)
    } catch {
      recordFailure(error as? GraphicsError ?? GraphicsError(.surface, "Cairo could not make a layer: \(error)"))
      return nil
    }
    var matrix = cairo_matrix_t()
    cairo_get_matrix(cr, &matrix)
    matrix.x0 -= Double(minX)
    matrix.y0 -= Double(minY)
    cairo_set_matrix(layer.cr, &matrix)
    return Layer(canvas: layer, deviceX: minX, deviceY: minY)
  }

  /// Paints `layer` where it belongs, within the current clip.
  public func composite(_ layer: Layer) {
    takeFailure(of: layer)
    cairo_surface_flush(layer.canvas.surface)
    withSavedState {
      cairo_identity_matrix(cr)
      cairo_set_source_surface(cr, layer.canvas.surface, Double(layer.deviceX), Double(layer.deviceY))
      cairo_paint(cr)
    }
  }

  /// Paints a shadow of everything drawn on `layer`: its coverage blurred by `blur` points
  /// (three box-blur passes, close to a Gaussian of that diameter, as Core Graphics' shadow
  /// blur), moved by `offset` points, in `color`, within the current clip.
  public func drawShadow(of layer: Layer, color: Color, blur: Double, offset: Size) {
    takeFailure(of: layer)
    let scale = deviceScale
    let width = layer.canvas.pixelWidth
    let height = layer.canvas.pixelHeight
    cairo_surface_flush(layer.canvas.surface)
    let stride = Int(cairo_image_surface_get_stride(layer.canvas.surface))
    let data = cairo_image_surface_get_data(layer.canvas.surface)!
    var alpha = [UInt8](repeating: 0, count: width * height)
    for y in 0..<height {
      for x in 0..<width { alpha[y * width + x] = data[y * stride + x * 4 + 3] }
    }
    ShadowBlur.blur(&alpha, width: width, height: height, sigma: blur * scale / 2)
    let mask = cairo_image_surface_create(CAIRO_FORMAT_A8, Int32(width), Int32(height))!
    defer { cairo_surface_destroy(mask) }
    do {
      try CairoStatus.check(cairo_surface_status(mask), .surface, "Cairo could not make a \(width)×\(height) shadow mask")
    } catch {
      recordFailure(error)
      return
    }
    cairo_surface_flush(mask)
    let maskStride = Int(cairo_image_surface_get_stride(mask))
    let maskData = cairo_image_surface_get_data(mask)!
    for y in 0..<height {
      for x in 0..<width { maskData[y * maskStride + x] = alpha[y * width + x] }
    }
    cairo_surface_mark_dirty(mask)
    withSavedState {
      cairo_identity_matrix(cr)
      setSource(color)
      cairo_mask_surface(
        cr, mask, Double(layer.deviceX) + (offset.width * scale).rounded(),
        Double(layer.deviceY) + (offset.height * scale).rounded())
    }
  }
}

extension Canvas {
  /// Makes a failure of `layer`'s drawing this canvas's own: what was drawn on the layer
  /// belongs to this canvas's picture, and a row with a part missing must not pass for drawn.
  private func takeFailure(of layer: Layer) {
    if let failure = layer.canvas.firstDrawingFailure() { recordFailure(failure) }
  }
}

/// Box blurs that approximate a Gaussian, on an 8-bit coverage mask.
enum ShadowBlur {
  /// Three box passes per axis whose combined spread matches a Gaussian of `sigma` pixels
  /// (the SVG feGaussianBlur rule). Integer arithmetic: the same input always blurs the same.
  static func blur(_ pixels: inout [UInt8], width: Int, height: Int, sigma: Double) {
    guard sigma >= 0.5, width > 0, height > 0 else { return }
    let box = max(1, Int((sigma * 3 * (2 * Double.pi).squareRoot() / 4 + 0.5).rounded(.down)))
    var buffer = pixels
    for pass in 0..<3 {
      // An even box is run as two shifted boxes so the result stays centered.
      let (left, right): (Int, Int) = box % 2 == 1 ? (box / 2, box / 2) : (pass == 0 ? (box / 2, box / 2 - 1) : pass == 1 ? (box / 2 - 1, box / 2) : (box / 2, box / 2))
      horizontal(&pixels, &buffer, width: width, height: height, left: left, right: right)
      vertical(&buffer, &pixels, width: width, height: height, left: left, right: right)
    }
  }

  private static func horizontal(_ source: inout [UInt8], _ target: inout [UInt8], width: Int, height: Int, left: Int, right: Int) {
    let size = left + right + 1
    for y in 0..<height {
      let row = y * width
      var sum = 0
      for x in -left...right where x >= 0 && x < width { sum += Int(source[row + x]) }
      for x in 0..<width {
        target[row + x] = UInt8((sum + size / 2) / size)
        let outgoing = x - left
        let incoming = x + right + 1
        if outgoing >= 0 { sum -= Int(source[row + outgoing]) }
        if incoming < width { sum += Int(source[row + incoming]) }
      }
    }
  }

  private static func vertical(_ source: inout [UInt8], _ target: inout [UInt8], width: Int, height: Int, left: Int, right: Int) {
    let size = left + right + 1
    for x in 0..<width {
      var sum = 0
      for y in -left...right where y >= 0 && y < height { sum += Int(source[y * width + x]) }
      for y in 0..<height {
        target[y * width + x] = UInt8((sum + size / 2) / size)
        let outgoing = y - left
        let incoming = y + right + 1
        if outgoing >= 0 { sum -= Int(source[outgoing * width + x]) }
        if incoming < height { sum += Int(source[incoming * width + x]) }
      }
    }
  }
}
