// The snapshot tests RowKitSnapshot's "Snapshot testing" article shows
// (Sources/RowKitSnapshot/RowKitSnapshot.docc/SnapshotTesting.md), word for word:
// DocumentationSnippetTests finds the article's block in this file. Their references are
// Snapshots/Cells/settings-on.png and Snapshots/Tables/settings.png.

import RowKit
import RowKitSnapshotAssertions
import Testing

@Test func settingsRow() async {
  await assertSnapshot(of: SettingsItem(text: "On", caption: "Wi-Fi"), as: .row(), named: "settings-on", suite: "Cells")
}

let settings = ListDataSource(items: [
  SettingsItem(text: "On", caption: "Wi-Fi"),
  SettingsItem(text: "Off", caption: "Bluetooth"),
])

@Test func settingsTable() async {
  await assertSnapshot(
    of: settings, as: .table(configuration: TableConfiguration(style: .grouped)), named: "settings", suite: "Tables")
}
