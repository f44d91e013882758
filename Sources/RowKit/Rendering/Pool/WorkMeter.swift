import Synchronization

/// The time render workers spend on the jobs of one piece of work (a snapshot case, say),
/// counted while each job runs on its worker: not the time it waits in a queue behind other
/// work, which depends on what else the pool is doing.
///
/// Jobs are counted for the meter that is ``current`` where they are queued, so a meter set
/// around a piece of work counts every job its tasks and child tasks queue.
package final class WorkMeter: Sendable {
  /// The meter the jobs queued here are counted for, if any.
  @TaskLocal package static var current: WorkMeter?

  // An atomic rather than a lock: jobs of one case end on several workers at once.
  private let nanoseconds = Atomic<Int64>(0)

  package init() {}

  /// The workers' time counted so far, in seconds.
  package var seconds: Double { Double(nanoseconds.load(ordering: .relaxed)) / 1e9 }

  func add(_ duration: Duration) {
    let parts = duration.components
    nanoseconds.wrappingAdd(parts.seconds * 1_000_000_000 + parts.attoseconds / 1_000_000_000, ordering: .relaxed)
  }
}
