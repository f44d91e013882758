import Foundation
import RowKitGraphics

/// Runs one piece of work per key at a time: a caller asking for a key that is already being
/// worked on waits for that work instead of starting its own. A cancelled caller stops
/// waiting at once; the work itself is cancelled when its last caller leaves, and a caller
/// that comes later starts it afresh.
final class Coalescer<Value: Sendable>: Sendable {
  private typealias Waiter = CheckedContinuation<Value, any Error>

  /// The work on one key, known by a number of its own: a later work on the same key is
  /// another entry.
  private struct Entry {
    let id: UInt64
    var task: Task<Void, Never>?
    var waiters: [UInt64: Waiter] = [:]
  }

  private struct State {
    var running: [String: Entry] = [:]
    var nextID: UInt64 = 0
    var joined = 0
    var cancelled = 0

    mutating func makeID() -> UInt64 {
      nextID += 1
      return nextID
    }
  }

  private let state = Locked(State())

  /// Keys being worked on now.
  var activeCount: Int { state.withLock { $0.running.count } }
  /// Callers that waited on work another caller started.
  var joined: Int { state.withLock { $0.joined } }
  /// Works cancelled because nobody waited for them any more.
  var cancelled: Int { state.withLock { $0.cancelled } }

  /// The value of `work` for `key`, computed once for everyone asking at the same time.
  func value(for key: String, _ work: @escaping @Sendable () async throws -> Value) async throws -> Value {
    let caller = state.withLock { $0.makeID() }
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { (continuation: Waiter) in
        let cancelled = state.withLock { state in
          // Checked under the lock that `leave` takes, so a cancellation is never missed.
          if Task.isCancelled { return true }
          if state.running[key] != nil {
            state.running[key]!.waiters[caller] = continuation
            state.joined += 1
            return false
          }
          let entry = state.makeID()
          state.running[key] = Entry(id: entry, waiters: [caller: continuation])
          // Started under the lock, so that `leave` finds the task to cancel.
          //
          // A task of its own, the one RowKit starts: the work is shared by every caller of
          // the key, and must outlive the caller that started it (a cancelled caller stops
          // waiting at once, the others keep waiting), so it cannot be any caller's child.
          // It is still bound to its callers: the last one to leave cancels it. It runs on
          // the loading executor, never on Swift's cooperative pool.
          state.running[key]!.task = Task.detached(executorPreference: LoadingExecutor.shared) { [self] in
            let result: Result<Value, any Error>
            do {
              result = .success(try await work())
            } catch {
              result = .failure(error)
            }
            complete(key, entry, result)
          }
          return false
        }
        if cancelled { continuation.resume(throwing: CancellationError()) }
      }
    } onCancel: {
      leave(key, caller)
    }
  }

  private func complete(_ key: String, _ entry: UInt64, _ result: Result<Value, any Error>) {
    let waiters = state.withLock { state -> [Waiter] in
      guard let running = state.running[key], running.id == entry else { return [] }
      state.running[key] = nil
      return Array(running.waiters.values)
    }
    for waiter in waiters { waiter.resume(with: result) }
  }

  /// A cancelled caller stops waiting; the last one to leave cancels the work.
  private func leave(_ key: String, _ caller: UInt64) {
    let (waiter, work) = state.withLock { state -> (Waiter?, Task<Void, Never>?) in
      guard let waiter = state.running[key]?.waiters.removeValue(forKey: caller) else { return (nil, nil) }
      guard state.running[key]!.waiters.isEmpty else { return (waiter, nil) }
      let task = state.running.removeValue(forKey: key)?.task
      state.cancelled += 1
      return (waiter, task)
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

/// Lets holders in while what they hold adds up to at most `limit` (a download holds 1, an
/// image decode its pixels); one that asks for more than the limit gets in alone. Waiters are
/// let in in the order they came, and leave the queue when cancelled.
///
/// Neither acquiring, releasing nor cancelling needs an executor: `release` resumes the next
/// waiter itself, and a cancelled waiter is taken out of the queue in the cancellation handler.
/// An actor here needed a task to be released from a `defer`, and that task (an unstructured
/// one, which does not inherit the loading executor) waited for a cooperative thread: with
/// every one of them busy in the caller's code, the next download never started.
final class AsyncLimiter: Sendable {
  private struct State {
    var held = 0
    var nextID: UInt64 = 0
    var waiting: [(id: UInt64, amount: Int, continuation: CheckedContinuation<Void, any Error>)] = []

    /// Whether `amount` more may be held now, by a holder at the head of the queue.
    func admits(_ amount: Int, limit: Int) -> Bool { held == 0 || held + amount <= limit }

    /// Lets in the waiters at the head of the queue that fit, in order; returns them to resume.
    mutating func admitWaiters(limit: Int) -> [CheckedContinuation<Void, any Error>] {
      var admitted: [CheckedContinuation<Void, any Error>] = []
      while let first = waiting.first, admits(first.amount, limit: limit) {
        waiting.removeFirst()
        held += first.amount
        admitted.append(first.continuation)
      }
      return admitted
    }
  }

  private let limit: Int
  private let state = Locked(State())

  init(limit: Int) {
    self.limit = max(1, limit)
  }

  /// What is held now, by every holder together.
  var held: Int { state.withLock { $0.held } }
  /// How many wait to be let in.
  var waitingCount: Int { state.withLock { $0.waiting.count } }

  /// Waits until `amount` may be held, then holds it until ``release(_:)``.
  func acquire(_ amount: Int = 1) async throws {
    try Task.checkCancellation()
    let amount = max(0, amount)
    let id: UInt64? = state.withLock { state in
      if state.waiting.isEmpty, state.admits(amount, limit: limit) {
        state.held += amount
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
          if state.waiting.isEmpty, state.admits(amount, limit: limit) {
            state.held += amount
            return true
          }
          state.waiting.append((id, amount, continuation))
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

  /// Gives back `amount`, and lets in the longest waiters that now fit.
  func release(_ amount: Int = 1) {
    let admitted = state.withLock { state in
      state.held -= max(0, amount)
      return state.admitWaiters(limit: limit)
    }
    for continuation in admitted { continuation.resume() }
  }

  private func cancel(_ id: UInt64) {
    let (waiter, admitted) = state.withLock { state -> (CheckedContinuation<Void, any Error>?, [CheckedContinuation<Void, any Error>]) in
      guard let index = state.waiting.firstIndex(where: { $0.id == id }) else { return (nil, []) }
      let waiter = state.waiting.remove(at: index).continuation
      // The waiter that left may have held up smaller ones behind it.
      return (waiter, state.admitWaiters(limit: limit))
    }
    waiter?.resume(throwing: CancellationError())
    for continuation in admitted { continuation.resume() }
  }
}

