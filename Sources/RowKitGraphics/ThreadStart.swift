import Foundation
internal import CSystem

/// Starts `body` on a new thread of RowKit's own, with a stack of `stackSize` bytes (0: the
/// system's default). With `besideCaller`, the thread begins on another processor than the
/// caller's, when the caller may run on more than one, and may then run on any of them.
///
/// `besideCaller` is for a thread started to work beside a caller that goes on working, such
/// as the standard fonts loading while the command line is parsed: left to itself, Linux put
/// such a thread on its starter's processor whenever the other had just run something, and
/// the thread waited there for its starter's time slice or the next balancing tick, up to
/// 2.5 ms of a 20 ms one-row render, while the other processor was idle. A caller that waits
/// for the thread at once frees its own processor, where the thread is then best begun.
package func startThread(stackSize: Int = 0, besideCaller: Bool = false, _ body: @escaping @Sendable () -> Void) {
  do {
    try startThreadIfPossible(stackSize: stackSize, besideCaller: besideCaller, body)
  } catch {
    // Nothing RowKit starts a thread for with this function can go on without it.
    fatalError("\(error)")
  }
}

/// Starts `body` on a new thread of RowKit's own as ``startThread(stackSize:besideCaller:_:)``
/// does, for a caller that can go on without it: throws the system's reason when no thread
/// could be started.
package func startThreadIfPossible(
  stackSize: Int = 0, besideCaller: Bool = false, _ body: @escaping @Sendable () -> Void
) throws(ThreadStartError) {
  final class Body {
    let run: @Sendable () -> Void
    init(_ run: @escaping @Sendable () -> Void) { self.run = run }
  }
  let context = Unmanaged.passRetained(Body(body)).toOpaque()
  let status = csystem_start_thread(
    { context in Unmanaged<Body>.fromOpaque(context!).takeRetainedValue().run() }, context, stackSize,
    besideCaller ? 1 : 0)
  guard status == 0 else {
    Unmanaged<Body>.fromOpaque(context).release()
    throw ThreadStartError(reason: String(cString: strerror(status)))
  }
}

/// Why a thread could not be started: the system's reason (`Resource temporarily unavailable`).
package struct ThreadStartError: Error, CustomStringConvertible {
  package let reason: String

  package var description: String { "could not start a thread: \(reason)" }
}

/// Where the calling thread, if `startThread` started it beside its caller, began and where
/// its caller was (which it was kept off): nil for any other thread, or one that began
/// wherever Linux put it (a caller that may run on one processor only). For tests.
package func startedThreadPlacement() -> (began: Int, starter: Int)? {
  let (began, starter) = (Int(csystem_thread_first_processor()), Int(csystem_thread_starter_processor()))
  return began >= 0 && starter >= 0 ? (began, starter) : nil
}

/// The calling thread's stack size in bytes, as the C library set it up. For tests.
package func currentThreadStackSize() -> Int {
  csystem_thread_stack_size()
}
