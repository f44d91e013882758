import Foundation
internal import CSystem

/// Starts `body` on a new thread of RowKit's own, with a stack of `stackSize` bytes (0: the
/// system's default). The thread begins on another processor than the caller's when the
/// process may run on more than one, and may then run on any of them.
///
/// Every thread RowKit starts is started here: they are started to work beside their starter
/// at once (the standard fonts loading while the command line is parsed, the render workers,
/// the loading threads). Left to itself, Linux put a new thread on its starter's processor
/// whenever the other had just run something, and the thread waited there for its starter's
/// time slice or the next balancing tick, up to 2.5 ms of a 20 ms one-row render, while the
/// other processor was idle.
package func startThread(stackSize: Int = 0, _ body: @escaping @Sendable () -> Void) {
  final class Body {
    let run: @Sendable () -> Void
    init(_ run: @escaping @Sendable () -> Void) { self.run = run }
  }
  let context = Unmanaged.passRetained(Body(body)).toOpaque()
  let status = csystem_start_thread_beside(
    { context in Unmanaged<Body>.fromOpaque(context!).takeRetainedValue().run() }, context, stackSize)
  guard status == 0 else {
    Unmanaged<Body>.fromOpaque(context).release()
    // Nothing RowKit starts a thread for can go on without it.
    fatalError("could not start a thread: \(String(cString: strerror(status)))")
  }
}

/// Where the calling thread, if `startThread` started it, began and where its starter was
/// (which it was kept off): nil for any other thread, or one that began wherever Linux put it
/// (a process that may run on one processor only). For tests.
package func startedThreadPlacement() -> (began: Int, starter: Int)? {
  let (began, starter) = (Int(csystem_thread_first_processor()), Int(csystem_thread_starter_processor()))
  return began >= 0 && starter >= 0 ? (began, starter) : nil
}

/// The calling thread's stack size in bytes, as the C library set it up. For tests.
package func currentThreadStackSize() -> Int {
  csystem_thread_stack_size()
}
