import RowKitGraphics

/// One configuration of the variant matrix: a width, a text size, an appearance, a direction
/// and a pseudo-locale, each nil where the matrix does not vary it (the document's own value
/// is used).
///
/// A variant is part of the environment a cell lays out in, as the stylesheet is: applying it
/// gives the table's configuration and stylesheet, and cells read the scaled fonts, the dark
/// colors and the direction from them without knowing the variant.
public struct Variant: Hashable, Sendable, CustomStringConvertible {
  /// The table width, in points; nil keeps the document's.
  public var width: Double?
  /// The text size; nil keeps the document's.
  public var textSize: ContentSizeCategory?
  /// Light or dark; nil keeps the document's.
  public var appearance: Appearance?
  /// The layout direction; nil keeps the document's.
  public var direction: LayoutDirection?
  /// The pseudo-locale the texts are shown in; nil shows them as written.
  public var locale: PseudoLocale?

  /// A variant of the values given, nil for each axis that does not vary.
  public init(
    width: Double? = nil, textSize: ContentSizeCategory? = nil, appearance: Appearance? = nil,
    direction: LayoutDirection? = nil, locale: PseudoLocale? = nil
  ) {
    self.locale = locale
    self.width = width
    self.textSize = textSize
    self.appearance = appearance
    self.direction = direction
  }

  /// The variant's name in file names and manifests: its values joined by commas, in the
  /// order width, appearance, locale, text size, direction (`320pt,dark,en-XA,AX3,rtl`);
  /// empty for no variant. The locale comes before the text size, as the language of a
  /// screen comes before its size in a designer's words (`case@en-XA,AX3.png`).
  public var name: String {
    var parts: [String] = []
    if let width { parts.append(Bounds.format(width) + "pt") }
    if let appearance { parts.append(appearance.rawValue) }
    if let locale { parts.append(locale.rawValue) }
    if let textSize { parts.append(textSize.rawValue) }
    if let direction { parts.append(direction.rawValue) }
    return parts.joined(separator: ",")
  }

  /// The variant's ``name``.
  public var description: String { name }

  /// `configuration` with this variant's width, direction and pseudo-locale. `ar-XB` is a
  /// right-to-left locale: its rows are mirrored whatever the direction says, as Android
  /// lays a right-to-left locale out right to left.
  public func apply(to configuration: TableConfiguration) -> TableConfiguration {
    var configuration = configuration
    if let width { configuration.width = width }
    if let direction { configuration.direction = direction }
    if let locale {
      configuration.pseudoLocale = locale == .source ? nil : locale
      if let direction = locale.direction { configuration.direction = direction }
    }
    return configuration
  }

  /// `stylesheet` at this variant's text size and in its appearance.
  public func apply(to stylesheet: Stylesheet) -> Stylesheet {
    var sheet = stylesheet
    if appearance == .dark { sheet = sheet.inDarkAppearance() }
    if let textSize { sheet = sheet.scalingFonts(to: textSize) }
    return sheet
  }

  /// The path a file of this variant gets: the variant's name goes into the last path
  /// component, before its extension (`out.v2/table.png` → `out.v2/table@dark,AX3.png`), or
  /// at its end when it has none or `hasExtension` is false (a case name, `settings.v2`, to
  /// which `.png` is added later). Every file name of a variant is made here.
  public func fileName(_ path: String, hasExtension: Bool = true) -> String {
    guard !name.isEmpty else { return path }
    let start = path.lastIndex(of: "/").map { path.index(after: $0) } ?? path.startIndex
    let fileName = path[start...]
    // A dot leading the name (`.hidden`) starts no extension.
    let dot = hasExtension ? fileName.lastIndex(of: ".").flatMap { $0 == fileName.startIndex ? nil : $0 } : nil
    guard let dot else { return path + "@" + name }
    return path[..<dot] + "@" + name + path[dot...]
  }
}

/// The axes of a variant matrix, each a list of values (empty: the axis does not vary). The
/// variants are their product, widths outermost.
public struct VariantAxes: Hashable, Sendable {
  /// The widths, in points.
  public var widths: [Double]
  /// The text sizes.
  public var textSizes: [ContentSizeCategory]
  /// The appearances.
  public var appearances: [Appearance]
  /// The layout directions.
  public var directions: [LayoutDirection]
  /// The pseudo-locales.
  public var locales: [PseudoLocale]

  /// Axes of the values given; an axis left empty does not vary.
  public init(
    widths: [Double] = [], textSizes: [ContentSizeCategory] = [], appearances: [Appearance] = [],
    directions: [LayoutDirection] = [], locales: [PseudoLocale] = []
  ) {
    self.locales = locales
    self.widths = widths
    self.textSizes = textSizes
    self.appearances = appearances
    self.directions = directions
  }

  /// Whether no axis varies.
  public var isEmpty: Bool {
    widths.isEmpty && textSizes.isEmpty && appearances.isEmpty && directions.isEmpty && locales.isEmpty
  }

  /// The most values one axis may list, and the most variants a matrix may make.
  public static let maximumValuesPerAxis = Bounds.variantValuesPerAxis
  /// The most variants a matrix may make.
  public static let maximumVariants = Bounds.variants

  /// Every variant, widths outermost, then appearances, then locales, then text sizes, then
  /// directions (the order of ``Variant/name``); one empty variant when no axis varies.
  public var variants: [Variant] {
    let widths: [Double?] = self.widths.isEmpty ? [nil] : self.widths.map { $0 }
    let appearances: [Appearance?] = self.appearances.isEmpty ? [nil] : self.appearances.map { $0 }
    let locales: [PseudoLocale?] = self.locales.isEmpty ? [nil] : self.locales.map { $0 }
    let textSizes: [ContentSizeCategory?] = self.textSizes.isEmpty ? [nil] : self.textSizes.map { $0 }
    let directions: [LayoutDirection?] = self.directions.isEmpty ? [nil] : self.directions.map { $0 }
    return widths.flatMap { width in
      appearances.flatMap { appearance in
        locales.flatMap { locale in
          textSizes.flatMap { textSize in
            directions.map {
              Variant(width: width, textSize: textSize, appearance: appearance, direction: $0, locale: locale)
            }
          }
        }
      }
    }
  }

  /// These axes with each axis `other` varies replaced by `other`'s (flags over a document).
  public func overriding(with other: VariantAxes) -> VariantAxes {
    VariantAxes(
      widths: other.widths.isEmpty ? widths : other.widths,
      textSizes: other.textSizes.isEmpty ? textSizes : other.textSizes,
      appearances: other.appearances.isEmpty ? appearances : other.appearances,
      directions: other.directions.isEmpty ? directions : other.directions,
      locales: other.locales.isEmpty ? locales : other.locales)
  }

  /// The reason these axes are out of bounds, or nil.
  public var problem: String? {
    for (axis, count) in [
      ("width", widths.count), ("textSize", textSizes.count), ("appearance", appearances.count),
      ("direction", directions.count), ("locale", locales.count),
    ]
    where count > Self.maximumValuesPerAxis {
      return "\(axis) lists \(count) values, more than \(Self.maximumValuesPerAxis)"
    }
    for width in widths {
      if let problem = Bounds.problem(width, in: Bounds.tableWidth, unit: "points") { return "width \(problem)" }
    }
    let count =
      max(1, widths.count) * max(1, textSizes.count) * max(1, appearances.count) * max(1, directions.count)
      * max(1, locales.count)
    if count > Self.maximumVariants { return "the axes make \(count) variants, more than \(Self.maximumVariants)" }
    func twice<Value: Hashable>(_ values: [Value]) -> Value? {
      var seen = Set<Value>()
      return values.first { !seen.insert($0).inserted }
    }
    let repeated: [(axis: String, value: String?)] = [
      ("width", twice(widths).map(Bounds.format)), ("textSize", twice(textSizes)?.rawValue),
      ("appearance", twice(appearances)?.rawValue), ("direction", twice(directions)?.rawValue),
      ("locale", twice(locales)?.rawValue),
    ]
    if let (axis, value) = repeated.first(where: { $0.value != nil }) {
      return "the \(axis) axis lists \(value!) twice"
    }
    return nil
  }
}
