// Renders a grouped table of two built-in settings rows to `settings.png`.
import Foundation
import RowKit

let dataSource = ListDataSource(items: [
  SettingsItem(text: "On", caption: "Wi-Fi"),
  SettingsItem(text: "Off", caption: "Bluetooth"),
])
let renderer = TableRenderer(configuration: TableConfiguration(width: 375, scale: 2, style: .grouped))
let rendered = try await renderer.render(dataSource)
try rendered.write(to: URL(fileURLWithPath: "settings.png"))
