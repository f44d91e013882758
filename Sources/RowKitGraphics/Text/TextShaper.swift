import Foundation
internal import CCairo
internal import CPango

/// Shapes text into ``TextLayout``s with one private font map and one Pango context.
///
/// A shaper is not thread-safe and stays on the thread that made it: Pango font maps are
/// caches that must not be shared between threads. Build one per thread from the same
/// ``TextEnvironment``; they shape identically.
///
/// A shaper's text calls take the `TextEngineLock`, since Cairo shares its caches of fonts
/// and glyphs between all of them, including shapers with FreeType faces of their own
/// (``TextEnvironment/makeShaper(ownFaces:)``). A font is measured in Pango by one thread at
/// a time (see `FontMetricsHook`), so that lines break the same on every thread.
public final class TextShaper {
  /// The fonts, language and fallback order this shaper shapes with.
  public let environment: TextEnvironment
  /// The font families the private configuration holds, sorted.
  public let families: [String]
  /// How many layouts this shaper has made: the proof that each label is shaped once.
  public private(set) var shapeCount = 0
  /// Called with the text of each layout this shaper makes; for tests and diagnostics.
  public var shapeObserver: ((String) -> Void)?
  /// Whether runs of text without a line-break opportunity wrap in linear time (see
  /// `UnbrokenRuns.swift`); tests turn it off to compare with Pango's own wrapping.
  var wrapsLongRunsInLinearTime = true
  /// How the layouts that held long unbroken runs came out; for tests.
  var longRunOutcomes = LongRunOutcomes()

  private let fontMap: UnsafeMutablePointer<PangoFontMap>
  private let context: OpaquePointer
  private var fontDescriptions: [Font: OpaquePointer] = [:]
  /// Pango measures a font by shaping a sample sentence of the language each time it is
  /// asked; a font's metrics never change, so each is asked for once.
  private var fontMetrics: [Font: FontMetrics] = [:]

  /// The loaded fonts, shared with every other shaper of the same environment.
  public let fontSet: FontSet
  /// The FreeType faces this shaper's fonts draw from, if it has faces of its own.
  private let ownFaces: FontFaces?
  /// Whether this shaper draws from FreeType faces of its own.
  public var hasOwnFaces: Bool { ownFaces != nil }
  /// How many FreeType faces of its own this shaper's fonts have opened so far.
  var ownFacesOpened: Int { ownFaces?.openCount ?? 0 }
  /// The font files this shaper's own faces could not be opened from: text in their fonts is
  /// drawn blank, and counted as missing glyphs.
  var unopenedFontFiles: Set<String> { ownFaces?.unopenedFiles ?? [] }
  /// How many Cairo font faces made of its own faces this shaper keeps.
  var ownFontFacesKept: Int { ownFaces?.keptFontFaceCount ?? 0 }

  convenience init(environment: TextEnvironment, ownFaces: Bool = false) throws {
    try self.init(fontSet: FontSet.shared(for: environment), ownFaces: ownFaces)
  }

  /// A shaper over `fontSet` itself rather than the process's shared set of its environment;
  /// with `ownFaces`, one that draws from FreeType faces of its own (see ``FontFaces``).
  convenience init(fontSet: FontSet, ownFaces: Bool = false) throws {
    try self.init(fontSet: fontSet, faces: ownFaces ? FontFaces.lend() : nil)
  }

  /// A shaper over `fontSet` that draws from `faces`, if given: they go back to the pool of
  /// faces when the shaper is freed, or at once if Pango cannot take them.
  init(fontSet: FontSet, faces ownFaces: FontFaces?) throws {
    _ = UsersTextSettings.setAsideOnce
    // Font maps of freed shapers that Pango's threads have let go of since are freed now.
    FontMapRetirement.sweep()
    self.environment = fontSet.environment
    self.fontSet = fontSet
    self.families = fontSet.families
    var faces = ownFaces
    do {
      (fontMap, context) = try TextEngineLock.run {
        try Self.makeContext(fontSet: fontSet, language: fontSet.environment.language, faces: &faces)
      }
    } catch {
      faces?.giveBack()
      throw error
    }
    self.ownFaces = faces
  }

  /// Runs `body` holding the `TextEngineLock` (this shaper's text calls inside take it again
  /// at no cost): for callers that make many text calls in a row, such as a worker laying out
  /// a batch of rows.
  public func withTextEngine<T>(_ body: () throws -> T) rethrows -> T {
    try TextEngineLock.run(body)
  }

  /// Makes the font map and context; gives the font map `faces`' fonts, or sets `faces` to
  /// nil (given back) if Pango cannot take them.
  private static func makeContext(
    fontSet: FontSet, language: String, faces: inout FontFaces?
  ) throws -> (UnsafeMutablePointer<PangoFontMap>, OpaquePointer) {
    guard let fontMap = pango_cairo_font_map_new_for_font_type(CAIRO_FONT_TYPE_FT) else {
      throw GraphicsError(.fontConfiguration, "Pango could not create a FreeType font map")
    }
    // The font map takes its own reference to the shared configuration.
    pango_fc_font_map_set_config(cpango_fc_font_map(fontMap), fontSet.config)

    let context = pango_font_map_create_context(fontMap)!
    if let ownFaces = faces {
      // Set before any font of the map is made; the shaper keeps the faces alive longer
      // than the font map.
      cpango_set_face_owner(fontMap, Unmanaged.passUnretained(ownFaces).toOpaque())
    }
    if faces != nil || FontMetricsHook.isInstalled == nil {
      // Making a font makes no Cairo font face and measures nothing yet; the hooks find
      // Pango's font class and interface through this sample. The metrics hook is installed
      // by the first shaper, whether its fonts are shared or not: a shaper measuring on its
      // own thread while a worker measures would change the worker's line breaks. Once both
      // hooks are in (or known refused), a shaper makes no sample: each font Pango loads
      // for a new description starts two threads, a fontconfig match and a sort of every
      // loaded font.
      var sample: UnsafeMutablePointer<PangoFont>?
      if FontMetricsHook.isInstalled == nil || FontFaces.isHookInstalled == nil {
        let description = pango_font_description_from_string("Sans 12")
        sample = pango_font_map_load_font(fontMap, context, description)
        pango_font_description_free(description)
      }
      let measuresAlone = FontMetricsHook.install(sample: sample)
      if let ownFaces = faces, !measuresAlone || !FontFaces.installHook(sample: sample) {
        // Without both hooks, shapers with faces of their own would not draw as one does alone.
        cpango_set_face_owner(fontMap, nil)
        ownFaces.giveBack()
        faces = nil
      }
      if let sample { cpango_object_unref(UnsafeMutableRawPointer(sample)) }
    }
    let options = cairo_font_options_create()
    cairo_font_options_set_antialias(options, fontSet.environment.antialiasing == .none ? CAIRO_ANTIALIAS_NONE : CAIRO_ANTIALIAS_GRAY)
    cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE)
    cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
    cairo_font_options_set_subpixel_order(options, CAIRO_SUBPIXEL_ORDER_DEFAULT)
    pango_cairo_context_set_font_options(context, options)
    cairo_font_options_destroy(options)
    // 72 dpi makes a Pango point one RowKit point; the drawing scale is applied by Cairo.
    pango_cairo_context_set_resolution(context, 72)
    pango_context_set_language(context, pango_language_from_string(language))
    // Fractional glyph positions: whole-point rounding would quantize positions to 2 pixels
    // at scale 2 and give uneven letter spacing.
    pango_context_set_round_glyph_positions(context, 0)
    return (fontMap, context)
  }

  deinit {
    for description in fontDescriptions.values {
      pango_font_description_free(description)
    }
    // Layouts keep their shaper alive, so no layout can still need the fonts here; Pango's
    // own threads may still hold the font map, so it is freed when they let go of it.
    let context = self.context
    withTextEngine { cpango_object_unref(UnsafeMutableRawPointer(context)) }
    FontMapRetirement.free(fontMap, faces: ownFaces)
  }

  /// Whether `font`'s family is one this shaper has loaded.
  public func hasFamily(_ family: String) -> Bool {
    fontSet.hasFamily(family)
  }

  /// Which family draws each character of `text` in `font`, after fallback: one entry per
  /// run of characters drawn by the same font, with nil for characters no loaded font has.
  public func fontRuns(_ text: String, font: Font) -> [(text: String, family: String?)] {
    withTextEngine { shape(text, style: TextStyle(font: font)).fontRuns() }
  }

  /// Shapes `text` once; the layout is measured and painted as it is.
  public func shape(_ text: String, style: TextStyle, runs: [TextRun] = []) -> TextLayout {
    withTextEngine { unlockedShape(text, style: style, runs: runs) }
  }

  private func unlockedShape(_ text: String, style: TextStyle, runs: [TextRun]) -> TextLayout {
    shapeCount += 1
    shapeObserver?(text)
    let layout = pango_layout_new(context)!
    // With a line limit, newlines become Unicode line separators: Pango applies its line
    // limit per paragraph, and a line separator breaks the line without a new paragraph.
    // Foundation's `replacingOccurrences` copies the text through NSString: only for a text
    // that has a newline.
    let shapedText =
      style.maxLines > 0 && text.utf8.contains(UInt8(ascii: "\n"))
      ? text.replacingOccurrences(of: "\n", with: "\u{2028}") : text
    pango_layout_set_text(layout, shapedText, -1)
    pango_layout_set_font_description(layout, fontDescription(for: style.font))
    pango_layout_set_wrap(layout, style.wrap == .word ? PANGO_WRAP_WORD_CHAR : PANGO_WRAP_CHAR)
    // Pango swaps left and right for a right-to-left paragraph; a visual alignment is
    // swapped first so that it comes out where it was asked for.
    var alignment = style.alignment
    if style.isAlignmentVisual, alignment != .center, Self.startsRightToLeft(shapedText) {
      alignment = alignment == .left ? .right : .left
    }
    switch alignment {
    case .left: pango_layout_set_alignment(layout, PANGO_ALIGN_LEFT)
    case .center: pango_layout_set_alignment(layout, PANGO_ALIGN_CENTER)
    case .right: pango_layout_set_alignment(layout, PANGO_ALIGN_RIGHT)
    }
    if let width = style.width {
      pango_layout_set_width(layout, cpango_units_from_double(max(0, width)))
      pango_layout_set_ellipsize(layout, ellipsizeMode(style.ellipsize))
      if style.ellipsize != .none {
        // Negative heights are line counts; -1 (Pango's default) keeps one line per paragraph.
        pango_layout_set_height(layout, style.maxLines > 0 ? Int32(-style.maxLines) : Int32.max)
      }
    }
    setAttributes(of: layout, text: shapedText, style: style, runs: runs)
    return TextLayout(layout: layout, text: text, shapedText: shapedText, style: style, runs: runs, shaper: self)
  }

  /// The UTF-8 offset of each Unicode scalar of `text`, and of its end: Pango counts bytes,
  /// RowKit's runs count scalars.
  static func byteOffsets(of text: String) -> [UInt32] {
    var offsets: [UInt32] = [0]
    offsets.reserveCapacity(text.utf8.count + 1)
    var offset: UInt32 = 0
    for scalar in text.unicodeScalars {
      offset += UInt32(UTF8.width(scalar))
      offsets.append(offset)
    }
    return offsets
  }

  /// A layout of `text` alone, in `font`, for measuring: no line limit, no ellipsis.
  func makeLayout(_ text: UnsafeBufferPointer<UInt8>, font: Font, width: Double?, wrap: PangoWrapMode) -> OpaquePointer {
    let layout = pango_layout_new(context)!
    text.withMemoryRebound(to: CChar.self) { pango_layout_set_text(layout, $0.baseAddress, Int32($0.count)) }
    pango_layout_set_font_description(layout, fontDescription(for: font))
    pango_layout_set_wrap(layout, wrap)
    if let width { pango_layout_set_width(layout, cpango_units_from_double(max(0, width))) }
    return layout
  }

  /// The language the shaper's context shapes in.
  var language: OpaquePointer? { pango_context_get_language(context) }

  /// Whether `text`'s first strongly directional character (as Pango's auto-direction reads
  /// it) is right to left: Hebrew, Arabic and the other right-to-left scripts.
  static func startsRightToLeft(_ text: String) -> Bool {
    // cpango_bidi_strength: 1 for a strong left-to-right character, -1 for a strong
    // right-to-left one, 0 for the weak and neutral ones before them.
    for scalar in text.unicodeScalars {
      let strength = cpango_bidi_strength(scalar.value)
      if strength != 0 { return strength < 0 }
    }
    return false
  }

  /// The ascent and descent the font reports, without shaping any text. A line of text in
  /// this font is as tall as their sum.
  public func metrics(for font: Font) -> FontMetrics {
    withTextEngine { unlockedMetrics(for: font) }
  }

  private func unlockedMetrics(for font: Font) -> FontMetrics {
    if let known = fontMetrics[font] { return known }
    let metrics = pango_context_get_metrics(context, fontDescription(for: font), nil)!
    defer { pango_font_metrics_unref(metrics) }
    let measured = FontMetrics(
      ascent: cpango_units_to_double(pango_font_metrics_get_ascent(metrics)),
      descent: cpango_units_to_double(pango_font_metrics_get_descent(metrics)))
    fontMetrics[font] = measured
    return measured
  }

  private func ellipsizeMode(_ ellipsize: TextStyle.Ellipsize) -> PangoEllipsizeMode {
    switch ellipsize {
    case .none: return PANGO_ELLIPSIZE_NONE
    case .start: return PANGO_ELLIPSIZE_START
    case .middle: return PANGO_ELLIPSIZE_MIDDLE
    case .end: return PANGO_ELLIPSIZE_END
    }
  }

  private func fontDescription(for font: Font) -> OpaquePointer {
    if let description = fontDescriptions[font] { return description }
    let description = font.makePangoDescription()
    fontDescriptions[font] = description
    return description
  }

  /// A color component as Pango's 16-bit channel.
  private func channel(_ value: Double) -> UInt16 { UInt16((min(max(value, 0), 1) * 65535).rounded()) }

  /// Builds a Pango attribute list of `runs` over a text whose scalars start at
  /// `byteOffsets` (the first of which is the text's start); the caller releases it.
  func makeAttributes(_ runs: [TextRun], byteOffsets: ArraySlice<UInt32>) -> OpaquePointer {
    let list = pango_attr_list_new()!
    let origin = byteOffsets.first ?? 0
    func bytes(_ index: Int) -> UInt32 {
      byteOffsets[byteOffsets.startIndex + min(max(index, 0), byteOffsets.count - 1)] - origin
    }
    for run in runs {
      let attributes: [UnsafeMutablePointer<PangoAttribute>]
      switch run.attribute {
      case .weight(let weight):
        attributes = [pango_attr_weight_new(PangoWeight(rawValue: UInt32(weight)))]
      case .italic:
        attributes = [pango_attr_style_new(PANGO_STYLE_ITALIC)]
      case .underline:
        attributes = [pango_attr_underline_new(PANGO_UNDERLINE_SINGLE)]
      case .strikethrough:
        attributes = [pango_attr_strikethrough_new(1)]
      case .color(let color):
        attributes = [
          pango_attr_foreground_new(channel(color.red), channel(color.green), channel(color.blue)),
          pango_attr_foreground_alpha_new(channel(color.alpha)),
        ]
      case .font(let font):
        attributes = [pango_attr_font_desc_new(fontDescription(for: font))]
      case .scale(let factor):
        attributes = [pango_attr_scale_new(factor)]
      case .background(let color):
        attributes = [
          pango_attr_background_new(channel(color.red), channel(color.green), channel(color.blue)),
          pango_attr_background_alpha_new(channel(color.alpha)),
        ]
      case .placeholder(let size):
        let width = cpango_units_from_double(size.width)
        let height = cpango_units_from_double(size.height)
        var rect = PangoRectangle(x: 0, y: -height, width: width, height: height)
        attributes = [pango_attr_shape_new(&rect, &rect)]
      }
      for attribute in attributes {
        attribute.pointee.start_index = bytes(run.range.lowerBound)
        attribute.pointee.end_index = bytes(run.range.upperBound)
        pango_attr_list_insert(list, attribute)
      }
    }
    return list
  }
}
