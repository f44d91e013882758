import Foundation
import RowKitTestSupport
import Testing

/// One runtime per process: `rowkit --jobs N` runs exactly N render workers, however the
/// command reaches its renderer. Before, the command's own pool came on top of the shared one
/// that a default argument had already started.
@Suite struct RuntimeThreadsTests {
  @Test(arguments: [1, 2])
  func aRenderRunsExactlyJobsRenderWorkers(jobs: Int) async throws {
    // A server that never answers keeps the render waiting for its image, mid-render, while
    // the test reads the process's threads.
    let server = try LoopbackHTTPServer(routes: ["/hang/*": .hang])
    defer { server.stop() }
    let folder = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let document = folder.appendingPathComponent("table.yaml")
    try """
      sections:
        - items:
            - { type: image, text: Waits for its image, imageURL: "\(server.url("/hang/photo.png"))" }
      """.write(to: document, atomically: true, encoding: .utf8)
    let names = try await ThreadNames.whileRunning(
      CommandRunner.binary,
      ["render", document.path, "-o", folder.appendingPathComponent("table.png").path, "--jobs", "\(jobs)",
       "--deadline", "3600"],
      until: { server.requests("/hang/photo.png") >= 1 },
      // A thread names itself once it runs: read again until every expected one has.
      settled: { names in
        names.filter { $0.hasPrefix("rowkit-worker") }.count >= jobs
          && names.filter { $0.hasPrefix("rowkit-load-") }.count >= max(2, jobs)
      })
    #expect(names.filter { $0.hasPrefix("rowkit-worker") }.count == jobs, "\(names)")
    #expect(names.filter { $0.hasPrefix("rowkit-load-") }.count == max(2, jobs), "\(names)")
  }
}

/// The names of a running program's threads, read from /proc.
enum ThreadNames {
  /// Starts `executable`, waits until `ready` holds (or the program ends), reads the names of
  /// its threads until they are `settled`, and ends it. The waiting runs on a thread of its
  /// own, never a cooperative one.
  static func whileRunning(
    _ executable: URL, _ arguments: [String], until ready: @escaping @Sendable () -> Bool,
    settled: @escaping @Sendable ([String]) -> Bool
  ) async throws -> [String] {
    try await withCheckedThrowingContinuation { continuation in
      Thread {
        continuation.resume(with: Result {
          let process = Process()
          process.executableURL = executable
          process.arguments = arguments
          process.standardOutput = FileHandle.nullDevice
          process.standardError = FileHandle.nullDevice
          try process.run()
          defer {
            process.terminate()
            process.waitUntilExit()
          }
          while !ready() && process.isRunning { usleep(10_000) }
          guard process.isRunning else {
            throw CommandError("rowkit ended (status \(process.terminationStatus)) before the condition held")
          }
          let taskFolder = "/proc/\(process.processIdentifier)/task"
          var names: [String] = []
          repeat {
            guard let tasks = try? FileManager.default.contentsOfDirectory(atPath: taskFolder) else { break }
            names = tasks.compactMap { task in
              try? String(contentsOfFile: "\(taskFolder)/\(task)/comm", encoding: .utf8)
                .trimmingCharacters(in: .whitespacesAndNewlines)
            }
          } while !settled(names) && process.isRunning && usleep(10_000) == 0
          return names
        })
      }.start()
    }
  }

  struct CommandError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
  }
}
