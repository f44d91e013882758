import Foundation
import RowKitTestSupport
import Testing

@testable import RowKit

/// Issue 30: a long top-level `items:` list is parsed a piece at a time, so that the whole
/// YAML tree of a 100,000-row document is never in memory at once. Decoded in pieces, a
/// document must be what it is decoded whole, and a mistake must be reported as it was.
@Suite struct ItemListPiecesTests {
  let file = URL(fileURLWithPath: "/nonexistent/long.yaml")

  /// `rows` entries of several shapes: flow maps, block maps, block text, quoted text with
  /// escapes and line breaks, comments and blank lines; then another top-level key.
  func document(rows: Int, row special: (Int) -> String? = { _ in nil }) -> [UInt8] {
    var text = "# a long list\ntable: { width: 320, scale: 1 }\nitems:\n"
    for row in 0..<rows {
      if let line = special(row) {
        text += line
        continue
      }
      switch row % 5 {
      case 0: text += "  - { type: subtitle, text: \"Row \\\"\(row)\\\"\", subtitle: \"s\(row)\", url: \"app://row/\(row)\" }\n"
      case 1: text += "  - type: text\n    text: |\n      Block text \(row)\n      - not an entry\n\n"
      case 2: text += "  # a comment\n  - type: text\n    text: \"two\n      lines \(row)\"\n"
      case 3: text += "  -\n    type: subtitle\n    text: Plain \(row)\n    subtitle: >\n      folded\n      text\n"
      default: text += "  - { type: text, text: 'single ''quoted'' \(row)' }\n"
      }
    }
    text += "lint: { off: [contrast] }\n"
    return Array(text.utf8)
  }

  func decodeInPieces(_ bytes: [UInt8]) throws -> TableDocument {
    try TableDocumentDecoder(file: file, fontFamilies: []).decode(bytes, displayName: "long.yaml")
  }

  func decodeWhole(_ bytes: [UInt8]) throws -> TableDocument {
    try TableDocumentDecoder(file: file, fontFamilies: []).decode(try YAMLValue.parse(bytes, displayName: "long.yaml"))
  }

  func items(_ document: TableDocument) -> [AnyHashable] {
    func hashable<Item: TableItem>(_ item: Item) -> AnyHashable { AnyHashable(item) }
    var items: [AnyHashable] = []
    for section in document.dataSource.sections {
      for item in section.items { items.append(hashable(item)) }
    }
    return items
  }

  func describe(_ places: [[TableDocument.Place]]) -> [String] {
    places.flatMap { $0.map { "\($0.line):\($0.column) \($0.keyPath)" } }
  }

  @Test func aLongListDecodesInPiecesAsItDoesWhole() throws {
    let bytes = document(rows: 3000)
    let pieces = try #require(ItemListPieces(bytes, displayName: "long.yaml"))
    #expect(pieces.pieces.count == 3)
    #expect(pieces.entryCount == 3000)
    let inPieces = try decodeInPieces(bytes)
    let whole = try decodeWhole(bytes)
    let items = items(inPieces)
    let wholeItems = self.items(whole)
    #expect(items == wholeItems)
    #expect(items.count == 3000)
    #expect(describe(inPieces.places) == describe(whole.places))
    #expect(describe(inPieces.places)[2999] == describe(whole.places)[2999])
    #expect(inPieces.configuration == whole.configuration)
    #expect(inPieces.lintOptions == whole.lintOptions)
  }

  @Test func aMistakeInALatePieceIsReportedAsWhole() throws {
    let bytes = document(rows: 3000) { $0 == 2500 ? "  - { type: subtitle, txt: Misspelled }\n" : nil }
    let inPieces = #expect(throws: DocumentError.self) { try decodeInPieces(bytes) }
    let whole = #expect(throws: DocumentError.self) { try decodeWhole(bytes) }
    #expect(inPieces.map { "\($0)" } == whole.map { "\($0)" })
    #expect("\(try #require(inPieces))".contains("items[2500]"))
  }

  @Test func aYAMLErrorAfterAMistakeIsReportedFirstAsWhole() throws {
    // The whole document does not parse, so its YAML error comes before the unknown key.
    let bytes = document(rows: 3000) {
      switch $0 {
      case 10: "  - { type: subtitle, txt: Misspelled }\n"
      case 2900: "  - { type: text, text: \"unclosed }\n"
      default: nil
      }
    }
    let inPieces = #expect(throws: DocumentError.self) { try decodeInPieces(bytes) }
    let whole = #expect(throws: DocumentError.self) { try decodeWhole(bytes) }
    #expect(inPieces.map { "\($0)" } == whole.map { "\($0)" })
    #expect("\(try #require(inPieces))".contains("malformed YAML"))
  }

  @Test func quotedTextAcrossACutFallsBackToTheWholeDocument() throws {
    // Entry 1024 starts a piece; the text before it runs on into what looks like an entry.
    let bytes = document(rows: 3000) { $0 == 1023 ? "  - { type: text, text: \"runs on\n  - into the next line\" }\n" : nil }
    let inPieces = try decodeInPieces(bytes)
    let whole = try decodeWhole(bytes)
    #expect(describe(inPieces.places) == describe(whole.places))
    #expect(inPieces.dataSource.numberOfRows == whole.dataSource.numberOfRows)
  }

  @Test func documentsOfOtherShapesAreNotCut() {
    let long = document(rows: 3000)
    #expect(ItemListPieces(Array("items:\n  - { type: text, text: a }\n".utf8), displayName: "a.yaml") == nil)
    #expect(ItemListPieces(long + Array("# &anchor\n".utf8), displayName: "a.yaml") == nil)
    #expect(ItemListPieces(Array("---\n".utf8) + long, displayName: "a.yaml") == nil)
    #expect(ItemListPieces(long + Array("\titems: x\n".utf8), displayName: "a.yaml") == nil)
    #expect(ItemListPieces(long + Array("items:\n".utf8), displayName: "a.yaml") == nil)
  }
}
