import Foundation
import RowKitGraphics
import RowKitTestSupport
import Testing

@testable import RowKit

/// The render deadline is for the network: a local image always loads, whatever the clock
/// says. (It used to be subject to the deadline, so on a busy machine a local PNG came back
/// "not loaded within the render's 30 s deadline" and the complete policy, which promises
/// the same PNG for the same input, painted a default instead.)
@Suite struct LocalImageDeadlineTests {
  /// A deadline of 0 has passed before the render starts: only the network may be skipped.
  @Test func localImagesLoadEvenWhenTheDeadlineHasPassed() async throws {
    let folder = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    try Data(PNG.encode(SampleArtwork.landscape(pixels: 120))).write(to: folder.appendingPathComponent("photo.png"))
    try Data(PNG.encode(SampleArtwork.placeholder(pixels: 60))).write(to: folder.appendingPathComponent("default.png"))
    let urls = ["bundle://photo.png", "photo.png", folder.appendingPathComponent("photo.png").absoluteString]
    let items = urls.map { ImageItem(text: $0, imageURL: $0, defaultImage: "bundle://default.png") }
      // A remote image past the deadline is not waited for: it shows its default.
      + [ImageItem(text: "remote", imageURL: "http://127.0.0.1:9/never.png", defaultImage: "bundle://default.png")]
    let source = ListDataSource(items: items)
    let resolver = ImageURLResolver(assetsDirectory: folder, baseDirectory: folder)

    var renderer = TableRenderer(imageResolver: resolver, pipeline: ImagePipeline())
    renderer.imageDeadline = 0
    let rendered = try await renderer.render(source)
    #expect(rendered.manifest.rows.prefix(3).map { $0.images.first?.state } == [.loaded, .loaded, .loaded])
    #expect(rendered.manifest.rows[3].images.first?.state == .failed)
    #expect(rendered.manifest.rows[3].images.first?.reason == "not loaded within the render's 0 s deadline")
    #expect(rendered.manifest.rows[3].images.first?.imageSize == [60, 60])

    var streaming = TableRenderer(imageResolver: resolver, pipeline: ImagePipeline())
    streaming.imageDeadline = 0
    let output = folder.appendingPathComponent("t.json")
    let report = try await streaming.render(source, to: .init(manifest: output))
    #expect(report.manifest.rows.prefix(3).map { $0.images.first?.state } == [.loaded, .loaded, .loaded])
  }

  /// Many renders at once on the two-thread cooperative pool, each with a deadline that has
  /// passed: every local image still loads, in every render.
  @Test func manyRendersAtOnceAllLoadTheirLocalImages() async throws {
    let folder = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    for index in 0..<8 {
      try Data(PNG.encode(SampleArtwork.landscape(pixels: 200 + index))).write(to: folder.appendingPathComponent("p\(index).png"))
    }
    let resolver = ImageURLResolver(assetsDirectory: folder, baseDirectory: folder)
    let source = ListDataSource(items: (0..<8).map { ImageItem(text: "\($0)", imageURL: "bundle://p\($0).png") })
    let pool = RenderPool(workers: 2)
    let states = try await withThrowingTaskGroup(of: [ImageState?].self) { group in
      for _ in 0..<12 {
        group.addTask {
          var renderer = TableRenderer(imageResolver: resolver, pipeline: ImagePipeline(), pool: pool)
          renderer.imageDeadline = 0
          let report = try await renderer.render(source, to: .init(manifest: folder.appendingPathComponent("\(UUID()).json")))
          return report.manifest.rows.map { $0.images.first?.state }
        }
      }
      var all: [[ImageState?]] = []
      for try await states in group { all.append(states) }
      return all
    }
    #expect(states.count == 12)
    for render in states { #expect(render == Array(repeating: .loaded, count: 8)) }
  }
}
