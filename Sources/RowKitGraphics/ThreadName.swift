import Foundation

/// Gives the calling thread `name` as the kernel sees it (gdb, top, /proc), cut to the 15
/// bytes Linux keeps; for threads RowKit starts, so that each can be told apart and counted.
///
/// Foundation's `Thread.name` reaches the kernel only when it is set on a thread whose start
/// has already returned to its starter, which a new thread cannot know, and a thread not
/// named otherwise keeps the name of the one that started it. glibc's `pthread_setname_np`
/// is not visible to Swift, so the name is written where it writes it. Naming is best
/// effort: a failure changes nothing else.
package func nameCurrentThread(_ name: String) {
  let descriptor = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
  guard descriptor >= 0 else { return }
  defer { close(descriptor) }
  let bytes = Array(name.utf8.prefix(15))
  _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
}
