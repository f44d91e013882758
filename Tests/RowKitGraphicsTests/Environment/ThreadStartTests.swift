import Foundation
import RowKitTestSupport
import Testing

@testable import RowKitGraphics

/// `startThread`: a thread started beside its caller begins on another processor than the
/// caller's when there is one and may then run on any; every thread gets the stack it asks
/// for. Where a thread began and where its caller was are recorded by the thread's start
/// itself, at the moments that count, so a busy machine moving threads about afterwards
/// changes nothing.
@Suite struct ThreadStartTests {
  /// What a started thread saw at the start of its body.
  struct Start: Sendable {
    var placement: Placement?
    var allowed: String
    var stackBytes: Int
  }

  struct Placement: Sendable {
    var began: Int
    var starter: Int
  }

  /// Starts a thread from a thread of the test's own (never a cooperative one) and waits for
  /// what its body saw.
  static func start(stackSize: Int = 0, besideCaller: Bool = true) async -> Start {
    await withCheckedContinuation { continuation in
      Thread {
        startThread(stackSize: stackSize, besideCaller: besideCaller) {
          let placement = startedThreadPlacement().map { Placement(began: $0.began, starter: $0.starter) }
          continuation.resume(
            returning: Start(
              placement: placement, allowed: kernelStatus("Cpus_allowed_list", of: "thread-self") ?? "",
              stackBytes: currentThreadStackSize()))
        }
      }.start()
    }
  }

  @Test func aThreadBeginsBesideItsStarterAndMayThenRunOnEveryProcessor() async throws {
    let processAllowed = try #require(kernelStatus("Cpus_allowed_list"))
    let manyProcessors = processAllowed.contains(where: { $0 == "-" || $0 == "," })
    for _ in 0..<20 {
      let start = await Self.start()
      #expect(start.allowed == processAllowed, "the thread keeps no narrower set than the process's")
      if manyProcessors {
        let placement = try #require(start.placement, "a process of \(processAllowed) has another processor to begin on")
        #expect(placement.began != placement.starter, "began on its starter's processor \(placement.began)")
      } else {
        #expect(start.placement == nil, "with one processor, nowhere else to begin")
      }
    }
  }

  @Test func aThreadGetsTheStackItAsksFor() async throws {
    // More than the system's default (8 MB here, the limit of `ulimit -s`); glibc may hand a
    // new thread the cached, larger stack of an ended one.
    let asked = 20 << 20
    let stackBytes = await Self.start(stackSize: asked).stackBytes
    #expect(stackBytes >= asked, "\(stackBytes) bytes")
  }

  @Test func aThreadNotStartedBesideItsCallerBeginsWhereLinuxPutsIt() async throws {
    let start = await Self.start(besideCaller: false)
    #expect(start.placement == nil)
    #expect(start.allowed == kernelStatus("Cpus_allowed_list"))
  }

  @Test func threadsRowKitDidNotStartHaveNoPlacement() async throws {
    let placement = await withCheckedContinuation { continuation in
      Thread { continuation.resume(returning: startedThreadPlacement() == nil) }.start()
    }
    #expect(placement)
  }
}
