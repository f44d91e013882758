internal import CPango

/// Shaped text: one Pango layout, measured once and painted as it is.
///
/// A layout belongs to the ``TextShaper`` (and thread) that made it.
public final class TextLayout {
  /// The text the layout shaped.
  public let text: String
  /// The style the text was shaped with.
  public let style: TextStyle
  /// The text's logical extents relative to the layout's origin, in points. The origin may
  /// be off zero: centered, right-aligned and right-to-left text starts inside the width.
  public let logicalRect: Rect
  /// Where ink actually falls; may reach past ``logicalRect`` (italic overhang, accents).
  public let inkRect: Rect
  /// The lines shown, after line limits.
  public let lineCount: Int
  /// Whether an ellipsis replaced some of the text.
  public let isEllipsized: Bool
  /// Glyphs drawn as boxes because no loaded font has their character, and glyphs of a font
  /// whose file could not be opened when it was first drawn (which Pango draws as nothing).
  public let unknownGlyphCount: Int
  /// The characters no loaded font can draw (or whose font's file could not be opened), each
  /// once, in the order they first appear.
  public let missingCharacters: [Unicode.Scalar]
  /// The first line's baseline, down from the layout's top, in points.
  public let baseline: Double
  /// Whether the first paragraph runs right to left.
  public let isRightToLeft: Bool
  /// Whether lines were cut off below ``logicalRect`` (a line limit without ellipsizing, or a
  /// maximum height); the painter clips to it.
  public let isClipped: Bool
  /// The runs the text was shaped with, over the scalars of ``text``: what colors, fonts and
  /// highlights parts of it, for readers of the pixels (the contrast lint) to know which.
  public let runs: [TextRun]

  let layout: OpaquePointer
  /// The shaper whose fonts this layout draws with; kept alive as long as the layout is.
  let shaper: TextShaper

  /// The text as Pango holds it (newlines become line separators under a line limit).
  private let shapedText: String

  init(layout: OpaquePointer, text: String, shapedText: String, style: TextStyle, runs: [TextRun], shaper: TextShaper) {
    self.layout = layout
    self.shaper = shaper
    self.shapedText = shapedText
    self.text = text
    self.style = style
    self.runs = runs
    var ink = PangoRectangle()
    var logical = PangoRectangle()
    pango_layout_get_extents(layout, &ink, &logical)
    func rect(_ r: PangoRectangle) -> Rect {
      Rect(
        x: cpango_units_to_double(r.x), y: cpango_units_to_double(r.y),
        width: cpango_units_to_double(r.width), height: cpango_units_to_double(r.height))
    }
    var logicalRect = rect(logical)
    var lines = Int(pango_layout_get_line_count(layout))
    var clipped = false
    if style.maxLines > 0, lines > style.maxLines {
      // Only without ellipsizing can Pango lay out more lines than the limit.
      logicalRect.size.height = TextLayout.bottomOfLine(style.maxLines - 1, in: layout) - logicalRect.y
      lines = style.maxLines
      clipped = true
    }
    if let maxHeight = style.maxHeight, logicalRect.height > maxHeight {
      logicalRect.size.height = maxHeight
      clipped = true
    }
    self.logicalRect = logicalRect
    self.inkRect = rect(ink)
    self.lineCount = lines
    self.isClipped = clipped
    self.isEllipsized = pango_layout_is_ellipsized(layout) != 0
    var unknownGlyphs = Int(pango_layout_get_unknown_glyphs_count(layout))
    var missing = unknownGlyphs == 0 ? [] : TextLayout.missingCharacters(in: layout)
    let unopened = shaper.unopenedFontFiles
    if !unopened.isEmpty {
      let blank = TextLayout.characters(drawnFrom: unopened, in: layout, text: shapedText)
      unknownGlyphs += blank.glyphs
      missing += blank.characters.filter { !missing.contains($0) }
    }
    self.unknownGlyphCount = unknownGlyphs
    self.missingCharacters = missing
    self.baseline = cpango_units_to_double(pango_layout_get_baseline(layout))
    self.isRightToLeft = pango_layout_get_direction(layout, 0) == PANGO_DIRECTION_RTL
  }

  deinit {
    let layout = self.layout
    shaper.withTextEngine { cpango_object_unref(UnsafeMutableRawPointer(layout)) }
  }

  /// The size of the logical extents.
  public var size: Size { logicalRect.size }

  /// Where the character at `offset` (in Unicode scalars) sits, relative to the layout's
  /// origin: its advance box from the top of its line, and that line's baseline. For a
  /// placeholder run, the box of size `size` standing on the baseline.
  public func placeholderRect(atScalarOffset offset: Int, size: Size) -> Rect? {
    shaper.withTextEngine { unlockedPlaceholderRect(atScalarOffset: offset, size: size) }
  }

  private func unlockedPlaceholderRect(atScalarOffset offset: Int, size: Size) -> Rect? {
    let byteOffsets = scalarByteOffsets
    guard offset >= 0, offset < byteOffsets.count - 1 else { return nil }
    let byteIndex = Int32(byteOffsets[offset])
    var position = PangoRectangle()
    pango_layout_index_to_pos(layout, byteIndex, &position)
    // The baseline of the line holding the index: the last line starting at or before it
    // (the first line if none holds it).
    let lines = lineBaselines
    var (low, high) = (0, lines.count)
    while low < high {
      let middle = (low + high) / 2
      if lines[middle].start <= byteIndex { low = middle + 1 } else { high = middle }
    }
    var baseline = lines.first?.baseline ?? 0
    if low > 0, byteIndex < lines[low - 1].end { baseline = lines[low - 1].baseline }
    let x = cpango_units_to_double(min(position.x, position.x + position.width))
    return Rect(x: x, y: cpango_units_to_double(baseline) - size.height, width: size.width, height: size.height)
  }

  /// Where each line that shows starts (its top above the bottom of ``logicalRect``), in
  /// UTF-8 bytes of the shaped text; for tests.
  var linesInView: [Int] {
    shaper.withTextEngine {
      let iterator = pango_layout_get_iter(layout)!
      defer { pango_layout_iter_free(iterator) }
      var starts: [Int] = []
      repeat {
        var top: Int32 = 0
        var bottom: Int32 = 0
        pango_layout_iter_get_line_yrange(iterator, &top, &bottom)
        guard cpango_units_to_double(top) < logicalRect.maxY else { break }
        starts.append(Int(pango_layout_iter_get_line_readonly(iterator)!.pointee.start_index))
      } while pango_layout_iter_next_line(iterator) != 0
      return starts
    }
  }

  /// The UTF-8 offset of each Unicode scalar of the shaped text, and of its end: found once,
  /// so that a text with many inline images is not walked once per image.
  private lazy var scalarByteOffsets = TextShaper.byteOffsets(of: shapedText)

  /// Each line's byte range in the shaped text and its baseline, in Pango units, top down.
  private lazy var lineBaselines: [(start: Int32, end: Int32, baseline: Int32)] = {
    var lines: [(start: Int32, end: Int32, baseline: Int32)] = []
    let iterator = pango_layout_get_iter(layout)!
    defer { pango_layout_iter_free(iterator) }
    repeat {
      let line = pango_layout_iter_get_line_readonly(iterator)!
      let start = line.pointee.start_index
      lines.append((start, start + line.pointee.length, pango_layout_iter_get_baseline(iterator)))
    } while pango_layout_iter_next_line(iterator) != 0
    return lines
  }()

  /// One glyph the layout draws: the box its ink fills, relative to the layout's origin (as
  /// ``TextLayout/inkRect``), and the offset, in Unicode scalars of ``TextLayout/text``, of
  /// the character it draws.
  public struct GlyphInk: Hashable, Sendable {
    /// Where the glyph puts ink, in points from the layout's origin.
    public var rect: Rect
    /// The first Unicode scalar of the glyph's cluster in ``TextLayout/text``.
    public var scalarOffset: Int
  }

  /// The ink box of every glyph drawn, in visual order line by line; glyphs of lines cut off
  /// below ``logicalRect`` and glyphs without ink (spaces) are left out. The text's one
  /// ``inkRect`` holds the gaps between words and lines too: pixels there are not under any
  /// glyph.
  public func glyphInks() -> [GlyphInk] {
    shaper.withTextEngine {
      let byteOffsets = scalarByteOffsets
      func scalarOffset(atByte byte: Int) -> Int {
        var (low, high) = (0, byteOffsets.count)
        while low < high {
          let middle = (low + high) / 2
          if Int(byteOffsets[middle]) <= byte { low = middle + 1 } else { high = middle }
        }
        return max(0, low - 1)
      }
      var inks: [GlyphInk] = []
      let iterator = pango_layout_get_iter(layout)!
      defer { pango_layout_iter_free(iterator) }
      repeat {
        guard let run = pango_layout_iter_get_run_readonly(iterator), let item = run.pointee.item,
          let glyphs = run.pointee.glyphs, let font = item.pointee.analysis.font
        else { continue }
        var runLogical = PangoRectangle()
        pango_layout_iter_get_run_extents(iterator, nil, &runLogical)
        let baseline = pango_layout_iter_get_baseline(iterator)
        var x = runLogical.x
        for index in 0..<Int(glyphs.pointee.num_glyphs) {
          let info = glyphs.pointee.glyphs[index]
          var ink = PangoRectangle()
          pango_font_get_glyph_extents(font, info.glyph, &ink, nil)
          if ink.width > 0, ink.height > 0 {
            let rect = Rect(
              x: cpango_units_to_double(x + info.geometry.x_offset + ink.x),
              y: cpango_units_to_double(baseline + info.geometry.y_offset + ink.y),
              width: cpango_units_to_double(ink.width), height: cpango_units_to_double(ink.height))
            if !isClipped || rect.minY < logicalRect.maxY {
              let cluster = Int(item.pointee.offset) + Int(glyphs.pointee.log_clusters[index])
              inks.append(GlyphInk(rect: rect, scalarOffset: scalarOffset(atByte: cluster)))
            }
          }
          x += info.geometry.width
        }
      } while pango_layout_iter_next_run(iterator) != 0
      return inks
    }
  }

  /// Pango draws a character no font has as a box glyph that carries the character's
  /// code point under this flag (`PANGO_GLYPH_UNKNOWN_FLAG`, a cast macro Swift cannot
  /// import).
  private static let unknownGlyphFlag: UInt32 = 0x1000_0000

  private static func missingCharacters(in layout: OpaquePointer) -> [Unicode.Scalar] {
    var found: [Unicode.Scalar] = []
    var seen = Set<UInt32>()
    forEachGlyph(in: layout) { _, glyph, _ in
      guard glyph & unknownGlyphFlag != 0 else { return }
      let value = glyph & ~unknownGlyphFlag
      if seen.insert(value).inserted, let scalar = Unicode.Scalar(value) { found.append(scalar) }
    }
    return found
  }

  /// How many glyphs of `layout` are drawn in fonts loaded from `files`, and their
  /// characters, each once: text whose font's face could not be opened.
  private static func characters(
    drawnFrom files: Set<String>, in layout: OpaquePointer, text: String
  ) -> (glyphs: Int, characters: [Unicode.Scalar]) {
    var glyphs = 0
    var offsets = Set<Int>()
    forEachGlyph(in: layout) { font, glyph, byteOffset in
      guard glyph & unknownGlyphFlag == 0, let font, let file = cpango_font_file(font), files.contains(String(cString: file))
      else { return }
      glyphs += 1
      offsets.insert(byteOffset)
    }
    var characters: [Unicode.Scalar] = []
    var byteOffset = 0
    for scalar in text.unicodeScalars {
      if offsets.contains(byteOffset), !characters.contains(scalar) { characters.append(scalar) }
      byteOffset += UTF8.width(scalar)
    }
    return (glyphs, characters)
  }

  /// Calls `body` with each shaped glyph's font, glyph id and the byte offset of its
  /// cluster in the layout's text.
  private static func forEachGlyph(
    in layout: OpaquePointer, _ body: (_ font: UnsafeMutablePointer<PangoFont>?, _ glyph: UInt32, _ byteOffset: Int) -> Void
  ) {
    let iterator = pango_layout_get_iter(layout)!
    defer { pango_layout_iter_free(iterator) }
    repeat {
      guard let run = pango_layout_iter_get_run_readonly(iterator), let item = run.pointee.item,
        let glyphs = run.pointee.glyphs
      else { continue }
      let offset = Int(item.pointee.offset)
      for index in 0..<Int(glyphs.pointee.num_glyphs) {
        body(
          item.pointee.analysis.font, glyphs.pointee.glyphs[index].glyph,
          offset + Int(glyphs.pointee.log_clusters[index]))
      }
    } while pango_layout_iter_next_run(iterator) != 0
  }

  /// Which family draws each stretch of the text: runs of characters drawn by one font, with
  /// nil for characters that no loaded font has.
  public func fontRuns() -> [(text: String, family: String?)] {
    shaper.withTextEngine { unlockedFontRuns().map { ($0.text, $0.family) } }
  }

  /// Which font draws each stretch of the text: runs of characters drawn by one font, with
  /// the font's family and the file it was loaded from (nil for characters that no loaded
  /// font has), for layout records.
  public func fontFileRuns() -> [(text: String, family: String?, file: String?)] {
    shaper.withTextEngine { unlockedFontRuns() }
  }

  private func unlockedFontRuns() -> [(text: String, family: String?, file: String?)] {
    typealias Face = (family: String?, file: String?)
    var faceAtCluster: [Int: Face] = [:]
    TextLayout.forEachGlyph(in: layout) { font, glyph, byteOffset in
      if glyph & TextLayout.unknownGlyphFlag != 0 || font == nil {
        faceAtCluster[byteOffset] = (nil, nil)
      } else if faceAtCluster[byteOffset] == nil, let font {
        let description = pango_font_describe(font)
        defer { pango_font_description_free(description) }
        faceAtCluster[byteOffset] = (
          pango_font_description_get_family(description).map { String(cString: $0) },
          cpango_font_file(font).map { String(cString: $0) }
        )
      }
    }
    var runs: [(text: String, family: String?, file: String?)] = []
    var byteOffset = 0
    var current: Face? = nil
    for scalar in shapedText.unicodeScalars {
      if let face = faceAtCluster[byteOffset] { current = face }
      let face = current ?? (nil, nil)
      if let last = runs.last, last.family == face.family, last.file == face.file {
        runs[runs.count - 1].text.unicodeScalars.append(scalar)
      } else {
        runs.append((String(scalar), face.family, face.file))
      }
      byteOffset += UTF8.width(scalar)
    }
    return runs
  }

  private static func bottomOfLine(_ index: Int, in layout: OpaquePointer) -> Double {
    let iterator = pango_layout_get_iter(layout)!
    defer { pango_layout_iter_free(iterator) }
    var line = 0
    while line < index, pango_layout_iter_next_line(iterator) != 0 { line += 1 }
    var y0: Int32 = 0
    var y1: Int32 = 0
    pango_layout_iter_get_line_yrange(iterator, &y0, &y1)
    return cpango_units_to_double(y1)
  }
}
