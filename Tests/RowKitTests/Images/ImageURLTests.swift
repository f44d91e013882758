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

  @Test(arguments: [
    "bundle://../secret.png", "bundle://a/../../secret.png", "bundle://", "ftp://x/y.png", "file://relative.png", "",
    "data:image/png;base64,AAAA", "DATA:image/png,x", "//cdn.example.com/e.png", "javascript:alert(1)", "blob:https://a/b",
  ])
  func refusesURLsThatCannotBeImages(url: String) {
    #expect(throws: ImageURLError.self) { try resolver.resolve(url) }
  }

  /// A URL a browser loads but RowKit does not is refused by what it is, not looked for as a
  /// file named after it; a file whose name has a colon is still a file.
  @Test func aBrowsersURLIsToldNotLookedForAsAFile() throws {
    #expect(throws: ImageURLError("image URL '//cdn.example.com/e.png' has no scheme: write https://cdn.example.com/e.png (or http:), or a path")) {
      try resolver.resolve("//cdn.example.com/e.png")
    }
    #expect(throws: ImageURLError("image URL 'data:image/png;base64,AAAA' is a data: URL, which RowKit does not load (use bundle://, documents://, cache://, file://, http://, https:// or a relative path)")) {
      try resolver.resolve("data:image/png;base64,AAAA")
    }
    #expect(try resolver.resolve("shots/12:30.png") == .file(URL(fileURLWithPath: "/srv/docs/shots/12:30.png")))
    #expect(try resolver.resolve("note:1.png") == .file(URL(fileURLWithPath: "/srv/docs/note:1.png")))
  }

  /// Secrets before a URL's host are hidden, whole; an `@` of the path or query is not one.
  @Test func passwordsAndTokensInURLsAreHidden() {
    #expect("image http://alice:s3cret@host/x.png failed".passwordsHidden == "image http://***@host/x.png failed")
    #expect("https://ghp_TOKEN@github.com/x.png".passwordsHidden == "https://***@github.com/x.png")
    #expect("https://u:p@ss@host/x".passwordsHidden == "https://***@host/x")
    #expect("https://host:8080?to=me@example.com".passwordsHidden == "https://host:8080?to=me@example.com")
    #expect("http://[::1]:8080?x=a@b".passwordsHidden == "http://[::1]:8080?x=a@b")
    #expect("https://host/people/@me.png".passwordsHidden == "https://host/people/@me.png")
    #expect("write to a:b@c or bob@example.com".passwordsHidden == "write to a:b@c or bob@example.com")
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
