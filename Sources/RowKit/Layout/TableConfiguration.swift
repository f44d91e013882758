import Foundation
import RowKitGraphics

/// A table's size and look: the document's `table:` block, or command-line flags.
public struct TableConfiguration: Hashable, Sendable {
  /// The table's width in points.
  public var width: Double
  /// Device pixels per point.
  public var scale: Double
  public var style: TableStyle
  /// Every row this tall, or nil for rows as tall as their content.
  public var rowHeight: Double?
  /// The moment relative timestamps count from; nil shows dates.
  public var now: Date?
  /// The BCP 47 language of the table's text (`ja`, `zh-Hant`, `ar`…), nil for none. It picks
  /// the regional forms of Han characters and guides line breaking (see
  /// ``TextEnvironment/fallbackFamilies(fileFamilies:)``).
  public var language: String?

  public init(
    width: Double = 375, scale: Double = 2, style: TableStyle = .plain, rowHeight: Double? = nil, now: Date? = nil,
    language: String? = nil
  ) {
    self.language = language
    self.width = width
    self.scale = scale
    self.style = style
    self.rowHeight = rowHeight
    self.now = now
  }

  /// Bounds that keep any input from exhausting memory.
  public static let widthRange = 64.0...4096.0
  public static let scaleRange = 0.5...4.0
  public static let rowHeightRange = 1.0...2000.0
  public static let maximumPixelWidth = 8192
  public static let maximumRows = 100_000

  /// The reason this configuration is out of bounds, or nil.
  public var problem: String? {
    guard width.isFinite, Self.widthRange.contains(width) else {
      return "width \(Self.format(width)) is out of range (\(Self.format(Self.widthRange.lowerBound)) to \(Self.format(Self.widthRange.upperBound)) points)"
    }
    guard scale.isFinite, Self.scaleRange.contains(scale) else {
      return "scale \(Self.format(scale)) is out of range (\(Self.format(Self.scaleRange.lowerBound)) to \(Self.format(Self.scaleRange.upperBound)))"
    }
    guard (width * scale).rounded() <= Double(Self.maximumPixelWidth) else {
      return "width × scale is \(Int(width * scale)) pixels, more than \(Self.maximumPixelWidth)"
    }
    if let rowHeight, !(rowHeight.isFinite && Self.rowHeightRange.contains(rowHeight)) {
      return "rowHeight \(Self.format(rowHeight)) is out of range (1 to 2000 points)"
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

  static func format(_ value: Double) -> String {
    value.rounded() == value && abs(value) < 1e15 ? String(Int(value)) : String(value)
  }

  /// The table's width in device pixels.
  public var pixelWidth: Int { Int((width * scale).rounded()) }

  public var grid: PixelGrid { PixelGrid(scale: scale) }
}
