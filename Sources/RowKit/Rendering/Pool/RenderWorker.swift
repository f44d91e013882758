import Foundation
import RowKitGraphics

/// A thread of its own that makes some state, runs jobs on it one at a time, and frees it
/// when the worker is released: Pango and Cairo objects live on one thread from creation to
/// release, and are never shared.
///
/// `@unchecked Sendable` is safe: the worker's only stored property is its mailbox, whose
/// every mutable field is read and written under the mailbox's lock.
final class RenderWorker<State: AnyObject>: @unchecked Sendable {
  /// The queue between callers and the thread. `@unchecked Sendable`: every `var` is guarded
  /// by `condition`'s lock.
  private final class Mailbox: @unchecked Sendable {
    let condition = NSCondition()
    var jobs: [@Sendable (State?, (any Error)?) -> Void] = []
    var stopping = false
  }

  private let mailbox = Mailbox()

  /// Starts the thread, which makes its state with `makeState` before the first job.
  init(name: String, makeState: @escaping @Sendable () throws -> State) {
    let mailbox = self.mailbox
    // Pango's shaping recurses deeply for long paragraphs; give it room.
    startThread(stackSize: 8 << 20) {
      nameCurrentThread(name)
      var state: State?
      var failure: (any Error)?
      do {
        state = try makeState()
      } catch {
        failure = error
      }
      while true {
        mailbox.condition.lock()
        while mailbox.jobs.isEmpty && !mailbox.stopping { mailbox.condition.wait() }
        if mailbox.jobs.isEmpty {
          mailbox.condition.unlock()
          break
        }
        let job = mailbox.jobs.removeFirst()
        mailbox.condition.unlock()
        job(state, failure)
      }
      // Released here, on the thread that made it.
      state = nil
    }
  }

  deinit {
    // The thread ends by itself once it sees the request; nothing waits for it here.
    requestStop()
  }

  /// Runs `job` on the worker's thread with its state; jobs run in the order they arrive.
  func perform<T: Sendable>(_ job: @escaping @Sendable (State) throws -> T) async throws -> T {
    try await submit(job).value
  }

  /// Queues `job` at once, behind the jobs already queued, and returns its result to await
  /// later: a caller can keep a worker's queue full while it waits for something else.
  func submit<T: Sendable>(_ job: @escaping @Sendable (State) throws -> T) -> WorkerResult<T> {
    let result = WorkerResult<T>()
    let meter = WorkMeter.current
    mailbox.condition.lock()
    defer { mailbox.condition.unlock() }
    guard !mailbox.stopping else {
      result.fulfil(.failure(CancellationError()))
      return result
    }
    mailbox.jobs.append { state, failure in
      guard let state else {
        result.fulfil(.failure(failure ?? CancellationError()))
        return
      }
      guard let meter else {
        result.fulfil(Result { try job(state) })
        return
      }
      let clock = ContinuousClock()
      let start = clock.now
      let outcome = Result { try job(state) }
      meter.add(start.duration(to: clock.now))
      result.fulfil(outcome)
    }
    mailbox.condition.signal()
    return result
  }

  /// Cancels the queued jobs and tells the thread to end after the running one; returns at
  /// once.
  private func requestStop() {
    mailbox.condition.lock()
    mailbox.stopping = true
    let cancelled = mailbox.jobs
    mailbox.jobs.removeAll()
    mailbox.condition.signal()
    mailbox.condition.unlock()
    for job in cancelled { job(nil, CancellationError()) }
  }
}

/// The result of a job queued on a ``RenderWorker``, awaited once.
final class WorkerResult<T: Sendable>: Sendable {
  private struct State {
    var result: Result<T, any Error>?
    var waiter: CheckedContinuation<T, any Error>?
  }

  private let state = Locked(State())

  func fulfil(_ result: Result<T, any Error>) {
    let waiter = state.withLock { state in
      guard let waiter = state.waiter else {
        state.result = result
        return nil as CheckedContinuation<T, any Error>?
      }
      state.waiter = nil
      return waiter
    }
    waiter?.resume(with: result)
  }

  var value: T {
    get async throws {
      try await withCheckedThrowingContinuation { continuation in
        let result = state.withLock { state -> Result<T, any Error>? in
          if let result = state.result { return result }
          precondition(state.waiter == nil, "a worker's result is awaited once")
          state.waiter = continuation
          return nil
        }
        if let result { continuation.resume(with: result) }
      }
    }
  }
}
