import Foundation
import RowKitGraphics

/// The threads of a process that renders: `jobs` render workers, which lay out and paint
/// rows and decode and compare images, and the loading executor, on which image work runs
/// and renders wait. One runtime serves every render, check and snapshot assertion of the
/// process.
///
/// The process's runtime, ``shared``, is made at its first use, with the size that
/// ``configure(jobs:)`` gave it before then (a command line's `--jobs`), or one worker per
/// core. Nothing else in RowKit starts threads of its own, so a process that renders with
/// `--jobs 1` has exactly one render worker. A runtime of its own (``init(jobs:)``) is for a
/// caller that renders the same input on two sizes of pool, as the tests of determinism do.
public final class RowKitRuntime: Sendable {
  /// How many render workers the runtime has.
  public let jobs: Int
  /// The render workers.
  public let renderPool: RenderPool
  /// Where image work runs and renders wait, off Swift's cooperative pool.
  package let loadingExecutor: LoadingExecutor

  /// The task executor that image work runs on: code that awaits a render from Swift's
  /// cooperative pool passes it as its task executor preference, so that the render's image
  /// work never waits for a cooperative thread its caller holds.
  public var taskExecutor: any TaskExecutor { loadingExecutor }

  /// The most render workers a runtime may have.
  public static let maximumJobs = Int(Bounds.jobs.upperBound)

  /// A runtime of `jobs` render workers (1 to ``maximumJobs``) of its own, which stop when it
  /// is released. Its image work runs on the process's loading executor, as every render's
  /// does: a loading executor's threads last as long as the process, and one per runtime
  /// would be left behind by each runtime released. Making one makes that executor, so
  /// ``configure(jobs:)`` comes first.
  public convenience init(jobs: Int) {
    self.init(jobs: jobs, loadingExecutor: .shared)
  }

  private init(jobs: Int, loadingExecutor: LoadingExecutor) {
    self.jobs = min(max(1, jobs), Self.maximumJobs)
    renderPool = RenderPool(workers: self.jobs)
    self.loadingExecutor = loadingExecutor
  }

  private static func loadingThreads(jobs: Int) -> Int { max(2, jobs) }

  private struct Process {
    var configuredJobs: Int?
    var runtime: RowKitRuntime?
  }

  private static let process = Locked(Process())

  /// The process's runtime, made at the first call.
  public static var shared: RowKitRuntime {
    process.withLock { process in
      if let runtime = process.runtime { return runtime }
      let runtime = RowKitRuntime(
        jobs: process.configuredJobs ?? ProcessInfo.processInfo.activeProcessorCount, loadingExecutor: .shared)
      process.runtime = runtime
      return runtime
    }
  }

  /// Sizes the process's runtime: call it before anything renders. Calling it again with the
  /// same size does nothing; another size once the runtime is made is refused, since its
  /// threads already run.
  public static func configure(jobs: Int) throws {
    guard (1...maximumJobs).contains(jobs) else {
      throw RuntimeConfigurationError("jobs must be from 1 to \(maximumJobs), not \(jobs)")
    }
    try process.withLock { process in
      if let runtime = process.runtime, runtime.jobs != jobs {
        throw RuntimeConfigurationError(
          "the process's runtime already runs \(runtime.jobs) render workers; configure it before the first render")
      }
      guard LoadingExecutor.configureShared(threads: loadingThreads(jobs: jobs)) else {
        throw RuntimeConfigurationError(
          "the process's loading executor already runs; configure the runtime before the first render")
      }
      process.configuredJobs = jobs
    }
  }
}

/// ``RowKitRuntime/configure(jobs:)`` was called with a size out of range, or too late.
public struct RuntimeConfigurationError: Error, CustomStringConvertible {
  /// What was wrong.
  public let description: String

  init(_ description: String) {
    self.description = description
  }
}
