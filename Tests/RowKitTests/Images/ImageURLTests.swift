import Foundation
import RowKitGraphics
import RowKitTestSupport
import Testing

@testable import RowKit

@Suite struct ImageURLTests {
  let resolver = ImageURLResolver(
    assetsDirectory: URL(fileURLWithPath: "/srv/assets"), baseDirectory: URL(fileURLWithPath: "/srv/docs"))

  @Test func resolvesEachKindOfURL() throws {
    #expect(try resolver.resolve("bundle://images/a.png") == .file(URL(fileURLWithPath: "/srv/assets/images/a.png")))
    #expect(try resolver.resolve("bundle://images/../b.png") == .file(URL(fileURLWithPath: "/srv/assets/b.png")))
    #expect(try resolver.resolve("file:///tmp/c.png") == .file(URL(fileURLWithPath: "/tmp/c.png")))
    #expect(try resolver.resolve("pictures/d.png") == .file(URL(fileURLWithPath: "/srv/docs/pictures/d.png")))
    #expect(try resolver.resolve("https://example.com/e.png") == .remote(URL(string: "https://example.com/e.png")!))
  }

  @Test(arguments: ["bundle://../secret.png", "bundle://a/../../secret.png", "bundle://", "ftp://x/y.png", "file://relative.png", ""])
  func refusesURLsThatCannotBeImages(url: String) {
    #expect(throws: ImageURLError.self) { try resolver.resolve(url) }
  }

  @Test func refusesABundlePathThatEscapesThroughASymbolicLink() throws {
    let root = try TestSupport.temporaryDirectory()
    let assets = root.appendingPathComponent("assets")
    try FileManager.default.createDirectory(at: assets, withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(at: assets.appendingPathComponent("outside"), withDestinationURL: root)
    let resolver = ImageURLResolver(assetsDirectory: assets, baseDirectory: root)
    #expect(throws: ImageURLError.self) { try resolver.resolve("bundle://outside/secret.png") }
  }
}

@Suite struct ContentModeTests {
  let slot = Rect(x: 10, y: 10, width: 50, height: 50)

  @Test func aspectFitShowsAllOfTheImage() {
    #expect(ContentMode.aspectFit.drawingRect(imagePixels: (200, 100), slot: slot, scale: 2) == Rect(x: 10, y: 22.5, width: 50, height: 25))
  }

  @Test func aspectFillCoversTheSlot() {
    #expect(ContentMode.aspectFill.drawingRect(imagePixels: (200, 100), slot: slot, scale: 2) == Rect(x: -15, y: 10, width: 100, height: 50))
  }

  @Test func scaleToFillStretches() {
    #expect(ContentMode.scaleToFill.drawingRect(imagePixels: (200, 100), slot: slot, scale: 2) == slot)
  }

  @Test func unscaledModesUseOnePixelPerDevicePixel() {
    #expect(ContentMode.center.drawingRect(imagePixels: (40, 20), slot: slot, scale: 2) == Rect(x: 25, y: 30, width: 20, height: 10))
    #expect(ContentMode.left.drawingRect(imagePixels: (40, 20), slot: slot, scale: 2).minX == 10)
    #expect(ContentMode.right.drawingRect(imagePixels: (40, 20), slot: slot, scale: 2).maxX == 60)
    #expect(ContentMode.top.drawingRect(imagePixels: (40, 20), slot: slot, scale: 2).minY == 10)
    #expect(ContentMode.bottom.drawingRect(imagePixels: (40, 20), slot: slot, scale: 2).maxY == 60)
  }
}
