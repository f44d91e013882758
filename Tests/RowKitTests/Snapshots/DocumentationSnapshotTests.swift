// The snapshot tests RowKitSnapshot's "Snapshot testing" article shows
// (Sources/RowKitSnapshot/RowKitSnapshot.docc/SnapshotTesting.md), word for word:
// DocumentationSnippetTests finds the article's block in this file. Their references are
// Snapshots/Cells/settings-on.png and Snapshots/Tables/settings.png. The layout snapshot is
// the one of "Failures that explain themselves" (ExplainedFailures.md), whose reference is
// Snapshots/Cells/settings-on-layout.layout.json.

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

@Test func settingsRowLayout() async {
  await assertSnapshot(
    of: SettingsItem(text: "On", caption: "Wi-Fi"), as: .layout(), named: "settings-on-layout", suite: "Cells")
}
