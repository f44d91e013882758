import Foundation
import RowKitTestSupport
import Testing

/// The Swift code of the README, docs/ and the DocC articles cannot drift from the API.
///
/// The articles show SwiftPM snippets (`Snippets/NAME.swift`, built with the package and run
/// by `scripts/test.sh`) with DocC's `@Snippet(path: "RowKit/Snippets/NAME")`; a ```swift
/// block written out in a document (the README's example, which GitHub shows, or the snapshot
/// tests an article shows) is a checked copy: it is found, word for word, in a snippet or in a
/// Swift file under `Tests/`, where it is built and run. `<!-- snippet: skip -->` on the line
/// before a block leaves out a fragment (an excerpt of a `Package.swift`, code of another
/// package), as it does for the YAML blocks of `DocumentationYAMLTests`.
@Suite struct DocumentationSnippetTests {
  struct Block: CustomStringConvertible {
    var file: String
    var line: Int
    var skipped: Bool
    var text: String
    var description: String { "\(file):\(line)" }
  }

  /// Every ```swift block of `file`, and whether the line before it says to skip it.
  static func swiftBlocks(in file: String) throws -> [Block] {
    let lines = try String(contentsOf: TestSupport.repositoryRoot.appendingPathComponent(file), encoding: .utf8)
      .components(separatedBy: "\n")
    var blocks: [Block] = []
    var index = 0
    while index < lines.count {
      guard lines[index] == "```swift" else {
        index += 1
        continue
      }
      let end = lines[(index + 1)...].firstIndex(of: "```") ?? lines.count
      blocks.append(
        Block(
          file: file, line: index + 1, skipped: index > 0 && lines[index - 1] == "<!-- snippet: skip -->",
          text: lines[(index + 1)..<end].joined(separator: "\n") + "\n"))
      index = end + 1
    }
    return blocks
  }

  /// The `.swift` files under `folder` of the repository, by their paths relative to it.
  static func swiftFiles(under folder: String) -> [String] {
    let root = TestSupport.repositoryRoot.appendingPathComponent(folder)
    guard let enumerator = FileManager.default.enumerator(atPath: root.path) else { return [] }
    var paths: [String] = []
    while let path = enumerator.nextObject() as? String {
      if path.hasSuffix(".swift") { paths.append("\(folder)/\(path)") }
    }
    return paths.sorted()
  }

  /// A file's text without the lines that mark a snippet's slices and hidden parts
  /// (`// snippet.NAME`, `// snippet.end`, `// snippet.hide`, `// snippet.show`).
  static func code(of file: String) throws -> String {
    try String(contentsOf: TestSupport.repositoryRoot.appendingPathComponent(file), encoding: .utf8)
      .components(separatedBy: "\n")
      .filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("// snippet.") }
      .joined(separator: "\n")
  }

  /// Every `@Snippet(path: "RowKit/Snippets/NAME")` or `@Snippet(path: …, slice: "SLICE")`
  /// directive of the documents (a line of its own, as DocC reads it): the snippet's name and
  /// the slice, if any. Any other line that starts with `@Snippet` is an error.
  static func directives() throws -> [(file: String, name: String, slice: String?)] {
    let pattern = #/@Snippet\(path: "RowKit/Snippets/([^"]+)"(?:, slice: "([^"]+)")?\)/#
    var found: [(String, String, String?)] = []
    for file in DocumentationYAMLTests.documents {
      let lines = try String(contentsOf: TestSupport.repositoryRoot.appendingPathComponent(file), encoding: .utf8)
        .components(separatedBy: "\n")
      for (index, line) in lines.enumerated() where line.hasPrefix("@Snippet") {
        guard let match = line.wholeMatch(of: pattern) else {
          Issue.record("\(file):\(index + 1): a @Snippet directive this test does not read: \(line)")
          continue
        }
        found.append((file, String(match.output.1), match.output.2.map(String.init)))
      }
    }
    return found
  }

  /// A source file or script a document or script names (`Sources/RowKit/Files/Bounds.swift`,
  /// `scripts/check-schemas.py`) exists: the old schema generator and the style catalog's
  /// embedder had gone on naming, and writing to, files that had moved, and documents went
  /// on naming the schema generator after `rowkit schema` took its place.
  @Test func everySourceFileTheDocumentsAndScriptsNameExists() throws {
    let root = TestSupport.repositoryRoot
    var files = ["README.md", "CONTRIBUTING.md", "Benchmarks/README.md"]
    for folder in ["docs", "scripts", "Sources", "Benchmarks", "Tests"] {
      let paths = FileManager.default.enumerator(atPath: root.appendingPathComponent(folder).path)?.allObjects as? [String] ?? []
      files += paths.filter { path in [".md", ".py", ".sh", ".swift"].contains { path.hasSuffix($0) } }.map { "\(folder)/\($0)" }
    }
    let cited = try Regex(#"(Sources/[A-Za-z0-9_+./-]+\.(swift|h|modulemap|py))|(scripts/[A-Za-z0-9_.-]+\.(py|sh))"#)
    var named: Set<String> = []
    for file in files {
      let text = (try? String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)) ?? ""
      for match in text.matches(of: cited) {
        let path = String(text[match.range])
        named.insert(path)
        #expect(FileManager.default.fileExists(atPath: root.appendingPathComponent(path).path), "\(file) names \(path), which does not exist")
      }
    }
    // The files the format reference and the catalog's embedder name, and the scripts the test script runs, were found.
    #expect(
      named.isSuperset(of: [
        "Sources/RowKit/Files/Bounds.swift", "Sources/RowKit/Catalogs/StyleCatalog+Document.swift", "scripts/check-schemas.py",
      ]))
  }

  @Test func everySwiftBlockIsACheckedCopy() throws {
    let sources = try (Self.swiftFiles(under: "Snippets") + Self.swiftFiles(under: "Tests")).map { try Self.code(of: $0) }
    var checked = 0
    for file in DocumentationYAMLTests.documents {
      for block in try Self.swiftBlocks(in: file) where !block.skipped {
        #expect(
          sources.contains { $0.contains(block.text) },
          "\(block): this Swift block is in no file of Snippets/ or Tests/; show a snippet with @Snippet, copy the block from the file that runs it, or mark a fragment with <!-- snippet: skip -->")
        checked += 1
      }
    }
    // The README's example and the snapshot tests of the "Snapshot testing" article at least.
    #expect(checked >= 2)
  }

  @Test func everySnippetDirectiveNamesASnippetAndItsSlice() throws {
    let directives = try Self.directives()
    #expect(directives.count >= 5)
    for directive in directives {
      let path = "Snippets/\(directive.name).swift"
      guard FileManager.default.fileExists(atPath: TestSupport.repositoryRoot.appendingPathComponent(path).path) else {
        Issue.record("\(directive.file): @Snippet names \(path), which does not exist")
        continue
      }
      if let slice = directive.slice {
        let lines = try String(contentsOf: TestSupport.repositoryRoot.appendingPathComponent(path), encoding: .utf8)
          .components(separatedBy: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(lines.contains("// snippet.\(slice)"), "\(directive.file): \(path) has no slice '\(slice)'")
      }
    }
  }

  /// A snippet no document shows is code nobody reads.
  @Test func everySnippetIsShown() throws {
    let shown = Set(try Self.directives().map(\.name))
    let snippets = Self.swiftFiles(under: "Snippets")
    #expect(!snippets.isEmpty)
    for snippet in snippets {
      let name = String(snippet.dropFirst("Snippets/".count).dropLast(".swift".count))
      #expect(shown.contains(name), "\(snippet) is shown by no @Snippet directive")
    }
  }
}
