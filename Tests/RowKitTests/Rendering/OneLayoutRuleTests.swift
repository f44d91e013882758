import RowKitGraphics
import RowKitTestSupport
import Testing

@testable import RowKit

/// The one rule: a row is measured and painted from one layout.
@Suite struct OneLayoutRuleTests {
  @Test(arguments: [TableStyle.plain, .grouped])
  func eachNonEmptyLabelIsShapedExactlyOnce(style: TableStyle) async throws {
    let renderer = try TestSupport.catalogRenderer(style: style)
    var shaped: [String] = []
    renderer.shaper.shapeObserver = { shaped.append($0) }
    let rendered = try await renderer.render(Catalog.dataSource(), outputs: [.table, .rows])
    let labels = rendered.layout.allLabels
    #expect(renderer.shaper.shapeCount == labels.count)
    #expect(labels.allSatisfy { !$0.text.text.isEmpty })
    // Every label's text was shaped, as many times as it appears, and nothing else was.
    #expect(shaped.sorted() == labels.map(\.text.text).sorted())
  }

  @Test func paintingShapesNothing() async throws {
    let renderer = try TestSupport.catalogRenderer(style: .plain)
    let table = try renderer.layout(Catalog.dataSource())
    let afterLayout = renderer.shaper.shapeCount
    let images = try await renderer.loadImages(for: table)
    _ = try renderer.renderTable(table, images: images)
    for row in table.rows.reversed() { _ = try renderer.renderRow(row, in: table, images: images) }
    #expect(renderer.shaper.shapeCount == afterLayout)
  }

  @Test func styledTextIsShapedOnceToo() async throws {
    let renderer = try TestSupport.renderer()
    let source = ListDataSource(items: [StyledTextItem(text: "<b>Bold</b>, <i>italic</i> and <a href=\"x\">a link</a>")])
    _ = try await renderer.render(source, outputs: [.table, .rows])
    #expect(renderer.shaper.shapeCount == 1)
  }

  @Test(arguments: [1.0, 2.0, 3.0])
  func everyRowImageIsItsManifestHeightTimesTheScale(scale: Double) async throws {
    let base = try TestSupport.catalogRenderer(style: .grouped)
    let renderer = try TableRenderer(
      configuration: TableConfiguration(scale: scale, style: .grouped, now: Catalog.now), shaper: base.shaper)
    for (url, bitmap) in try Catalog.images() { renderer.preload(bitmap, for: url) }
    let rendered = try await renderer.render(Catalog.dataSource(), outputs: [.table, .rows])
    #expect(rendered.rowImages.count == rendered.manifest.rows.count)
    for (image, row) in zip(rendered.rowImages, rendered.manifest.rows) {
      #expect(Double(image.height) == row.height * scale)
      #expect(Double(image.width) == rendered.manifest.width * scale)
    }
    #expect(Double(rendered.tiles[0].bitmap.height) == rendered.manifest.height * scale)
  }

  @Test func aRowKeepsItsHeightWhetherItsImageLoadsFailsOrWaits() async throws {
    let renderer = try TestSupport.renderer()
    renderer.preload(try SampleArtwork.landscape(pixels: 1000), for: "bundle://big.png")
    renderer.preload(try SampleArtwork.landscape(pixels: 10), for: "bundle://tiny.png")
    func heights(_ url: String, policy: ImagePolicy) async throws -> [Double] {
      let source = ListDataSource(items: [
        SubtitleItem(text: "Subtitle", subtitle: "x", imageURL: url),
        ImageItem(text: "Image", imageURL: url),
        MessageItem(title: "Message", text: "x", imageURL: url),
      ])
      let rendered = try await renderer.render(source, policy: policy)
      return rendered.manifest.rows.map(\.height)
    }
    let loaded = try await heights("bundle://big.png", policy: .complete)
    #expect(try await heights("bundle://tiny.png", policy: .complete) == loaded)
    #expect(try await heights("bundle://missing.png", policy: .complete) == loaded)
    #expect(try await heights("bundle://big.png", policy: .placeholder) == loaded)
  }
}
