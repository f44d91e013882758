import Foundation
import RowKitGraphics
import RowKitTestSupport
import Testing

@testable import RowKit

@Suite struct TableDocumentTests {
  let families = ["DejaVu Sans", "DejaVu Sans Mono", "Inter"]

  func decode(_ yaml: String, files: [String: String] = [:]) throws -> TableDocument {
    let folder = try TestSupport.temporaryDirectory()
    for (name, content) in files {
      let url = folder.appendingPathComponent(name)
      try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try Data(content.utf8).write(to: url)
    }
    return try TableDocument.decode(Array(yaml.utf8), as: folder.appendingPathComponent("table.yaml"), fontFamilies: families)
  }

  func decodeError(_ yaml: String, files: [String: String] = [:]) -> DocumentError? {
    do {
      _ = try decode(yaml, files: files)
      return nil
    } catch let error as DocumentError {
      return error
    } catch {
      return nil
    }
  }

  /// A time as RFC 3339 writes it, `t` and `z` in lower case too, is that time; a day is
  /// midnight; a time the readers cannot read is an error, never the midnight of its day.
  @Test func timestampsAreTheirTimeOrAnError() throws {
    func timestamp(_ text: String) throws -> Date? {
      let document = try decode("items:\n  - { type: message, title: Joe, timestamp: \"\(text)\" }\n")
      return (document.dataSource.sections[0].items[0] as? MessageItem)?.timestamp
    }
    #expect(try timestamp("2011-03-27T14:05:00Z") == Date(timeIntervalSince1970: 1_301_234_700))
    #expect(try timestamp("2011-03-27t14:05:00z") == Date(timeIntervalSince1970: 1_301_234_700))
    #expect(try timestamp("2011-03-27T16:05:00+02:00") == Date(timeIntervalSince1970: 1_301_234_700))
    #expect(try timestamp("2011-03-27") == Date(timeIntervalSince1970: 1_301_184_000))
    #expect(try timestamp("2011-03-27T19:35:00.000+05:30") == Date(timeIntervalSince1970: 1_301_234_700))
    #expect(try timestamp("2012-02-29") == Date(timeIntervalSince1970: 1_330_473_600))
    for wrong in [
      "2011-03-27T14:61:00Z", "2011-03-27T25:05:00Z", "2011-03-27T24:00:00Z", "2011-03-27T14:05:60Z", "2011-03-27T14:05:00",
      "2011-03-27 and more", "2026-02-30", "2026-11-31T10:00:00Z", "2011-02-29", "2011-13-01", "2011-00-10", "2011-03-27T14:05:00+24:00",
      // The pattern's `$` matches before a final line break: these crashed the reader.
      "2011-03-27\\n", "2011-03-27\\r", "2011-03-27T14:05:00Z\\n",
    ] {
      #expect(throws: DocumentError.self, "\(wrong)") { try timestamp(wrong) }
    }
  }

  @Test func decodesTheTableBlockAndEveryBuiltInType() throws {
    let document = try decode("""
      table: { width: 320, scale: 3, style: grouped, rowHeight: auto, now: 2011-03-27T18:30:00Z }
      sections:
        - header: All
          footer: Done
          items:
            - { type: text, text: a, url: "app://a", selected: true }
            - { type: link, text: b }
            - { type: button, text: c }
            - { type: longText, text: d }
            - { type: grayText, text: e }
            - { type: summary, text: f }
            - { type: caption, text: g, caption: h }
            - { type: rightCaption, text: g, caption: h }
            - { type: subtext, text: g, caption: h }
            - { type: settings, text: g, caption: h, accessoryURL: "app://info" }
            - { type: subtitle, text: i, subtitle: j, imageURL: a.png, defaultImage: "bundle://b.png" }
            - { type: moreButton, text: k, loading: true }
            - { type: message, title: l, caption: m, text: n, timestamp: "2011-03-27T14:05:00Z" }
            - { type: image, text: o, imageURL: a.png, imageStyle: rounded }
            - { type: rightImage, text: p }
            - { type: styledText, text: "<b>q</b>" }
            - { type: activity, text: r }
            - { type: control, caption: s, control: { switch: false } }
            - { type: control, caption: t, control: { textField: Name } }
            - { type: control, caption: u, control: { slider: 0.25 } }
            - { type: checkmark, text: v, checked: true }
      """)
    #expect(document.configuration == TableConfiguration(width: 320, scale: 3, style: .grouped, now: Date(timeIntervalSince1970: 1_301_250_600)))
    let section = document.dataSource.sections[0]
    #expect(section.header == "All" && section.footer == "Done")
    #expect(section.items.map(\.typeName) == [
      "text", "link", "button", "longText", "grayText", "summary", "caption", "rightCaption", "subtext", "settings",
      "subtitle", "moreButton", "message", "image", "rightImage", "styledText", "activity", "control", "control",
      "control", "checkmark",
    ])
    let first = try #require(section.items[0] as? TextItem)
    #expect(first.options == ItemOptions(url: "app://a", isSelected: true))
    let subtitle = try #require(section.items[10] as? SubtitleItem)
    #expect(subtitle.imageURL == "a.png" && subtitle.defaultImage == "bundle://b.png")
    #expect((section.items[17] as? ControlItem)?.control == .toggle(isOn: false))
    #expect((section.items[19] as? ControlItem)?.control == .slider(value: 0.25))
    #expect((section.items[12] as? MessageItem)?.timestamp == Date(timeIntervalSince1970: 1_301_234_700))
  }

  @Test func jsonDecodesLikeYAML() throws {
    let document = try decode(#"{"table": {"style": "grouped"}, "items": [{"type": "text", "text": "JSON"}]}"#)
    #expect(document.configuration.style == .grouped)
    #expect((document.dataSource.sections[0].items[0] as? TextItem)?.text == "JSON")
  }

  /// JSON as Python's `json.dumps` writes it, every character beyond the Basic Multilingual
  /// Plane as a surrogate pair of escapes, which libyaml refuses on its own; in YAML, or
  /// behind an escaped backslash, the same letters stay text.
  @Test func jsonSurrogatePairsDecodeToTheirCharacter() throws {
    let document = try decode(#"{"items": [{"type": "text", "text": "hi \ud83d\ude00 \uD83C\uDDEB\uD83C\uDDF7"}]}"#)
    #expect((document.dataSource.sections[0].items[0] as? TextItem)?.text == "hi 😀 🇫🇷")
    #expect(YAMLValue.joiningSurrogatePairs(#"{"t": "\ud83d\ude00"}"#) == #"{"t": "\U0001F600"}"#)
    for unchanged in [
      #"{"t": "\\ud83d\ude00"}"#, #"t: '\ud83d\ude00'"#, #"{"t": "\ud83d"}"#, #"{"t": "\ude00\ud83d"}"#, "t: plain",
    ] {
      #expect(YAMLValue.joiningSurrogatePairs(unchanged) == unchanged, "\(unchanged)")
    }
    let literal = try decode(#"{"items": [{"type": "text", "text": "\\ud83d\\ude00"}]}"#)
    #expect((literal.dataSource.sections[0].items[0] as? TextItem)?.text == #"\ud83d\ude00"#)
  }

  /// YAML 1.1's booleans, read by RowKit itself since the parser runs without Yams' regular
  /// expressions: the spellings Yams' default resolver accepted, and nothing else.
  @Test func yaml11BooleansReadAsYamsDefaultResolverDid() throws {
    func checked(_ written: String) throws -> Bool? {
      let yaml = "items:\n  - type: checkmark\n    text: a\n    checked: \(written)\n"
      guard let document = try? decode(yaml) else { return nil }
      return try #require(document.dataSource.sections[0].items[0] as? CheckmarkItem).isChecked
    }
    for word in ["yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON", "!!bool TrUe", "!!bool yEs"] {
      #expect(try checked(word) == true, "\(word)")
    }
    for word in ["no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF", "!!bool oFF"] {
      #expect(try checked(word) == false, "\(word)")
    }
    for word in ["tRUE", "yES", "y", "n", "1", "0", "\"true\"", "'yes'", "!!str true", "! true", "|\n      true"] {
      #expect(try checked(word) == nil, "\(word) read as a boolean")
    }
    // Nothing is a missing key: the default.
    for word in ["~", "null", ""] { #expect(try checked(word) == false, "\(word)") }
    let error = try #require(decodeError("items:\n  - type: checkmark\n    text: a\n    checked: \"true\"\n"))
    #expect(error.message == "expected true or false, found 'true'", "\(error.message)")
  }

  @Test func errorsNameTheLineAndKeyPath() throws {
    let error = try #require(decodeError("sections:\n  - items:\n      - type: text\n        text: a\n      - type: text\n        txt: b\n"))
    #expect(error.line == 6)
    #expect(error.keyPath == "sections[0].items[1].txt")
    #expect(error.message.contains("unknown key 'txt'") && error.message.contains("did you mean 'text'"))
    #expect(error.description.hasSuffix("table.yaml:6:9: sections[0].items[1].txt: unknown key 'txt' (did you mean 'text'?)"))
  }

  @Test func inlineAndFileStylesheetsExtendTheDefault() throws {
    let inline = try decode("""
      stylesheet:
        vars: { textColor: "#112233", tableFont: "Inter Semi-Bold 16", spacing: 4, alias: linkTextColor }
        styles: { card: [ { shape: { roundedRect: 8 } }, { fill: textColor }, { border: { color: "#C8C7CC" } } ] }
      items: [ { type: text, text: a, background: card } ]
      """)
    #expect(inline.stylesheet.variables["textColor"] == .color(Color(r: 0x11, g: 0x22, b: 0x33)))
    #expect(inline.stylesheet.variables["tableFont"] == .font(Font(family: "Inter", size: 16, weight: 600)))
    #expect(inline.stylesheet.variables["spacing"] == .number(4))
    #expect(inline.stylesheet.variables["alias"] == .color(Color(r: 87, g: 107, b: 149)))
    #expect(inline.stylesheet.variables["font"] == Stylesheet.default.variables["font"])
    #expect(inline.stylesheet.styles["card"]?.elements.count == 3)

    let fromFile = try decode(
      "stylesheet: styles/theme.yaml\nitems: [ { type: text, text: a } ]\n",
      files: ["styles/theme.yaml": "extends: base.yaml\nvars: { linkTextColor: \"#FF0000\" }\n",
              "styles/base.yaml": "vars: { textColor: \"#00FF00\" }\n"])
    #expect(fromFile.stylesheet.variables["linkTextColor"] == .color(Color(r: 255, g: 0, b: 0)))
    #expect(fromFile.stylesheet.variables["textColor"] == .color(Color(r: 0, g: 255, b: 0)))
  }

  /// A mapping has no order: a variable may name one written after it in the same `vars:`,
  /// and takes that one's new value, not the default's; variables that name each other in
  /// a cycle say so.
  @Test func variablesNameEachOtherInAnyOrder() throws {
    let red = Stylesheet.Value.color(Color(r: 255, g: 0, b: 0))
    for vars in [##"{ a: b, b: "#FF0000", textColor: a }"##, ##"{ textColor: a, b: "#FF0000", a: b }"##, ##"{ b: "#FF0000", a: b, textColor: a }"##] {
      let document = try decode("stylesheet:\n  vars: \(vars)\nitems: [ { type: text, text: a } ]\n")
      #expect(document.stylesheet.variables["textColor"] == red, "\(vars)")
      #expect(document.stylesheet.variables["a"] == red, "\(vars)")
    }
    let redefined = try decode(##"stylesheet: { vars: { accent: linkTextColor, linkTextColor: "#FF0000" } }"## + "\nitems: [ { type: text, text: a } ]\n")
    #expect(redefined.stylesheet.variables["accent"] == red, "the new linkTextColor, wherever it is written")
    let same = try decode("stylesheet: { vars: { textColor: textColor } }\nitems: [ { type: text, text: a } ]\n")
    #expect(same.stylesheet.variables["textColor"] == Stylesheet.default.variables["textColor"])
    let cycle = decodeError("stylesheet:\n  vars: { a: b, b: c, c: a, d: \"#000000\" }\nitems: [ { type: text, text: a } ]\n")
    #expect(cycle?.description.hasSuffix("table.yaml:2:14: stylesheet.vars.a: variables name each other in a cycle: a → b → c → a") == true, "\(String(describing: cycle))")
    // A variable that names one of the cycle is not in it, and is not where it is told.
    let beside = decodeError("stylesheet:\n  vars: { x: a, a: b, b: a }\nitems: [ { type: text, text: a } ]\n")
    #expect(beside?.description.hasSuffix("stylesheet.vars.a: variables name each other in a cycle: a → b → a") == true, "\(String(describing: beside))")
  }

  @Test func designFilesDrawCustomTypes() throws {
    let document = try decode(
      """
      cells: { PersonItem: person.yaml }
      items:
        - { type: PersonItem, name: Joe, role: Author, photoURL: photo.png }
      """,
      files: [
        "person.yaml": """
          padding: 8
          minHeight: 56
          body:
            hstack:
              spacing: 10
              children:
                - image: { bind: photoURL, width: 40, height: 40, style: circle }
                - vstack:
                    grow: 1
                    children:
                      - label: { bind: name, font: tableFont, name: name }
                      - label: { text: "{role} since {{2009}}", name: role }
          """
      ])
    let item = try #require(document.dataSource.sections[0].items[0] as? DocumentItem)
    #expect(item.typeName == "PersonItem")
    #expect(item.fields == ["name": "Joe", "role": "Author", "photoURL": "photo.png"])
    let row = try document.makeRenderer().layout(document.dataSource).rows[0]
    #expect(row.layout.cellName == "PersonItemCell")
    #expect(row.layout.label("role")?.text.text == "Author since {2009}")
    #expect(row.layout.image("image0")?.frame == Rect(x: 8, y: 8, width: 40, height: 40))
    #expect(row.layout.image("image0")?.shape == .roundedRect(CornerRadii(all: -1)))
    #expect(row.layout.label("name")?.frame.minX == 58)
    #expect(row.height == 56)
  }

  /// Mistakes only the decoder can see; the structural ones are fixtures of
  /// Tests/Fixtures/bad-input (BadInputFixtureTests).
  @Test func designFileMistakesNameTheDesignFile() throws {
    let cases: [(String, String)] = [
      ("body:\n  label: { bind: name, font: nofont }\n", "undefined variable 'nofont'"),
      ("body:\n  image: { bind: photo, width: 40, height: 40, style: shiny }\n", "unknown style 'shiny'"),
    ]
    for (design, message) in cases {
      let error = try #require(
        decodeError("cells: { P: p.yaml }\nitems: [ { type: P, name: x, photo: y.png } ]\n", files: ["p.yaml": design]),
        "\(message)")
      #expect(error.file.hasSuffix("p.yaml"), "\(error)")
      #expect(error.message.contains(message), "\(error)")
      #expect(error.line > 0)
    }
  }
}
