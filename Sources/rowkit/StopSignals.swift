import Foundation
import RowKit
import RowKitSnapshot

/// What rowkit does on Ctrl-C (SIGINT), SIGTERM (a CI job cancelled, `timeout`) and SIGHUP: it
/// stops its check's helper processes and waits for them, removes every file it had staged
/// and not put in place (a report folder being written, a PNG, references being recorded),
/// and then ends by the signal, as a program without handlers would. An interrupted run
/// leaves each output as it was before, and no helper writing on into a report that will
/// never be made. A commit under way (renames only) is let finish first.
///
/// A signal that was ignored when rowkit started (a command run with `nohup`, or in the
/// background of a script) stays ignored.
enum StopSignals {
  // Kept for the life of the process: a signal source that is released stops handling.
  private static let sources = Locked<[any DispatchSourceSignal]>([])

  static func install() {
    let queue = DispatchQueue(label: "rowkit.stop-signals")
    for number in [SIGINT, SIGTERM, SIGHUP] {
      var current = sigaction()
      sigaction(number, nil, &current)
      guard unsafeBitCast(current.__sigaction_handler.sa_handler, to: Int.self) != unsafeBitCast(SIG_IGN, to: Int.self)
      else { continue }
      // Not ignored while the source starts, as on Darwin: on Linux, Dispatch puts a handler
      // of its own in place, and an ignored signal would stay ignored in the helpers a check
      // starts (a child keeps what its parent ignores), which then could not be stopped.
      let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
      source.setEventHandler { stop(by: number) }
      source.resume()
      sources.withLock { $0.append(source) }
    }
  }

  /// Runs on the sources' queue, a thread of Dispatch's own (never one of Swift's
  /// cooperative threads, which the waits below would hold).
  private static func stop(by number: Int32) -> Never {
    SnapshotCheck.HelperProcesses.stopEveryHelper()
    AtomicFiles.discardEverything()
    // Ends by the signal itself, so that a shell or a CI runner sees what stopped rowkit:
    // Dispatch's threads block every signal, this one included, until it is let through.
    signal(number, SIG_DFL)
    var only = sigset_t()
    sigemptyset(&only)
    sigaddset(&only, number)
    pthread_sigmask(SIG_UNBLOCK, &only, nil)
    raise(number)
    _exit(128 + number)
  }
}
