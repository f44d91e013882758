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
}
