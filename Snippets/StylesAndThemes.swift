// Gives the renderer a stylesheet: here the default one, which a loaded theme replaces.
import RowKit

let renderer = TableRenderer(configuration: TableConfiguration(style: .grouped), stylesheet: .default)
let image = try await renderer.render(ListDataSource(items: [SettingsItem(text: "On", caption: "Wi-Fi")])).image
print("\(image.width) × \(image.height) pixels")
