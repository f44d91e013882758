import Foundation
import RowKitGraphics
import RowKitSnapshotAssertions
import RowKitTestSupport
import Testing

@testable import RowKit
@testable import RowKitSnapshot

/// Layout snapshots (issue 26): a `<name>.layout.json` reference with no PNG, recorded and
/// compared by the record modes, failing with the change sentences, and handled as a
/// reference of its own by orphans and prune.
@Suite struct LayoutSnapshotTests {
  static func document(second: String = "Bluetooth") throws -> TableDocument {
    let yaml = """
      table: { width: 320, scale: 2 }
      items:
        - { type: text, text: Wi-Fi }
        - { type: text, text: \(second) }
      """
    return try TableDocument.decode(
      Array(yaml.utf8), as: TestSupport.assets.appendingPathComponent("Samples/layout.yaml"),
      fontFamilies: ["DejaVu Sans", "Inter"])
  }

  /// A new store over `root` each time: a store checks a name once.
  func store(_ root: URL) -> ReferenceStore {
    ReferenceStore(root: root, artifactsRoot: root.deletingLastPathComponent().appendingPathComponent("artifacts"), processEnvironment: [:])
  }

  /// References of another environment: a layout check, compared anyway, does not take the
  /// one explanation of the run, which the first image check that fails on it gives.
  @Test func aLayoutCheckLeavesTheEnvironmentsExplanationToTheImages() async throws {
    let folder = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let root = folder.appendingPathComponent("Snapshots")
    let image = try CraftedImages.card()
    let recorder = store(root)
    #expect(recorder.check(image, suite: "S", name: "a", record: .missing).message != nil)
    _ = await recorder.checkLayout(try Self.document(), as: .layout, suite: "S", name: "t", record: .missing)
    var fingerprint = try #require(try recorder.storedFingerprint())
    fingerprint.libraries.pango = "1.54.0"
    try Data(fingerprint.jsonBytes()).write(to: root.appendingPathComponent("environment.json"))
    let later = store(root)
    #expect(await later.checkLayout(try Self.document(), as: .layout, suite: "S", name: "t", record: .missing) == .matched)
    guard case .environmentMismatch(let message) = later.check(image, suite: "S", name: "a") else {
      Issue.record("the environment mismatch was not reported")
      return
    }
    #expect(message.contains("pango 1.54.0 → \(LibraryVersions.current.pango)"), "\(message)")
  }

  @Test func aLayoutReferenceIsRecordedComparedAndToldInSentences() async throws {
    let folder = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let root = folder.appendingPathComponent("Snapshots")
    let record = root.appendingPathComponent("S/t.layout.json")

    let first = await store(root).checkLayout(try Self.document(), as: .layout, suite: "S", name: "t", record: .missing)
    #expect(first == .recorded(path: record.path, reason: "S/t: no layout reference", changes: []))
    #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("S/t.png").path), "a layout snapshot keeps no image")
    let stored = try LayoutRecord.decode(Array(Data(contentsOf: record)), file: record.path)
    #expect(stored.rows.count == 2)

    #expect(await store(root).checkLayout(try Self.document(), as: .layout, suite: "S", name: "t", record: .never) == .matched)

    let changed = await store(root).checkLayout(try Self.document(second: "WLAN"), as: .layout, suite: "S", name: "t", record: .missing)
    guard case .failed(let message, let changes, let actual?) = changed else {
      Issue.record("a changed text passed: \(changed)")
      return
    }
    #expect(changes.map(\.sentence) == [#"s0-r1 text "Bluetooth" → "WLAN""#])
    #expect(message == "S/t: the layout differs from \(record.path) (1 change); actual record: \(actual)")
    #expect(changed.message == message + "\n  " + #"s0-r1 text "Bluetooth" → "WLAN""#)
    #expect(try LayoutRecord.decode(Array(Data(contentsOf: URL(fileURLWithPath: actual))), file: actual).rows[1].element("text") != nil)
    #expect(try LayoutRecord.decode(Array(Data(contentsOf: record)), file: record.path) == stored, "the reference was kept")

    // `failed` rewrites a failing record, as it rewrites a failing image; so does `all`.
    let rerecorded = await store(root).checkLayout(try Self.document(second: "WLAN"), as: .layout, suite: "S", name: "t", record: .failed)
    guard case .recorded(_, "S/t: the layout changed", let rerecordedChanges) = rerecorded else {
      Issue.record("not re-recorded: \(rerecorded)")
      return
    }
    #expect(rerecordedChanges == changes)
    #expect(await store(root).checkLayout(try Self.document(second: "WLAN"), as: .layout, suite: "S", name: "t", record: .never) == .matched)
    let underAll = await store(root).checkLayout(try Self.document(second: "Other"), as: .layout, suite: "S", name: "t", record: .all)
    guard case .recorded(_, "S/t: the layout changed", let allChanges) = underAll else {
      Issue.record("not re-recorded: \(underAll)")
      return
    }
    #expect(allChanges.map(\.sentence) == [#"s0-r1 text "WLAN" → "Other""#])
    #expect(await store(root).checkLayout(try Self.document(second: "Other"), as: .layout, suite: "S", name: "t", record: .failed) == .matched)
  }

  @Test func aMissingLayoutReferenceFailsWhenRecordingIsOffAndAnUnreadableOneIsAnError() async throws {
    let folder = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let root = folder.appendingPathComponent("Snapshots")
    let record = root.appendingPathComponent("S/t.layout.json")
    let missing = await store(root).checkLayout(try Self.document(), as: .layout, suite: "S", name: "t", record: .never)
    #expect(missing == .failed(message: "S/t: no layout reference at \(record.path), and recording is off", changes: [], actualRecord: nil))
    try FileManager.default.createDirectory(at: record.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data("{ not a record".utf8).write(to: record)
    let unreadable = await store(root).checkLayout(try Self.document(), as: .layout, suite: "S", name: "t", record: .never)
    #expect(
      unreadable
        == .error(
          message: "S/t: \(record.path) is not a RowKit layout record: not JSON (line 1, column 15: "
            + "while parsing a flow mapping did not find expected ',' or '}' (the file ends here))"))
  }

  @Test func aLoneLayoutReferenceIsAReferenceForOrphansAndPrune() async throws {
    let folder = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let root = folder.appendingPathComponent("Snapshots")
    _ = await store(root).checkLayout(try Self.document(), as: .layout, suite: "S", name: "t", record: .missing)
    _ = await store(root).checkLayout(try Self.document(), as: .layout, suite: "S", name: "u", record: .missing)
    #expect(store(root).referenceFiles() == ["S/t.layout.json", "S/u.layout.json"])
    #expect(store(root).orphanedReferences(keeping: ["S/t"]) == ["S/u.layout.json"])
    try store(root).removeReferences(["S/u.layout.json"])
    #expect(store(root).referenceFiles() == ["S/t.layout.json"])
  }

  @Test func theAssertionPassesOnAnEqualLayout() async throws {
    let folder = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let root = folder.appendingPathComponent("Snapshots")
    _ = await store(root).checkLayout(try Self.document(), as: .layout, suite: "S", name: "t", record: .missing)
    let outcome = await assertSnapshot(of: try Self.document(), as: .layout, named: "t", suite: "S", record: .never, store: store(root))
    #expect(outcome.passed)
    // A changed layout fails with its sentences, then how to take the change.
    let changed = try Self.document(second: "WLAN")
    await withKnownIssue {
      await assertSnapshot(of: changed, as: .layout, named: "t", suite: "S", record: .never, store: store(root))
    } matching: { issue in
      issue.description.contains(#"s0-r1 text "Bluetooth" → "WLAN""#)
        && issue.description.contains("if the change is intended, pass record: .failed to this assertion and run it once to record it,")
    }
  }

  @Test func anImageStrategyHasNoLayout() async throws {
    let folder = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let outcome = await store(folder).checkLayout(
      Bitmap(width: 1, height: 1), as: LayoutSnapshotting(.image), suite: "S", name: "t", record: .missing)
    #expect(outcome == .error(message: "S/t: layout failed: this strategy draws no table, so it has no layout record"))
  }
}
