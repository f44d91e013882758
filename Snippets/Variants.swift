// Renders one table in dark at the AX3 text size, then in every variant of three axes, then
// as a contact sheet of those variants, into the folder `variants`.
import Foundation
import RowKit
import RowKitGraphics

let dataSource = ListDataSource(items: [SubtitleItem(text: "Wi-Fi", subtitle: "Home network")])
let renderer = TableRenderer(configuration: TableConfiguration(width: 375))
let folder = URL(fileURLWithPath: "variants")
try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
let dark = try await renderer.rendering(Variant(textSize: .AX3, appearance: .dark)).render(dataSource)
try dark.write(to: folder.appendingPathComponent("dark,AX3.png"))
let axes = VariantAxes(widths: [320, 768], appearances: [.light, .dark], directions: [.ltr, .rtl])
for (variant, table) in try await renderer.render(dataSource, variants: axes) {
  try table.write(to: folder.appendingPathComponent(variant.fileName("table.png")))
}
let sheet = try await renderer.contactSheet(dataSource, variants: axes)   // a Bitmap
try Data(try PNG.encode(sheet)).write(to: folder.appendingPathComponent("sheet.png"))
