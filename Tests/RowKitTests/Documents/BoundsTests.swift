import Foundation
import RowKitGraphics
import RowKitTestSupport
import Testing

@testable import RowKit

/// Every number a stylesheet (variables and style elements) or a design file gives is checked
/// against ``Bounds`` when the file loads, and a number out of bounds is an error naming the
/// file, the line and the key.
@Suite struct BoundsTests {
  let families = ["Inter"]

  /// The error decoding `yaml` (a table document with an inline stylesheet) gives, or nil.
  func documentError(_ yaml: String) -> DocumentError? {
    do {
      _ = try TableDocument.decode(
        Array(yaml.utf8), as: URL(fileURLWithPath: "/nowhere/table.yaml"), fontFamilies: families, checkingFolders: false)
      return nil
    } catch {
      return error as? DocumentError
    }
  }

  /// A document whose inline stylesheet is `stylesheet` (indented under `stylesheet:`).
  func document(stylesheet: String) -> String {
    "stylesheet:\n" + stylesheet.split(separator: "\n").map { "  " + $0 }.joined(separator: "\n")
      + "\nitems:\n  - type: text\n    text: Hi\n"
  }

  @Test func everyMetricVariableIsCheckedAgainstItsBounds() throws {
    for variable in CellMetrics.variables {
      let range = variable.range
      for value in [Bounds.format(range.lowerBound - 1), Bounds.format(range.upperBound + 1), "1e308"] {
        let error = try #require(
          documentError(document(stylesheet: "vars:\n  \(variable.name): \(value)")), "\(variable.name): \(value)")
        #expect(error.file == "/nowhere/table.yaml")
        #expect(error.line == 3, "\(error)")
        #expect(error.column > 0, "\(error)")
        #expect(error.keyPath == "stylesheet.vars.\(variable.name)", "\(error)")
        #expect(error.message.contains("is out of range"), "\(error)")
      }
      for value in [Bounds.format(range.lowerBound), Bounds.format(range.upperBound)] {
        #expect(documentError(document(stylesheet: "vars:\n  \(variable.name): \(value)")) == nil, "\(variable.name): \(value)")
      }
    }
  }

  @Test func aMetricVariableNamingAnotherVariableIsCheckedToo() throws {
    let error = try #require(documentError(document(stylesheet: "vars:\n  big: 5000\n  tableCellPadding: big")))
    #expect(error.line == 4)
    #expect(error.keyPath == "stylesheet.vars.tableCellPadding")
    #expect(error.message == "5000 is out of range (0 to 1000)")
  }

  @Test func otherNumberVariablesAreBounded() throws {
    let error = try #require(documentError(document(stylesheet: "vars:\n  cardBlur: -1e19")))
    #expect(error.keyPath == "stylesheet.vars.cardBlur")
    #expect(error.message == "-1e+19 is out of range (-10000 to 10000)")
    #expect(documentError(document(stylesheet: "vars:\n  cardBlur: 10000")) == nil)
  }

  @Test func fontSizesAreBounded() throws {
    let error = try #require(documentError(document(stylesheet: "vars:\n  tableFont: \"Inter 0.25\"")))
    #expect(error.keyPath == "stylesheet.vars.tableFont")
    #expect(error.message == "the font size 0.25 is out of range (1 to 256 points)")
    let styleError = try #require(
      documentError(document(stylesheet: "styles:\n  s:\n    - text: { font: \"Inter 0.5\" }")))
    #expect(styleError.keyPath == "stylesheet.styles.s[0].text.font")
    #expect(styleError.message.contains("font size 0.5 is out of range"))
  }

  @Test func everyStyleElementNumberIsBounded() throws {
    let cases: [(element: String, keyPath: String)] = [
      ("shape: { roundedRect: 1e19 }", "s[0].shape.roundedRect"),
      ("shape: { roundedRect: [1, 2, 3, 1e19] }", "s[0].shape.roundedRect[3]"),
      ("shape: { roundedLeftArrow: -2 }", "s[0].shape.roundedLeftArrow"),
      ("shape: { roundedRightArrow: 1001 }", "s[0].shape.roundedRightArrow"),
      ("shape: { speechBubble: { radius: 1e308 } }", "s[0].shape.speechBubble.radius"),
      ("shape: { speechBubble: { pointLocation: 361 } }", "s[0].shape.speechBubble.pointLocation"),
      ("shape: { speechBubble: { pointAngle: -1 } }", "s[0].shape.speechBubble.pointAngle"),
      ("shape: { speechBubble: { pointSize: [1e19, 2] } }", "s[0].shape.speechBubble.pointSize[0]"),
      ("inset: 1e19", "s[0].inset"),
      ("inset: [0, 0, 0, -1e19]", "s[0].inset[3]"),
      ("box: { margin: 1e19 }", "s[0].box.margin"),
      ("box: { padding: [1, 1, 1e19, 1] }", "s[0].box.padding[2]"),
      ("shadow: { color: \"#000\", blur: 1e19 }", "s[0].shadow.blur"),
      ("shadow: { color: \"#000\", offset: [0, 1e19] }", "s[0].shadow.offset[1]"),
      ("innerShadow: { color: \"#000\", blur: -1 }", "s[0].innerShadow.blur"),
      ("border: { color: \"#000\", width: 1e19 }", "s[0].border.width"),
      ("border: { color: \"#000\", width: 0 }", "s[0].border.width"),
      ("highlightBorder: { color: \"#000\", highlight: \"#FFF\", width: 101 }", "s[0].highlightBorder.width"),
      ("fourBorder: { top: \"#000\", width: 1e308 }", "s[0].fourBorder.width"),
      ("bevelBorder: { highlight: \"#000\", lightSource: 1e19 }", "s[0].bevelBorder.lightSource"),
      ("gradientBorder: { colors: [\"#000\", \"#FFF\"], locations: [0, 2] }", "s[0].gradientBorder.locations[1]"),
      ("text: { shadowOffset: [1e19, 0] }", "s[0].text.shadowOffset[0]"),
    ]
    for (element, keyPath) in cases {
      let error = try #require(documentError(document(stylesheet: "styles:\n  s:\n    - \(element)")), "\(element)")
      #expect(error.keyPath == "stylesheet.styles." + keyPath, "\(element): \(error)")
      #expect(error.line == 4, "\(element): \(error)")
      #expect(error.message.contains("is out of range"), "\(element): \(error)")
    }
  }

  @Test func everyDesignFileNumberIsBounded() throws {
    let folder = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let label = "{ label: { bind: name } }"
    let cases: [(design: String, line: Int, keyPath: String)] = [
      ("padding: 1e19\nbody: \(label)\n", 1, "padding"),
      ("padding: [1, 1, 1, -1]\nbody: \(label)\n", 1, "padding[3]"),
      ("minHeight: 1e19\nbody: \(label)\n", 1, "minHeight"),
      ("height: 2001\nbody: \(label)\n", 1, "height"),
      ("body:\n  vstack: { spacing: 1e19, children: [\(label)] }\n", 2, "body.vstack.spacing"),
      ("body:\n  vstack: { padding: 1e308, children: [\(label)] }\n", 2, "body.vstack.padding"),
      ("body:\n  vstack: { grow: 1e19, children: [\(label)] }\n", 2, "body.vstack.grow"),
      ("body:\n  label: { bind: name, lines: 1001 }\n", 2, "body.label.lines"),
      ("body:\n  label: { bind: name, grow: -1 }\n", 2, "body.label.grow"),
      ("body:\n  label: { bind: name, font: \"Inter 0.5\" }\n", 2, "body.label.font"),
      ("body:\n  image: { width: 1e19, height: 10 }\n", 2, "body.image.width"),
      ("body:\n  image: { width: 10, height: 1e19 }\n", 2, "body.image.height"),
      ("body:\n  spacer: { minLength: 1e19 }\n", 2, "body.spacer.minLength"),
      ("body:\n  spacer: { grow: 1e19 }\n", 2, "body.spacer.grow"),
    ]
    for (index, (design, line, keyPath)) in cases.enumerated() {
      let url = folder.appendingPathComponent("d\(index).yaml")
      try Data(design.utf8).write(to: url)
      do {
        _ = try DesignTemplate.load(contentsOf: url, fontFamilies: families)
        Issue.record("\(design) loaded")
      } catch let error as DocumentError {
        #expect(error.file.hasSuffix("d\(index).yaml"), "\(error)")
        #expect(error.line == line, "\(design): \(error)")
        #expect(error.keyPath == keyPath, "\(design): \(error)")
        #expect(error.message.contains("is out of range"), "\(design): \(error)")
      }
    }
  }

  @Test func emptyPathsAreRefusedWhereTheyAreWritten() throws {
    let cases: [(yaml: String, keyPath: String)] = [
      ("stylesheet: >-\nitems: [ { type: text, text: Hi } ]\n", "stylesheet"),
      ("stylesheet: { extends: \"\" }\nitems: [ { type: text, text: Hi } ]\n", "stylesheet.extends"),
      ("cells: { P: \" \" }\nitems: [ { type: P } ]\n", "cells.P"),
    ]
    for (yaml, keyPath) in cases {
      let error = try #require(documentError(yaml), "\(yaml)")
      #expect(error.line == 1, "\(error)")
      #expect(error.keyPath == keyPath, "\(error)")
      #expect(error.message.hasPrefix("expected the path of"), "\(error)")
    }
  }

  @Test func aStylesheetBuiltInSwiftIsCheckedWhenItsMetricsAreRead() {
    var sheet = Stylesheet.default
    sheet.variables["tableRowHeight"] = .number(1e19)
    #expect(throws: StyleError("variable 'tableRowHeight': 1e+19 is out of range (1 to 2000)")) {
      try CellMetrics(sheet)
    }
    #expect(throws: (any Error).self) { try TestSupport.renderer(stylesheet: sheet).layout(ListDataSource(items: [TextItem(text: "Hi")])) }
  }

  @Test func problemsNameTheNumberAndTheBounds() {
    #expect(Bounds.problem(12, in: Bounds.padding) == nil)
    #expect(Bounds.problem(.infinity, in: Bounds.padding) == "inf is out of range (0 to 1000)")
    #expect(Bounds.problem(.nan, in: Bounds.padding) != nil)
    #expect(Bounds.problem(0.005, in: Bounds.borderWidth) == "0.005 is out of range (0.01 to 100)")
    #expect(Bounds.problem(5000, in: Bounds.tableWidth, unit: "points") == "5000 is out of range (64 to 4096 points)")
  }
}
