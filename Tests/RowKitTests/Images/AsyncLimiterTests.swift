import Foundation
import RowKitGraphics
import Testing

@testable import RowKit

@Suite struct AsyncLimiterTests {
  /// A cancelled waiter leaves the queue at once, and the place it waited for goes to the
  /// next waiter when the holder releases it.
  @Test func aCancelledWaiterLeavesTheQueueAndThePlaceGoesOn() async throws {
    let limiter = AsyncLimiter(limit: 1)
    try await limiter.acquire()
    let order = Locked<[String]>([])
    let cancelled = Task(executorPreference: LoadingExecutor.shared) {
      do {
        try await limiter.acquire()
        order.withLock { $0.append("cancelled waiter got the place") }
        limiter.release()
      } catch {
        order.withLock { $0.append(error is CancellationError ? "cancelled" : "\(error)") }
      }
    }
    let next = Task(executorPreference: LoadingExecutor.shared) {
      try await limiter.acquire()
      order.withLock { $0.append("next") }
      limiter.release()
    }
    cancelled.cancel()
    await cancelled.value
    limiter.release()
    try await next.value
    #expect(order.withLock { $0 } == ["cancelled", "next"])
    // Every place is free again: a new holder gets one without waiting.
    try await limiter.acquire()
    limiter.release()
  }

  /// Holders hold amounts (an image decode its pixels): waiters come in, in order, once what
  /// they ask for fits beside what is held, and one that asks for more than the limit comes
  /// in alone. A cancelled waiter at the head lets the smaller ones behind it in.
  @Test func amountsComeInInOrderAsTheyFit() async throws {
    let limiter = AsyncLimiter(limit: 100)
    try await limiter.acquire(60)
    #expect(limiter.held == 60)
    let order = Locked<[String]>([])
    /// Waits for `amount` on a task of its own, and says when it got it.
    func waiter(_ name: String, _ amount: Int) -> Task<Void, any Error> {
      Task(executorPreference: LoadingExecutor.shared) {
        try await limiter.acquire(amount)
        order.withLock { $0.append(name) }
      }
    }
    /// Lets the queue settle: the tasks run on the loading executor, and no clock is read.
    func untilWaiting(_ count: Int) async {
      while limiter.waitingCount != count { await Task.yield() }
    }
    let large = waiter("large", 50)
    await untilWaiting(1)
    let small = waiter("small", 10)
    await untilWaiting(2)
    #expect(order.withLock { $0 }.isEmpty, "the small amount fits, but waits behind the large one")
    large.cancel()
    await #expect(throws: CancellationError.self) { try await large.value }
    try await small.value
    #expect(order.withLock { $0 } == ["small"])
    #expect(limiter.held == 70)
    let huge = waiter("huge", 500)
    await untilWaiting(1)
    limiter.release(60)
    limiter.release(10)
    try await huge.value
    #expect(limiter.held == 500, "more than the limit, alone")
    let next = waiter("next", 1)
    await untilWaiting(1)
    limiter.release(500)
    try await next.value
    #expect(order.withLock { $0 } == ["small", "huge", "next"])
    limiter.release(1)
    #expect(limiter.held == 0)
  }
}
