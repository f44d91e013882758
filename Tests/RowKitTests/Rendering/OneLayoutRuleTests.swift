import RowKitGraphics
import RowKitTestSupport
import Testing

@testable import RowKit

/// The one rule: a row is measured and painted from one layout.
@Suite struct OneLayoutRuleTests {
  /// Every label the catalog lays out, shaped once each on a shaper of this test's.
  func labels(_ renderer: TableRenderer, _ source: any TableDataSource) throws -> (labels: [RowLabel], shaped: [String]) {
    let shaper = try renderer.environment.makeShaper()
    var shaped: [String] = []
    shaper.shapeObserver = { shaped.append($0) }
    return (try renderer.layout(source, shaper: shaper).allLabels, shaped)
  }

  @Test(arguments: [TableStyle.plain, .grouped])
  func eachNonEmptyLabelIsShapedExactlyOnce(style: TableStyle) async throws {
    var renderer = try TestSupport.catalogRenderer(style: style)
    renderer.pool = RenderPool(workers: 2)
    let (labels, shaped) = try labels(renderer, Catalog.dataSource())
    #expect(labels.allSatisfy { !$0.text.text.isEmpty })
    // Every label's text was shaped, as many times as it appears, and nothing else was.
    #expect(shaped.sorted() == labels.map(\.text.text).sorted())
    // A render on a pool that has seen none of it shapes each label once, whatever it paints.
    let rendered = try await renderer.render(Catalog.dataSource(), outputs: [.table, .rows])
    #expect(rendered.labelsShaped == labels.count)
  }

  @Test func paintingShapesNothing() async throws {
    var renderer = try TestSupport.catalogRenderer(style: .plain)
    renderer.pool = RenderPool(workers: 2)
    let before = try await renderer.pool.shapeCount()
    let rendered = try await renderer.render(Catalog.dataSource(), outputs: [.table, .rows])
    // Everything the workers shaped, layout and painting alike, is what layout shaped.
    #expect(try await renderer.pool.shapeCount() - before == rendered.labelsShaped)
    #expect(rendered.labelsShaped == (try labels(renderer, Catalog.dataSource()).labels.count))
    // Layouts are cached for one render (a cell is known by its name, and a design file
    // edited between renders keeps it): a second render shapes the same labels again.
    let again = try await renderer.render(Catalog.dataSource(), outputs: [.table, .rows])
    #expect(again.labelsShaped == rendered.labelsShaped)
    #expect(again.tiles.map(\.bitmap) == rendered.tiles.map(\.bitmap))
  }

  @Test func styledTextIsShapedOnceToo() async throws {
    let renderer = TableRenderer(pool: RenderPool(workers: 1))
    let source = ListDataSource(items: [StyledTextItem(text: "<b>Bold</b>, <i>italic</i> and <a href=\"x\">a link</a>")])
    let rendered = try await renderer.render(source, outputs: [.table, .rows])
    #expect(rendered.labelsShaped == 1)
    #expect(try await renderer.pool.shapeCount() == 1)
  }

  @Test(arguments: [1.0, 2.0, 3.0])
  func everyRowImageIsItsManifestHeightTimesTheScale(scale: Double) async throws {
    var renderer = TableRenderer(configuration: TableConfiguration(scale: scale, style: .grouped, now: Catalog.now))
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
    var renderer = try TestSupport.renderer()
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
