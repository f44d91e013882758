import Foundation

/// A value that threads share, read and changed only under a lock; for every target of the
/// package (`package`), so that all of them use the one lock the sanitizer understands.
///
/// The lock is an `NSLock`, not the Synchronization module's `Mutex`: ThreadSanitizer cannot
/// see `Mutex`'s futex-based lock on Linux and reports every contended access under it as a
/// race, while it understands the POSIX mutex under `NSLock`. State that passes between
/// threads and that the sanitizer must check goes here.
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
