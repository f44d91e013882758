import Foundation
import RowKitGraphics
import Synchronization
import Testing

@testable import RowKit

/// A case's time is the time the workers spent on its jobs, not its wait behind other work:
/// what shards by cost are planned from.
@Suite struct WorkMeterTests {
  @Test func aJobCountsItsOwnRunNotItsWaitInTheQueue() async throws {
    let pool = RenderPool(workers: 1)
    let released = Atomic<Bool>(false)
    let blocker = WorkMeter()
    let waiter = WorkMeter()
    // The first job holds the only worker until the test lets it go; the second waits
    // behind it, then does almost nothing.
    async let held: Void = WorkMeter.$current.withValue(blocker) {
      try await pool.run { while !released.load(ordering: .acquiring) { usleep(1_000) } }
    }
    try await Task.sleep(for: .milliseconds(20))
    async let queued: Double = WorkMeter.$current.withValue(waiter) {
      try await pool.run {
        let clock = ContinuousClock()
        let start = clock.now
        let sum = (0..<1_000).reduce(0, +)
        let inner = start.duration(to: clock.now)
        return Double(inner.components.seconds) + Double(inner.components.attoseconds) / 1e18 + Double(sum - sum)
      }
    }
    try await Task.sleep(for: .milliseconds(200))
    released.store(true, ordering: .releasing)
    try await held
    let inner = try await queued
    #expect(blocker.seconds >= 0.2, "the held job ran at least as long as the test held it")
    #expect(waiter.seconds >= inner, "the meter counts the whole job")
    #expect(waiter.seconds < blocker.seconds, "and not the 0.2 s the job waited behind the other")
    // Work queued outside any meter is counted nowhere.
    let before = waiter.seconds
    _ = try await pool.run { 1 }
    #expect(waiter.seconds == before)
  }
}
