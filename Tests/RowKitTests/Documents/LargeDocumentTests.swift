import Foundation
import RowKitTestSupport
import Testing

@testable import RowKit

/// Issue 24, item 16: a valid document of 100,000 rows (the row bound) was refused as a
/// "YAML alias bomb", since the guard counted every value of the document. It counts the
/// values reached through aliases now; a document over the row bound gets the row bound's
/// message, and a real alias bomb is still refused as one.
@Suite struct LargeDocumentTests {
  let families = ["Inter"]

  /// A document of `rows` rows of text.
  func document(rows: Int) -> [UInt8] {
    var text = "items:\n"
    for row in 0..<rows { text += "  - { type: text, text: Row \(row) }\n" }
    return Array(text.utf8)
  }

  func decode(_ bytes: [UInt8]) throws -> TableDocument {
    try TableDocument.decode(bytes, as: URL(fileURLWithPath: "/nonexistent/big.yaml"), fontFamilies: families)
  }

  /// The document: rows of ten fields, 21 YAML values a row and 2.1 million for the
  /// row bound, more than the budget of aliased values; but none of them through an alias.
  @Test func valuesWrittenOutDoNotCountAgainstTheAliasBudget() throws {
    var text = "items:\n"
    for row in 0..<Bounds.maximumRows {
      text += "  - { type: message, title: \(row), caption: b, text: c, url: d, accessoryURL: e, selected: f, g: g, h: h, i: i }\n"
    }
    let value = try YAMLValue.parse(Array(text.utf8), displayName: "big.yaml")
    #expect(try value.mapping()["items"]?.sequence().count == Bounds.maximumRows)
  }

  @Test func aDocumentOfAsManyRowsAsTheBoundDecodes() throws {
    let document = try decode(document(rows: Bounds.maximumRows))
    #expect(document.dataSource.numberOfRows == Bounds.maximumRows)
  }

  @Test func aDocumentOverTheRowBoundGetsTheRowBoundsMessage() throws {
    #expect {
      try decode(document(rows: Bounds.maximumRows + 1))
    } throws: { error in
      let message = "\(error)"
      return message.hasPrefix("/nonexistent/big.yaml:") && message.contains("at most 100000 rows (RowKit's row bound)")
        && !message.contains("alias")
    }
  }

  /// Billion laughs: nine levels of ten aliases of the level below, 10⁹ values.
  @Test func anAliasBombIsStillRefused() throws {
    var text = "a0: &a0 [lol]\n"
    for level in 1...9 {
      let below = Array(repeating: "*a\(level - 1)", count: 10).joined(separator: ", ")
      text += "a\(level): &a\(level) [\(below)]\n"
    }
    text += "items: [{ type: text, text: Hi }]\n"
    #expect {
      try decode(Array(text.utf8))
    } throws: { error in
      "\(error)".contains("more than \(YAMLValue.maximumAliasedValues) values through aliases (a YAML alias bomb?)")
    }
  }

  /// Aliases within the budget are read as the values they stand for.
  @Test func aliasesWithinTheBudgetAreRead() throws {
    let text = "items: [&row { type: text, text: Same }, *row, *row]\n"
    let document = try TableDocument.decode(
      Array(text.utf8), as: URL(fileURLWithPath: "/nonexistent/a.yaml"), fontFamilies: families)
    #expect(document.dataSource.numberOfRows == 3)
  }

  /// Aliases in keys are found in a copy of the text with each alias made a plain scalar; a
  /// `*` that starts no alias (in a tag, a `%TAG` prefix, inside a word or a quoted string)
  /// stays as it is, so a valid document is never refused for it, and an alias as a value
  /// is read as before.
  @Test func aStarThatStartsNoAliasLeavesTheDocumentAsItIs() throws {
    for text in [
      "table: !x*y { width: 375 }\nitems: [{ type: text, text: a*b }]\n",
      "%TAG !e! tag:a*b:\n---\ntable: !e!t { width: 375 }\nitems: [{ type: text, text: \"*bold*\" }]\n",
      "items: [&row { type: text, text: Same }, *row, { type: text, text: x *y }]\n",
    ] {
      let document = try TableDocument.decode(
        Array(text.utf8), as: URL(fileURLWithPath: "/nonexistent/a.yaml"), fontFamilies: families)
      #expect(document.dataSource.numberOfRows >= 1, "\(text)")
    }
  }
}
