internal import CPango

/// A font: a family, a weight, a slant and a size in points, written the way Pango writes
/// font descriptions (`"Inter Bold 17"`, `"Inter Semi-Bold Italic 15"`).
public struct Font: Hashable, Sendable, CustomStringConvertible {
  /// The family name, as the font files declare it (`Inter`).
  public var family: String
  /// The size in points.
  public var size: Double
  /// The CSS weight: 400 regular, 600 semi-bold, 700 bold.
  public var weight: Int
  /// Whether the italic (or oblique) face is used.
  public var isItalic: Bool

  /// A font of `family` at `size` points; regular weight and upright unless told otherwise.
  public init(family: String, size: Double, weight: Int = 400, isItalic: Bool = false) {
    self.family = family
    self.size = size
    self.weight = weight
    self.isItalic = isItalic
  }

  /// Why a document cannot use this font when its family is not loaded, the family shown
  /// in at most 100 characters: a document may name a family of any length.
  public var familyNotLoadedMessage: String {
    let shown = family.count > 100 ? String(family.prefix(99)) + "…" : family
    return "font family '\(shown)' is not loaded; `rowkit fonts` lists the families RowKit has, and `fonts:` "
      + "in a document or stylesheet loads your own font files"
  }

  /// The largest font size RowKit accepts, in points.
  public static let maximumSize = 256.0

  /// Parses a Pango font description. Returns nil when the text is not one: no size, a size
  /// out of range, or words Pango does not read as a style, weight or size. A description
  /// without a family gets `defaultFamily`.
  public static func parse(_ text: String, defaultFamily: String = "Inter") -> Font? {
    let trimmed = text.trimmingCharacters(in: .whitespaces)
    guard !trimmed.isEmpty, let description = pango_font_description_from_string(trimmed) else {
      return nil
    }
    defer { pango_font_description_free(description) }
    let mask = pango_font_description_get_set_fields(description).rawValue
    guard mask & PANGO_FONT_MASK_SIZE.rawValue != 0,
      pango_font_description_get_size_is_absolute(description) == 0
    else { return nil }
    let size = cpango_units_to_double(pango_font_description_get_size(description))
    guard size > 0, size <= maximumSize else { return nil }
    var family = pango_font_description_get_family(description).map { String(cString: $0) } ?? ""
    if family.isEmpty { family = defaultFamily }
    // NB: Pango takes any unknown word as part of the family ("Inter Heavyish 14" is family
    // "Inter Heavyish"); family validation against the loaded fonts catches that.
    let style = pango_font_description_get_style(description)
    return Font(
      family: family, size: size,
      weight: Int(pango_font_description_get_weight(description).rawValue),
      isItalic: style == PANGO_STYLE_ITALIC || style == PANGO_STYLE_OBLIQUE)
  }

  /// The size in points `text` gives as a Pango font description, whether or not ``parse(_:defaultFamily:)``
  /// takes it (`Inter 300` gives 300, out of its range); nil when `text` gives no size.
  /// Messages use it to say that a size is out of range rather than that `text` is no font.
  public static func describedSize(_ text: String) -> Double? {
    let trimmed = text.trimmingCharacters(in: .whitespaces)
    guard !trimmed.isEmpty, let description = pango_font_description_from_string(trimmed) else { return nil }
    defer { pango_font_description_free(description) }
    guard pango_font_description_get_set_fields(description).rawValue & PANGO_FONT_MASK_SIZE.rawValue != 0,
      pango_font_description_get_size_is_absolute(description) == 0
    else { return nil }
    return cpango_units_to_double(pango_font_description_get_size(description))
  }

  /// The same font at another weight.
  public func withWeight(_ weight: Int) -> Font {
    var font = self
    font.weight = weight
    return font
  }

  /// This font with its italic face turned on or off.
  public func withItalic(_ italic: Bool) -> Font {
    var font = self
    font.isItalic = italic
    return font
  }

  /// The Pango description, e.g. `Inter Bold 17`.
  public var description: String {
    var words = [family]
    if weight != 400 { words.append(Font.weightName(weight)) }
    if isItalic { words.append("Italic") }
    let sizeText = size.rounded() == size && abs(size) < 1e15 ? String(Int(size)) : String(size)
    words.append(sizeText)
    return words.joined(separator: " ")
  }

  static func weightName(_ weight: Int) -> String {
    switch weight {
    case ..<150: return "Thin"
    case ..<250: return "Ultra-Light"
    case ..<325: return "Light"
    case ..<375: return "Semi-Light"
    case ..<450: return "Regular"
    case ..<550: return "Medium"
    case ..<650: return "Semi-Bold"
    case ..<750: return "Bold"
    case ..<850: return "Ultra-Bold"
    default: return "Heavy"
    }
  }

  /// Builds the Pango description; the caller frees it.
  func makePangoDescription() -> OpaquePointer {
    let description = pango_font_description_new()!
    pango_font_description_set_family(description, family)
    pango_font_description_set_weight(description, PangoWeight(rawValue: UInt32(weight)))
    pango_font_description_set_style(description, isItalic ? PANGO_STYLE_ITALIC : PANGO_STYLE_NORMAL)
    pango_font_description_set_size(description, cpango_units_from_double(size))
    return description
  }
}
