import Testing

@testable import RowKit

@Suite struct StyledTextMarkupTests {
  @Test func parsesBoldItalicAndLinks() throws {
    let markup = try StyledTextMarkup(parsing: "Styled <b>bold</b>, <i>italic</i> and <a href=\"app://x\">a link</a>.")
    #expect(markup.text == "Styled bold, italic and a link.")
    #expect(markup.spans.contains { $0.attribute == .bold && $0.range == 7..<11 })
    #expect(markup.spans.contains { $0.attribute == .italic && $0.range == 13..<19 })
    #expect(markup.spans.contains { $0.attribute == .link(href: "app://x") && $0.range == 24..<30 })
  }

  /// Issue 24: tag names and attribute names are trimmed on their bytes when they are ASCII
  /// (Foundation's trimming was most of a 5 MB text's parse), as Foundation trims them.
  @Test func spacesAroundNamesAreTrimmedAsBefore() throws {
    let ascii = try StyledTextMarkup(parsing: "< b\t>x</ b ><a \thref =\"app://y\" >y</a>")
    #expect(ascii.text == "xy")
    #expect(ascii.spans.contains { $0.attribute == .bold && $0.range == 0..<1 })
    #expect(ascii.spans.contains { $0.attribute == .link(href: "app://y") && $0.range == 1..<2 })
    // An ideographic space is white space to Foundation, trimmed the slow way.
    let wide = try StyledTextMarkup(parsing: "<b\u{3000}>z</b>")
    #expect(wide.spans.map(\.range) == [0..<1])
    #expect(throws: MarkupError("<a> at character 0 has an unknown attribute ''")) {
      try StyledTextMarkup(parsing: "<a \t =\"x\" href=\"y\">z</a>")
    }
  }

  @Test func blocksAndBreaksStartNewLines() throws {
    let markup = try StyledTextMarkup(parsing: "<div>One</div><p>Two<br/>Three</p>Four")
    #expect(markup.text == "One\nTwo\nThree\nFour")
  }

  @Test func whiteSpaceCollapsesAndEntitiesResolve() throws {
    let markup = try StyledTextMarkup(parsing: "  a \n  b&amp;c &lt;d&gt; &#x41;&#66;&nbsp;e ")
    #expect(markup.text == "a b&c <d> AB\u{00A0}e")
  }

  @Test func classesAreKeptForStyles() throws {
    let markup = try StyledTextMarkup(parsing: "<span class=\"blueBox\">x</span>")
    #expect(markup.spans == [.init(range: 0..<1, attribute: .styleClass("blueBox"))])
  }

  @Test(arguments: [
    ("<b>bold</i>", "does not match <b>"), ("<b>open", "never closed"), ("close</b>", "closes nothing"),
    ("<blink>x</blink>", "unknown tag <blink>"), ("<a>x</a>", "has no href"), ("a & b", "starts no entity"),
    ("&bogus;", "unknown entity"), ("<b", "never ends"), ("<span style=\"x\">y</span>", "unknown attribute 'style'"),
    ("<a href=x>y</a>", "must be quoted"),
  ])
  func malformedMarkupIsAnError(source: String, message: String) {
    #expect {
      try StyledTextMarkup(parsing: source)
    } throws: { error in
      "\(error)".contains(message)
    }
  }

  @Test func escapingMakesPlainTextSafe() throws {
    let text = "<b>x</b> & \"y\""
    #expect(try StyledTextMarkup(parsing: StyledTextMarkup.escaping(text)).text == text)
  }
}
