import RowKitGraphics

/// Every bound on a number that a table document, a stylesheet (its variables and its style
/// elements) or a cell design file gives, in one place. Each loader checks each number it
/// reads against one of these ranges when the file loads, and names the file, the line and
/// the key of a number out of range; layout and painting then only ever see numbers that
/// turn into pixels without overflow. The table of bounds in RowKit's "Table documents" article lists them.
public enum Bounds {
  // MARK: The table

  /// The table's width in points (`table.width`, `--width`).
  public static let tableWidth = 64.0...4096.0
  /// Device pixels per point (`table.scale`, `--scale`).
  public static let scale = 0.5...4.0
  /// The most device pixels a table may be wide (width × scale).
  public static let maximumPixelWidth = 8192
  /// A fixed row height in points (`table.rowHeight`, the stylesheet's `tableRowHeight`).
  public static let rowHeight = 1.0...2000.0
  /// The most rows a document may have.
  public static let maximumRows = 100_000
  /// The tallest a laid-out row may be, in points: a row's PNG is one Cairo surface, at most
  /// 32767 pixels tall, and 8000 points stay under it at the largest scale.
  public static let maximumLaidOutRowHeight = 8000.0
  /// The most values one axis of a variant matrix (`variants:`, `--variant-width`…) lists.
  public static let variantValuesPerAxis = 16
  /// The most stylesheets in one `extends:` chain, the document's own included.
  public static let stylesheetChain = 64
  /// The most variants (the product of the axes) one document renders.
  public static let variants = 256
  /// The most pixels a variants contact sheet holds (256 MB of BGRA): columns side by side
  /// multiply a table's size by the number of variants.
  public static let contactSheetPixels = 64 * 1024 * 1024

  // MARK: Rendering and loading images (`rowkit`'s flags, the pipeline's configuration)

  /// Seconds one image request may take (`--timeout`, ``ImagePipeline/Configuration/requestTimeout``).
  public static let requestTimeout = 0.001...3600.0
  /// Seconds a render waits for its images (`--deadline`, ``TableRenderer/imageDeadline``).
  public static let imageDeadline = 0.001...86_400.0
  /// Image downloads at once (`--downloads`).
  public static let concurrentDownloads = 1.0...64.0
  /// The HTTP image cache's size, in megabytes (`--http-cache-size`): up to a tebibyte.
  public static let httpCacheMegabytes = 1.0...1_048_576.0
  /// Seconds an image stays fresh in the HTTP cache (`--http-cache-age`): up to a year.
  public static let httpCacheAge = 0.0...31_536_000.0
  /// Threads laying out and painting, or checking, at once (`--jobs`).
  public static let jobs = 1.0...256.0
  /// The tallest table PNG, in pixels (`--max-png-height`): libpng reads no taller image.
  public static let pngHeight = 1.0...1_000_000.0
  /// Seconds a render runs before its progress bar shows (`--progress-after`).
  public static let progressDelay = 0.0...3600.0

  // MARK: Sizes in stylesheets and design files, in points

  /// Image slots, minimum and fixed row heights, header heights, spacer lengths, the sizes of
  /// `style` items and inline images.
  public static let length = 0.0...2000.0
  /// Widths that may span the table: caption and accessory widths, separator insets.
  public static let width = 0.0...tableWidth.upperBound
  /// Paddings, spacings and margins.
  public static let padding = 0.0...1000.0
  /// The insets of the `inset` and `box` style elements, which may be negative.
  public static let inset = -1000.0...1000.0
  /// Shadow, text-shadow and speech-bubble offsets and sizes.
  public static let offset = -1000.0...1000.0
  /// Corner radii; -1 rounds a whole side (a pill).
  public static let radius = -1.0...1000.0
  /// Shadow blur radii.
  public static let blur = 0.0...100.0
  /// Border widths.
  public static let borderWidth = 0.01...100.0
  /// How much of the free space a stack, a label or a spacer takes (`grow`).
  public static let grow = 0.0...1000.0
  /// A bevel border's light source, in degrees.
  public static let angle = -360.0...360.0
  /// A speech bubble's point location and angle, in degrees.
  public static let turn = 0.0...360.0
  /// Gradient locations and slider values.
  public static let fraction = 0.0...1.0
  /// A label's line limit; 0 means none.
  public static let lines = 0...1000
  /// Font sizes, in points.
  public static let fontSize = 1.0...Font.maximumSize
  /// Any other number variable of a stylesheet; where it is used, the bound of that use
  /// applies too.
  public static let number = -10_000.0...10_000.0

  // MARK: Text

  /// The tallest a label may be, in points (Three20's `kMaxLabelHeight`); lines below are cut
  /// off.
  public static let labelHeight = 2000.0
  /// The least height of a line, as a fraction of the font size. The fonts RowKit loads
  /// draw lines of 1.17 (Noto Sans Arabic) to 1.5 times their size; Inter's are 1.22.
  public static let minimumLineHeight = 1.0
  /// The least advance of a grapheme cluster that shows something, as a fraction of the font
  /// size: Inter's narrowest letters and marks (i, l, the apostrophe) advance 0.22 to 0.24.
  /// Only runs of spaces narrower than a thin space and of invisible characters pack
  /// tighter, and they show nothing.
  public static let minimumAdvance = 0.2

  /// The most grapheme clusters a label in `font` can show in a frame `width` points wide
  /// (nil: the widest table) and at most `lines` lines (0: no limit) of a label at most
  /// ``labelHeight`` tall. Text past it could never be seen; a label shapes only this much of
  /// its text (unless it ellipsizes at its start or middle, and so shows the text's end), so
  /// that no text, however long, takes longer to lay out than this much does.
  public static func maximumLabelCharacters(fontSize: Double, width: Double?, lines: Int) -> Int {
    let size = max(fontSize.isFinite ? fontSize : 0, Self.fontSize.lowerBound)
    let frameWidth = min(max(width ?? tableWidth.upperBound, 1), tableWidth.upperBound)
    let perLine = (frameWidth / (size * minimumAdvance)).rounded(.up)
    var lineCount = (labelHeight / (size * minimumLineHeight)).rounded(.up)
    if lines > 0 { lineCount = min(lineCount, Double(lines)) }
    return Int(perLine * lineCount) + 1
  }

  // MARK: Checking

  /// Why `value` is outside `range`, or nil: `1e+308 is out of range (0 to 1000)`.
  public static func problem(_ value: Double, in range: ClosedRange<Double>, unit: String = "") -> String? {
    guard value.isFinite, range.contains(value) else {
      return "\(format(value)) is out of range (\(describe(range, unit: unit)))"
    }
    return nil
  }

  /// A range as messages and help texts give it: `0.001 to 3600 seconds`.
  public static func describe(_ range: ClosedRange<Double>, unit: String = "") -> String {
    "\(format(range.lowerBound)) to \(format(range.upperBound))" + (unit.isEmpty ? "" : " \(unit)")
  }

  /// A number as a user would write it: whole numbers without a fraction.
  public static func format(_ value: Double) -> String {
    value.rounded() == value && abs(value) < 1e15 ? String(Int(value)) : String(value)
  }
}
