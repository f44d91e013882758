import RowKitGraphics
import Testing

@testable import RowKit

/// Fonts and colors in the Swift API are typed references: a literal names a stylesheet
/// variable or is a font or color of its own, and text that is neither fails where it is read.
@Suite struct StyleReferenceTests {
  @Test func aLiteralNamesAVariableOrIsAFont() {
    let variable: FontReference = "tableFont"
    let font: FontReference = "Inter Semi-Bold Italic 15"
    #expect(variable == .variable("tableFont"))
    #expect(font == .font(Font(family: "Inter", size: 15, weight: 600, isItalic: true)))
    #expect(font.description == "Inter Semi-Bold Italic 15")
  }

  @Test func aLiteralNamesAVariableOrIsAColor() {
    let variable: ColorReference = "linkTextColor"
    let color: ColorReference = "#FF000080"
    #expect(variable == .variable("linkTextColor"))
    #expect(color == .color(Color(r: 255, g: 0, b: 0, a: 128.0 / 255)))
    #expect(color.description == "#FF000080")
  }

  /// A name is read as a name without asking Pango: no word that starts with a letter is a
  /// font description, not even the words Pango reads as numbers.
  @Test(arguments: ["tableFont", "Inter", "Bold", "inf", "Infinity", "nan", "NaN", "e5", "px", "a12", "x1px"])
  func aNameIsNeverAFont(word: String) throws {
    #expect(Font.parse(word) == nil)
    #expect(try FontReference(parsing: word) == .variable(word))
  }

  @Test(arguments: [
    ("Inter Bold", "'Inter Bold' is neither a font variable nor a font like \"Inter Bold 17\""),
    ("Inter 999", "'Inter 999': the font size 999 is out of range (1 to 256 points)"),
    ("", "'' is neither a font variable nor a font like \"Inter Bold 17\""),
  ])
  func textThatIsNeitherIsNoFont(text: String, message: String) {
    #expect(throws: StyleError(message)) { try FontReference(parsing: text) }
  }

  @Test(arguments: [
    ("#GG0000", "'#GG0000' is neither a color variable nor a color like \"#FF0000\""),
    ("dark gray", "'dark gray' is neither a color variable nor a color like \"#FF0000\""),
    ("#12345", "'#12345' is neither a color variable nor a color like \"#FF0000\""),
  ])
  func textThatIsNeitherIsNoColor(text: String, message: String) {
    #expect(throws: StyleError(message)) { try ColorReference(parsing: text) }
  }

  /// An ASCII name is read byte by byte: the same answer as reading it by Unicode's
  /// character properties, for every text of up to two ASCII characters and a few longer.
  @Test func anASCIINameReadsAsTheCharacterPropertiesReadIt() {
    func byCharacters(_ text: String) -> Bool {
      guard let first = text.first, first.isLetter else { return false }
      return text.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" }
    }
    let ascii = (0..<128).map { String(UnicodeScalar(UInt8($0))) }
    var texts = [""] + ascii
    for first in ascii { for second in ascii { texts.append(first + second) } }
    texts += ["tableFont", "table_font_2", "_table", "2table", "table-font", "table font", "tableFönt", "ünter", "名前", "x٣"]
    for text in texts {
      #expect(Stylesheet.looksLikeName(text) == byCharacters(text), "\(text.debugDescription)")
    }
  }

  /// A malformed literal used to stop the program, inside RowKit, at the first layout (a test
  /// run's whole process). It is kept as a variable's name: a stylesheet that defines it by
  /// that name gives its value, any other throws the literal's message when laid out.
  @Test func aMalformedLiteralIsAnErrorWhenLaidOut() throws {
    let color: ColorReference = "#GG0000"
    #expect(throws: StyleError("'#GG0000' is neither a color variable nor a color like \"#FF0000\"")) { try Stylesheet.default.color(color) }
    let font: FontReference = "Inter Bold"
    #expect(throws: StyleError("'Inter Bold' is neither a font variable nor a font like \"Inter Bold 17\"")) { try Stylesheet.default.font(font) }
    let huge: FontReference = "Inter 300"
    #expect(throws: StyleError("'Inter 300': the font size 300 is out of range (1 to 256 points)")) { try Stylesheet.default.font(huge) }
    #expect(throws: StyleError("'Inter 300': the font size 300 is out of range (1 to 256 points)")) { try FontReference(parsing: "Inter 300") }
    var sheet = Stylesheet.default
    sheet.variables["brand blue"] = .color(Color(r: 0, g: 64, b: 128))
    let named: ColorReference = "brand blue"
    #expect(try sheet.color(named) == Color(r: 0, g: 64, b: 128))
  }

  @Test func theStylesheetResolvesAVariableOrALiteral() throws {
    let sheet = Stylesheet.default
    #expect(try sheet.font("tableFont") == Font(family: "Inter", size: 17, weight: 700))
    #expect(try sheet.font(.font(Font(family: "Inter", size: 10))) == Font(family: "Inter", size: 10))
    #expect(try sheet.color("textColor") == .black)
    #expect(try sheet.color(.color(Color(r: 1, g: 2, b: 3))) == Color(r: 1, g: 2, b: 3))
  }

  @Test func aVariableOfTheWrongKindOrNoneIsAnError() {
    #expect(throws: StyleError("variable 'textColor' is a color, not a font")) { try Stylesheet.default.font("textColor") }
    #expect(throws: StyleError("variable 'tableFont' is a font, not a color")) { try Stylesheet.default.color("tableFont") }
    #expect(throws: StyleError("undefined variable 'brandFont' (expected a font)")) { try Stylesheet.default.font("brandFont") }
    #expect(throws: StyleError("undefined variable 'brandColor' (expected a color)")) { try Stylesheet.default.color("brandColor") }
  }

  @Test func aDocumentNamesAVariableOfAnyNameItsStylesheetDefines() throws {
    var sheet = Stylesheet.default
    sheet.variables["brand-blue"] = .color(Color(r: 0, g: 64, b: 128))
    sheet.variables["Brand Font"] = .font(Font(family: "Inter", size: 12))
    #expect(throws: StyleError.self) { try ColorReference(parsing: "brand-blue") }
    #expect(try ColorReference(parsing: "brand-blue", in: sheet) == .variable("brand-blue"))
    #expect(try sheet.color(ColorReference(parsing: "brand-blue", in: sheet)) == Color(r: 0, g: 64, b: 128))
    #expect(try sheet.font(FontReference(parsing: "Brand Font", in: sheet)).size == 12)
    #expect(try FontReference(parsing: "Inter 12", in: sheet) == .font(Font(family: "Inter", size: 12)))
  }

  @Test func aCellStyleTakesTypedReferencesAndLiterals() {
    let literal = TextCell.Style(font: "Inter Bold 17", color: "#D0021B")
    let typed = TextCell.Style(
      font: .font(Font(family: "Inter", size: 17, weight: 700)), color: .color(Color(r: 208, g: 2, b: 27)))
    #expect(literal == typed)
    #expect(TextCell.Style.link.color == .variable("linkTextColor"))
    #expect(DesignLabel(text: "Hi").font == .variable("font"))
  }
}
