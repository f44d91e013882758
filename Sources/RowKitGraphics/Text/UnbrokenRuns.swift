internal import CPango

// Wrapping a long run of text that has no line-break opportunity (a long word, a URL, a
// base64 blob) in time linear in its length.
//
// Pango 1.50 wraps words, and breaks a word between characters only when it is wider than
// the line (`PANGO_WRAP_WORD_CHAR`). For every line that starts inside such a run, it first
// measures the break at the end of the Pango item that holds the rest of the run, shaping
// all of it, and only then breaks between characters: a run of n characters costs time that
// grows with n² (an 18,000-character word, as long as a label can show, took 1.5 s).
//
// So the lines of a run longer than `TextShaper.longestPlainRun` characters are first found
// by laying it out a few lines at a time (see `lineStarts(ofRun:…)`), and the text is then
// laid out whole with a Pango item boundary (an attribute that changes nothing drawn) at
// each of those starts: every line of the run is an item of its own, and Pango measures no
// more than a line at a time. Pango shapes each line's text apart anyway, so the glyphs are
// the ones it makes without the boundaries. The layout is checked: every boundary must start
// a line. A boundary that does not is taken out and the text laid out again, a few times at
// most; past that, the text is laid out without any, as before.
//
// Pango measures the part of an item left for the next line from the widths it shaped the
// whole item with, and a new item by shaping it. In Latin, Greek and Cyrillic these agree
// (texts of every length tested are laid out pixel for pixel as before); in a script whose
// letters join or combine (Arabic), a line of such a run may end one character sooner or
// later than Pango alone would end it.

/// How the layouts with long unbroken runs came out.
struct LongRunOutcomes: Hashable {
  /// Every item boundary held at the first layout.
  var held = 0
  /// Some boundary failed and was taken out; the others held.
  var heldAfterRetries = 0
  /// Too many boundaries failed: laid out without any, as Pango does.
  var laidOutPlainly = 0
}

extension TextShaper {
  /// The longest run without a line-break opportunity left to Pango alone: it shapes at most
  /// this many characters for each line the run spans.
  static let longestPlainRun = 256

  /// How many times a layout is redone without a boundary that failed, before the text is
  /// laid out without boundaries.
  static let boundaryRetries = 4

  /// Sets the attributes of `layout`, which holds `text` in `style`: `runs`, and the item
  /// boundaries that make its long unbroken runs wrap in linear time.
  func setAttributes(of layout: OpaquePointer, text: String, style: TextStyle, runs: [TextRun]) {
    let scalarCount = text.unicodeScalars.count
    let wrapsWords = style.width != nil && style.wrap == .word
    guard !runs.isEmpty || (wrapsWords && scalarCount > Self.longestPlainRun) else { return }
    let byteOffsets = Self.byteOffsets(of: text)
    let styled = runs.isEmpty ? nil : makeAttributes(runs, byteOffsets: byteOffsets[...])
    defer { if let styled { pango_attr_list_unref(styled) } }
    var boundaries =
      wrapsWords && wrapsLongRunsInLinearTime ? predictedLineStarts(text, byteOffsets: byteOffsets, style: style, runs: runs) : []
    let predicted = !boundaries.isEmpty
    var failures = 0
    while true {
      let attributes = Self.attributes(styled, boundaries: boundaries)
      pango_layout_set_attributes(layout, attributes)
      if let attributes { pango_attr_list_unref(attributes) }
      guard !boundaries.isEmpty else {
        if predicted { longRunOutcomes.laidOutPlainly += 1 }
        return
      }
      switch Self.check(layout, boundaries: boundaries) {
      case .holds:
        if failures == 0 { longRunOutcomes.held += 1 } else { longRunOutcomes.heldAfterRetries += 1 }
        return
      case .ellipsized(let lastLineStart):
        // The last line holds all the rest, ellipsized: a boundary in it would split its
        // shaping. Taking them out changes none of the lines above it.
        boundaries.removeAll { $0 > lastLineStart }
      case .fails(let index):
        failures += 1
        if failures > Self.boundaryRetries { boundaries = [] } else { boundaries.remove(at: index) }
      }
    }
  }

  /// The byte offsets where lines start inside `text`'s runs of more than
  /// ``longestPlainRun`` characters without a line-break opportunity; sorted.
  private func predictedLineStarts(_ text: String, byteOffsets: [UInt32], style: TextStyle, runs: [TextRun]) -> [UInt32] {
    let scalarCount = byteOffsets.count - 1
    guard scalarCount > Self.longestPlainRun, Self.mayHaveLongRun(text) else { return [] }
    let bytes = Array(text.utf8)
    return bytes.withUnsafeBufferPointer { buffer in
      // breaks[i].is_line_break: a line may start at scalar i.
      var breaks = [PangoLogAttr](repeating: PangoLogAttr(), count: scalarCount + 1)
      buffer.withMemoryRebound(to: CChar.self) {
        pango_get_log_attrs($0.baseAddress, Int32($0.count), -1, language, &breaks, Int32(breaks.count))
      }
      // An ellipsized last line holds the rest of the text: no line start past it matters.
      let limit = style.maxLines > 0 && style.ellipsize != .none ? style.maxLines - 1 : Int.max
      var starts: [UInt32] = []
      var runStart = 0
      for index in 1...scalarCount where index == scalarCount || breaks[index].is_line_break != 0 {
        if index - runStart > Self.longestPlainRun, limit > 0 {
          let run = runStart..<index
          starts += lineStarts(ofRun: run, limit: limit, bytes: buffer, byteOffsets: byteOffsets, style: style, runs: runs)
        }
        runStart = index
      }
      return starts
    }
  }

  /// Whether `text` may hold a run of more than ``longestPlainRun`` characters without a
  /// line-break opportunity. Finding the opportunities is Pango's work and costs as much as
  /// laying out a paragraph of words; this looks only for breaks that are certain, a line
  /// separator or one space between ASCII letters or digits (Unicode's line-breaking rules
  /// never keep those together), and says no when none is farther than that from the last.
  static func mayHaveLongRun(_ text: String) -> Bool {
    func isLetterOrDigit(_ byte: UInt8) -> Bool {
      (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
    }
    // Counted in bytes, at least as many as characters.
    var sinceBreak = 0
    var previous: (UInt8, UInt8) = (0, 0)
    for byte in text.utf8 {
      // A line may start after a line separator, and at a letter after a space.
      if byte == 0x0A || (byte == 0xA8 && previous == (0xE2, 0x80)) {  // \n, U+2028
        sinceBreak = 0
      } else if previous.1 == 0x20 && isLetterOrDigit(previous.0) && isLetterOrDigit(byte) {
        sinceBreak = 1
      } else {
        sinceBreak += 1
      }
      if sinceBreak > longestPlainRun { return true }
      previous = (previous.1, byte)
    }
    return false
  }

  /// Where the lines after the first start inside the scalars `run` of a text (whose UTF-8
  /// `bytes` and scalar `byteOffsets` these are), as byte offsets in the text; the first
  /// `limit` of them at most.
  ///
  /// The run is laid out in windows of a few lines, each from the start of a line: Pango's
  /// time grows with the square of the text it is given, and a window is short. A line
  /// inside the run breaks where it does whatever follows the run, as long as the run goes on
  /// past it, so each window's lines are the text's lines, the last one's start included (the
  /// window's end may shorten only that line).
  private func lineStarts(
    ofRun run: Range<Int>, limit: Int, bytes: UnsafeBufferPointer<UInt8>, byteOffsets: [UInt32], style: TextStyle,
    runs: [TextRun]
  ) -> [UInt32] {
    var starts: [UInt32] = []
    var start = run.lowerBound
    var windowLength = Self.longestPlainRun
    while true {
      let window = start..<min(start + windowLength, run.upperBound)
      let lines = windowLineStarts(window, bytes: bytes, byteOffsets: byteOffsets, style: style, runs: runs)
      starts += lines
      if starts.count >= limit { return Array(starts.prefix(limit)) }
      if window.upperBound == run.upperBound { return starts }
      guard let last = lines.last else {
        windowLength *= 2  // the window fits on one line
        continue
      }
      // The next window starts with the last line; about four lines a window.
      let next = Self.scalarIndex(of: last, in: byteOffsets)
      windowLength = max(64, 4 * (next - start) / lines.count)
      start = next
    }
  }

  /// The starts of the lines after the first when the scalars `window` of a text are laid
  /// out alone, as byte offsets in the text.
  private func windowLineStarts(
    _ window: Range<Int>, bytes: UnsafeBufferPointer<UInt8>, byteOffsets: [UInt32], style: TextStyle, runs: [TextRun]
  ) -> [UInt32] {
    let origin = byteOffsets[window.lowerBound]
    let text = UnsafeBufferPointer(rebasing: bytes[Int(origin)..<Int(byteOffsets[window.upperBound])])
    let alone = makeLayout(text, font: style.font, width: style.width, wrap: PANGO_WRAP_WORD_CHAR)
    defer { cpango_object_unref(UnsafeMutableRawPointer(alone)) }
    let windowRuns = runs.compactMap { textRun -> TextRun? in
      let clipped = textRun.range.clamped(to: window)
      guard !clipped.isEmpty else { return nil }
      return TextRun((clipped.lowerBound - window.lowerBound)..<(clipped.upperBound - window.lowerBound), textRun.attribute)
    }
    if !windowRuns.isEmpty {
      let attributes = makeAttributes(windowRuns, byteOffsets: byteOffsets[window.lowerBound...window.upperBound])
      pango_layout_set_attributes(alone, attributes)
      pango_attr_list_unref(attributes)
    }
    return Self.lines(of: alone).dropFirst().map { origin + UInt32($0.pointee.start_index) }
  }

  /// The index of the scalar that starts at byte `offset`.
  private static func scalarIndex(of offset: UInt32, in byteOffsets: [UInt32]) -> Int {
    var (low, high) = (0, byteOffsets.count - 1)
    while low < high {
      let middle = (low + high) / 2
      if byteOffsets[middle] < offset { low = middle + 1 } else { high = middle }
    }
    return low
  }

  /// `styled` (or no attributes) and an item boundary at each of `boundaries`: a Pango
  /// fallback attribute that allows font fallback, as Pango does anyway, over each stretch
  /// between two of them. The caller releases the list.
  private static func attributes(_ styled: OpaquePointer?, boundaries: [UInt32]) -> OpaquePointer? {
    guard !boundaries.isEmpty else { return styled.map { pango_attr_list_ref($0) } }
    let list = styled.map { pango_attr_list_copy($0)! } ?? pango_attr_list_new()!
    let edges = [0] + boundaries + [UInt32.max]
    for index in 0..<(edges.count - 1) {
      let attribute = pango_attr_fallback_new(1)!
      attribute.pointee.start_index = edges[index]
      attribute.pointee.end_index = edges[index + 1]
      pango_attr_list_insert(list, attribute)
    }
    return list
  }

  private enum Check {
    /// Every boundary starts a line.
    case holds
    /// The layout's last line is ellipsized and starts here: boundaries past it must go.
    case ellipsized(lastLineStart: UInt32)
    /// The boundary at this index of the boundaries starts no line.
    case fails(index: Int)
  }

  private static func check(_ layout: OpaquePointer, boundaries: [UInt32]) -> Check {
    let starts = lines(of: layout).map { UInt32($0.pointee.start_index) }
    if pango_layout_is_ellipsized(layout) != 0, let last = starts.last, let boundary = boundaries.last, boundary > last {
      return .ellipsized(lastLineStart: last)
    }
    var line = 0
    for (index, boundary) in boundaries.enumerated() {
      while line < starts.count, starts[line] < boundary { line += 1 }
      guard line < starts.count, starts[line] == boundary else { return .fails(index: index) }
    }
    return .holds
  }

  /// The lines of `layout`, top down; laying it out if it is not yet.
  private static func lines(of layout: OpaquePointer) -> [UnsafeMutablePointer<PangoLayoutLine>] {
    var lines: [UnsafeMutablePointer<PangoLayoutLine>] = []
    var node = pango_layout_get_lines_readonly(layout)
    while let current = node {
      if let line = current.pointee.data { lines.append(line.assumingMemoryBound(to: PangoLayoutLine.self)) }
      node = current.pointee.next
    }
    return lines
  }
}
