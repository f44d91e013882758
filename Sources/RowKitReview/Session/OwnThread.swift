import Foundation
import RowKitGraphics

/// Runs `body`, which blocks on the file system or computes for long, on a thread of its own, so that no thread
/// of Swift's cooperative pool (two on a 2-core machine) ever waits for a disk.
func onOwnThread<Value: Sendable>(_ body: @escaping @Sendable () -> Value) async -> Value {
  await withCheckedContinuation { continuation in
    startThread {
      nameCurrentThread("rowkit-review")
      continuation.resume(returning: body())
    }
  }
}
