import RowKitGraphics

/// The font a label draws with: a stylesheet variable, whose value the stylesheet in use
/// decides (`tableFont`, Three20's names), or a font of its own.
///
/// A string literal is read as one or the other: `"tableFont"` names the variable and
/// `"Inter Bold 17"`, a Pango font description with a size, is that font. A literal that is
/// neither (`"Inter Bold"`, without a size) is kept as the name of a variable: a stylesheet
/// that defines one by that name gives its font, and any other makes the row's layout throw
/// a ``StyleError`` naming the literal, as a misspelled variable does (it never stops the
/// program). Text read at run time goes through ``init(parsing:)``, which throws at once.
/// Any stylesheet variable, whatever its name, can be named with ``variable(_:)``.
///
/// ```swift
/// let style = TextCell.Style(font: "tableFont", color: "linkTextColor")
/// let bold = TextCell.Style(font: .font(Font(family: "Inter", size: 17, weight: 700)), color: .color(.black))
/// ```
public enum FontReference: Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible, StyleReference {
  /// The font a stylesheet variable holds (`tableFont`), at the stylesheet's text size.
  case variable(String)
  /// This font, at the stylesheet's text size.
  case font(Font)

  /// Reads `text` as a variable name (`tableFont`: a letter, then letters, digits or `_`)
  /// or as a Pango font description with a size (`Inter Bold 17`).
  /// - Throws: ``StyleError`` when `text` is neither.
  public init(parsing text: String) throws(StyleError) {
    self = try Self.parsed(text)
  }

  /// Reads a literal as ``init(parsing:)`` does; a literal that is neither a variable name nor a
  /// font is kept as a variable's name, and the layout that looks it up throws
  /// ``init(parsing:)``'s message unless the stylesheet defines it.
  public init(stringLiteral text: String) {
    self = Self.parsedLiteral(text)
  }

  static let kind = "font"
  static let example = "Inter Bold 17"
  static func literal(_ text: String) -> FontReference? { Font.parse(text).map { .font($0) } }
  static func problem(_ text: String) -> String? {
    Font.describedSize(text).flatMap { Bounds.problem($0, in: Bounds.fontSize, unit: "points") }.map { "the font size \($0)" }
  }

  /// The variable's name, or the font's Pango description (`Inter Bold 17`).
  public var description: String {
    switch self {
    case .variable(let name): return name
    case .font(let font): return font.description
    }
  }
}

/// The color a label or a drawing uses: a stylesheet variable, whose value the stylesheet in
/// use (and its appearance) decides (`textColor`, Three20's names), or a color of its own.
///
/// A string literal is read as one or the other: `"textColor"` names the variable and
/// `"#FF0000"` (`#RGB`, `#RRGGBB` or `#RRGGBBAA`) is that color. A literal that is neither
/// (`"#GG0000"`, `"dark gray"`) is kept as the name of a variable: a stylesheet that defines
/// one by that name gives its color, and any other makes the layout throw a ``StyleError``
/// naming the literal. Text read at run time goes through ``init(parsing:)``, which throws at
/// once. Any stylesheet variable, whatever its name, can be named with ``variable(_:)``.
///
/// ```swift
/// let style = TextCell.Style(font: "tableFont", color: "#D0021B", highlightedColor: .color(.white))
/// ```
public enum ColorReference: Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible, StyleReference {
  /// The color a stylesheet variable holds (`textColor`) in the stylesheet's appearance.
  case variable(String)
  /// This color.
  case color(Color)

  /// Reads `text` as a variable name (`textColor`: a letter, then letters, digits or `_`)
  /// or as a hex color (`#FF0000`).
  /// - Throws: ``StyleError`` when `text` is neither.
  public init(parsing text: String) throws(StyleError) {
    self = try Self.parsed(text)
  }

  /// Reads a literal as ``init(parsing:)`` does; a literal that is neither a variable name nor a
  /// color is kept as a variable's name, and the layout that looks it up throws
  /// ``init(parsing:)``'s message unless the stylesheet defines it.
  public init(stringLiteral text: String) {
    self = Self.parsedLiteral(text)
  }

  static let kind = "color"
  static let example = "#FF0000"
  static func literal(_ text: String) -> ColorReference? { Color(hex: text).map { .color($0) } }

  /// The variable's name, or the color as `#RRGGBB` or `#RRGGBBAA`.
  public var description: String {
    switch self {
    case .variable(let name): return name
    case .color(let color): return color.hexString
    }
  }
}

/// How ``FontReference`` and ``ColorReference`` read text: a variable name, else a literal of
/// their kind, else an error that names the text.
protocol StyleReference {
  /// What the reference names, in messages: `font`, `color`.
  static var kind: String { get }
  /// A literal of that kind, in messages.
  static var example: String { get }
  /// The literal `text` writes, if it is one.
  static func literal(_ text: String) -> Self?
  /// The stylesheet variable `name`.
  static func variable(_ name: String) -> Self
  /// What is wrong with `text` when it is almost a literal (a font whose size is out of
  /// range), said instead of "neither".
  static func problem(_ text: String) -> String?
}

extension StyleReference {
  static func problem(_ text: String) -> String? { nil }

  /// `text` as a variable name (a letter, then letters, digits or `_`) or a literal.
  static func parsed(_ text: String) throws(StyleError) -> Self {
    if Stylesheet.looksLikeName(text) { return variable(text) }
    if let literal = literal(text) { return literal }
    throw notOne(text)
  }

  /// The error for `text`, which is neither a variable's name nor a literal.
  static func notOne(_ text: String) -> StyleError {
    StyleError(problem(text).map { "'\(text)': \($0)" } ?? "'\(text)' is neither a \(kind) variable nor a \(kind) like \"\(example)\"")
  }

  /// A literal of the program, read as ``parsed(_:)`` reads text; one that is neither a name
  /// nor a literal is kept as a variable's name, which the stylesheet in use may define (by
  /// any name, as documents' `brand-blue`); the lookup of one it does not define throws
  /// ``notOne(_:)``. It used to stop the program, inside RowKit, at the first layout.
  static func parsedLiteral(_ text: String) -> Self {
    (try? parsed(text)) ?? variable(text)
  }

  /// Text from a document, as its stylesheet reads it: a variable `stylesheet` defines, by
  /// any name (`brand-blue`), before a literal.
  init(parsing text: String, in stylesheet: Stylesheet) throws(StyleError) {
    self = stylesheet.variables[text] != nil ? Self.variable(text) : try Self.parsed(text)
  }
}
