import Foundation
import RowKit
import RowKitGraphics

/// A clock that moves only when a test says so: deadline and timeout tests run on it
/// instead of sleeping, so they take no time and cannot fail on a slow machine.
public final class ManualImageClock: ImageClock {
  private struct Sleeper {
    var id: Int
    var until: Double
    var continuation: CheckedContinuation<Void, any Error>
  }

  private struct State {
    var now = 0.0
    var nextID = 0
    var sleepers: [Sleeper] = []
    var cancelled: Set<Int> = []
    var watchers: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
  }

  // `Locked`, not `Mutex`: ThreadSanitizer cannot see `Mutex`'s lock, and reported the
  // loading threads' sleeps on this clock as races.
  private let state = Locked(State())

  public init() {}

  public var now: Double { state.withLock { $0.now } }

  /// How many tasks are sleeping on this clock now.
  public var sleeperCount: Int { state.withLock { $0.sleepers.count } }

  public func sleep(until deadline: Double) async throws {
    let id = state.withLock { state -> Int in
      state.nextID += 1
      return state.nextID
    }
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
        enum Outcome { case wake, cancel, wait([CheckedContinuation<Void, Never>]) }
        let outcome = state.withLock { state -> Outcome in
          if state.cancelled.remove(id) != nil { return .cancel }
          if deadline <= state.now { return .wake }
          state.sleepers.append(Sleeper(id: id, until: deadline, continuation: continuation))
          let count = state.sleepers.count
          let ready = state.watchers.filter { $0.count <= count }.map(\.continuation)
          state.watchers.removeAll { $0.count <= count }
          return .wait(ready)
        }
        switch outcome {
        case .wake: continuation.resume()
        case .cancel: continuation.resume(throwing: CancellationError())
        case .wait(let watchers): for watcher in watchers { watcher.resume() }
        }
      }
    } onCancel: {
      let sleeper = state.withLock { state -> Sleeper? in
        guard let index = state.sleepers.firstIndex(where: { $0.id == id }) else {
          state.cancelled.insert(id)
          return nil
        }
        return state.sleepers.remove(at: index)
      }
      sleeper?.continuation.resume(throwing: CancellationError())
    }
  }

  /// Moves the clock to `time` and wakes every task sleeping until then.
  public func advance(to time: Double) {
    let due = state.withLock { state -> [Sleeper] in
      state.now = max(state.now, time)
      let due = state.sleepers.filter { $0.until <= state.now }
      state.sleepers.removeAll { $0.until <= state.now }
      return due
    }
    for sleeper in due { sleeper.continuation.resume() }
  }

  /// Returns once at least `count` tasks sleep on this clock: then the work under test has
  /// reached its timers, and moving the clock decides them.
  public func waitForSleepers(_ count: Int) async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let ready = state.withLock { state -> Bool in
        if state.sleepers.count >= count { return true }
        state.watchers.append((count, continuation))
        return false
      }
      if ready { continuation.resume() }
    }
  }
}

/// Answers image requests from a script: bytes, a failure, or silence until cancelled.
public final class ScriptedImageLoader: ImageDataLoading {
  public enum Answer: Sendable {
    case bytes([UInt8])
    case failure(String)
    /// Never answers; ends only when the request is cancelled.
    case silence
  }

  private let answers: [String: Answer]
  private let counts = Locked<[String: Int]>([:])

  public init(_ answers: [String: Answer]) {
    self.answers = answers
  }

  /// How many times `url` was asked for.
  public func requests(_ url: String) -> Int { counts.withLock { $0[url, default: 0] } }

  public func data(at url: URL) async throws -> [UInt8] {
    counts.withLock { $0[url.absoluteString, default: 0] += 1 }
    switch answers[url.absoluteString] ?? .failure("HTTP 404 from \(url)") {
    case .bytes(let bytes): return bytes
    case .failure(let message): throw ImageLoadError(message)
    case .silence:
      // Suspended until cancelled; no thread is held.
      let never = ManualImageClock()
      try await never.sleep(until: .infinity)
      throw CancellationError()
    }
  }
}
