import Foundation
import RowKitGraphics

/// Threads of RowKit's own on which images are read, downloaded, decoded and awaited, and
/// renders wait for them, instead of Swift's cooperative pool.
///
/// The cooperative pool has one thread per core: two on a small CI runner. When the caller's
/// own code keeps those threads busy (a test suite rendering synchronously in parallel, a
/// server handling requests), work queued there waits its turn: a local PNG came back "not
/// loaded within the render's deadline", and a download's own timeout fired late. Work that
/// prefers this executor (Swift's task executor preference, which child tasks inherit and
/// continuations resume on) runs whatever the caller does with the pool.
///
/// `@unchecked Sendable` is safe: `jobs` and `head` are only read and written while
/// `condition` is locked, and the threads are started once in `init`.
package final class LoadingExecutor: TaskExecutor, @unchecked Sendable {
  /// The executor every render and image pipeline of the process shares, the process
  /// runtime's: made at its first use with the size the runtime was configured to (as many
  /// threads as render workers, and at least two), or one thread per core.
  package static var shared: LoadingExecutor {
    process.withLock { process in
      if let executor = process.executor { return executor }
      let executor = LoadingExecutor(threads: process.threads ?? max(2, ProcessInfo.processInfo.activeProcessorCount))
      process.executor = executor
      return executor
    }
  }

  private static let process = Locked<(threads: Int?, executor: LoadingExecutor?)>((nil, nil))

  /// Sizes ``shared`` before its first use, as the process's runtime does when it is
  /// configured; false when it already runs with another number of threads.
  static func configureShared(threads: Int) -> Bool {
    process.withLock { process in
      if let executor = process.executor, executor.threadCount != threads { return false }
      process.threads = threads
      return true
    }
  }

  /// How many threads run the executor's jobs.
  let threadCount: Int

  private let condition = NSCondition()
  private var jobs: [UnownedJob] = []
  /// The index of the next job to run; run jobs are removed in bulk, not one at a time.
  private var head = 0

  /// Starts `threads` threads that run jobs in the order they are enqueued. The threads keep
  /// the executor alive: only the process's runtime makes one, for the life of the process.
  init(threads: Int) {
    threadCount = max(1, threads)
    for index in 0..<threadCount {
      startThread {
        nameCurrentThread("rowkit-load-\(index + 1)")
        self.runJobs()
      }
    }
  }

  /// Runs `job` on one of the executor's threads.
  package func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    condition.lock()
    jobs.append(job)
    condition.signal()
    condition.unlock()
  }

  /// Runs `body` with this executor preferred: the async work it starts, and every child
  /// task, runs on the executor's threads.
  package func run<T: Sendable>(_ body: () async throws -> T) async rethrows -> T {
    try await withTaskExecutorPreference(self) { try await body() }
  }

  /// A thread's loop. The executor lives for the process (the shared one is never
  /// released), so the threads never end; waiting here blocks a thread of RowKit's own.
  private func runJobs() -> Never {
    while true {
      condition.lock()
      while head == jobs.count { condition.wait() }
      let job = jobs[head]
      head += 1
      if head == jobs.count {
        jobs.removeAll(keepingCapacity: true)
        head = 0
      } else if head >= 4096 {
        // A queue that never empties under steady load still gives back what it has run.
        jobs.removeFirst(head)
        head = 0
      }
      condition.unlock()
      job.runSynchronously(on: asUnownedTaskExecutor())
    }
  }
}
