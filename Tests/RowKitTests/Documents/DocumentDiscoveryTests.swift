import Foundation
import RowKit
import RowKitTestSupport
import Testing

/// Telling table documents from the other YAML and JSON files of a suite, and documents that
/// may have variants, without parsing every file (`rowkit check`'s discovery).
struct DocumentDiscoveryTests {
  static let files: [(name: String, text: String, isDocument: Bool, mayHaveVariants: Bool)] = [
    ("block.yaml", "table: { width: 320 }\nitems:\n  - { type: text, text: Hi }\n", true, false),
    ("sections.yaml", "# A document\nsections:\n  - items: [{ type: text, text: Hi }]\n", true, false),
    ("flow.yaml", "{ items: [{ type: text, text: Hi }] }\n", true, false),
    ("indented-items.yaml", "styles:\n  items: [1]\nvars: { a: 1 }\n", false, false),
    ("comment.yaml", "# items: not a key\nvars: { textColor: \"#000000\" }\n", false, false),
    ("stylesheet.yaml", "extends: default\nvars: { textColor: \"#000000\" }\n", false, false),
    ("manifest.json", "{\n  \"height\" : 44,\n  \"rows\" : [],\n  \"scale\" : 2,\n  \"width\" : 320\n}\n", false, false),
    ("manifest-like.yaml", "width: 320\nscale: 2\nheight: 44\nrows: []\nitems: []\n", false, false),
    ("variants.yaml", "variants: { appearance: [dark] }\nitems: [{ type: text, text: Hi }]\n", true, true),
    ("escaped.yaml", "\"vari\\x61nts\": { appearance: [dark] }\nitems: [{ type: text, text: Hi }]\n", true, true),
    ("broken.yaml", "items: [unclosed\n", true, false),
  ]

  @Test func documentsAreToldApartAsAParseWould() throws {
    let folder = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    for file in Self.files {
      let url = folder.appendingPathComponent(file.name)
      try file.text.write(to: url, atomically: true, encoding: .utf8)
      #expect(TableDocument.looksLikeTableDocument(url) == file.isDocument, "\(file.name)")
      #expect(TableDocument.mayHaveVariants(url) == file.mayHaveVariants, "\(file.name)")
    }
  }
}
