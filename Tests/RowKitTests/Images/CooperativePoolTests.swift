import Foundation
import RowKitGraphics
import RowKitTestSupport
import Testing

@testable import RowKit

/// Holds every thread of Swift's cooperative pool, as a caller's own busy code would, until
/// released; or until a watchdog thread gives up, so that a library that needs the pool ends
/// the test with a failure instead of a hang.
private final class CooperativePoolBlocker: Sendable {
  /// `@unchecked Sendable`: every field is read and written with `condition` locked.
  private final class State: @unchecked Sendable {
    let condition = NSCondition()
    var holding = 0
    var released = false
    var gaveUp = false
  }

  private let state = State()
  let width = ProcessInfo.processInfo.activeProcessorCount

  /// Starts one blocking task per thread of the pool, and the watchdog.
  init(watchdogSeconds: Double) {
    for _ in 0..<width {
      Task.detached { [state] in Self.hold(state) }
    }
    let watchdog = Thread { [state] in
      state.condition.lock()
      let limit = Date().addingTimeInterval(watchdogSeconds)
      while !state.released, state.condition.wait(until: limit) {}
      if !state.released {
        state.gaveUp = true
        state.released = true
        state.condition.broadcast()
      }
      state.condition.unlock()
    }
    watchdog.start()
  }

  /// Blocks the calling cooperative thread until released: deliberately, as the situation
  /// under test.
  private static func hold(_ state: State) {
    state.condition.lock()
    state.holding += 1
    state.condition.broadcast()
    while !state.released { state.condition.wait() }
    state.condition.unlock()
  }

  /// Waits, on a thread that is not the pool's, until every pool thread is held.
  func waitUntilHolding() {
    state.condition.lock()
    while state.holding < width && !state.released { state.condition.wait() }
    state.condition.unlock()
  }

  /// Releases the pool; whether the watchdog released it first.
  @discardableResult func release() -> Bool {
    state.condition.lock()
    defer { state.condition.unlock() }
    let gaveUp = state.gaveUp
    state.released = true
    state.condition.broadcast()
    return gaveUp
  }
}

/// One test at a time: two blockers at once would each wait, on a thread of the loading
/// executor, for cooperative threads the other holds, and stall each other's render.
@Suite(.serialized) struct CooperativePoolTests {
  /// The stall of issue 11: image work queued on the cooperative pool waits as long as the
  /// caller keeps the pool busy, and a local PNG came back "not loaded within the render's
  /// deadline". Loading runs on RowKit's own threads now; on the old code this render could
  /// not finish until the watchdog let the pool go.
  @Test func aRenderLoadsItsImagesWhileTheCallerHoldsEveryCooperativeThread() async throws {
    let fixture = try ImageServer()
    defer {
      fixture.server.stop()
      try? FileManager.default.removeItem(at: fixture.assets)
    }
    let renderer = try fixture.renderer(ImageServer.pipeline(), deadline: 600)
    let rows = ListDataSource(items: [
      ImageItem(text: "A local image", imageURL: "bundle://placeholder.png"),
      ImageItem(text: "A downloaded image", imageURL: fixture.server.url("/photo.png")),
    ])
    let (rendered, neededThePool) = await Self.render(rows, with: renderer)
    #expect(!neededThePool, "the render needed the cooperative pool to finish")
    let states = try rendered.get().manifest.rows.map { $0.images.first?.state }
    #expect(states == [.loaded, .loaded])
  }

  /// Three downloads through one download slot while the caller holds every cooperative
  /// thread: a slot handed back from an unstructured `Task {}` waited for the pool, so the
  /// second download never started and the render stalled until the watchdog let go.
  @Test func downloadsQueuedBehindOneSlotFinishWhileTheCallerHoldsEveryCooperativeThread() async throws {
    let fixture = try ImageServer(extraRoutes: [
      "/second.png": .ok(contentType: "image/png", body: ImageServer.png),
      "/third.png": .ok(contentType: "image/png", body: ImageServer.png),
    ])
    defer {
      fixture.server.stop()
      try? FileManager.default.removeItem(at: fixture.assets)
    }
    let pipeline = ImageServer.pipeline { $0.maximumConcurrentDownloads = 1 }
    let renderer = try fixture.renderer(pipeline, deadline: 600)
    let rows = ListDataSource(items: ["/photo.png", "/second.png", "/third.png"].map {
      ImageItem(text: "A downloaded image", imageURL: fixture.server.url($0))
    })
    let (rendered, neededThePool) = await Self.render(rows, with: renderer)
    #expect(!neededThePool, "a download waited for the cooperative pool")
    let states = try rendered.get().manifest.rows.map { $0.images.first?.state }
    #expect(states == [.loaded, .loaded, .loaded])
    #expect(["/photo.png", "/second.png", "/third.png"].map(fixture.server.requests) == [1, 1, 1])
  }

  /// Renders `rows` while every cooperative thread is held: the result, and whether the
  /// watchdog had to let the pool go for the render to finish.
  private static func render(
    _ rows: ListDataSource, with renderer: TableRenderer
  ) async -> (Result<RenderedTable, any Error>, neededThePool: Bool) {
    let blocker = CooperativePoolBlocker(watchdogSeconds: 300)
    // Workers of its own: on the process's shared workers the render would queue behind other
    // suites' renders, which under ThreadSanitizer on a busy machine outlasted the watchdog.
    var renderer = renderer
    renderer.pool = RenderPool(workers: 1)
    // Started off the pool, where holding it cannot stop the render from starting; it waits
    // until the pool is held.
    let render = Task(executorPreference: LoadingExecutor.shared) { [renderer] in
      blocker.waitUntilHolding()
      defer { blocker.release() }
      return try await renderer.render(rows, policy: .complete, outputs: [.table])
    }
    let rendered = await render.result
    return (rendered, blocker.release())
  }
}
