import Foundation
import RowKitGraphics
import RowKitTestSupport
import Testing

@testable import RowKit

/// Deadlines, timeouts and remembered failures on a clock the test moves, with a scripted
/// loader: no server, no sleeping, nothing that depends on how fast the machine is.
@Suite struct ImageClockTests {
  static let photo = try! PNG.encode(SampleArtwork.landscape(pixels: 80))

  static func fixture() throws -> (folder: URL, resolver: ImageURLResolver) {
    let folder = try TestSupport.temporaryDirectory()
    try Data(PNG.encode(SampleArtwork.placeholder(pixels: 40))).write(to: folder.appendingPathComponent("default.png"))
    return (folder, ImageURLResolver(assetsDirectory: folder, baseDirectory: folder))
  }

  @Test func theRenderDeadlineEndsSilentRequestsAtThatTimeOnTheClock() async throws {
    let (folder, resolver) = try Self.fixture()
    defer { try? FileManager.default.removeItem(at: folder) }
    let clock = ManualImageClock()
    let loader = ScriptedImageLoader(["https://x.test/a.png": .bytes(Self.photo), "https://x.test/silent.png": .silence])
    var configuration = ImagePipeline.Configuration()
    configuration.requestTimeout = 1000
    let pipeline = ImagePipeline(configuration: configuration, loader: loader, clock: clock)
    var renderer = TableRenderer(imageResolver: resolver, pipeline: pipeline)
    renderer.imageDeadline = 30
    let source = ListDataSource(items: [
      ImageItem(text: "a", imageURL: "https://x.test/a.png", defaultImage: "bundle://default.png"),
      ImageItem(text: "silent", imageURL: "https://x.test/silent.png", defaultImage: "bundle://default.png"),
    ])
    // The clock is moved beside the render: once a.png is decoded and only the deadline's
    // timer and the silent request's timeout wait, nothing ends before 30, everything at 30.
    // (A condition is polled, not a duration: however slow the machine, the same happens.)
    async let moved: Int = {
      await clock.waitForSleepers(2)
      while !(pipeline.statistics.decodes == 1 && clock.sleeperCount == 2) { await Task.yield() }
      clock.advance(to: 29.9)
      let stillWaiting = clock.sleeperCount
      clock.advance(to: 30)
      return stillWaiting
    }()
    let rendered = try await renderer.render(source)
    #expect(await moved == 2, "nothing ends before the deadline")
    let states = rendered.manifest.rows.map { $0.images.first?.state }
    #expect(states == [.loaded, .failed])
    #expect(rendered.manifest.rows[1].images.first?.reason == "not loaded within the render's 30 s deadline")
    #expect(rendered.manifest.rows[1].images.first?.imageSize == [40, 40])
    #expect(loader.requests("https://x.test/silent.png") == 1)
  }

  @Test func aRequestTimesOutAtItsLimitOnTheClock() async throws {
    let (folder, resolver) = try Self.fixture()
    defer { try? FileManager.default.removeItem(at: folder) }
    let clock = ManualImageClock()
    let loader = ScriptedImageLoader(["https://x.test/silent.png": .silence])
    var configuration = ImagePipeline.Configuration()
    configuration.requestTimeout = 10
    let pipeline = ImagePipeline(configuration: configuration, loader: loader, clock: clock)
    var renderer = TableRenderer(imageResolver: resolver, pipeline: pipeline)
    renderer.imageDeadline = 1000
    let source = ListDataSource(items: [
      ImageItem(text: "silent", imageURL: "https://x.test/silent.png", defaultImage: "bundle://default.png")
    ])
    async let moved: Void = {
      await clock.waitForSleepers(2)
      clock.advance(to: 10)
    }()
    let rendered = try await renderer.render(source)
    await moved
    let image = try #require(rendered.manifest.rows[0].images.first)
    #expect(image.state == .failed)
    #expect(image.reason == "no answer within 10 s from https://x.test/silent.png")
  }

  @Test func aFailedURLIsRememberedForItsTimeOnTheClock() async throws {
    let clock = ManualImageClock()
    let loader = ScriptedImageLoader(["https://x.test/gone.png": .failure("HTTP 404 from https://x.test/gone.png")])
    var configuration = ImagePipeline.Configuration()
    configuration.failureMemory = 60
    let pipeline = ImagePipeline(configuration: configuration, loader: loader, clock: clock)
    let location = ImageLocation.remote(URL(string: "https://x.test/gone.png")!)
    for time in [0.0, 30, 59.9] {
      clock.advance(to: time)
      let result = await pipeline.image(at: location)
      #expect((try? result.get()) == nil)
    }
    #expect(loader.requests("https://x.test/gone.png") == 1)
    #expect(pipeline.statistics.rememberedFailures == 2)
    clock.advance(to: 60.1)
    _ = await pipeline.image(at: location)
    #expect(loader.requests("https://x.test/gone.png") == 2)
  }

  @Test func aScriptedImageIsDecodedAndCoalescedAcrossFiftySlots() async throws {
    let (folder, resolver) = try Self.fixture()
    defer { try? FileManager.default.removeItem(at: folder) }
    let loader = ScriptedImageLoader(["https://x.test/a.png": .bytes(Self.photo)])
    let pipeline = ImagePipeline(loader: loader, clock: ManualImageClock())
    let renderer = TableRenderer(imageResolver: resolver, pipeline: pipeline)
    let source = ListDataSource(items: (0..<50).map { ImageItem(text: "\($0)", imageURL: "https://x.test/a.png") })
    let rendered = try await renderer.render(source)
    #expect(rendered.manifest.rows.allSatisfy { $0.images.first?.state == .loaded })
    #expect(loader.requests("https://x.test/a.png") == 1)
    #expect(pipeline.statistics.downloads == 1)
  }
}
