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
    let cleanUp = DispatchQueue(label: "rowkit.stop")
    for number in [SIGINT, SIGTERM, SIGHUP] {
      var current = sigaction()
      sigaction(number, nil, &current)
      guard unsafeBitCast(current.__sigaction_handler.sa_handler, to: Int.self) != unsafeBitCast(SIG_IGN, to: Int.self)
      else { continue }
      // Not ignored while the source starts, as on Darwin: on Linux, Dispatch puts a handler
      // of its own in place, and an ignored signal would stay ignored in the helpers a check
      // starts (a child keeps what its parent ignores), which then could not be stopped.
      let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
      source.setEventHandler {
        // New files are refused at once, so that a helper's cases given back to this process,
        // or a render's last strips, stage nothing more. A second signal (Ctrl-C pressed
        // again) ends the process at once; the first one's clean-up runs on a queue of its
        // own, so that this one is heard while it waits.
        if AtomicFiles.beginStopping() { cleanUp.async { stop(by: number) } } else { end(by: number) }
      }
      source.resume()
      sources.withLock { $0.append(source) }
    }
  }

  /// Runs on a Dispatch queue (never one of Swift's cooperative threads, which the waits
  /// below would hold), once new files are refused.
  private static func stop(by number: Int32) -> Never {
    SnapshotCheck.HelperProcesses.stopEveryHelper()
    AtomicFiles.discardEverything()
    end(by: number)
  }

  /// Ends the process by the signal itself, so that a shell or a CI runner sees what stopped
  /// rowkit: Dispatch's threads block every signal, this one included, until it is let
  /// through.
  private static func end(by number: Int32) -> Never {
    signal(number, SIG_DFL)
    var only = sigset_t()
    sigemptyset(&only)
    sigaddset(&only, number)
    pthread_sigmask(SIG_UNBLOCK, &only, nil)
    raise(number)
    _exit(128 + number)
  }

  /// Parks the calling thread for good when a stop has begun: the command's own end (an
  /// error from a refused file, or its exit) must not race the clean-up, which ends the
  /// process within moments. Returns at once otherwise.
  static func parkIfStopping() {
    guard AtomicFiles.isStopping else { return }
    while true { pause() }
  }
}
