import Foundation
import RowKitTestSupport
import Testing

@testable import RowKit

/// What the fuzz harnesses (Fuzz/, `scripts/fuzz.sh`) found in RowKit, each as the input
/// that found it (or its minimal form): these fail on the code before the fix.
@Suite struct FuzzFindingsTests {
  // MARK: markup: spans past the end of the text

  /// The `markup` harness's input: a `<u>` span closed after a line break that the trimming
  /// of trailing white space then removed, so the span reached one scalar past the text.
  static let markupCrash: [UInt8] = Array(
    Data(base64Encoded: "ICAuIFIKIHdpZHRoPSIKIDx1PndoICAgICAgAwBAADxici8+PC91PiAgICAg")!)

  @Test(arguments: [
    String(decoding: markupCrash, as: UTF8.self), "<u>a<br/></u>", "<b>a<div>b</div></b>  ", "a<br/><i></i>",
    "<p><b>x</b></p>", "a <span class=\"c\"><br/><br/></span>",
  ])
  func everySpanLiesInsideTheText(_ source: String) throws {
    let markup = try StyledTextMarkup(parsing: source)
    let length = markup.text.unicodeScalars.count
    for span in markup.spans {
      #expect(span.range.lowerBound >= 0 && span.range.upperBound <= length, "\(span) in \(length) scalars of \(markup.text.debugDescription)")
    }
  }

  @Test func aSpanEndsWhereTheTrimmedTextEnds() throws {
    let markup = try StyledTextMarkup(parsing: "<u>wh<br/></u>")
    #expect(markup.text == "wh")
    #expect(markup.spans == [.init(range: 0..<2, attribute: .underline)])
  }

  // MARK: documents: a folder where a file belongs

  /// The `document-yaml` harness's finding: a stylesheet, design or `extends` path naming a
  /// folder gave `Assets/Samples: cannot read the file`, naming the folder instead of the
  /// file, line and key that named it.
  @Test(arguments: [
    ("stylesheet: .\nitems:\n  - type: text\n    text: Hi\n", 1, "stylesheet", "stylesheet file '.' is a folder"),
    ("stylesheet: ../Designs\nitems:\n  - type: text\n    text: Hi\n", 1, "stylesheet", "stylesheet file '../Designs' is a folder"),
    ("cells:\n  Person: ..\nitems:\n  - type: Person\n", 2, "cells.Person", "design file '..' is a folder"),
    ("stylesheet:\n  extends: .\nitems:\n  - type: text\n    text: Hi\n", 2, "stylesheet.extends", "stylesheet file '.' is a folder"),
  ])
  func aFolderWhereAFileBelongsIsAnErrorAtItsKey(_ yaml: String, _ line: Int, _ keyPath: String, _ message: String) throws {
    let url = TestSupport.assets.appendingPathComponent("Samples/table.yaml")
    let error = try #require(throws: DocumentError.self) {
      _ = try TableDocument.decode(Array(yaml.utf8), as: url, fontFamilies: ["Inter"])
    }
    #expect(error.file.hasSuffix("table.yaml"), "\(error)")
    #expect(error.line == line, "\(error)")
    #expect(error.keyPath == keyPath, "\(error)")
    #expect(error.message.contains(message), "\(error)")
  }

  @Test func aMissingFileIsStillReportedAsMissing() throws {
    let url = TestSupport.assets.appendingPathComponent("Samples/table.yaml")
    let error = try #require(throws: DocumentError.self) {
      _ = try TableDocument.decode(Array("stylesheet: none.yaml\nitems:\n  - type: text\n    text: Hi\n".utf8), as: url, fontFamilies: ["Inter"])
    }
    #expect(error.message.contains("stylesheet file 'none.yaml' does not exist"), "\(error)")
  }
}
