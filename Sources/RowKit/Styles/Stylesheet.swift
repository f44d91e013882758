import RowKitGraphics

/// Named variables (fonts, colors, numbers) and named styles. Cells read every font and
/// color they draw with from here, by Three20's variable names, so a stylesheet restyles
/// them without code.
///
/// A reference to a font or a color (``FontReference``, ``ColorReference``) is either a
/// variable name (`tableFont`) or a literal: a Pango font description (`"Inter Bold 17"`) or
/// a color (`"#FF0000"`, `"#00000080"`).
public struct Stylesheet: Hashable, Sendable {
  /// A stylesheet variable's value.
  public enum Value: Hashable, Sendable, CustomStringConvertible {
    /// A font.
    case font(Font)
    /// A color.
    case color(Color)
    /// A number, in points where it is a size.
    case number(Double)
    /// One of a fixed set of words, such as a separator style (`singleLine`).
    case keyword(String)

    /// The value as a stylesheet writes it: a font description, a hex color, a number or the word.
    public var description: String {
      switch self {
      case .font(let font): return font.description
      case .color(let color): return color.hexString
      case .number(let number): return number.rounded() == number && abs(number) < 1e15 ? String(Int(number)) : String(number)
      case .keyword(let word): return word
      }
    }
  }

  /// The keyword variables of the default stylesheet and the words each accepts, in the
  /// order the stylesheet schema lists them.
  static let keywordVariables: [(name: String, words: [String])] = [
    ("tablePlainCellSeparatorStyle", ["none", "singleLine", "singleLineEtched"]),
    ("tableGroupedCellSeparatorStyle", ["none", "singleLine", "singleLineEtched"]),
  ]

  /// The words each keyword variable of the default stylesheet accepts.
  public static let keywords: [String: [String]] = Dictionary(uniqueKeysWithValues: keywordVariables.map { ($0.name, $0.words) })

  /// The variables by name (`tableFont`, `textColor`, `tableRowHeight`).
  public var variables: [String: Value]
  /// The styles by name, which cells and items refer to.
  public var styles: [String: Style]
  /// The brand font files this stylesheet (or one it extends) loads with `fonts:`.
  public var fonts: [BrandFont] = []
  /// The variables' values in the dark appearance (`darkVars:`), over the built-in dark
  /// values (``inDarkAppearance()``).
  public var darkVariables: [String: Value] = [:]
  /// The text size every font is read at: ``font(_:)`` scales each font, variable or
  /// literal, as UIKit scales body text at this category.
  public var textSize = ContentSizeCategory.default

  /// A stylesheet of just these variables and styles, in the light appearance at the default text size.
  public init(variables: [String: Value] = [:], styles: [String: Style] = [:]) {
    self.variables = variables
    self.styles = styles
  }

  /// This stylesheet with `other`'s variables and styles laid over it.
  public func merging(_ other: Stylesheet) -> Stylesheet {
    var sheet = Stylesheet(
      variables: variables.merging(other.variables) { $1 },
      styles: styles.merging(other.styles) { $1 })
    sheet.darkVariables = darkVariables.merging(other.darkVariables) { $1 }
    return sheet
  }

  /// The font `reference` names, at the stylesheet's ``textSize``.
  /// - Throws: ``StyleError`` when the variable is undefined or holds no font.
  public func font(_ reference: FontReference) throws(StyleError) -> Font {
    switch reference {
    case .font(let font):
      return scaled(font)
    case .variable(let name):
      guard let value = variables[name] else {
        throw Self.looksLikeName(name) ? StyleError("undefined variable '\(name)' (expected a font)") : FontReference.notOne(name)
      }
      guard case .font(let font) = value else {
        throw StyleError("variable '\(name)' is a \(value.kind), not a font")
      }
      return scaled(font)
    }
  }

  /// `font` at the stylesheet's text size.
  private func scaled(_ font: Font) -> Font {
    var font = font
    font.size = textSize.scaledSize(font.size)
    return font
  }

  /// Whether `text` reads as a variable name rather than a literal: a letter, then letters,
  /// digits or `_`. Such a word is never a font description, which needs a size, a number of
  /// its own (Pango reads the words `inf` and `nan` as numbers, and refuses both as sizes),
  /// so this asks Pango nothing: cells read their fonts and colors by name for every row.
  static func looksLikeName(_ text: String) -> Bool {
    // Cells ask for every label's font and colors: ASCII names (all of the default
    // stylesheet's) are read byte by byte, without Unicode's character properties.
    let bytes = text.utf8
    if let first = bytes.first, bytes.allSatisfy({ $0 < 0x80 }) {
      func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z") }
      return isLetter(first)
        && bytes.allSatisfy { isLetter($0) || ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9")) || $0 == UInt8(ascii: "_") }
    }
    guard let first = text.first, first.isLetter else { return false }
    return text.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" }
  }

  /// The color `reference` names.
  /// - Throws: ``StyleError`` when the variable is undefined or holds no color.
  public func color(_ reference: ColorReference) throws(StyleError) -> Color {
    switch reference {
    case .color(let color):
      return color
    case .variable(let name):
      guard let value = variables[name] else {
        throw Self.looksLikeName(name) ? StyleError("undefined variable '\(name)' (expected a color)") : ColorReference.notOne(name)
      }
      guard case .color(let color) = value else {
        throw StyleError("variable '\(name)' is a \(value.kind), not a color")
      }
      return color
    }
  }

  /// The number a variable holds, or a literal number.
  public func number(_ reference: String) throws(StyleError) -> Double {
    if let number = Double(reference), number.isFinite { return number }
    guard let value = variables[reference] else { throw StyleError("undefined variable '\(reference)' (expected a number)") }
    guard case .number(let number) = value else {
      throw StyleError("variable '\(reference)' is a \(value.kind), not a number")
    }
    return number
  }

  /// The keyword a variable holds.
  public func keyword(_ name: String) throws(StyleError) -> String {
    guard let value = variables[name] else { throw StyleError("undefined variable '\(name)'") }
    guard case .keyword(let word) = value else {
      throw StyleError("variable '\(name)' is a \(value.kind), not a keyword")
    }
    return word
  }

  /// The style with this name.
  public func style(_ name: String) throws(StyleError) -> Style {
    guard let style = styles[name] else {
      let known = styles.keys.sorted().joined(separator: ", ")
      throw StyleError("unknown style '\(name)' (the stylesheet has: \(known))")
    }
    return style
  }
}

extension Stylesheet.Value {
  var kind: String {
    switch self {
    case .font: return "font"
    case .color: return "color"
    case .number: return "number"
    case .keyword: return "keyword"
    }
  }
}

/// A reference to a style, variable or value that the stylesheet cannot satisfy.
public struct StyleError: Error, Hashable, Sendable, CustomStringConvertible {
  /// Which reference failed, and why.
  public var message: String

  /// An error explained by `message`.
  public init(_ message: String) {
    self.message = message
  }

  /// The ``message``.
  public var description: String { message }
}
