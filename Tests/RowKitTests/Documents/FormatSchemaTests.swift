import Foundation
import RowKitGraphics
import RowKitSnapshot
import RowKitTestSupport
import Testing

@testable import RowKit

/// Issue 25: the JSON Schemas of `Schemas/` come from one Swift description whose bounds and
/// keyword lists are the constants and enumerations the decoders check with; the Python
/// generator that copied them by hand had drifted from the decoders before.
@Suite struct FormatSchemaTests {
  /// The schema written to `fileName`.
  static func schema(_ fileName: String) throws -> OrderedJSON {
    try #require(FormatSchemas.all.first { $0.fileName == fileName }).make()
  }

  /// The value at `path` of `json`: object keys, or array indexes written as numbers.
  static func value(_ json: OrderedJSON, _ path: String...) -> OrderedJSON? {
    var value: OrderedJSON? = json
    for key in path {
      if let index = Int(key), case .array(let items)? = value {
        value = items.indices.contains(index) ? items[index] : nil
      } else {
        value = value?[key]
      }
    }
    return value
  }

  @Test func theGeneratedSchemasAreTheCommittedFilesByteForByte() throws {
    let folder = TestSupport.repositoryRoot.appendingPathComponent("Schemas")
    #expect(FormatSchemas.all.map(\.fileName).sorted() == (try FileManager.default.contentsOfDirectory(atPath: folder.path)).sorted())
    for schema in FormatSchemas.all {
      let committed = try Data(contentsOf: folder.appendingPathComponent(schema.fileName))
      #expect(committed == Data(schema.make().text.utf8), "Schemas/\(schema.fileName) is not what rowkit schema writes")
    }
  }

  @Test func theTableWidthBoundIsTheBoundsConstant() throws {
    let document = try Self.schema("table-document.schema.json")
    let width = try #require(Self.value(document, "properties", "table", "properties", "width"))
    #expect(width["minimum"] == .number(Bounds.tableWidth.lowerBound))
    #expect(width["maximum"] == .number(Bounds.tableWidth.upperBound))
    #expect(width["minimum"] == .number(64) && width["maximum"] == .number(4096))
    #expect(width["description"] == .string("The table's width in points (default 375; 64 to 4096; width × scale at most 8192 pixels)."))
    let widths = try #require(Self.value(document, "properties", "variants", "properties", "width"))
    #expect(widths["maxItems"] == .number(Double(Bounds.variantValuesPerAxis)))
    #expect(Self.value(widths, "items", "maximum") == .number(Bounds.tableWidth.upperBound))
    #expect(Self.value(document, "$defs", "items", "maxItems") == .number(Double(Bounds.maximumRows)))
    #expect(Self.value(document, "properties", "table", "properties", "scale", "minimum") == .number(Bounds.scale.lowerBound))
  }

  /// A bound given to the schema's pieces is the bound the schema says: changing a constant
  /// of ``Bounds`` changes the schema, its number and its description.
  @Test func aChangedBoundShowsInTheSchema() {
    let changed = SchemaParts.numberOrVariable(2.5...7, "A length")
    #expect(Self.value(changed, "anyOf", "0", "minimum") == .number(2.5))
    #expect(Self.value(changed, "anyOf", "0", "maximum") == .number(7))
    #expect(changed["description"] == .string("A length (2.5 to 7), or the name of a number variable"))
    let sides = SchemaParts.insets(-3...3, "Space", variables: false)
    #expect(Self.value(sides, "anyOf", "1", "items", "minimum") == .number(-3))
    #expect(sides["description"] == .string("Space: one number for every side, or [top, right, bottom, left] (-3 to 3 each)"))
  }

  @Test func theStylesheetVariablesAreTheDefaultStylesheets() throws {
    let variables = try #require(Self.value(try Self.schema("stylesheet.schema.json"), "$defs", "variables", "properties"))
    guard case .object(let members) = variables else { Issue.record("no variables"); return }
    let expected =
      Stylesheet.defaultFonts.map(\.name) + Stylesheet.defaultColors.map(\.name) + CellMetrics.variables.map(\.name)
      + Stylesheet.keywordVariables.map(\.name)
    #expect(members.map(\.key) == expected)
    #expect(Set(expected) == Set(Stylesheet.default.variables.keys))
    for variable in CellMetrics.variables {
      #expect(SchemaParts.metricDescriptions[variable.name] != nil, "\(variable.name) has no description")
      #expect(Self.value(variables, variable.name, "anyOf", "0", "minimum") == .number(variable.range.lowerBound))
      #expect(Self.value(variables, variable.name, "anyOf", "0", "maximum") == .number(variable.range.upperBound))
    }
    #expect(Self.value(variables, "tableRowHeight", "anyOf", "0", "maximum") == .number(Bounds.rowHeight.upperBound))
  }

  @Test func theKeywordListsAreTheSwiftEnumerations() throws {
    let document = try Self.schema("table-document.schema.json")
    let variants = try #require(Self.value(document, "properties", "variants", "properties"))
    #expect(Self.value(variants, "textSize", "items", "enum") == .strings(ContentSizeCategory.allCases.map(\.rawValue)))
    #expect(Self.value(variants, "appearance", "items", "enum") == .strings(Appearance.allCases.map(\.rawValue)))
    #expect(Self.value(variants, "direction", "items", "enum") == .strings(LayoutDirection.allCases.map(\.rawValue)))
    #expect(Self.value(variants, "locale", "items", "enum") == .strings(PseudoLocale.allCases.map(\.rawValue)))
    #expect(
      Self.value(document, "properties", "lint", "properties", "off", "items", "enum") == .strings(LintRule.allCases.map(\.rawValue)))
    let stylesheet = try Self.schema("stylesheet.schema.json")
    let elements = try #require(Self.value(stylesheet, "$defs", "element", "anyOf", "1", "properties"))
    #expect(Self.value(elements, "blend", "enum") == .strings(BlendMode.allCases.map(\.rawValue)))
    let design = try Self.schema("cell-design.schema.json")
    #expect(
      Self.value(design, "$defs", "view", "properties", "image", "properties", "contentMode", "enum")
        == .strings(ContentMode.allCases.map(\.rawValue)))
    let report = try Self.schema("check-report.schema.json")
    #expect(Self.value(report, "properties", "recordMode", "enum") == .strings(RecordMode.allCases.map(\.rawValue)))
  }

  /// The keys the schemas list are the ones the decoders' own lists accept.
  @Test func theSchemasKeysAreTheDecodersLists() throws {
    let document = try Self.schema("table-document.schema.json")
    guard case .object(let topLevel)? = document["properties"] else { Issue.record("no properties"); return }
    #expect(Set(topLevel.map(\.key)) == TableDocumentDecoder.topLevelKeys)
    let stylesheet = try Self.schema("stylesheet.schema.json")
    guard case .object(let elements)? = Self.value(stylesheet, "$defs", "element", "anyOf", "1", "properties") else {
      Issue.record("no style elements")
      return
    }
    #expect(elements.map(\.key) == Style.elementNames)
  }

  /// Each built-in type's rule allows exactly the keys `ItemDecoder` accepts for it.
  @Test func eachBuiltInItemTypeAllowsTheDecodersKeys() throws {
    let document = try Self.schema("table-document.schema.json")
    #expect(Self.value(document, "$defs", "builtInType", "enum") == .strings(ItemDecoder.builtInItemFields.map(\.type)))
    for (index, entry) in ItemDecoder.builtInItemFields.enumerated() {
      let rule = try #require(Self.value(document, "$defs", "item", "allOf", "\(index)"))
      #expect(Self.value(rule, "if", "properties", "type", "const") == .string(entry.type))
      guard case .object(let keys)? = Self.value(rule, "then", "properties") else {
        Issue.record("\(entry.type): no properties")
        continue
      }
      #expect(Set(keys.map(\.key)) == ItemDecoder.commonKeys.union(entry.fields), "\(entry.type)")
    }
  }

  /// The documents that hold each table of ``FormatReference``.
  static let referenceDocuments = [
    "bounds": "Sources/RowKit/RowKit.docc/TableDocuments.md", "number-variables": "docs/formats.md",
  ]

  /// The tables of bounds in the format reference are what `rowkit schema --reference`
  /// prints from the constants: a bound changed in Swift fails here until the documents
  /// follow.
  @Test func theReferenceTablesAreWhatRowkitPrints() throws {
    #expect(Set(FormatReference.all.map(\.name)) == Set(Self.referenceDocuments.keys))
    for (name, make) in FormatReference.all {
      let path = try #require(Self.referenceDocuments[name])
      let text = try String(contentsOf: TestSupport.repositoryRoot.appendingPathComponent(path), encoding: .utf8)
      guard let start = text.range(of: FormatReference.startMarker(name)),
        let end = text.range(of: FormatReference.endMarker, range: start.upperBound..<text.endIndex)
      else {
        Issue.record("\(path) has no block between \(FormatReference.startMarker(name)) and \(FormatReference.endMarker)")
        continue
      }
      // The block as written, without the indentation of the list item that holds it.
      let lines = text[start.upperBound..<end.lowerBound].split(separator: "\n")
        .map { $0.drop { $0 == " " } }.filter { !$0.isEmpty }
      #expect(lines.joined(separator: "\n") + "\n" == make(), "\(path): run rowkit schema --reference \(name) and paste its table")
    }
    #expect(FormatReference.span(-3...2.5, "points") == "−3–2.5 points")
    #expect(FormatReference.text(named: "bounds")?.contains("| table width (`table.width`, `--width`) | 64–4096 points, at most 8192 pixels") == true)
    #expect(FormatReference.grouped(Bounds.maximumRows) == "100,000")
  }

  @Test func jsonTextIsWrittenAsPythonsJSONModuleWritesIt() {
    let value: OrderedJSON = [
      "b": [], "a": [:], "text": "quote \" backslash \\ newline \n control \u{01} é →", "numbers": [0.01, 4, -1000, 0.5],
      "flags": [true, false, .null],
    ]
    #expect(
      value.text == """
        {
          "b": [],
          "a": {},
          "text": "quote \\" backslash \\\\ newline \\n control \\u0001 é →",
          "numbers": [
            0.01,
            4,
            -1000,
            0.5
          ],
          "flags": [
            true,
            false,
            null
          ]
        }

        """)
    var object: OrderedJSON = ["x": 1, "y": 2]
    object["x"] = 3
    object["z"] = 4
    #expect(object == ["x": 3, "y": 2, "z": 4])
    #expect(object.removing("y") == ["x": 3, "z": 4])
    #expect(object.merging(["y": 5, "w": 6]) == ["x": 3, "y": 5, "z": 4, "w": 6])
  }
}
