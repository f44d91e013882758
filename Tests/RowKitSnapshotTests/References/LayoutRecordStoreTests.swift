import Foundation
import RowKitGraphics
import RowKitTestSupport
import Testing

@testable import RowKit
@testable import RowKitSnapshot

/// Layout records beside references: written with the PNG, added when missing without
/// touching a matching PNG, removed by prune, compared only when pixels differ, and a
/// pixel-only difference placed in the elements that hold it.
@Suite struct LayoutRecordStoreTests {
  static let document = """
    table: { width: 320, scale: 2 }
    items:
      - { type: text, text: Wi-Fi }
      - { type: text, text: Bluetooth }
    """

  func rendered() async throws -> RenderedSnapshot {
    let document = try TableDocument.decode(
      Array(Self.document.utf8), as: TestSupport.assets.appendingPathComponent("Samples/store.yaml"),
      fontFamilies: ["DejaVu Sans", "Inter"])
    var renderer = document.makeRenderer()
    renderer.recordsLayout = true
    let table = try await document.render(with: renderer)
    return RenderedSnapshot(image: table.image, layout: table.layoutRecord)
  }

  /// A new store over `root` each time: a store checks a name once.
  func store(_ root: URL) -> ReferenceStore {
    ReferenceStore(root: root, artifactsRoot: root.deletingLastPathComponent().appendingPathComponent("artifacts"), processEnvironment: [:])
  }

  @Test func aRecordLivesBesideItsReferenceAndIsAddedWithoutTouchingAMatchingPNG() async throws {
    let folder = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let root = folder.appendingPathComponent("Snapshots")
    let table = try await rendered()
    let first = try await store(root).check(suite: "S", name: "t", record: .missing) { _ in table }
    guard case .recorded = first.outcome else { Issue.record("not recorded: \(first.outcome)"); return }
    let record = root.appendingPathComponent("S/t.layout.json")
    #expect(try LayoutRecord.decode(Array(Data(contentsOf: record)), file: record.path) == table.layout)

    // An old reference without a record: checked as before, and said once.
    try FileManager.default.removeItem(at: record)
    let png = root.appendingPathComponent("S/t.png")
    let before = try FileManager.default.attributesOfItem(atPath: png.path)[.modificationDate] as? Date
    let never = try await store(root).check(suite: "S", name: "t", record: .never) { _ in table }
    #expect(never.outcome.passed && never.layout.referenceHasNoRecord)
    #expect(!FileManager.default.fileExists(atPath: record.path))
    // --record missing adds it; the PNG whose pixels match is left alone.
    let missing = try await store(root).check(suite: "S", name: "t", record: .missing) { _ in table }
    #expect(missing.outcome.passed && missing.layout.writtenRecord == record)
    #expect(FileManager.default.fileExists(atPath: record.path))
    #expect(try FileManager.default.attributesOfItem(atPath: png.path)[.modificationDate] as? Date == before)

    // A passing check with its record makes no record at all.
    let passing = try await store(root).check(suite: "S", name: "t", record: .never) { recordsLayout in
      #expect(!recordsLayout)
      return table
    }
    #expect(passing.outcome.passed && !passing.layout.referenceHasNoRecord)

    // Prune removes the record with its PNG; the record is never an orphan itself.
    #expect(store(root).orphanedReferences(keeping: []) == ["S/t.png"])
    try store(root).removeReferences(["S/t.png"])
    #expect(!FileManager.default.fileExists(atPath: record.path))
  }

  @Test func pixelsThatDifferInsideOneLabelAreToldSoWhenTheLayoutIsTheSame() async throws {
    let folder = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let root = folder.appendingPathComponent("Snapshots")
    let table = try await rendered()
    _ = try await store(root).check(suite: "S", name: "t", record: .missing) { _ in table }
    // Paint a few pixels inside the second row's glyphs: the layout is the same.
    let layout = try #require(table.layout)
    let row = layout.rows[1]
    let ink = try #require(row.element("text")?.ink)
    let (x, y) = (Int((row.x + ink[0] + ink[2] / 2) * layout.scale), Int((row.y + ink[1] + ink[3] / 2) * layout.scale))
    let changed = CraftedImages.block(table.image, x: x, y: y, width: 2, height: 2, .white)
    let failed = try await store(root).check(suite: "S", name: "t", record: .never) { _ in
      RenderedSnapshot(image: changed, layout: table.layout)
    }
    #expect(!failed.outcome.passed)
    #expect(failed.layout.changes.isEmpty)
    let pixelOnly = try #require(failed.layout.pixelOnly)
    #expect(pixelOnly.elements == ["s0-r1 text"])
    #expect(pixelOnly.insideGlyphsOnly)
    #expect(pixelOnly.sentence == "layout unchanged; \(pixelOnly.pixels) pixels differ, all inside s0-r1 text's glyphs")
    // Both records are beside the failure images.
    #expect(failed.layout.actualRecord.map { FileManager.default.fileExists(atPath: $0.path) } == true)
    #expect(failed.layout.referenceRecord.map { FileManager.default.fileExists(atPath: $0.path) } == true)
  }

  @Test func aLayoutChangeIsToldInsteadOfPixels() async throws {
    let folder = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let root = folder.appendingPathComponent("Snapshots")
    let table = try await rendered()
    _ = try await store(root).check(suite: "S", name: "t", record: .missing) { _ in table }
    var moved = try #require(table.layout)
    // As a render lays it out: the rows below follow the row that grew.
    moved.rows[0].height = 61
    for index in moved.rows.indices.dropFirst() { moved.rows[index].y += 17 }
    moved.height += 17
    let failed = try await store(root).check(suite: "S", name: "t", record: .never) { _ in
      RenderedSnapshot(image: CraftedImages.block(table.image, x: 4, y: 4, width: 2, height: 2, .black), layout: moved)
    }
    #expect(failed.layout.sentences == ["s0-r0 height 44 → 61 pt"])
    #expect(failed.layout.pixelOnly == nil)
  }

  /// Pixels that the layout changes do not explain are told after them: a separator's color,
  /// which no record holds, changed beside a label's color was said of the label alone.
  @Test func pixelsOutsideTheChangedElementsAreToldAfterTheChanges() async throws {
    let folder = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let root = folder.appendingPathComponent("Snapshots")
    let table = try await rendered()
    _ = try await store(root).check(suite: "S", name: "t", record: .missing) { _ in table }
    var recolored = try #require(table.layout)
    let text = try #require(recolored.rows[0].elements.firstIndex { $0.name == "text" })
    recolored.rows[0].elements[text].color = "#FF0000"
    let ink = try #require(recolored.rows[0].elements[text].ink)
    let scale = recolored.scale
    let red = Color(r: 255, g: 0, b: 0)
    // Inside the recolored label (explained), and at the foot of the second row, outside its
    // elements (not explained).
    var image = CraftedImages.block(
      table.image, x: Int((recolored.rows[0].x + ink[0] + 2) * scale), y: Int((recolored.rows[0].y + ink[1] + 2) * scale), width: 2,
      height: 2, red)
    image = CraftedImages.block(image, x: 2, y: Int((recolored.rows[1].y + recolored.rows[1].height) * scale) - 2, width: 3, height: 1, .black)
    let failed = try await store(root).check(suite: "S", name: "t", record: .never) { _ in
      RenderedSnapshot(image: image, layout: recolored)
    }
    let sentences = failed.layout.sentences
    #expect(sentences.count == 2, "\(sentences)")
    #expect(sentences.first?.hasPrefix("s0-r0 text color") == true, "\(sentences)")
    #expect(sentences.last == "3 more pixels differ outside the changed elements, all inside s0-r1 outside its elements", "\(sentences)")
    #expect(!failed.layout.rasterizationOnly)

    // Every differing pixel inside the changed label: nothing more is said.
    let explained = try await store(root).check(suite: "S", name: "t", record: .never) { _ in
      RenderedSnapshot(
        image: CraftedImages.block(
          table.image, x: Int((recolored.rows[0].x + ink[0] + 2) * scale), y: Int((recolored.rows[0].y + ink[1] + 2) * scale), width: 2,
          height: 2, red),
        layout: recolored)
    }
    #expect(explained.layout.sentences.count == 1, "\(explained.layout.sentences)")
  }

  /// A record that is not of its reference's size (recorded at another width or scale, or
  /// copied from another case) is not compared: it would tell a width the pixels do not show.
  @Test func aRecordOfAnotherSizeIsNotComparedWithItsReference() async throws {
    let folder = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let root = folder.appendingPathComponent("Snapshots")
    let table = try await rendered()
    _ = try await store(root).check(suite: "S", name: "t", record: .missing) { _ in table }
    var wider = try #require(table.layout)
    wider.width = 390
    try Data(wider.jsonBytes()).write(to: root.appendingPathComponent("S/t.layout.json"))
    let failed = try await store(root).check(suite: "S", name: "t", record: .never) { _ in
      RenderedSnapshot(image: CraftedImages.block(table.image, x: 4, y: 4, width: 2, height: 2, .black), layout: table.layout)
    }
    #expect(failed.layout.changes.isEmpty, "\(failed.layout.sentences)")
    let problem = try #require(failed.layout.unreadableRecord)
    #expect(problem.hasSuffix("is not the record of its reference: it records a table of 780×176 pixels (390 points at scale 2), the reference is 640×176"), "\(problem)")
  }

  /// A record beside a reference comes with the reference, from anyone: one whose numbers
  /// no render records (a row at y 1e300, which the comparison turned into pixels and
  /// trapped on) is refused as unreadable, and the check tells the change in pixels.
  @Test func aRecordWithNumbersNoRenderRecordsIsUnreadableNotACrash() async throws {
    let folder = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let root = folder.appendingPathComponent("Snapshots")
    let table = try await rendered()
    _ = try await store(root).check(suite: "S", name: "t", record: .missing) { _ in table }
    let recordURL = root.appendingPathComponent("S/t.layout.json")
    let written = try Data(contentsOf: recordURL)
    for (key, value) in [("y", "1e300"), ("height", "-5"), ("section", "9223372036854775807")] {
      var json = try #require(try JSONSerialization.jsonObject(with: written) as? [String: Any])
      var rows = try #require(json["rows"] as? [[String: Any]])
      rows[0][key] = try JSONSerialization.jsonObject(with: Data(value.utf8), options: .fragmentsAllowed)
      json["rows"] = rows
      let doctored = try JSONSerialization.data(withJSONObject: json)
      #expect {
        try LayoutRecord.decode([UInt8](doctored), file: "t.layout.json")
      } throws: { error in
        "\(error)".contains("t.layout.json is not a RowKit layout record: 'rows[0].\(key)' is")
      }
      try doctored.write(to: recordURL)
      let failed = try await store(root).check(suite: "S", name: "t", record: .never) { _ in
        RenderedSnapshot(image: CraftedImages.block(table.image, x: 4, y: 4, width: 2, height: 2, .black), layout: table.layout)
      }
      guard case .failed = failed.outcome else { Issue.record("\(key): \(failed.outcome)"); continue }
      // Told as unreadable, naming the file and why: not as a record that is not there.
      #expect(failed.layout.changes.isEmpty && !failed.layout.referenceHasNoRecord, "\(key)")
      #expect(failed.layout.unreadableRecord?.contains("t.layout.json is not a RowKit layout record: 'rows[0].\(key)' is") == true, "\(key)")
    }
    // Bytes that are no JSON at all, or a record missing a key, say so in words.
    for (bytes, problem) in [
      ("{{{ not json", "not JSON (line 1, column 13: while parsing a flow mapping did not find expected ',' or '}' (the file ends here))"),
      (#"{"version": 1}"#, "no key 'width'"),
    ] {
      try Data(bytes.utf8).write(to: recordURL)
      let failed = try await store(root).check(suite: "S", name: "t", record: .never) { _ in
        RenderedSnapshot(image: CraftedImages.block(table.image, x: 4, y: 4, width: 2, height: 2, .black), layout: table.layout)
      }
      #expect(failed.layout.unreadableRecord == "\(recordURL.path) is not a RowKit layout record: \(problem)", "\(failed.layout)")
    }
    // A folder where the record goes can be neither read nor replaced: the case is an error
    // before anything is written (the PNG was recorded, then the record failed).
    try FileManager.default.removeItem(at: recordURL)
    try FileManager.default.createDirectory(at: recordURL, withIntermediateDirectories: false)
    let png = try Data(contentsOf: root.appendingPathComponent("S/t.png"))
    let blocked = try await store(root).check(suite: "S", name: "t", record: .failed) { _ in
      RenderedSnapshot(image: CraftedImages.block(table.image, x: 4, y: 4, width: 2, height: 2, .black), layout: table.layout)
    }
    guard case .error(let message) = blocked.outcome else {
      Issue.record("not refused: \(blocked.outcome)")
      return
    }
    #expect(message.contains("t.layout.json: is not a file, where the reference's layout record goes"), "\(message)")
    #expect(try Data(contentsOf: root.appendingPathComponent("S/t.png")) == png)
    // Frames and the table's own numbers too.
    var record = try #require(table.layout)
    record.rows[0].elements[0].frame = [0, 0, .greatestFiniteMagnitude, 10]
    #expect(record.problem == "'rows[0].elements[0].frame[2]' is \(Double.greatestFiniteMagnitude), not in -800000000…800000000")
    record = try #require(table.layout)
    record.scale = 1e9
    #expect(record.problem?.hasPrefix("'scale' is 1000000000.0, not in 0.5…4") == true, "\(record.problem ?? "")")
    #expect(table.layout?.problem == nil, "a render's own record is in range")
  }
}
