import Foundation
import RowKit
import RowKitGraphics
import RowKitSnapshot
import SnapshotTesting
import Testing

@testable import RowKitSnapshotTesting

// swift-snapshot-testing waits for a render with a wall-clock timeout (5 s by default); these
// tests give it one no machine reaches, so that they never depend on speed.
private let generousTimeout: TimeInterval = 3600

private let wifi = SettingsItem(text: "On", caption: "Wi-Fi")
private let bluetooth = SettingsItem(text: "Off", caption: "Bluetooth")

/// A folder of its own for a test's references, removed by `body`'s end.
private func withTemporaryFolder<T>(_ body: (URL) throws -> T) throws -> T {
  let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rowkit-sst-\(UUID().uuidString)")
  defer { try? FileManager.default.removeItem(at: folder) }
  return try body(folder)
}

/// swift-snapshot-testing writes the render of a failed comparison under
/// `$SNAPSHOT_ARTIFACTS` (or the temporary folder) / the test file's name; removes it.
private func removeFailureArtifact(named fileName: String) {
  let root = ProcessInfo.processInfo.environment["SNAPSHOT_ARTIFACTS"] ?? NSTemporaryDirectory()
  let folder = URL(fileURLWithPath: root).appendingPathComponent("RowKitSnapshotTestingTests")
  try? FileManager.default.removeItem(at: folder.appendingPathComponent(fileName))
  if (try? FileManager.default.contentsOfDirectory(atPath: folder.path))?.isEmpty == true {
    try? FileManager.default.removeItem(at: folder)
  }
}

@Suite struct RowKitSnapshotTestingTests {
  @Test func passesAgainstTheCommittedReferences() {
    // The references in __Snapshots__ were recorded by this test and reviewed.
    assertSnapshot(of: wifi, as: .rowkit(width: 375), named: "wifi", timeout: generousTimeout)
    let table = SectionedDataSource(sections: [TableSection(items: [wifi, bluetooth])])
    assertSnapshot(of: table, as: .rowkit(width: 320, style: .grouped), named: "grouped", timeout: generousTimeout)
  }

  @Test func recordsAMissingReferenceWithItsEnvironment() throws {
    try withTemporaryFolder { folder in
      let message = verifySnapshot(
        of: wifi, as: .rowkit(width: 375), named: "wifi", snapshotDirectory: folder.path, timeout: generousTimeout,
        testName: "record")
      #expect(message?.contains("No reference was found on disk. Automatically recorded snapshot") == true)
      let reference = RowKitImage(pngData: try Data(contentsOf: folder.appendingPathComponent("record.wifi.png")))
      #expect(reference.bitmap?.width == 750)
      #expect(reference.recordedIn == EnvironmentFingerprint.current())

      // Recorded, the same render then passes.
      #expect(
        verifySnapshot(
          of: wifi, as: .rowkit(width: 375), named: "wifi", snapshotDirectory: folder.path, timeout: generousTimeout,
          testName: "record") == nil)
    }
  }

  /// Issue 26: the layout strategy keeps `<test>.<name>.layout.json` and fails with the
  /// change sentences.
  @Test func aLayoutReferenceIsRecordedAndAChangeToldInSentences() throws {
    try withTemporaryFolder { folder in
      let recorded = verifySnapshot(
        of: wifi, as: .rowkitLayout(width: 375), named: "row", snapshotDirectory: folder.path, timeout: generousTimeout,
        testName: "layout")
      #expect(recorded?.contains("No reference was found on disk. Automatically recorded snapshot") == true)
      let file = folder.appendingPathComponent("layout.row.layout.json")
      let record = try #require(RowKitLayout(jsonData: try Data(contentsOf: file)).record)
      #expect(record.rows.count == 1 && record.width == 375)
      #expect(
        verifySnapshot(
          of: wifi, as: .rowkitLayout(width: 375), named: "row", record: .never, snapshotDirectory: folder.path,
          timeout: generousTimeout, testName: "layout") == nil)
      let changed = verifySnapshot(
        of: SettingsItem(text: "On", caption: "WLAN"), as: .rowkitLayout(width: 375), named: "row", record: .never,
        snapshotDirectory: folder.path, timeout: generousTimeout, testName: "layout")
      defer { removeFailureArtifact(named: "layout.row.layout.json") }
      let failure = try #require(changed)
      #expect(failure.contains(#"RowKit: the layout differs (1 change)"#), "\(failure)")
      #expect(failure.contains(#"s0-r0 caption text "Wi-Fi" → "WLAN""#), "\(failure)")
    }
  }

  @Test func failsWithRowKitsSummary() throws {
    try withTemporaryFolder { folder in
      _ = verifySnapshot(
        of: wifi, as: .rowkit(width: 375), named: "row", record: .all, snapshotDirectory: folder.path,
        timeout: generousTimeout, testName: "failure")
      let message = verifySnapshot(
        of: bluetooth, as: .rowkit(width: 375), named: "row", record: .never, snapshotDirectory: folder.path,
        timeout: generousTimeout, testName: "failure")
      defer { removeFailureArtifact(named: "failure.row.png") }
      let failure = try #require(message)
      #expect(failure.contains("RowKit: "), "\(failure)")
      #expect(failure.contains("pixels differ"), "\(failure)")
      #expect(failure.contains("0 allowed"), "\(failure)")
    }
  }

  @Test func namesTheEnvironmentAReferenceWasRecordedIn() throws {
    var elsewhere = EnvironmentFingerprint.current()
    elsewhere.architecture = "riscv64"
    elsewhere.libraries.pango = "0.0.1"
    let otherRow = Bitmap(width: 750, height: 88, color: .white)
    let png = PNG.inserting(
      text: try elsewhere.jsonBytes(), keyword: RowKitImage.environmentKeyword, into: try PNG.encode(otherRow))
    let reference = RowKitImage(pngData: Data(png))
    #expect(reference.recordedIn == elsewhere)

    let actual = RowKitImage(bitmap: Bitmap(width: 750, height: 88, color: .black))
    let failure = try #require(Diffing<RowKitImage>.rowkit().diffV2(reference, actual)).0
    #expect(failure.contains("pango 0.0.1 → "), "\(failure)")
    #expect(failure.contains("architecture riscv64 → "), "\(failure)")
  }

  @Test func tolerancesDecideEquality() throws {
    var changed = Bitmap(width: 10, height: 10, color: .white)
    changed.pixels[0..<4] = [0, 0, 0, 255]
    let reference = RowKitImage(pngData: RowKitImage(bitmap: Bitmap(width: 10, height: 10, color: .white)).pngData())
    let actual = RowKitImage(bitmap: changed)

    let exact = try #require(Diffing<RowKitImage>.rowkit().diffV2(reference, actual))
    #expect(exact.0.hasPrefix("RowKit: 1 of 100 pixels differ (1%), 0 allowed; largest cluster 1 pixels"), "\(exact.0)")
    #expect(exact.1.count == 1)
    #expect(Diffing<RowKitImage>.rowkit(options: ComparisonOptions(maxDiffPixels: 1)).diffV2(reference, actual) == nil)
  }

  @Test func aFailedRenderIsReportedNotRecordedAsAnImage() {
    let failed = RowKitImage(problem: "no cell for item")
    #expect(String(decoding: failed.pngData(), as: UTF8.self) == "no cell for item")
    let reread = RowKitImage(pngData: failed.pngData())
    #expect(reread.bitmap == nil)
    #expect(reread.problem?.hasPrefix("the reference is not a PNG RowKit can read") == true)
  }
}
