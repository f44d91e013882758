import Dispatch

/// Where the strategies' renders run: threads of their own, not Swift's cooperative pool.
/// swift-snapshot-testing waits for a snapshot by blocking the test's thread (`XCTWaiter`);
/// on a two-core machine, two tests blocked that way would hold the whole cooperative pool and
/// the renders they wait for could never run.
final class RenderExecutor: TaskExecutor {
  static let shared = RenderExecutor()

  private let queue = DispatchQueue(label: "RowKitSnapshotTesting.render", attributes: .concurrent)

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    let executor = asUnownedTaskExecutor()
    queue.async { job.runSynchronously(on: executor) }
  }
}
