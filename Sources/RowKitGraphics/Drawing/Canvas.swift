internal import CCairo
internal import CPango

/// A Cairo image surface and its drawing context. Coordinates are points; the canvas maps
/// them to device pixels by its scale.
///
/// A canvas is not thread-safe and stays on the thread that made it.
public final class Canvas {
  /// Cairo's largest image surface side, in pixels.
  public static let maximumPixelSide = 32767

  /// The canvas's width in device pixels.
  public let pixelWidth: Int
  /// The canvas's height in device pixels.
  public let pixelHeight: Int
  /// Device pixels per point.
  public let scale: Double

  let surface: OpaquePointer
  let cr: OpaquePointer
  /// Whether text was drawn here.
  private var drewText = false
  /// The first failure of a drawing call, which Cairo's own status does not hold.
  private var drawingFailure: GraphicsError?

  /// A transparent canvas of the given pixel size.
  public convenience init(pixelWidth: Int, pixelHeight: Int, scale: Double) throws {
    try self.init(pixelWidth: pixelWidth, pixelHeight: pixelHeight, scale: scale, memory: nil)
  }

  /// A canvas drawing into `memory` (`pixelWidth × 4` bytes a row, Cairo's stride for
  /// ARGB32), which must outlive its drawing; with nil, into memory of Cairo's own.
  private init(pixelWidth: Int, pixelHeight: Int, scale: Double, memory: UnsafeMutableRawPointer?) throws {
    guard pixelWidth > 0, pixelHeight > 0, pixelWidth <= Canvas.maximumPixelSide,
      pixelHeight <= Canvas.maximumPixelSide
    else {
      throw GraphicsError(
        .surface,
        "a \(pixelWidth)×\(pixelHeight) pixel surface is out of range (1 to \(Canvas.maximumPixelSide) per side)")
    }
    let surface: OpaquePointer
    if let memory {
      surface = cairo_image_surface_create_for_data(
        memory.assumingMemoryBound(to: UInt8.self), CAIRO_FORMAT_ARGB32, Int32(pixelWidth), Int32(pixelHeight),
        Int32(pixelWidth * 4))!
    } else {
      surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(pixelWidth), Int32(pixelHeight))!
    }
    do {
      try CairoStatus.check(cairo_surface_status(surface), .surface, "Cairo could not create a surface")
    } catch {
      cairo_surface_destroy(surface)
      throw error
    }
    self.surface = surface
    self.cr = cairo_create(surface)!
    self.pixelWidth = pixelWidth
    self.pixelHeight = pixelHeight
    self.scale = scale
    cairo_scale(cr, scale, scale)
  }

  /// The pixels `draw` draws on a canvas of the given size whose memory is the bitmap's own:
  /// nothing is copied after drawing, and the bitmap's memory is the only memory drawn in
  /// (a copy of a canvas into fresh megabytes costs a pass over them and a page fault per
  /// page). The canvas's pixels start undefined: `draw` clears them first. Throws what
  /// `draw` throws, and when drawing failed, as ``bitmap()`` does.
  public static func bitmap(
    pixelWidth: Int, pixelHeight: Int, scale: Double, drawing draw: (Canvas) throws -> Void
  ) throws -> Bitmap {
    // Cairo's stride for ARGB32 is four bytes a pixel, with no padding: the bitmap's layout.
    assert(Int(cairo_format_stride_for_width(CAIRO_FORMAT_ARGB32, Int32(clamping: pixelWidth))) == pixelWidth * 4)
    let count = max(0, pixelWidth) * max(0, pixelHeight) * 4
    let pixels = try [UInt8](unsafeUninitializedCapacity: count) { memory, initialized in
      let canvas = try Canvas(pixelWidth: pixelWidth, pixelHeight: pixelHeight, scale: scale, memory: memory.baseAddress)
      try draw(canvas)
      try canvas.checkDrawing()
      // Nothing draws into the bitmap's memory once its surface is finished.
      cairo_surface_finish(canvas.surface)
      initialized = count
    }
    return Bitmap(width: pixelWidth, height: pixelHeight, pixels: pixels)
  }

  deinit {
    // Under the text lock if the canvas drew text: a context that drew text holds a Cairo
    // scaled font, and releasing it may retire a scaled font from Cairo's process-wide caches,
    // which another worker may be drawing from (see TextEngineLock).
    let (cr, surface) = (self.cr, self.surface)
    let destroy = {
      cairo_destroy(cr)
      cairo_surface_destroy(surface)
    }
    drewText ? TextEngineLock.run(destroy) : destroy()
  }

  /// The canvas size in points.
  public var size: Size { Size(width: Double(pixelWidth) / scale, height: Double(pixelHeight) / scale) }

  // MARK: - State

  /// Runs `body` and restores the transform, clip and source afterwards.
  public func withSavedState<T>(_ body: () throws -> T) rethrows -> T {
    cairo_save(cr)
    defer { cairo_restore(cr) }
    return try body()
  }

  /// Moves the origin of the coordinates by `x` and `y` points until the state is restored.
  public func translate(x: Double, y: Double) {
    cairo_translate(cr, x, y)
  }

  /// Limits drawing to `rect` until the state is restored.
  public func clip(to rect: Rect) {
    cairo_new_path(cr)
    cairo_rectangle(cr, rect.x, rect.y, rect.width, rect.height)
    cairo_clip(cr)
  }

  /// Limits drawing to the inside of `path` until the state is restored.
  public func clip(to path: Path) {
    addPath(path)
    cairo_clip(cr)
  }

  // MARK: - Filling and stroking

  /// Replaces every pixel with `color` (or with transparency).
  public func clear(_ color: Color = .clear) {
    withSavedState {
      cairo_reset_clip(cr)
      cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE)
      setSource(color)
      cairo_paint(cr)
    }
  }

  /// Fills `rect` with `color`.
  public func fill(_ rect: Rect, color: Color) {
    cairo_new_path(cr)
    cairo_rectangle(cr, rect.x, rect.y, rect.width, rect.height)
    setSource(color)
    cairo_fill(cr)
  }

  /// Fills `path`; with `evenOdd`, regions inside an even number of subpaths stay empty
  /// (a rectangle with a shape inside it fills everything but the shape).
  public func fill(_ path: Path, color: Color, evenOdd: Bool = false) {
    addPath(path)
    setSource(color)
    if evenOdd { cairo_set_fill_rule(cr, CAIRO_FILL_RULE_EVEN_ODD) }
    cairo_fill(cr)
    if evenOdd { cairo_set_fill_rule(cr, CAIRO_FILL_RULE_WINDING) }
  }

  /// Fills the inside of `path` with a linear gradient.
  public func fill(_ path: Path, gradient: LinearGradient) {
    addPath(path)
    setSource(gradient)
    cairo_fill(cr)
  }

  /// Strokes `path` with a gradient instead of a color.
  public func stroke(_ path: Path, gradient: LinearGradient, width: Double) {
    addPath(path)
    setSource(gradient)
    cairo_set_line_width(cr, width)
    cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT)
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_MITER)
    cairo_stroke(cr)
  }

  func setSource(_ gradient: LinearGradient) {
    let pattern = cairo_pattern_create_linear(gradient.start.x, gradient.start.y, gradient.end.x, gradient.end.y)!
    defer { cairo_pattern_destroy(pattern) }
    for stop in gradient.stops {
      cairo_pattern_add_color_stop_rgba(
        pattern, stop.offset, stop.color.red, stop.color.green, stop.color.blue, stop.color.alpha)
    }
    cairo_pattern_set_extend(pattern, CAIRO_EXTEND_PAD)
    cairo_set_source(cr, pattern)
  }

  /// The shape of a stroked line's ends.
  public enum LineCap: Hashable, Sendable {
    /// The line stops square at its end point.
    case butt
    /// A half circle around the end point.
    case round
    /// A half square around the end point: the line runs on by half its width.
    case square
  }

  /// Strokes `path` with a line `width` points wide in `color`, its ends shaped by `cap`.
  public func stroke(_ path: Path, color: Color, width: Double, cap: LineCap = .butt) {
    addPath(path)
    setSource(color)
    cairo_set_line_width(cr, width)
    switch cap {
    case .butt: cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT)
    case .round: cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
    case .square: cairo_set_line_cap(cr, CAIRO_LINE_CAP_SQUARE)
    }
    cairo_set_line_join(cr, cap == .round ? CAIRO_LINE_JOIN_ROUND : CAIRO_LINE_JOIN_MITER)
    cairo_stroke(cr)
  }

  // MARK: - Text and images

  /// Draws `layout` with its origin at `origin`, in `color` where its runs name no color.
  /// Nothing is measured: the layout is drawn exactly as it was shaped.
  public func draw(_ layout: TextLayout, at origin: Point, color: Color) {
    withSavedState {
      if layout.isClipped {
        let bounds = layout.logicalRect
        clip(to: Rect(
          x: origin.x + bounds.x - 1000, y: origin.y + bounds.y,
          width: bounds.width + 2000, height: bounds.height))
      }
      cairo_new_path(cr)
      setSource(color)
      cairo_move_to(cr, origin.x, origin.y)
      drewText = true
      layout.shaper.withTextEngine { pango_cairo_show_layout(cr, layout.layout) }
    }
  }

  /// Draws `bitmap` scaled into `rect`, with a good downscaling filter and edges that do not
  /// fade. Pixels outside `rect` are not touched.
  public func draw(_ bitmap: Bitmap, in rect: Rect, alpha: Double = 1) {
    guard bitmap.width > 0, bitmap.height > 0, rect.width > 0, rect.height > 0 else { return }
    guard let source = image(bitmap) else { return }
    withSavedState {
      cairo_new_path(cr)
      cairo_rectangle(cr, rect.x, rect.y, rect.width, rect.height)
      cairo_clip(cr)
      cairo_translate(cr, rect.x, rect.y)
      cairo_scale(cr, rect.width / Double(bitmap.width), rect.height / Double(bitmap.height))
      cairo_set_source_surface(cr, source.surface, 0, 0)
      let pattern = cairo_get_source(cr)
      cairo_pattern_set_filter(pattern, CAIRO_FILTER_GOOD)
      cairo_pattern_set_extend(pattern, CAIRO_EXTEND_PAD)
      if alpha < 1 { cairo_paint_with_alpha(cr, alpha) } else { cairo_paint(cr) }
    }
  }

  /// Copies `bitmap` one image pixel to one device pixel, its top-left corner at `origin`
  /// snapped to the nearest device pixel. No resampling happens, so the result is the same
  /// wherever on the canvas the bitmap lands; the current clip still applies.
  public func blit(_ bitmap: Bitmap, at origin: Point) {
    guard bitmap.width > 0, bitmap.height > 0 else { return }
    guard let source = image(bitmap) else { return }
    withSavedState {
      var x = origin.x
      var y = origin.y
      cairo_user_to_device(cr, &x, &y)
      cairo_identity_matrix(cr)
      cairo_set_source_surface(cr, source.surface, x.rounded(), y.rounded())
      cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_NEAREST)
      cairo_new_path(cr)
      cairo_rectangle(cr, x.rounded(), y.rounded(), Double(bitmap.width), Double(bitmap.height))
      cairo_fill(cr)
    }
  }

  // MARK: - Pixels

  /// A copy of the canvas pixels. Throws when drawing failed: Cairo stopped at a failure
  /// (its status is sticky, and every later call did nothing), or an image could not be
  /// made ready to draw.
  public func bitmap() throws(GraphicsError) -> Bitmap {
    try checkDrawing()
    let stride = Int(cairo_image_surface_get_stride(surface))
    let data = UnsafeMutableRawPointer(cairo_image_surface_get_data(surface)!)
    let rowBytes = pixelWidth * 4
    let pixels = [UInt8](unsafeUninitializedCapacity: rowBytes * pixelHeight) { target, initialized in
      for row in 0..<pixelHeight {
        (UnsafeMutableRawPointer(target.baseAddress!) + row * rowBytes).copyMemory(from: data + row * stride, byteCount: rowBytes)
      }
      initialized = rowBytes * pixelHeight
    }
    return Bitmap(width: pixelWidth, height: pixelHeight, pixels: pixels)
  }

  /// Throws when drawing failed (see ``bitmap()``); otherwise makes the drawing visible in
  /// the surface's memory.
  private func checkDrawing() throws(GraphicsError) {
    if let failure = firstDrawingFailure() { throw failure }
    cairo_surface_flush(surface)
  }

  /// The first failure of this canvas's drawing: one recorded, or Cairo's sticky status.
  func firstDrawingFailure() -> GraphicsError? {
    if let drawingFailure { return drawingFailure }
    do {
      try CairoStatus.check(cairo_status(cr), .surface, "Cairo stopped drawing")
    } catch {
      return error
    }
    return nil
  }

  /// The canvas as a PNG from cairo's own writer (`cairo_surface_write_to_png_stream`).
  /// RowKit never writes files this way; it is here so the benchmark can compare
  /// ``PNG/encode(_:compression:)`` with it on the same pixels.
  public func cairoPNG() throws -> [UInt8] {
    cairo_surface_flush(surface)
    final class Sink {
      var bytes: [UInt8] = []
    }
    let sink = Sink()
    let status = cairo_surface_write_to_png_stream(
      surface,
      { closure, data, length in
        let sink = Unmanaged<Sink>.fromOpaque(closure!).takeUnretainedValue()
        sink.bytes.append(contentsOf: UnsafeBufferPointer(start: data, count: Int(length)))
        return CAIRO_STATUS_SUCCESS
      }, Unmanaged.passUnretained(sink).toOpaque())
    try CairoStatus.check(status, .pngEncode, "cairo could not write a PNG")
    return withExtendedLifetime(sink) { sink.bytes }
  }

  // MARK: - Private

  /// `bitmap` as a Cairo image; nil, with the failure kept for ``bitmap()``, when Cairo
  /// could not make one.
  private func image(_ bitmap: Bitmap) -> CairoImage? {
    do {
      return try CairoImage(bitmap)
    } catch {
      if drawingFailure == nil { drawingFailure = error }
      return nil
    }
  }

  /// Records the first failure of a drawing call that cannot throw, for ``bitmap()``.
  func recordFailure(_ failure: GraphicsError) {
    if drawingFailure == nil { drawingFailure = failure }
  }

  func setSource(_ color: Color) {
    cairo_set_source_rgba(cr, color.red, color.green, color.blue, color.alpha)
  }

  func addPath(_ path: Path) {
    cairo_new_path(cr)
    for element in path.elements {
      switch element {
      case .move(let p): cairo_move_to(cr, p.x, p.y)
      case .line(let p): cairo_line_to(cr, p.x, p.y)
      case .curve(let c1, let c2, let p): cairo_curve_to(cr, c1.x, c1.y, c2.x, c2.y, p.x, p.y)
      case .arc(let center, let radius, let start, let end, let clockwise):
        if radius <= 0 {
          cairo_line_to(cr, center.x, center.y)
        } else if clockwise {
          cairo_arc(cr, center.x, center.y, radius, start, end)
        } else {
          cairo_arc_negative(cr, center.x, center.y, radius, start, end)
        }
      case .close: cairo_close_path(cr)
      }
    }
  }
}

/// A Cairo surface holding a copy of a bitmap's pixels, for use as a drawing source.
final class CairoImage {
  let surface: OpaquePointer

  init(_ bitmap: Bitmap) throws(GraphicsError) {
    let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(bitmap.width), Int32(bitmap.height))!
    do {
      try CairoStatus.check(
        cairo_surface_status(surface), .surface, "Cairo could not make a \(bitmap.width)×\(bitmap.height) image to draw")
    } catch {
      cairo_surface_destroy(surface)
      throw error
    }
    self.surface = surface
    cairo_surface_flush(surface)
    let stride = Int(cairo_image_surface_get_stride(surface))
    let data = UnsafeMutableRawPointer(cairo_image_surface_get_data(surface)!)
    bitmap.pixels.withUnsafeBytes { source in
      for row in 0..<bitmap.height {
        (data + row * stride).copyMemory(
          from: source.baseAddress! + row * bitmap.bytesPerRow, byteCount: bitmap.bytesPerRow)
      }
    }
    cairo_surface_mark_dirty(surface)
  }

  deinit {
    cairo_surface_destroy(surface)
  }
}
