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
  }

  static let cases: [Case] = [
    Case("unknown item type", "items:\n  - type: txt\n    text: Hello\n", expect: [":2:", "unknown item type 'txt'", "did you mean 'text'"]),
    Case("missing required field", "items:\n  - type: caption\n    caption: Name\n", expect: [":2:", "items[0]", "missing required key 'text'"]),
    Case("field of the wrong kind", "items:\n  - type: text\n    text: Hello\n    selected: maybe\n", expect: [":4:", "items[0].selected", "true or false"]),
    Case("true where text belongs", "items:\n  - type: text\n    text: true\n", expect: [":3:", "items[0].text", "expected text, found true"]),
    Case(
      "a JSON number where text belongs", "{\"items\": [\n  {\"type\": \"caption\", \"text\": \"Battery\", \"caption\": 85}\n]}\n",
      expect: ["table.json:2:", "items[0].caption", "expected text, found 85"], fileName: "table.json"),
    Case("a list where text belongs", "items:\n  - type: text\n    text: [a, b]\n", expect: [":3:", "items[0].text", "expected text"]),
    Case("unknown field", "items:\n  - type: text\n    text: Hi\n    subtitle: No\n", expect: [":4:", "unknown key 'subtitle'"]),
    Case("malformed YAML", "items:\n  - type: text\n    text: \"unterminated\n", expect: ["malformed YAML"]),
    Case("empty document", "# nothing here\n", expect: [":1", "the document is empty"]),
    Case("no rows", "items: []\n", expect: ["no rows"]),
    Case("unknown style name", "items:\n  - type: text\n    text: Hi\n    background: shiny\n", expect: [":4:17:", "items[0].background", "unknown style 'shiny'"]),
    Case("missing design file", "cells:\n  Person: cells/person.yaml\nitems:\n  - type: Person\n", expect: [":2:", "cells.Person", "design file 'cells/person.yaml' does not exist"]),
    Case("missing stylesheet file", "stylesheet: styles/none.yaml\nitems:\n  - type: text\n    text: Hi\n", expect: [":1:", "stylesheet file 'styles/none.yaml' does not exist"]),
    Case("bundle URL escaping the assets folder", "items:\n  - type: image\n    text: Hi\n    imageURL: bundle://../../etc/passwd\n", expect: [":4:", "imageURL", "escapes the assets folder"]),
    Case("a documents:// URL without a documents folder", "items:\n  - type: image\n    text: Hi\n    imageURL: documents://a.png\n", expect: [":4:", "needs a documents folder"]),
    Case("a cache:// URL escaping its folder", "cache: .\nitems:\n  - type: image\n    text: Hi\n    imageURL: cache://../a.png\n", expect: [":5:", "escapes the cache folder"]),
    Case("a documents folder that does not exist", "documents: nowhere\nitems:\n  - type: text\n    text: Hi\n", expect: [":1:", "the documents folder", "does not exist"]),
    Case("unknown URL scheme", "items:\n  - type: image\n    text: Hi\n    imageURL: ftp://example.com/a.png\n", expect: [":4:", "unknown scheme"]),
    Case("invalid UTF-8", bytes: Array("items:\n  - type: text\n    text: caf".utf8) + [0xC3, 0x28] + Array("\n".utf8), expect: [":3:", "not valid UTF-8"]),
    Case("absurd width", "table:\n  width: 1000000000\nitems:\n  - type: text\n    text: Hi\n", expect: [":2:", "table.width", "out of range"]),
    Case("absurd scale", "table:\n  scale: 1000\nitems:\n  - type: text\n    text: Hi\n", expect: [":2:", "table.scale", "out of range"]),
    Case("absurd row height", "table:\n  rowHeight: 100000\nitems:\n  - type: text\n    text: Hi\n", expect: [":2:", "rowHeight", "out of range"]),
    Case("unknown table style", "table:\n  style: fancy\nitems:\n  - type: text\n    text: Hi\n", expect: [":2:", "plain or grouped"]),
    Case("both sections and items", "sections: []\nitems: []\n", expect: ["both sections and items"]),
    Case("malformed markup", "items:\n  - type: styledText\n    text: \"<b>bold</i>\"\n", expect: [":3:", "malformed markup", "</i>"]),
    Case("unknown tag in markup", "items:\n  - type: styledText\n    text: \"<blink>x</blink>\"\n", expect: [":3:", "unknown tag <blink>"]),
    Case("slider out of range", "items:\n  - type: control\n    caption: Volume\n    control: { slider: 2 }\n", expect: [":4:", "from 0 to 1"]),
    Case("bad timestamp", "items:\n  - type: message\n    title: Joe\n    timestamp: yesterday\n", expect: [":4:", "ISO 8601"]),
    Case("unknown font family in a stylesheet", "stylesheet:\n  vars:\n    tableFont: \"Helvetica Bold 17\"\nitems:\n  - type: text\n    text: Hi\n", expect: [":3:", "Helvetica", "not loaded"]),
    Case("stylesheet cycle", "stylesheet: a.yaml\nitems:\n  - type: text\n    text: Hi\n", expect: ["b.yaml:1:10:", "extends:", "cycle", "a.yaml → b.yaml → a.yaml"], files: ["a.yaml": "extends: b.yaml\n", "b.yaml": "extends: a.yaml\n"]),
    Case("unknown style element", "stylesheet:\n  styles:\n    card:\n      - sparkle: 3\nitems:\n  - type: text\n    text: Hi\n", expect: [":4:18:", "stylesheet.styles.card[0].sparkle", "unknown style element 'sparkle'"]),
    Case("a style parameter of the wrong type", "stylesheet:\n  styles:\n    card:\n      - shadow: { color: \"#000\", blur: red }\nitems:\n  - type: text\n    text: Hi\n", expect: [":4:", "styles.card[0].shadow.blur", "expected a number"]),
    Case("an undefined variable in a style", "stylesheet:\n  styles:\n    card:\n      - fill: nosuchColor\nitems:\n  - type: text\n    text: Hi\n", expect: [":4:15:", "stylesheet.styles.card[0].fill", "undefined variable 'nosuchColor'"]),
    Case("a variable of the wrong kind", "stylesheet:\n  vars:\n    textColor: 12\nitems:\n  - type: text\n    text: Hi\n", expect: [":3:", "vars.textColor", "is a color"]),
    Case("an unknown separator style", "stylesheet:\n  vars:\n    tablePlainCellSeparatorStyle: dotted\nitems:\n  - type: text\n    text: Hi\n", expect: [":3:", "none, singleLine, singleLineEtched"]),
    Case("an unknown shape", "stylesheet:\n  styles:\n    s:\n      - shape: { hexagon: 3 }\nitems:\n  - type: text\n    text: Hi\n", expect: [":4:", "unknown key 'hexagon'"]),
    Case("an unknown blend mode", "stylesheet:\n  styles:\n    s:\n      - blend: sparkle\nitems:\n  - type: text\n    text: Hi\n", expect: [":4:", "unknown blend mode 'sparkle'"]),
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
    // Numbers a stylesheet or a design file gives are bounded where they are read (issue 11).
    Case(
      "a stylesheet padding of 1e308", "stylesheet:\n  vars:\n    tableCellPadding: 1e308\nitems:\n  - type: text\n    text: Hi\n",
      expect: [":3:23:", "stylesheet.vars.tableCellPadding", "1e+308 is out of range (0 to 1000)"]),
    Case(
      "a stylesheet row height of 1e19", "stylesheet:\n  vars:\n    tableRowHeight: 1e19\nitems:\n  - type: text\n    text: Hi\n",
      expect: [":3:21:", "stylesheet.vars.tableRowHeight", "1e+19 is out of range (1 to 2000)"]),
    Case(
      "a stylesheet row height of 100000", "stylesheet:\n  vars:\n    tableRowHeight: 100000\nitems:\n  - type: text\n    text: Hi\n",
      expect: [":3:21:", "stylesheet.vars.tableRowHeight", "100000 is out of range (1 to 2000)"]),
    Case(
      "a stylesheet row height of 3000", "stylesheet:\n  vars:\n    tableRowHeight: 3000\nitems:\n  - type: text\n    text: Hi\n",
      expect: [":3:21:", "stylesheet.vars.tableRowHeight", "3000 is out of range (1 to 2000)"]),
    Case(
      "a stylesheet number variable of 1e19", "stylesheet:\n  vars:\n    cardBlur: 1e19\nitems:\n  - type: text\n    text: Hi\n",
      expect: [":3:15:", "stylesheet.vars.cardBlur", "out of range (-10000 to 10000)"]),
    Case(
      "a style's blur out of range through a variable",
      "stylesheet:\n  vars:\n    cardBlur: 500\n  styles:\n    card:\n      - shadow: { color: \"#000\", blur: cardBlur }\nitems:\n  - type: text\n    text: Hi\n",
      expect: [":6:40:", "stylesheet.styles.card[0].shadow.blur", "500 is out of range (0 to 100)"]),
    Case(
      "a font size below the bounds", "stylesheet:\n  vars:\n    tableFont: \"Inter 0.5\"\nitems:\n  - type: text\n    text: Hi\n",
      expect: [":3:16:", "stylesheet.vars.tableFont", "font size 0.5 is out of range (1 to 256 points)"]),
    Case(
      "an empty stylesheet path", "stylesheet: >-\nitems:\n  - type: text\n    text: Hi\n",
      expect: ["table.yaml:1:13:", "stylesheet:", "expected the path of a stylesheet file"]),
    Case(
      "an empty design file path", "cells:\n  Person: \"\"\nitems:\n  - type: Person\n",
      expect: ["table.yaml:2:11:", "cells.Person", "expected the path of a cell design file"]),
    Case(
      "a design padding of 1e19", "cells:\n  Person: person.yaml\nitems:\n  - type: Person\n    name: Joe\n",
      expect: ["person.yaml:1:10:", "padding", "1e+19 is out of range (0 to 1000)"],
      files: ["person.yaml": "padding: 1e19\nbody:\n  label: { bind: name }\n"]),
    Case(
      "a design spacing of 1e19", "cells:\n  Person: person.yaml\nitems:\n  - type: Person\n    name: Joe\n",
      expect: ["person.yaml:3:14:", "body.vstack.spacing", "1e+19 is out of range (0 to 1000)"],
      files: ["person.yaml": "body:\n  vstack:\n    spacing: 1e19\n    children: [ { label: { bind: name } } ]\n"]),
    Case(
      "a design whose stacks add up past the tallest row", "cells:\n  Tall: tall.yaml\nitems:\n  - type: Tall\n",
      expect: ["table.yaml:4:5:", "items[0]", "points tall, more than 8000"],
      files: ["tall.yaml": "body:\n  vstack:\n    children:\n" + String(repeating: "      - image: { width: 10, height: 2000 }\n", count: 10)]),
    Case("alias as a key", "a: &a [1, 2]\n? *a\n: x\nitems: []\n", expect: [":2:", "alias cannot be used as a mapping key"]),
  ]

  @Test(arguments: cases)
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
    (["--timeout", "0"], "--timeout must be a positive number"), (["--deadline", "0"], "--deadline must be a positive number"),
    (["--downloads", "0"], "--downloads must be at least 1"), (["--documents-dir", "/nonexistent/docs"], "no such folder"),
    (["--http-cache-size", "0"], "--http-cache-size must be at least 1"),
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
}
