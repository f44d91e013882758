// The XCTest form of the "Snapshot testing" article's row test
// (Sources/RowKitSnapshot/RowKitSnapshot.docc/SnapshotTesting.md), word for word:
// DocumentationSnippetTests finds the article's block in this file. Its reference is
// Snapshots/Cells/settings-off.png.

import RowKit
import RowKitSnapshotAssertions
import XCTest

final class SettingsRowTests: XCTestCase {
  func testSettingsRowOff() async {
    await assertSnapshot(of: SettingsItem(text: "Off", caption: "Bluetooth"), as: .row(), named: "settings-off", suite: "Cells")
  }
}
