import Foundation
import RowKitGraphics
import RowKitTestSupport
import Testing

@testable import RowKit

/// The layout record: made only when asked for, the same bytes for the same input whether
/// rows are laid out on one worker or several, and holding what a failure message needs.
@Suite struct LayoutRecordTests {
  let families = ["DejaVu Sans", "DejaVu Sans Mono", "Inter"]

  func document(_ name: String) throws -> TableDocument {
    try TableDocument.load(TestSupport.assets.appendingPathComponent("Samples/\(name).yaml"), fontFamilies: families)
  }

  func record(_ document: TableDocument, workers: Int, chunk: Int = 256) async throws -> LayoutRecord {
    var renderer = document.makeRenderer(pool: RenderPool(workers: workers))
    renderer.recordsLayout = true
    renderer.chunkSize = chunk
    let rendered = try await document.render(with: renderer)
    return try #require(rendered.layoutRecord)
  }

  @Test func aRenderMakesNoRecordUnlessAsked() async throws {
    let document = try document("settings")
    let rendered = try await document.render(with: document.makeRenderer())
    #expect(rendered.layoutRecord == nil)
  }

  @Test(arguments: ["features", "photos", "people", "settings"])
  func theSameInputIsTheSameBytesSeriallyAndInParallel(name: String) async throws {
    let document = try document(name)
    let serial = try await record(document, workers: 1).jsonBytes()
    let again = try await record(document, workers: 1).jsonBytes()
    let parallel = try await record(document, workers: 2, chunk: 3).jsonBytes()
    #expect(serial == again)
    #expect(serial == parallel)
    // The bytes decode to the record they were made of, and encode to the same bytes again.
    let decoded = try LayoutRecord.decode(serial, file: "\(name).layout.json")
    #expect(try decoded.jsonBytes() == serial)
  }

  @Test func aRecordHoldsRowsElementsTextFontsAndImages() async throws {
    let document = try document("settings")
    let record = try await record(document, workers: 1)
    #expect(record.rows.count == document.dataSource.numberOfRows)
    #expect(record.width == document.configuration.width)
    let first = try #require(record.rows.first)
    #expect(first.name == "s0-r0")
    let label = try #require(first.elements.first { $0.kind == "text" })
    let text = try #require(label.text)
    #expect(!text.string.isEmpty)
    #expect(text.runs.allSatisfy { $0.family != nil && $0.file != nil && $0.sha256?.count == 12 })
    #expect(label.color?.hasPrefix("#") == true)
    #expect(label.frame.count == 4)
    // Sorted keys, pretty-printed, ending in a newline.
    let json = String(decoding: try record.jsonBytes(), as: UTF8.self)
    #expect(json.hasPrefix("{\n  \"bands\""))
    #expect(json.hasSuffix("}\n"))
  }

  @Test func positionsAreRoundedToASixtyFourthOfAPoint() {
    #expect(LayoutRecord.rounded(12.000_000_1) == 12)
    #expect(LayoutRecord.rounded(0.015_625) == 0.015_625)
    #expect(LayoutRecord.rounded(-0.000_001) == 0)
    #expect(LayoutRecord.rounded(.nan) == 0)
  }
}
