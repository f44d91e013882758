import Foundation
import RowKitGraphics

/// Runs one piece of work per key at a time: a caller asking for a key that is already being
/// worked on waits for that work instead of starting its own. A cancelled caller stops
/// waiting at once; the work itself is cancelled when its last caller leaves, and a caller
/// that comes later starts it afresh.
///
/// `@unchecked Sendable` is safe: `running` and the counts, and every `Entry`'s `task` and
/// `waiters`, are read and written only inside `lock.withLock`; a continuation is resumed
/// after it has been taken out under the lock, exactly once.
final class Coalescer<Value: Sendable>: @unchecked Sendable {
  /// `@unchecked Sendable`: its fields are only touched under the coalescer's `lock`.
  private final class Entry: @unchecked Sendable {
    var task: Task<Void, Never>?
    var waiters: [UUID: CheckedContinuation<Value, any Error>] = [:]
  }

  private let lock = NSLock()
  private var running: [String: Entry] = [:]
  private var joinedCount = 0
  private var cancelledCount = 0

  /// Keys being worked on now.
  var activeCount: Int { lock.withLock { running.count } }
  /// Callers that waited on work another caller started.
  var joined: Int { lock.withLock { joinedCount } }
  /// Works cancelled because nobody waited for them any more.
  var cancelled: Int { lock.withLock { cancelledCount } }

  /// The value of `work` for `key`, computed once for everyone asking at the same time.
  func value(for key: String, _ work: @escaping @Sendable () async throws -> Value) async throws -> Value {
    let id = UUID()
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        lock.withLock {
          // Checked under the lock that `leave` takes, so a cancellation is never missed.
          if Task.isCancelled {
            continuation.resume(throwing: CancellationError())
          } else if let existing = running[key] {
            existing.waiters[id] = continuation
            joinedCount += 1
          } else {
            let entry = Entry()
            entry.waiters[id] = continuation
            running[key] = entry
            entry.task = Task.detached(executorPreference: LoadingExecutor.shared) { [self] in
              let result: Result<Value, any Error>
              do {
                result = .success(try await work())
              } catch {
                result = .failure(error)
              }
              complete(key, entry, result)
            }
          }
        }
      }
    } onCancel: {
      leave(key, id)
    }
  }

  private func complete(_ key: String, _ entry: Entry, _ result: Result<Value, any Error>) {
    let waiters = lock.withLock {
      if running[key] === entry { running[key] = nil }
      defer { entry.waiters = [:] }
      return Array(entry.waiters.values)
    }
    for waiter in waiters { waiter.resume(with: result) }
  }

  /// A cancelled caller stops waiting; the last one to leave cancels the work.
  private func leave(_ key: String, _ id: UUID) {
    let (waiter, work) = lock.withLock { () -> (CheckedContinuation<Value, any Error>?, Task<Void, Never>?) in
      guard let entry = running[key], let waiter = entry.waiters.removeValue(forKey: id) else { return (nil, nil) }
      guard entry.waiters.isEmpty else { return (waiter, nil) }
      running[key] = nil
      cancelledCount += 1
      return (waiter, entry.task)
    }
    waiter?.resume(throwing: CancellationError())
    work?.cancel()
  }
}

/// Values by key within a byte budget, the least recently used out first.
struct MemoryCache<Value> {
  private var entries: [String: (value: Value, cost: Int, use: Int)] = [:]
  private(set) var bytes = 0
  private var clock = 0
  let budget: Int

  init(budget: Int) {
    self.budget = budget
  }

  var count: Int { entries.count }

  mutating func value(for key: String) -> Value? {
    guard let entry = entries[key] else { return nil }
    clock += 1
    entries[key]?.use = clock
    return entry.value
  }

  /// Keeps `value`, of `cost` bytes, unless it alone is over the budget.
  mutating func insert(_ value: Value, cost: Int, for key: String) {
    guard cost <= budget else { return }
    clock += 1
    if let old = entries[key] { bytes -= old.cost }
    entries[key] = (value, cost, clock)
    bytes += cost
    while bytes > budget, let oldest = entries.min(by: { $0.value.use < $1.value.use }) {
      bytes -= oldest.value.cost
      entries[oldest.key] = nil
    }
  }

  mutating func removeAll() {
    entries = [:]
    bytes = 0
  }
}

/// Lets at most `limit` holders in at once; waiters leave the queue when cancelled.
///
/// Neither acquiring, releasing nor cancelling needs an executor: `release` resumes the next
/// waiter itself, and a cancelled waiter is taken out of the queue in the cancellation handler.
/// An actor here needed a task to be released from a `defer`, and that task (an unstructured
/// one, which does not inherit the loading executor) waited for a cooperative thread: with
/// every one of them busy in the caller's code, the next download never started.
final class AsyncLimiter: Sendable {
  private struct State {
    var running = 0
    var nextID: UInt64 = 0
    var waiting: [(id: UInt64, continuation: CheckedContinuation<Void, any Error>)] = []
  }

  private let limit: Int
  private let state = Locked(State())

  init(limit: Int) {
    self.limit = max(1, limit)
  }

  func acquire() async throws {
    try Task.checkCancellation()
    let id: UInt64? = state.withLock { state in
      if state.running < limit {
        state.running += 1
        return nil
      }
      state.nextID += 1
      return state.nextID
    }
    guard let id else { return }
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
        let admitted: Bool? = state.withLock { state in
          // Checked under the lock that `cancel` takes, so a cancellation is never missed.
          if Task.isCancelled { return nil }
          if state.running < limit {
            state.running += 1
            return true
          }
          state.waiting.append((id, continuation))
          return false
        }
        switch admitted {
        case nil: continuation.resume(throwing: CancellationError())
        case true?: continuation.resume()
        case false?: break
        }
      }
    } onCancel: {
      cancel(id)
    }
  }

  /// Hands the place on to the longest waiter, or frees it.
  func release() {
    let next = state.withLock { state -> CheckedContinuation<Void, any Error>? in
      guard !state.waiting.isEmpty else {
        state.running -= 1
        return nil
      }
      return state.waiting.removeFirst().continuation
    }
    next?.resume()
  }

  private func cancel(_ id: UInt64) {
    let waiter = state.withLock { state -> CheckedContinuation<Void, any Error>? in
      guard let index = state.waiting.firstIndex(where: { $0.id == id }) else { return nil }
      return state.waiting.remove(at: index).continuation
    }
    waiter?.resume(throwing: CancellationError())
  }
}
