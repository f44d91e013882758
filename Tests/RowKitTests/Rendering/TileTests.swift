import Foundation
import RowKitGraphics
import RowKitTestSupport
import Testing

@testable import RowKit

@Suite struct TileTests {
  @Test func aTallTableSplitsIntoTilesThatStackToTheWholeTable() async throws {
    let renderer = try TestSupport.catalogRenderer(style: .grouped)
    let table = try renderer.layout(Catalog.dataSource())
    let images = try await renderer.loadImages(for: table)
    let whole = try renderer.renderTable(table, images: images)
    #expect(whole.count == 1)
    let tiles = try renderer.renderTable(table, images: images, tilePixels: 1000)
    #expect(tiles.count == (table.pixelHeight + 999) / 1000)
    for tile in tiles {
      let expected = whole[0].bitmap.cropping(rows: tile.topPixel..<(tile.topPixel + tile.bitmap.height))
      #expect(tile.bitmap == expected, "tile at \(tile.topPixel)")
    }
  }

  @Test func tilesAreNumberedAfterTheOutputName() {
    let output = URL(fileURLWithPath: "/out/table.png")
    #expect(OutputWriter.tileURLs(for: output, count: 1) == [output])
    #expect(OutputWriter.tileURLs(for: output, count: 3).map(\.lastPathComponent) == ["table-1.png", "table-2.png", "table-3.png"])
  }

  @Test func aTableTallerThanCairosLimitIsWrittenAsTiles() async throws {
    let items: [any TableItem] = (0..<400).map { LongTextItem(text: "Row \($0): " + String(repeating: "tall text ", count: 20)) }
    let renderer = try TestSupport.renderer()
    let rendered = try await renderer.render(ListDataSource(items: items))
    #expect(rendered.layout.pixelHeight > Canvas.maximumPixelSide)
    let expectedTiles = (rendered.layout.pixelHeight + Canvas.maximumPixelSide - 1) / Canvas.maximumPixelSide
    #expect(rendered.tiles.count == expectedTiles && expectedTiles > 1)
    let folder = try TestSupport.temporaryDirectory()
    try OutputWriter.write(
      rendered, table: folder.appendingPathComponent("t.png"), rowsDirectory: nil,
      manifest: folder.appendingPathComponent("t.json"))
    let manifest = try JSONDecoder().decode(Manifest.self, from: Data(contentsOf: folder.appendingPathComponent("t.json")))
    #expect(manifest.tiles?.map(\.file) == (1...expectedTiles).map { "t-\($0).png" })
    let heights = try manifest.tiles!.map { try PNG.decode(contentsOf: folder.appendingPathComponent($0.file)).height }
    #expect(heights.reduce(0, +) == rendered.layout.pixelHeight)
    #expect(heights[0] == Canvas.maximumPixelSide)
  }
}
