import Foundation
internal import CSystem

/// Gives the calling thread `name` as the kernel sees it (gdb, top, /proc), cut to the 15
/// bytes Linux keeps; for threads RowKit starts, so that each can be told apart and counted.
///
/// Foundation's `Thread.name` reaches the kernel only when it is set on a thread whose start
/// has already returned to its starter, which a new thread cannot know, and a thread not
/// named otherwise keeps the name of the one that started it. The name is set with
/// `prctl(PR_SET_NAME)`, not by writing `/proc/thread-self/comm`: opening a thread's entry
/// under `/proc` makes the kernel keep directory entries for it, which it then walks for
/// every thread when the process is reaped, a few milliseconds of every short run. Naming
/// is best effort: a failure changes nothing else.
package func nameCurrentThread(_ name: String) {
  var bytes = Array(name.utf8.prefix(15))
  bytes.append(0)
  _ = bytes.withUnsafeBufferPointer { buffer in
    buffer.withMemoryRebound(to: CChar.self) { csystem_name_current_thread($0.baseAddress) }
  }
}
