import Dispatch

/// Runs `body`, which blocks on the file system or computes for long, on a thread of
/// Dispatch's global pool, so that no thread of Swift's cooperative pool (two on a 2-core
/// machine) ever waits for a disk.
///
/// Dispatch bounds its threads, and when the system refuses one it waits and tries again. A
/// thread started for each request had neither: a page asking for a thousand images at once
/// made a thousand threads, and a thread the system refused ended the server.
func offCooperativePool<Value: Sendable>(_ body: @escaping @Sendable () -> Value) async -> Value {
  await withCheckedContinuation { continuation in
    DispatchQueue.global(qos: .userInitiated).async { continuation.resume(returning: body()) }
  }
}
