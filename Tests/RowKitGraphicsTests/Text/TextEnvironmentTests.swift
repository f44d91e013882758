import Testing
@testable import RowKitGraphics

@Suite struct TextEnvironmentTests {
  @Test func loadsExactlyRowKitsFontsAndNothingFromTheMachine() throws {
    let shaper = try TextEnvironment.standard.makeShaper()
    let fontSet = try TextEnvironment.standard.fontSet()
    #expect(fontSet.files.map(\.path) == TextEnvironment.standard.fontFiles.map(\.path))
    #expect(shaper.families == Array(Set(fontSet.files.flatMap(\.families))).sorted())
    #expect(shaper.families.count == 77)
    #expect(!shaper.families.contains("Noto Serif"))
    #expect(!shaper.hasFamily("DejaVu Serif"))
  }

  /// A family is found in any case, as fontconfig matches it: every family of the set, in
  /// upper case, lower case and as written, and nothing that Foundation's comparison tells
  /// apart.
  @Test func aFamilyIsFoundInAnyCase() throws {
    let fontSet = try TextEnvironment.standard.fontSet()
    for family in fontSet.families {
      #expect(fontSet.hasFamily(family) && fontSet.hasFamily(family.uppercased()) && fontSet.hasFamily(family.lowercased()))
    }
    #expect(fontSet.hasFamily("iNTER") && fontSet.hasFamily("NOTO SANS"))
    #expect(!fontSet.hasFamily("Inter ") && !fontSet.hasFamily("Intér") && !fontSet.hasFamily(""))
  }

  @Test func namesTheDebianPackageOfAMissingFont() throws {
    var environment = TextEnvironment.standard
    environment.fontFiles.append(.init(path: "/nonexistent/Font.otf", debianPackage: "fonts-example"))
    #expect {
      try environment.makeShaper()
    } throws: { error in
      let message = "\(error)"
      return message.contains("/nonexistent/Font.otf") && message.contains("fonts-example")
    }
  }

  @Test func familyNamesAreEscapedForFontconfigsRules() {
    #expect(FontSet.xmlEscaped("Noto Sans CJK JP") == "Noto Sans CJK JP")
    #expect(FontSet.xmlEscaped("A & B <Display>") == "A &amp; B &lt;Display&gt;")
    #expect(FontSet.xmlEscaped("&&<>") == "&amp;&amp;&lt;&gt;")
    #expect(FontSet.xmlEscaped("Ünïcödé & 日本") == "Ünïcödé &amp; 日本")
    #expect(FontSet.xmlEscaped("") == "")
  }

  @Test func listsTheDebianPackagesItNeeds() {
    #expect(
      TextEnvironment.standard.debianPackages == [
        "fonts-inter", "fonts-dejavu-core", "fonts-noto-core", "fonts-noto-cjk", "fonts-noto-color-emoji",
      ])
  }

  @Test func twoShapersShapeIdentically() throws {
    let font = try #require(Font.parse("Inter Bold 17"))
    let style = TextStyle(font: font, width: 200)
    let text = "Measured once, painted as it is: the same width everywhere."
    let a = try TextEnvironment.standard.makeShaper().shape(text, style: style)
    let b = try TextEnvironment.standard.makeShaper().shape(text, style: style)
    #expect(a.logicalRect == b.logicalRect)
    #expect(a.lineCount == b.lineCount)
  }
}

@Suite struct FontTests {
  /// A document may name a family of any length (the sixth audit's was 600 KB, echoed whole).
  @Test func aMissingFamilyIsNamedInAtMostAHundredCharacters() {
    #expect(Font(family: "Brand Sans", size: 17).familyNotLoadedMessage.hasPrefix("font family 'Brand Sans' is not loaded;"))
    let long = Font(family: String(repeating: "x", count: 600_000), size: 17).familyNotLoadedMessage
    #expect(long.hasPrefix("font family '\(String(repeating: "x", count: 99))…' is not loaded;"))
    #expect(long.count < 250)
  }

  @Test func parsesPangoDescriptions() throws {
    let bold = try #require(Font.parse("Inter Bold 17"))
    #expect(bold == Font(family: "Inter", size: 17, weight: 700))
    let semibold = try #require(Font.parse("Inter Semi-Bold Italic 15.5"))
    #expect(semibold.weight == 600 && semibold.isItalic && semibold.size == 15.5)
    #expect(Font.parse("Bold 13")?.family == "Inter")
  }

  @Test func refusesDescriptionsWithoutASaneSize() {
    #expect(Font.parse("Inter Bold") == nil)
    #expect(Font.parse("Inter 0") == nil)
    #expect(Font.parse("Inter 100000") == nil)
    #expect(Font.parse("") == nil)
  }

  @Test func writesDescriptionsBack() {
    #expect(Font(family: "Inter", size: 17, weight: 700).description == "Inter Bold 17")
    #expect(Font(family: "Inter", size: 14.5).description == "Inter 14.5")
  }
}
