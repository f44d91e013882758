import Foundation

/// A value that threads share, read and changed only under a lock: the one lock type of every
/// RowKit module (`package`, so the library's users never see it).
///
/// The lock is an `NSLock`, not the Synchronization module's `Mutex`: ThreadSanitizer cannot
/// see `Mutex`'s futex-based lock on Linux and reports every contended access under it as a
/// race, while it understands the POSIX mutex under `NSLock`. State that passes between
/// threads and that the sanitizer must check goes here. Lock a value, never `()`: the
/// sanitizer reports Swift's exclusive access to a value of no size as a race with the
/// lock's own field.
///
/// `@unchecked Sendable` is safe: `value` is reached only through `withLock`, under `lock`.
package final class Locked<Value>: @unchecked Sendable {
  private let lock = NSLock()
  private var value: Value

  package init(_ value: Value) {
    self.value = value
  }

  /// Runs `body` with the value, holding the lock.
  package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    lock.lock()
    defer { lock.unlock() }
    return try body(&value)
  }
}
