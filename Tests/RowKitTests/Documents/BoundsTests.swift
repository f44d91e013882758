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

  // Numbers out of bounds in style elements, design files, font sizes and other variables, and
  // empty paths, are fixtures of Tests/Fixtures/bad-input (BadInputFixtureTests), which the
  // schema test reads too.

  @Test func otherNumberVariablesMayReachTheirBounds() {
    #expect(documentError(document(stylesheet: "vars:\n  cardBlur: 10000")) == nil)
    #expect(documentError(document(stylesheet: "vars:\n  cardBlur: -10000")) == nil)
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
