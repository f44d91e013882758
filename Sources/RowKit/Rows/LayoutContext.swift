import Foundation
import RowKitGraphics

/// Plain or grouped, as `UITableViewStyle`.
public enum TableStyle: String, Hashable, Sendable, CaseIterable {
  /// Rows edge to edge, with headers in bands across the table.
  case plain
  /// Sections in inset rounded groups on the table's background.
  case grouped
}

/// What a cell knows when it lays out a row: the width it has, the table's look, the row's
/// state, the stylesheet, and the shaper that turns text into layouts.
public struct LayoutContext {
  /// The cell's full width: the table's width less a grouped table's side margins.
  public let cellWidth: Double
  /// The accessory the row shows. Its width is already taken out of ``contentWidth``.
  public let accessory: Accessory?
  /// Whether the table is plain or grouped.
  public let tableStyle: TableStyle
  /// Device pixels per point: row heights are whole device pixels at this scale.
  public let scale: Double
  /// Whether the row is drawn selected; labels take their highlighted colors.
  public let isSelected: Bool
  /// The fonts, colors and styles that cells name.
  public let stylesheet: Stylesheet
  /// The shaper that turns the row's text into layouts; ``shape(_:font:width:lines:alignment:ellipsize:maxHeight:runs:)`` uses it.
  public let shaper: TextShaper
  /// The moment relative timestamps count from; without it timestamps show dates.
  public let now: Date?
  /// The stylesheet's sizes: paddings, image slots, accessory widths.
  public let metrics: CellMetrics
  /// The direction the row is laid out in. A cell lays out left to right whatever it is;
  /// ``shape(_:font:width:lines:alignment:ellipsize:maxHeight:runs:)`` swaps left and right
  /// alignment in `rtl`, and the table mirrors the finished row.
  public let direction: LayoutDirection
  /// The pseudo-locale the row's texts are shown in:
  /// ``shape(_:font:width:lines:alignment:ellipsize:maxHeight:runs:)`` transforms every text
  /// it shapes, so no cell handles it.
  public let pseudoLocale: PseudoLocale?
  /// How much longer every text is shaped, as a fraction of its length
  /// (``PseudoLocale/grown(_:by:)``): measured headroom.
  public let textGrowth: Double

  /// A context for one row; without `metrics`, they are read from the stylesheet.
  public init(
    cellWidth: Double, accessory: Accessory?, tableStyle: TableStyle, scale: Double, isSelected: Bool,
    stylesheet: Stylesheet, shaper: TextShaper, now: Date? = nil, metrics: CellMetrics? = nil,
    direction: LayoutDirection = .ltr, pseudoLocale: PseudoLocale? = nil, textGrowth: Double = 0
  ) {
    self.direction = direction
    self.pseudoLocale = pseudoLocale
    self.textGrowth = textGrowth
    self.metrics = metrics ?? (try? CellMetrics(stylesheet)) ?? .default
    self.cellWidth = cellWidth
    self.accessory = accessory
    self.tableStyle = tableStyle
    self.scale = scale
    self.isSelected = isSelected
    self.stylesheet = stylesheet
    self.shaper = shaper
    self.now = now
  }

  /// The width a cell lays its content out in: the cell less the accessory.
  public var contentWidth: Double { max(0, cellWidth - (accessory.map(metrics.width(of:)) ?? 0)) }

  /// The device-pixel grid at this context's scale.
  public var grid: PixelGrid { PixelGrid(scale: scale) }


  /// The font a stylesheet variable or literal names; its family must be loaded.
  public func font(_ reference: FontReference) throws -> Font {
    let font = try stylesheet.font(reference)
    guard shaper.hasFamily(font.family) else {
      throw StyleError(font.familyNotLoadedMessage)
    }
    return font
  }

  /// The color a stylesheet variable or literal names.
  public func color(_ reference: ColorReference) throws -> Color {
    try stylesheet.color(reference)
  }

  /// The color for the row's state: `highlighted` when the row is selected.
  public func color(_ normal: ColorReference, highlighted: ColorReference) throws -> Color {
    try stylesheet.color(isSelected ? highlighted : normal)
  }

  /// Shapes `text` once, aligned as `alignment` in this context's direction: in `rtl` left
  /// and right swap, and name the box's edges whatever the script (Arabic text aligned left
  /// in `ltr`, which Pango puts at the right, goes to the right in `rtl` too, as UIKit aligns
  /// it in a right-to-left layout). Empty text is not shaped and gives nil: a cell leaves the label
  /// out. In a ``pseudoLocale`` the text and its runs are first transformed
  /// (``PseudoLocale/transform(_:runs:)``). Only as much of the text as the label could ever
  /// show is shaped (see ``shownText(_:style:runs:)``): the layout's text is that part,
  /// measured and painted.
  public func shape(
    _ text: String?, font: FontReference, width: Double?, lines: Int = 0,
    alignment: TextStyle.Alignment = .left, ellipsize: TextStyle.Ellipsize = .end,
    maxHeight: Double? = LayoutContext.maximumLabelHeight, runs: [TextRun] = []
  ) throws -> TextLayout? {
    guard let written = text, !written.isEmpty else { return nil }
    var (text, runs) = pseudoLocale?.transform(written, runs: runs) ?? (written, runs)
    if textGrowth > 0 { text = PseudoLocale.grown(text, by: textGrowth) }
    let style = TextStyle(
      font: try self.font(font), width: width.map { max(1, $0) }, maxLines: lines,
      alignment: direction.resolve(alignment), ellipsize: ellipsize, maxHeight: maxHeight,
      isAlignmentVisual: direction.isRightToLeft)
    let shown = Self.shownText(text, style: style, runs: runs)
    return shaper.shape(shown, style: style, runs: shown.utf8.count == text.utf8.count ? runs : Self.runs(runs, within: shown))
  }

  /// The runs that style some of `shown`, cut at its end. Runs past it would only reach Pango
  /// as empty attributes, and Pango sorts and filters its attributes in time that grows with
  /// the square of their number (a 5 MB styled text has hundreds of thousands).
  static func runs(_ runs: [TextRun], within shown: String) -> [TextRun] {
    let end = shown.unicodeScalars.count
    return runs.compactMap { run in
      run.range.lowerBound < end ? TextRun(run.range.lowerBound..<min(run.range.upperBound, end), run.attribute) : nil
    }
  }

  /// Three20's `kMaxLabelHeight`: text taller than this is cut off.
  public static let maximumLabelHeight = Bounds.labelHeight

  /// The start of `text` that a label in `style` can show, in whole grapheme clusters: at
  /// most ``Bounds/maximumLabelCharacters(fontSize:width:lines:)`` of them for the smallest
  /// font the label uses (clusters of format characters alone not counted), and
  /// at most 32 UTF-8 bytes a cluster on average. Text past it lies
  /// below the tallest label or past the widest line, so it could never be seen; leaving it
  /// out keeps layout time within a fixed bound, however long the text.
  ///
  /// A label that ellipsizes at its start or in its middle, at a line limit, shows the end of
  /// the text on its last line: its text is shaped whole.
  public static func shownText(_ text: String, style: TextStyle, runs: [TextRun] = []) -> String {
    if style.width != nil, style.maxLines > 0, style.ellipsize == .start || style.ellipsize == .middle { return text }
    var fontSize = style.font.size
    for run in runs {
      switch run.attribute {
      case .font(let font): fontSize = min(fontSize, font.size)
      case .scale(let factor) where factor > 0: fontSize = min(fontSize, style.font.size * factor)
      default: break
      }
    }
    let limit = Bounds.maximumLabelCharacters(fontSize: fontSize, width: style.width, lines: style.maxLines)
    let byteLimit = limit * 32
    guard text.utf8.count > limit else { return text }
    var clusters = 0
    var bytes = 0
    var end = text.startIndex
    for character in text {
      bytes += character.utf8.count
      // A cluster of format characters alone takes no room: the direction marks a
      // right-to-left pseudo-locale puts around every word, a zero-width space. Counted,
      // they cut off words the label had room for, unseen. They are kept but not counted;
      // the bytes still bound the text.
      let takesRoom = character.unicodeScalars.contains { $0.properties.generalCategory != .format }
      guard !takesRoom || clusters < limit, bytes <= byteLimit else { break }
      if takesRoom { clusters += 1 }
      end = text.index(after: end)
    }
    return String(text[..<end])
  }

  /// A row height that fits `contentHeight`, at least `minimum` (by default the stylesheet's
  /// `tableRowHeight`, Three20's 44), on the pixel grid.
  public func rowHeight(fitting contentHeight: Double, minimum: Double? = nil) -> Double {
    grid.ceil(max(contentHeight, minimum ?? metrics.rowHeight))
  }
}
