import Foundation
import RowKitTestSupport
import Testing

/// Every input a user can get wrong: exit status 2, one line on stderr that names the file
/// and the place, and no output file.
@Suite struct BadInputTests {
  struct Case: CustomTestStringConvertible, Sendable {
    var name: String
    var document: [UInt8]
    /// Text the one error line must contain, besides the file name.
    var expected: [String]
    var files: [String: String] = [:]
    /// The document's file name: its extension says whether it is YAML or JSON.
    var fileName = "table.yaml"
    var testDescription: String { name }

    init(_ name: String, _ document: String, expect expected: [String], files: [String: String] = [:], fileName: String = "table.yaml") {
      self.name = name
      self.document = Array(document.utf8)
      self.expected = expected
      self.files = files
      self.fileName = fileName
    }

    init(_ name: String, bytes: [UInt8], expect expected: [String]) {
      self.name = name
      self.document = bytes
      self.expected = expected
    }

    /// A table-document fixture of `Tests/Fixtures/bad-input`, under its own file name.
    init(_ fixture: BadInputFixture) {
      self.name = fixture.file
      self.document = Array((try? Data(contentsOf: fixture.url)) ?? Data())
      self.expected = fixture.expect + (fixture.keyPath.isEmpty ? [] : [": \(fixture.keyPath): "])
      self.fileName = fixture.url.lastPathComponent
    }
  }

  /// The documents refused for a structural reason (an unknown key, a wrong type, a missing
  /// key, a bad enum value, a number out of bounds) are fixture files that the schema test
  /// reads too (`Tests/Fixtures/bad-input`, `scripts/check-schemas.py`); these are the
  /// mistakes only the decoder can see (files, names, markup, URLs, YAML itself), and those
  /// that span two files.
  static let cases: [Case] = [
    Case("malformed YAML", "items:\n  - type: text\n    text: \"unterminated\n", expect: ["malformed YAML"]),
    // A mistake at the end of the input is placed at the end of the last line, not on a
    // line the file does not have; a JSON document's is named as JSON's.
    Case("malformed JSON cut short", #"{"items": [ {"type": "text", "text": "a"}, "#, expect: [".json:1:44:", "malformed JSON", "(the file ends here)"], fileName: "table.json"),
    Case("an unclosed flow sequence at the end", "items:\n  - {type: text, text: [a\n\n", expect: [":2:26:", "malformed YAML", "(the file ends here)"]),
    // Lines end at line feeds in a CRLF file too: a mistake inside one keeps its line.
    Case("a mistake inside a CRLF file", "items:\r\n  - type: text\r\n    text: [a, b\r\n  - type: text\r\n    text: ok\r\n", expect: [":4:9:", "malformed YAML"]),
    Case("a CRLF file cut short", "items:\r\n  - {type: text, text: [a\r\n\r\n", expect: [":2:26:", "(the file ends here)"]),
    Case("a mistake inside a file of carriage returns", "items:\r  - type: text\r    text: [a, b\r  - type: text\r    text: ok\r", expect: [":4:9:", "malformed YAML"]),
    Case("unknown style name", "items:\n  - type: text\n    text: Hi\n    background: shiny\n", expect: [":4:17:", "items[0].background", "unknown style 'shiny'"]),
    Case("missing design file", "cells:\n  Person: cells/person.yaml\nitems:\n  - type: Person\n", expect: [":2:", "cells.Person", "design file 'cells/person.yaml' does not exist"]),
    Case("missing stylesheet file", "stylesheet: styles/none.yaml\nitems:\n  - type: text\n    text: Hi\n", expect: [":1:", "stylesheet file 'styles/none.yaml' does not exist"]),
    Case("bundle URL escaping the assets folder", "items:\n  - type: image\n    text: Hi\n    imageURL: bundle://../../etc/passwd\n", expect: [":4:", "imageURL", "escapes the assets folder"]),
    Case("a documents:// URL without a documents folder", "items:\n  - type: image\n    text: Hi\n    imageURL: documents://a.png\n", expect: [":4:", "needs a documents folder"]),
    Case("a cache:// URL escaping its folder", "cache: .\nitems:\n  - type: image\n    text: Hi\n    imageURL: cache://../a.png\n", expect: [":5:", "escapes the cache folder"]),
    Case("a documents folder that does not exist", "documents: nowhere\nitems:\n  - type: text\n    text: Hi\n", expect: [":1:", "the documents folder", "does not exist"]),
    Case("unknown URL scheme", "items:\n  - type: image\n    text: Hi\n    imageURL: ftp://example.com/a.png\n", expect: [":4:", "unknown scheme"]),
    Case("invalid UTF-8", bytes: Array("items:\n  - type: text\n    text: caf".utf8) + [0xC3, 0x28] + Array("\n".utf8), expect: [":3:", "not valid UTF-8"]),
    Case("malformed markup", "items:\n  - type: styledText\n    text: \"<b>bold</i>\"\n", expect: [":3:", "malformed markup", "</i>"]),
    Case("unknown tag in markup", "items:\n  - type: styledText\n    text: \"<blink>x</blink>\"\n", expect: [":3:", "unknown tag <blink>"]),
    Case("unknown font family in a stylesheet", "stylesheet:\n  vars:\n    tableFont: \"Helvetica Bold 17\"\nitems:\n  - type: text\n    text: Hi\n", expect: [":3:", "Helvetica", "not loaded"]),
    Case("stylesheet cycle", "stylesheet: a.yaml\nitems:\n  - type: text\n    text: Hi\n", expect: ["b.yaml:1:10:", "extends:", "cycle", "a.yaml → b.yaml → a.yaml"], files: ["a.yaml": "extends: b.yaml\n", "b.yaml": "extends: a.yaml\n"]),
    Case("an undefined variable in a style", "stylesheet:\n  styles:\n    card:\n      - fill: nosuchColor\nitems:\n  - type: text\n    text: Hi\n", expect: [":4:15:", "stylesheet.styles.card[0].fill", "undefined variable 'nosuchColor'"]),
    Case("a markup class the stylesheet lacks", "items:\n  - type: styledText\n    text: \"<span class=\\\"shiny\\\">x</span>\"\n", expect: [":3:", "class 'shiny'"]),
    Case("an inline image without a size", "items:\n  - type: styledText\n    text: \"<img src=\\\"a.png\\\"/>\"\n", expect: [":3:", "needs a width"]),
    Case("a style item naming an unknown style", "items:\n  - { type: style, text: x, style: shinyStyle }\n", expect: [":2:", "unknown style 'shinyStyle'"]),
    Case("design file with an unknown view", "cells:\n  Person: person.yaml\nitems:\n  - type: Person\n", expect: ["person.yaml:2:", "unknown view 'lable'", "did you mean 'label'"], files: ["person.yaml": "body:\n  lable: { text: Hi }\n"]),
    Case("custom item missing a field", "cells:\n  Person: person.yaml\nitems:\n  - type: Person\n", expect: [":4:", "missing field 'name'"], files: ["person.yaml": "body:\n  label: { bind: name }\n"]),
    Case(
      "YAML alias bomb",
      """
      a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]
      b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]
      c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]
      d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]
      e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]
      f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]
      g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]
      h: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g]
      i: &i [*h,*h,*h,*h,*h,*h,*h,*h,*h]
      items: *i

      """, expect: ["alias bomb"]),
    Case(
      "a design whose stacks add up past the tallest row", "cells:\n  Tall: tall.yaml\nitems:\n  - type: Tall\n",
      expect: ["table.yaml:4:5:", "items[0]", "points tall, more than 8000"],
      files: ["tall.yaml": "body:\n  vstack:\n    children:\n" + String(repeating: "      - image: { width: 10, height: 2000 }\n", count: 10)]),
    Case("alias as a key", "a: &a [1, 2]\n? *a\n: x\nitems: []\n", expect: [":2:", "alias cannot be used as a mapping key"]),
    // An alias bomb used as a key in flow style and inside a collection key: Yams hashes
    // keys while it composes, so each took exponential time before any budget was checked
    // (10⁹ values here; the text is refused before it is composed).
    Case("alias bomb as a flow key", Self.laughs + "k: {*i : 1}\nitems: []\n", expect: [":10:5:", "alias cannot be used as a mapping key"]),
    Case("alias bomb as a key in a flow sequence", Self.laughs + "k: [*i : 1]\nitems: []\n", expect: [":10:5:", "alias cannot be used as a mapping key"]),
    Case("alias bomb inside a collection key", Self.laughs + "k:\n  ? [x, *i]\n  : 1\nitems: []\n", expect: [":11:5:", "alias cannot be used as a mapping key"]),
    // Each step of an `extends:` chain was a frame of recursion: 10,000 files overflowed the stack.
    Case(
      "a chain of stylesheets too long", "stylesheet: s0.yaml\nitems:\n  - type: text\n    text: Hi\n",
      expect: ["s63.yaml:1:10:", "extends", "more than 64 stylesheets extend one another in a chain"],
      files: Dictionary(uniqueKeysWithValues: (0..<70).map { ("s\($0).yaml", "extends: s\($0 + 1).yaml\n") })),
    Case("one alias twice as keys", "a: &a x\nk: {*a : 1, *a : 2}\nitems: []\n", expect: [":2:", "alias cannot be used as a mapping key"]),
    Case("an anchor on an alias, malformed with aliases made scalars too", "a: &a x\nk: &b *a\nitems: []\n", expect: [":2:", "malformed YAML"]),
  ]

  static let fixtureCases: [Case] = BadInputFixture.all(.tableDocument).map(Case.init)

  /// Nine anchors, each of ten aliases of the one before: `*i` stands for 10⁹ values.
  static let laughs = "a: &a [x, x, x, x, x, x, x, x, x, x]\n"
    + zip("bcdefghi", "abcdefgh").map { name, below in "\(name): &\(name) [" + Array(repeating: "*\(below)", count: 10).joined(separator: ", ") + "]\n" }
    .joined()

  @Test(arguments: cases + fixtureCases)
  func badDocumentsFailCleanly(_ badCase: Case) async throws {
    let folder = try TestSupport.temporaryDirectory(badCase.name)
    let document = folder.appendingPathComponent(badCase.fileName)
    try Data(badCase.document).write(to: document)
    for (name, content) in badCase.files { try Data(content.utf8).write(to: folder.appendingPathComponent(name)) }
    let output = folder.appendingPathComponent("out.png")
    let manifest = folder.appendingPathComponent("out.json")
    let result = try await CommandRunner.run(
      ["render", badCase.fileName, "-o", output.path, "--manifest", manifest.path, "--rows-dir", "rows"], in: folder)
    #expect(result.status == 2, "\(badCase.name): \(result.stderr)")
    let lines = result.stderr.split(separator: "\n")
    #expect(lines.count == 1, "\(badCase.name): \(result.stderr)")
    let line = String(lines.first ?? "")
    #expect(line.contains(".yaml") || line.contains(".json"), "\(badCase.name) names no file: \(line)")
    for expected in badCase.expected {
      #expect(line.contains(expected), "\(badCase.name): '\(expected)' missing from: \(line)")
    }
    #expect(!FileManager.default.fileExists(atPath: output.path))
    #expect(!FileManager.default.fileExists(atPath: manifest.path))
    #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("rows").path))
    let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".tmp") }
    #expect(leftovers.isEmpty)
  }

  @Test(arguments: [
    (["--width", "1000000000"], "out of range"), (["--scale", "1000"], "out of range"), (["--style", "fancy"], "fancy"),
    (["--timeout", "0"], "--timeout: 0 is out of range"), (["--deadline", "0"], "--deadline: 0 is out of range"),
    (["--downloads", "0"], "--downloads: 0 is out of range"), (["--documents-dir", "/nonexistent/docs"], "no such folder"),
    (["--http-cache-size", "0"], "--http-cache-size: 0 is out of range"),
  ])
  func absurdFlagsFailCleanly(flags: [String], expected: String) async throws {
    let folder = try TestSupport.temporaryDirectory()
    let output = folder.appendingPathComponent("out.png")
    let sample = TestSupport.assets.appendingPathComponent("Samples/features.yaml").path
    let result = try await CommandRunner.run(["render", sample, "-o", output.path] + flags)
    #expect(result.status == 2)
    #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
    #expect(result.stderr.contains(expected))
    #expect(!FileManager.default.fileExists(atPath: output.path))
  }

  @Test func aMissingDocumentIsNamed() async throws {
    let result = try await CommandRunner.run(["render", "/nonexistent/table.yaml", "-o", "/tmp/never.png"])
    #expect(result.status == 2)
    #expect(result.stderr.contains("/nonexistent/table.yaml: no such file"))
  }

  @Test func usageErrorsExitWithTwo() async throws {
    let result = try await CommandRunner.run(["render"])
    #expect(result.status == 2)
    #expect(result.stderr.split(separator: "\n").count == 1)
  }

  /// `rowkit check` given a document instead of its folder says so (it said "no such
  /// folder" of a file that is there), and two options that contradict are refused.
  @Test func checkSaysWhatItWasGivenWrong() async throws {
    let folder = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    try Data("items: [{ type: text, text: A }]\n".utf8).write(to: folder.appendingPathComponent("a.yaml"))
    let file = try await CommandRunner.run(["check", "a.yaml", "--snapshots", "refs"], in: folder)
    #expect(file.status == 2)
    #expect(file.stderr.contains("a.yaml: a file, not a folder; give the folder of table documents"), "\(file.stderr)")
    let both = try await CommandRunner.run(["check", ".", "--snapshots", "refs", "--prune", "--fail-on-orphans"], in: folder, environment: ["CI": ""])
    #expect(both.status == 2)
    #expect(both.stderr.contains("--prune deletes the orphaned references; --fail-on-orphans fails the check on them: give one"), "\(both.stderr)")
    #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("refs").path))
    // One case, one error: the summary line counts in the singular.
    let one = try await CommandRunner.run(["check", ".", "--snapshots", "refs"], in: folder, environment: ["CI": ""])
    #expect(one.stdout.contains("1 case: 0 passed, 0 failed, 1 new, 0 missing, 0 errors, 0 orphaned references"), "\(one.stdout)")
  }
}
