import Foundation
import RowKitGraphics

/// A table's size and look: the document's `table:` block, or command-line flags.
public struct TableConfiguration: Hashable, Sendable {
  /// The table's width in points.
  public var width: Double
  /// Device pixels per point.
  public var scale: Double
  /// Plain or grouped.
  public var style: TableStyle
  /// Every row this tall, or nil for rows as tall as their content.
  public var rowHeight: Double?
  /// The moment relative timestamps count from; nil shows dates.
  public var now: Date?
  /// The BCP 47 language of the table's text (`ja`, `zh-Hant`, `ar`…), nil for none. It picks
  /// the regional forms of Han characters and guides line breaking (see
  /// `TextEnvironment.fallbackFamilies(fileFamilies:)` in RowKitGraphics).
  public var language: String?
  /// The direction rows are laid out in; `rtl` mirrors them (``RowLayout``'s
  /// `mirrored(in:)`).
  public var direction: LayoutDirection
  /// The pseudo-locale every text of the table is shown in, nil for the texts as written.
  public var pseudoLocale: PseudoLocale?
  /// How much longer every text is drawn, as a fraction of its length (0.2: 20% longer),
  /// padded with en-XA's words: what measured headroom lays rows out with
  /// (``TableRenderer/headroom(_:shaper:)``). 0 draws the texts as they are.
  public var textGrowth: Double = 0

  /// A configuration; by default a plain table 375 points wide at scale 2, rows as tall as their content.
  public init(
    width: Double = 375, scale: Double = 2, style: TableStyle = .plain, rowHeight: Double? = nil, now: Date? = nil,
    language: String? = nil, direction: LayoutDirection = .ltr, pseudoLocale: PseudoLocale? = nil
  ) {
    self.pseudoLocale = pseudoLocale
    self.direction = direction
    self.language = language
    self.width = width
    self.scale = scale
    self.style = style
    self.rowHeight = rowHeight
    self.now = now
  }

  /// Bounds that keep any input from exhausting memory (``Bounds`` defines them).
  public static let widthRange = Bounds.tableWidth
  /// The scales allowed.
  public static let scaleRange = Bounds.scale
  /// The fixed row heights allowed, in points.
  public static let rowHeightRange = Bounds.rowHeight
  /// The widest table allowed, in device pixels.
  public static let maximumPixelWidth = Bounds.maximumPixelWidth
  /// The most rows a table may have.
  public static let maximumRows = Bounds.maximumRows

  /// The reason this configuration is out of bounds, or nil.
  public var problem: String? {
    if let problem = Bounds.problem(width, in: Self.widthRange, unit: "points") { return "width \(problem)" }
    if let problem = Bounds.problem(scale, in: Self.scaleRange) { return "scale \(problem)" }
    guard (width * scale).rounded() <= Double(Self.maximumPixelWidth) else {
      return "width × scale is \(Bounds.format(width * scale)) pixels, more than \(Self.maximumPixelWidth)"
    }
    if let rowHeight, let problem = Bounds.problem(rowHeight, in: Self.rowHeightRange, unit: "points") {
      return "rowHeight \(problem)"
    }
    if let language, !Self.isLanguageTag(language) {
      return "language '\(language)' is not a BCP 47 language tag such as en, ja, zh-Hant or pt-BR"
    }
    return nil
  }

  /// Whether `tag` has the shape of a BCP 47 tag: a 2–3 letter language, then subtags of
  /// 1–8 letters or digits.
  static func isLanguageTag(_ tag: String) -> Bool {
    let parts = tag.split(separator: "-", omittingEmptySubsequences: false)
    guard let primary = parts.first, (2...3).contains(primary.count), primary.allSatisfy({ $0.isASCII && $0.isLetter })
    else { return false }
    return parts.dropFirst().allSatisfy { part in
      (1...8).contains(part.count) && part.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
    }
  }

  /// The text environment for this table: RowKit's fonts in the table's language.
  public var textEnvironment: TextEnvironment {
    language.map { TextEnvironment.standard(language: $0) } ?? .standard
  }

  /// The table's width in device pixels.
  public var pixelWidth: Int { Int((width * scale).rounded()) }

  /// The device-pixel grid at this configuration's scale.
  public var grid: PixelGrid { PixelGrid(scale: scale) }
}
