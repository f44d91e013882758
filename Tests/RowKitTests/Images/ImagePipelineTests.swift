import Foundation
import RowKitGraphics
import RowKitTestSupport
import Testing

@testable import RowKit

/// Images served over HTTP on loopback, and an assets folder with the default image.
struct ImageServer {
  let server: LoopbackHTTPServer
  let assets: URL

  static let png = try! PNG.encode(SampleArtwork.landscape(pixels: 400))
  static let jpeg = try! JPEG.encode(SampleArtwork.landscape(pixels: 1024).scaled(width: 1024, height: 768))
  static let webp = try! WebP.encodeLossless(SampleArtwork.avatar(pixels: 120))
  /// A PNG whose header claims 100000 × 100000 pixels.
  static let hugePNG: [UInt8] = {
    var png = try! PNG.encode(Bitmap(width: 2, height: 2, color: .white))
    let side: [UInt8] = [0x00, 0x01, 0x86, 0xA0]
    png.replaceSubrange(16..<20, with: side)
    png.replaceSubrange(20..<24, with: side)
    return png
  }()

  init(extraRoutes: [String: LoopbackHTTPServer.Response] = [:], function: String = #function) throws {
    var routes: [String: LoopbackHTTPServer.Response] = [
      "/photo.png": .ok(contentType: "image/png", body: Self.png),
      "/photo.jpg": .ok(contentType: "image/jpeg", body: Self.jpeg),
      "/photo.webp": .ok(contentType: "image/webp", body: Self.webp),
      "/missing.png": .status(404),
      "/slow.png": .delayed(60, contentType: "image/png", body: Self.png),
      "/truncated.png": .truncated(contentType: "image/png", body: Self.png, sent: Self.png.count / 2),
      "/truncated.jpg": .truncated(contentType: "image/jpeg", body: Self.jpeg, sent: Self.jpeg.count / 2),
      "/page.png": .ok(contentType: "text/html", body: Array("<html><body>Not found</body></html>".utf8)),
      "/huge.png": .ok(contentType: "image/png", body: Self.hugePNG),
      "/hang/*": .hang,
    ]
    routes.merge(extraRoutes) { $1 }
    server = try LoopbackHTTPServer(routes: routes)
    assets = try TestSupport.temporaryDirectory(function)
    try Data(PNG.encode(SampleArtwork.placeholder(pixels: 100))).write(to: assets.appendingPathComponent("placeholder.png"))
    // Where the sample designs name their default (`bundle://images/placeholder.png`).
    try FileManager.default.createDirectory(at: assets.appendingPathComponent("images"), withIntermediateDirectories: false)
    try Data(PNG.encode(SampleArtwork.placeholder(pixels: 100))).write(to: assets.appendingPathComponent("images/placeholder.png"))
  }

  var resolver: ImageURLResolver { ImageURLResolver(assetsDirectory: assets, baseDirectory: assets) }

  /// A pipeline of its own, so each test counts its own requests. Its request timeout is far
  /// above anything a loopback answer needs: timeouts are tested on a clock (ImageClockTests).
  static func pipeline(timeout: Double = 300, _ change: (inout ImagePipeline.Configuration) -> Void = { _ in }) -> ImagePipeline {
    var configuration = ImagePipeline.Configuration()
    configuration.requestTimeout = timeout
    change(&configuration)
    return ImagePipeline(configuration: configuration)
  }

  func renderer(_ pipeline: ImagePipeline, deadline: Double = 30, stylesheet: Stylesheet = .default) throws -> TableRenderer {
    var renderer = TableRenderer(stylesheet: stylesheet, imageResolver: resolver, pipeline: pipeline)
    renderer.imageDeadline = deadline
    return renderer
  }
}

@Suite struct ImagePipelineTests {
  @Test func eachBrokenResponseEndsInTheDefaultImageWithItsReason() async throws {
    let fixture = try ImageServer()
    defer { fixture.server.stop() }
    let cases: [(path: String, state: ImageState, reason: String?)] = [
      ("/photo.png", .loaded, nil),
      ("/photo.jpg", .loaded, nil),
      ("/photo.webp", .loaded, nil),
      ("/missing.png", .failed, "HTTP 404"),
      ("/truncated.png", .failed, nil),
      ("/truncated.jpg", .failed, nil),
      ("/page.png", .failed, "not an image"),
      ("/huge.png", .failed, "100000×100000 pixels is larger than the limit"),
    ]
    let items = cases.map {
      ImageItem(text: $0.path, imageURL: fixture.server.url($0.path), defaultImage: "bundle://placeholder.png")
    }
    let source = ListDataSource(items: items)
    // Every answer here comes at once, so the limits are far above what any machine needs;
    // timeouts are ImageClockTests' business, on a clock the test moves.
    let renderer = try fixture.renderer(ImageServer.pipeline(timeout: 300), deadline: 600)
    let rendered = try await renderer.render(source, outputs: [.rows])

    let placeholders = try await renderer.render(source, policy: .placeholder, outputs: [.rows])
    for (index, expected) in cases.enumerated() {
      let image = try #require(rendered.manifest.rows[index].images.first)
      #expect(image.state == expected.state, "\(expected.path): \(image.reason ?? "")")
      if let reason = expected.reason {
        #expect(image.reason?.contains(reason) == true, "\(expected.path): \(image.reason ?? "no reason")")
      }
      if expected.state == .failed {
        #expect(image.reason?.isEmpty == false, "\(expected.path) failed without a reason")
        #expect(image.imageSize == [100, 100], "\(expected.path) shows the default image")
        #expect(rendered.rowImages[index] == placeholders.rowImages[index], "\(expected.path) looks like its placeholder")
      } else {
        #expect(rendered.rowImages[index] != placeholders.rowImages[index], "\(expected.path) shows its own image")
      }
      #expect(placeholders.manifest.rows[index].images.first?.state == .default)
    }
    #expect(rendered.manifest.rows[1].images.first?.imageSize == [1024, 768])
  }

  @Test func fiftySlotsOfOneURLMakeOneRequestAndASecondRenderNone() async throws {
    let fixture = try ImageServer()
    defer { fixture.server.stop() }
    let url = fixture.server.url("/photo.jpg")
    // Three slot sizes (image, subtitle and message cells): three decodes, one download.
    let items: [any TableItem] = (0..<50).map { index -> any TableItem in
      switch index % 3 {
      case 0: return ImageItem(text: "Image \(index)", imageURL: url)
      case 1: return SubtitleItem(text: "Subtitle \(index)", subtitle: "x", imageURL: url)
      default: return MessageItem(title: "Message \(index)", text: "x", imageURL: url)
      }
    }
    let pipeline = ImageServer.pipeline(timeout: 300)
    let first = try await fixture.renderer(pipeline, deadline: 600).render(ListDataSource(items: items))
    #expect(fixture.server.requests("/photo.jpg") == 1)
    #expect(first.manifest.rows.allSatisfy { $0.images.first?.state == .loaded })
    let afterFirst = pipeline.statistics
    #expect(afterFirst.downloads == 1)
    #expect(afterFirst.decodes == 3)

    let second = try await fixture.renderer(pipeline, deadline: 600).render(ListDataSource(items: items))
    #expect(fixture.server.requests("/photo.jpg") == 1, "the second render asked again")
    #expect(pipeline.statistics.downloads == 1)
    #expect(pipeline.statistics.decodes == 3)
    #expect(pipeline.statistics.memoryHits == afterFirst.memoryHits + 3)
    #expect(second.tiles[0].bitmap == first.tiles[0].bitmap)
  }

  @Test func concurrentRequestsWaitOnOneDownloadAndOneDecode() async throws {
    let fixture = try ImageServer(extraRoutes: [
      "/slowish.png": .delayed(1, contentType: "image/png", body: ImageServer.png)
    ])
    defer { fixture.server.stop() }
    let pipeline = ImageServer.pipeline()
    let location = ImageLocation.remote(URL(string: fixture.server.url("/slowish.png"))!)
    let small = ImageTarget(slotSize: Size(width: 40, height: 40), contentMode: .aspectFill, scale: 2)
    let large = ImageTarget(slotSize: Size(width: 80, height: 60), contentMode: .aspectFit, scale: 2)
    let sizes = try await withThrowingTaskGroup(of: [Int].self) { group in
      for index in 0..<50 {
        group.addTask {
          let image = try await pipeline.image(at: location, for: index < 25 ? small : large).get()
          return [image.bitmap.width, image.bitmap.height]
        }
      }
      return try await group.reduce(into: Set<[Int]>()) { $0.insert($1) }
    }
    #expect(sizes == [[80, 80], [120, 120]], "aspect fill covers 80×80 px; aspect fit fits 160×120 px with a square")
    #expect(fixture.server.requests("/slowish.png") == 1)
    let statistics = pipeline.statistics
    #expect(statistics.downloads == 1)
    #expect(statistics.decodes == 2)
    // Typically 48 wait on a decode and 1 more on the download; on a busy machine a late
    // request finds the image or its bytes in memory instead.
    #expect(statistics.coalesced + statistics.memoryHits + statistics.dataHits == 49)
  }

  @Test func workIsCancelledOnlyWhenItsLastWaiterLeaves() async throws {
    let fixture = try ImageServer()
    defer { fixture.server.stop() }
    // No request timeout may end the hanging download before the test cancels it: on a
    // busy machine the request can take seconds to reach the server.
    let pipeline = ImageServer.pipeline(timeout: 600)
    let location = ImageLocation.remote(URL(string: fixture.server.url("/hang/1"))!)
    let first = Task { await pipeline.image(at: location) }
    let second = Task { await pipeline.image(at: location) }
    #expect(await eventually(within: 300) { fixture.server.requests("/hang/1") == 1 && pipeline.statistics.coalesced == 1 })
    first.cancel()
    _ = await first.value
    #expect(pipeline.activeRequests == 2, "the download and the decode go on for the second waiter")
    #expect(fixture.server.openConnections == 1)
    second.cancel()
    guard case .failure(let error) = await second.value else {
      Issue.record("a cancelled request succeeded")
      return
    }
    #expect(error.message == "cancelled")
    #expect(pipeline.activeRequests == 0)
    #expect(pipeline.statistics.cancelled == 2)
    #expect(await eventually(within: 300) { fixture.server.openConnections == 0 }, "the connection was left open")
  }

  /// Issue 24: six 250 MB bodies took 1.6 GB although the pipeline refuses bodies over its
  /// limit. Each body here is stopped as it passes the limit (a gzip one as it inflates), and
  /// its slot fails like any refused image: the default image, and a reason naming the URL
  /// and the limit.
  @Test func aBodyOverTheDownloadLimitIsStoppedWhileItArrives() async throws {
    let limit = 1 << 20
    let bomb = GzipOfZeros.stream(inflatingTo: 8 << 20)
    let split = GzipOfZeros.prefixLength(inflatingTo: 2 * limit)
    let fixture = try ImageServer(extraRoutes: [
      "/endless.png": .streamed(
        contentType: "image/png", encoding: nil, declaresLength: false,
        first: ImageServer.png + [UInt8](repeating: 0, count: limit), rest: [UInt8](repeating: 0, count: 8 << 20)),
      "/declared.png": .streamed(
        contentType: "image/png", encoding: nil, declaresLength: true, first: [], rest: [UInt8](repeating: 0, count: 8 << 20)),
      "/bomb.png": .streamed(
        contentType: "image/png", encoding: "gzip", declaresLength: true, first: Array(bomb[..<split]), rest: Array(bomb[split...])),
    ])
    defer { fixture.server.stop() }
    let paths = ["/endless.png", "/declared.png", "/bomb.png", "/photo.png"]
    let items = paths.map {
      ImageItem(text: $0, imageURL: fixture.server.url($0), defaultImage: "bundle://placeholder.png")
    }
    let pipeline = ImageServer.pipeline { $0.maximumDownloadBytes = limit }
    let rendered = try await fixture.renderer(pipeline, deadline: 600).render(ListDataSource(items: items), outputs: [.rows])
    for (index, path) in paths.dropLast().enumerated() {
      let image = try #require(rendered.manifest.rows[index].images.first)
      #expect(image.state == .failed, "\(path)")
      #expect(image.reason == "\(fixture.server.url(path)): the body is larger than the limit of 1048576 bytes")
      #expect(image.imageSize == [100, 100], "\(path) shows the default image")
      #expect(await eventually(within: 600) { fixture.server.streamedBody(path) != nil })
      let body = try #require(fixture.server.streamedBody(path))
      #expect(body.sent < body.total, "\(path): the rest of the body was never sent")
    }
    #expect(rendered.manifest.rows[3].images.first?.state == .loaded, "an image under the limit still loads")
  }

  @Test func aFailedURLIsRememberedForItsTimeLimit() async throws {
    let fixture = try ImageServer()
    defer { fixture.server.stop() }
    let location = ImageLocation.remote(URL(string: fixture.server.url("/missing.png"))!)
    let remembering = ImageServer.pipeline()
    for _ in 0..<3 { _ = await remembering.image(at: location) }
    #expect(fixture.server.requests("/missing.png") == 1)
    #expect(remembering.statistics.rememberedFailures == 2)
    let forgetting = ImageServer.pipeline { $0.failureMemory = 0 }
    for _ in 0..<2 { _ = await forgetting.image(at: location) }
    #expect(fixture.server.requests("/missing.png") == 3)
  }

  @Test func theDiskCacheKeepsResponsesWithinItsAgeAndSizeLimits() async throws {
    let fixture = try ImageServer()
    defer { fixture.server.stop() }
    let folder = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let location = ImageLocation.remote(URL(string: fixture.server.url("/photo.png"))!)
    func pipeline(maximumBytes: Int = 1 << 20, maximumAge: Double = 3600) -> ImagePipeline {
      ImageServer.pipeline {
        $0.diskCache = DiskCache.Configuration(directory: folder, maximumBytes: maximumBytes, maximumAge: maximumAge)
      }
    }
    _ = try await pipeline().image(at: location).get()
    let reader = pipeline()
    _ = try await reader.image(at: location).get()
    #expect(fixture.server.requests("/photo.png") == 1, "a new process reads the disk cache")
    #expect(reader.statistics.diskHits == 1)
    _ = try await pipeline(maximumAge: 0).image(at: location).get()
    #expect(fixture.server.requests("/photo.png") == 2, "a stale response is fetched again")

    let tight = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: tight) }
    let tiny = ImageServer.pipeline {
      $0.diskCache = DiskCache.Configuration(directory: tight, maximumBytes: ImageServer.png.count - 1)
    }
    _ = try await tiny.image(at: location).get()
    #expect(try FileManager.default.contentsOfDirectory(atPath: tight.path).isEmpty, "a response over the size limit was kept")
  }

  /// A response that is no image (an error page sent as 200) is never kept, one cut short is
  /// removed once it fails to decode, and a damaged entry on disk is downloaded again: none
  /// of them fails every run until it ages out.
  @Test func theDiskCacheKeepsNoResponseThatDoesNotDecode() async throws {
    let fixture = try ImageServer()
    defer { fixture.server.stop() }
    let folder = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let configuration = DiskCache.Configuration(directory: folder)
    func pipeline() -> ImagePipeline { ImageServer.pipeline { $0.diskCache = configuration } }
    for path in ["/page.png", "/truncated.png"] {
      let result = await pipeline().image(at: .remote(URL(string: fixture.server.url(path))!))
      #expect(throws: ImageLoadError.self, "\(path)") { try result.get() }
      #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty, "\(path) was kept")
    }

    let photo = URL(string: fixture.server.url("/photo.png"))!
    let entry = DiskCache(configuration).file(for: photo)
    for damaged in [Array("<html>gone</html>".utf8), Array(ImageServer.png.prefix(ImageServer.png.count / 2))] {
      try Data(damaged).write(to: entry)
      let before = fixture.server.requests("/photo.png")
      let first = pipeline()
      let result = await first.image(at: .remote(photo))
      if damaged.first == UInt8(ascii: "<") {
        // Not an image at all: downloaded again at once, and the entry mended.
        #expect(throws: Never.self) { try result.get() }
        #expect(fixture.server.requests("/photo.png") == before + 1)
        #expect(try [UInt8](Data(contentsOf: entry)) == ImageServer.png)
      } else {
        // An image cut short fails in this run only: the next one downloads it again.
        #expect(throws: ImageLoadError.self) { try result.get() }
        #expect(!FileManager.default.fileExists(atPath: entry.path), "the damaged entry was removed")
        _ = try await pipeline().image(at: .remote(photo)).get()
        #expect(fixture.server.requests("/photo.png") == before + 1)
        #expect(try [UInt8](Data(contentsOf: entry)) == ImageServer.png)
      }
    }
  }

  /// `--http-cache` may name a folder that holds the user's own files: the cache counts and
  /// removes only the responses it wrote, never another file, a folder or a link, and never
  /// waits on a FIFO found under a response's name.
  @Test func theDiskCacheTrimsOnlyTheResponsesItWrote() throws {
    let folder = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let usersFile = folder.appendingPathComponent("big.jpg")
    try Data(repeating: 1, count: 5000).write(to: usersFile)
    let usersFolder = folder.appendingPathComponent("sub")
    try FileManager.default.createDirectory(at: usersFolder, withIntermediateDirectories: false)
    try Data("keep".utf8).write(to: usersFolder.appendingPathComponent("notes.txt"))
    let long = Date(timeIntervalSince1970: 1_500_000_000)
    for item in [usersFile, usersFolder] {
      try FileManager.default.setAttributes([.modificationDate: long], ofItemAtPath: item.path)
    }
    let cache = DiskCache(DiskCache.Configuration(directory: folder, maximumBytes: 300))
    let first = URL(string: "http://images.example/1.png")!
    let second = URL(string: "http://images.example/2.png")!
    let linked = URL(string: "http://images.example/3.png")!
    // A link under a response's name is not the cache's either, nor what it leads to.
    try FileManager.default.createSymbolicLink(at: cache.file(for: linked), withDestinationURL: usersFile)
    cache.store([UInt8](repeating: 2, count: 200), for: first)
    try FileManager.default.setAttributes(
      [.modificationDate: Date().addingTimeInterval(-60)], ofItemAtPath: cache.file(for: first).path)
    cache.store([UInt8](repeating: 3, count: 200), for: second)
    #expect(cache.data(for: first) == nil, "the older response goes: the two are over the limit")
    #expect(cache.data(for: second) == [UInt8](repeating: 3, count: 200))
    #expect(try Data(contentsOf: usersFile).count == 5000)
    #expect(try String(contentsOf: usersFolder.appendingPathComponent("notes.txt"), encoding: .utf8) == "keep")
    #expect(FileManager.default.fileExists(atPath: cache.file(for: linked).path))

    let fifo = URL(string: "http://images.example/fifo.png")!
    #expect(mkfifo(cache.file(for: fifo).path, 0o600) == 0)
    #expect(cache.data(for: fifo) == nil)
    // Storing never writes through a link (out of the folder: the user's file was replaced
    // with the response, or a dangling link made a file outside), a FIFO (the store waited
    // for a reader) or a folder: the response is not kept, and what is there stays.
    cache.store([UInt8](repeating: 4, count: 10), for: linked)
    #expect(try Data(contentsOf: usersFile) == Data(repeating: 1, count: 5000))
    #expect(cache.data(for: linked) == nil, "a link is never read either")
    let outside = folder.deletingLastPathComponent().appendingPathComponent("outside-\(UUID().uuidString)")
    let dangling = URL(string: "http://images.example/dangling.png")!
    try FileManager.default.createSymbolicLink(atPath: cache.file(for: dangling).path, withDestinationPath: outside.path)
    cache.store([UInt8](repeating: 5, count: 10), for: dangling)
    #expect(!FileManager.default.fileExists(atPath: outside.path))
    cache.store([UInt8](repeating: 6, count: 10), for: fifo)
    var info = stat()
    #expect(lstat(cache.file(for: fifo).path, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO)
  }

  @Test func theMemoryCacheDropsTheLeastRecentlyUsedOverItsBudget() {
    var cache = MemoryCache<String>(budget: 100)
    cache.insert("a", cost: 40, for: "a")
    cache.insert("b", cost: 40, for: "b")
    _ = cache.value(for: "a")
    cache.insert("c", cost: 40, for: "c")
    #expect(cache.value(for: "b") == nil, "b was used least recently")
    #expect(cache.value(for: "a") == "a" && cache.value(for: "c") == "c")
    #expect(cache.bytes == 80)
    cache.insert("huge", cost: 101, for: "huge")
    #expect(cache.value(for: "huge") == nil && cache.count == 2)
  }

  @Test func anEditedFileIsReadAgain() async throws {
    let folder = try TestSupport.temporaryDirectory()
    let file = folder.appendingPathComponent("a.png")
    try Data(PNG.encode(Bitmap(width: 4, height: 4, color: .white))).write(to: file)
    let pipeline = ImageServer.pipeline()
    #expect(try await pipeline.image(at: .file(file)).get().bitmap.color(x: 0, y: 0) == .white)
    #expect(try await pipeline.image(at: .file(file)).get().bitmap.color(x: 0, y: 0) == .white)
    #expect(pipeline.statistics.decodes == 1)
    try Data(PNG.encode(Bitmap(width: 5, height: 5, color: .black))).write(to: file)
    #expect(try await pipeline.image(at: .file(file)).get().bitmap.color(x: 0, y: 0) == .black)
    try FileManager.default.removeItem(at: file)
    guard case .failure(let error) = await pipeline.image(at: .file(file)) else {
      Issue.record("a deleted file still loaded")
      return
    }
    #expect(error.message.contains("no readable file"))
  }

  @Test func aThousandSlotsAtAServerThatNeverAnswersEndAtTheDeadline() async throws {
    let fixture = try ImageServer()
    let pipeline = ImageServer.pipeline()
    // Warm up: the first render starts the concurrency pool's and the HTTP client's threads.
    _ = try await fixture.renderer(pipeline).render(
      ListDataSource(items: [ImageItem(text: "warm", imageURL: fixture.server.url("/photo.png"))]))
    let threadsBefore = threadCount()
    // The warm-up's connection may stay open, idle, in the HTTP client's pool; only the render's
    // own connections must end with it.
    let connectionsBefore = fixture.server.openConnections
    let items = (0..<1000).map {
      ImageItem(text: "Row \($0)", imageURL: fixture.server.url("/hang/\($0)"), defaultImage: "bundle://placeholder.png")
    }
    let renderer = try fixture.renderer(pipeline, deadline: 1)
    let start = Date()
    let rendered = try await renderer.render(ListDataSource(items: items), outputs: [])
    let elapsed = Date().timeIntervalSince(start)
    // Without the deadline the render would never end; it waited for the deadline, and the
    // reasons below show that the deadline ended every slot.
    #expect(elapsed >= 1, "the render took \(elapsed) s against a 1 s deadline")
    #expect(rendered.manifest.rows.count == 1000)
    #expect(rendered.manifest.rows.allSatisfy {
      $0.images.first?.state == .failed && $0.images.first?.reason == "not loaded within the render's 1 s deadline"
    })
    // The download limit held the other 994 back. (A freed slot can start a request or two
    // while the render's cancellations are still going round, so not exactly the limit.)
    let limit = pipeline.configuration.maximumConcurrentDownloads
    // On a loaded machine not all six, or none, may have reached the server by the deadline.
    #expect((0...(2 * limit)).contains(fixture.server.requests("/hang/*")))
    #expect(pipeline.activeRequests == 0, "downloads or decodes outlived the render")
    #expect(
      await eventually(within: 300) { fixture.server.openConnections <= connectionsBefore },
      "connections outlived the render: \(fixture.server.openConnections), \(connectionsBefore) before it")
    fixture.server.stop()
    #expect(await eventually(within: 300) { threadCount() <= threadsBefore }, "threads: \(threadsBefore) before, \(threadCount()) after")
  }

  /// The streaming renderer loads its rows' images a chunk at a time; the deadline is still
  /// the whole render's. Past it, later chunks show what is in memory (a photo an earlier
  /// row loaded) and default images, and wait for nothing. On a clock the test moves: a
  /// deadline per chunk would never let the render end.
  @Test func theDeadlineIsTheWholeStreamedRendersNotEachChunks() async throws {
    let folder = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    try Data(PNG.encode(SampleArtwork.placeholder(pixels: 100))).write(to: folder.appendingPathComponent("placeholder.png"))
    let clock = ManualImageClock()
    var answers: [String: ScriptedImageLoader.Answer] = ["https://x.test/photo.png": .bytes(ImageServer.png)]
    for index in stride(from: 1, to: 400, by: 2) { answers["https://x.test/hang/\(index)"] = .silence }
    let loader = ScriptedImageLoader(answers)
    var configuration = ImagePipeline.Configuration()
    configuration.maximumConcurrentDownloads = 32
    configuration.requestTimeout = 1000
    let pipeline = ImagePipeline(configuration: configuration, loader: loader, clock: clock)
    let items = (0..<400).map { index in
      ImageItem(
        text: "Row \(index)", imageURL: index % 2 == 0 ? "https://x.test/photo.png" : "https://x.test/hang/\(index)",
        defaultImage: "bundle://placeholder.png")
    }
    let resolver = ImageURLResolver(assetsDirectory: folder, baseDirectory: folder)
    var renderer = TableRenderer(imageResolver: resolver, pipeline: pipeline)
    // The photo is in memory before the render starts.
    let warm = try await renderer.render(ListDataSource(items: [items[0]]), to: .init(manifest: folder.appendingPathComponent("w.json")))
    #expect(warm.manifest.rows.first?.images.first?.state == .loaded)
    renderer.imageDeadline = 3
    renderer.chunkSize = 10
    // Once the first chunk waits and has asked for one of its silent URLs, the clock passes
    // the deadline once; 40 chunks follow. (Waiting for the sleeper alone raced the chunk's
    // requests: advanced first, the clock ended the chunk before it asked for anything.)
    async let moved: Void = {
      await clock.waitForSleepers(1)
      _ = await eventually(within: 300) { (1..<10).contains { loader.requests("https://x.test/hang/\($0)") == 1 } }
      clock.advance(to: 3)
    }()
    let report = try await renderer.render(
      ListDataSource(items: items), to: .init(manifest: folder.appendingPathComponent("table.json")))
    await moved
    #expect(clock.now == 3)
    let images = report.manifest.rows.map { $0.images[0] }
    #expect(images.count == 400)
    for (index, image) in images.enumerated() {
      if index % 2 == 0 {
        #expect(image.state == .loaded, "row \(index): \(String(describing: image.state)) \(image.reason ?? "")")
      } else {
        #expect(image.state == .failed && image.reason == "not loaded within the render's 3 s deadline", "row \(index)")
        #expect(image.imageSize == [100, 100], "row \(index) does not show its default image")
      }
    }
    // Only the first chunk's silent URLs were ever asked for; later chunks waited for nothing.
    #expect(loader.requests("https://x.test/photo.png") == 1)
    #expect((1...5).contains((1..<10).filter { loader.requests("https://x.test/hang/\($0)") == 1 }.count))
    #expect(loader.requests("https://x.test/hang/11") == 0)
    #expect(pipeline.activeRequests == 0, "downloads or decodes outlived the render")
  }
}
