import Foundation
import RowKitGraphics
import RowKitTestSupport
import Testing

@testable import RowKit

/// Issue 24, item 17 (a): the README's variants example (now in the "Variants" article) did
/// not parse. Every ```yaml block of the README, docs/ and the DocC articles is decoded here
/// by RowKit's own decoder, as the kind of file it shows.
///
/// A block's kind comes from its top-level keys (`items` or `sections`: a document; `body`:
/// a cell design; `extends`, `vars`, `darkVars`, `styles` or `fonts`: a stylesheet), or from
/// a comment on the line before it: `<!-- snippet: yaml design in Assets/Designs stylesheet
/// styles.yaml -->` reads it as if it were a file in that folder of the repository, with
/// that stylesheet (relative to the folder). `<!-- snippet: skip -->` marks a fragment
/// (part of a file, or another program's YAML), as it does for Swift blocks
/// (`DocumentationSnippetTests`).
@Suite struct DocumentationYAMLTests {
  struct Block: CustomStringConvertible {
    var file: String
    var line: Int
    var marker: String?
    var text: String
    var description: String { "\(file):\(line)" }
  }

  static let documents: [String] = {
    let root = TestSupport.repositoryRoot
    var paths = ["README.md"]
    for folder in ["docs"] + ((try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("Sources").path)) ?? [])
      .map({ "Sources/\($0)" })
    {
      guard let enumerator = FileManager.default.enumerator(atPath: root.appendingPathComponent(folder).path) else { continue }
      while let path = enumerator.nextObject() as? String {
        if path.hasSuffix(".md") && (folder == "docs" || path.contains(".docc/")) { paths.append("\(folder)/\(path)") }
      }
    }
    return paths.sorted()
  }()

  /// Every ```yaml block of `file`, with the snippet comment on the line before it.
  static func blocks(in file: String) throws -> [Block] {
    let text = try String(contentsOf: TestSupport.repositoryRoot.appendingPathComponent(file), encoding: .utf8)
    let lines = text.components(separatedBy: "\n")
    var blocks: [Block] = []
    var index = 0
    while index < lines.count {
      guard lines[index] == "```yaml" else {
        index += 1
        continue
      }
      let previous = index > 0 ? lines[index - 1] : ""
      let marker = previous.hasPrefix("<!-- snippet: ") && previous.hasSuffix(" -->")
        ? String(previous.dropFirst(14).dropLast(4)) : nil
      let end = lines[(index + 1)...].firstIndex(of: "```") ?? lines.count
      blocks.append(Block(file: file, line: index + 1, marker: marker, text: lines[(index + 1)..<end].joined(separator: "\n") + "\n"))
      index = end + 1
    }
    return blocks
  }

  /// The kind of file a block shows, with the folder it is read in and the stylesheet a
  /// design uses.
  static func kind(of block: Block) throws -> (kind: String, folder: URL, stylesheet: URL?)? {
    var folder = TestSupport.repositoryRoot.appendingPathComponent(block.file).deletingLastPathComponent()
    var stylesheet: URL?
    var kind: String?
    if let marker = block.marker {
      if marker == "skip" { return nil }
      var words = marker.split(separator: " ").map(String.init)[...]
      guard words.popFirst() == "yaml", let named = words.popFirst() else {
        throw DocumentError(file: "\(block)", message: "unknown snippet comment '\(marker)'")
      }
      kind = named
      while let word = words.popFirst(), let value = words.popFirst() {
        switch word {
        case "in": folder = TestSupport.repositoryRoot.appendingPathComponent(value)
        case "stylesheet": stylesheet = folder.appendingPathComponent(value)
        default: throw DocumentError(file: "\(block)", message: "unknown word '\(word)' in '\(marker)'")
        }
      }
    } else {
      let keys = Set(block.text.split(separator: "\n").compactMap { line -> String? in
        guard let first = line.first, first.isLetter, let colon = line.firstIndex(of: ":") else { return nil }
        return String(line[..<colon])
      })
      if !keys.isDisjoint(with: ["items", "sections"]) {
        kind = "document"
      } else if keys.contains("body") {
        kind = "design"
      } else if !keys.isDisjoint(with: ["extends", "vars", "darkVars", "styles", "fonts"]) {
        kind = "stylesheet"
      }
    }
    guard let kind, ["document", "stylesheet", "design"].contains(kind) else {
      throw DocumentError(
        file: "\(block)",
        message: "a yaml block that is no document, stylesheet or design: say what it is with <!-- snippet: yaml KIND --> or <!-- snippet: skip -->")
    }
    return (kind, folder, stylesheet)
  }

  @Test func everyYAMLExampleDecodes() throws {
    let families = try TextEnvironment.standard.fontSet().families
    var decoded = 0
    for file in Self.documents {
      for block in try Self.blocks(in: file) {
        do {
          guard let (kind, folder, stylesheetURL) = try Self.kind(of: block) else { continue }
          let bytes = Array(block.text.utf8)
          let url = folder.appendingPathComponent("example.yaml")
          switch kind {
          case "document":
            _ = try TableDocument.decode(bytes, as: url, fontFamilies: families)
          case "stylesheet":
            _ = try Stylesheet.decode(bytes, as: url, fontFamilies: families)
          default:
            let stylesheet = try stylesheetURL.map { try Stylesheet.load(contentsOf: $0, fontFamilies: families) } ?? .default
            _ = try DesignTemplate.decode(bytes, as: url, stylesheet: stylesheet, fontFamilies: families)
          }
          decoded += 1
        } catch {
          Issue.record("\(block): \(error)")
        }
      }
    }
    // The README's and the articles' examples are many; a parser that found none is broken.
    #expect(decoded >= 8)
  }

  /// The issue's example: a flow map's plain value cannot hold `, `.
  @Test func theVariantsExampleIsOneOfThem() throws {
    let blocks = try Self.blocks(in: "Sources/RowKit/RowKit.docc/Variants.md").filter { $0.text.hasPrefix("variants:") }
    #expect(blocks.count == 1)
    let document = try TableDocument.decode(
      Array(try #require(blocks.first).text.utf8), as: TestSupport.repositoryRoot.appendingPathComponent("example.yaml"),
      fontFamilies: try TextEnvironment.standard.fontSet().families)
    #expect(document.variantAxes.variants.count == 4 * 4 * 2 * 2 * 2)
    let item = try #require(document.dataSource.sections.first?.items.first as? SubtitleItem)
    #expect(item.subtitle == "Shoot, edit and share video.")
  }

  /// Item 17 (c): docs/formats.md had the `settings` fields backwards. `caption` is the
  /// setting's name, on the left; `text` its value, on the right.
  @Test func theFormatsReferenceNamesTheSettingsFieldsAsTheDecoderReadsThem() throws {
    let formats = try String(contentsOf: TestSupport.repositoryRoot.appendingPathComponent("docs/formats.md"), encoding: .utf8)
    let row = try #require(formats.split(separator: "\n").first { $0.hasPrefix("| `settings` |") })
    #expect(row.contains("name (`caption`) on the left") && row.contains("value (`text`) on the right"))
    let item = try #require(
      try TableDocument.decode(
        Array("items: [{ type: settings, text: On, caption: Wi-Fi }]\n".utf8),
        as: URL(fileURLWithPath: "/nonexistent/s.yaml"), fontFamilies: ["Inter"]
      ).dataSource.sections.first?.items.first as? SettingsItem)
    #expect(item.caption == "Wi-Fi" && item.text == "On")
  }

  /// Item 17 (d): no version of RowKit is tagged, so a `from:` requirement cannot resolve.
  @Test func thePackageExamplesResolve() throws {
    for file in ["README.md", "Sources/RowKit/RowKit.docc/GettingStarted.md"] {
      let text = try String(contentsOf: TestSupport.repositoryRoot.appendingPathComponent(file), encoding: .utf8)
      for line in text.split(separator: "\n") where line.contains(".package(url:") && line.lowercased().contains("rowkit") {
        #expect(line.contains("branch: \"main\""), "\(file): \(line)")
      }
    }
  }
}
