import Foundation
import RowKitGraphics

/// Runs the built `rowkit` binary, as a user would, and other programs the tests need.
public enum CommandRunner {
  public struct Result: Sendable {
    public var status: Int32
    public var stdout: String
    public var stderr: String
    /// Standard output as bytes (a PNG written to `-o -`).
    public var stdoutData = Data()
    /// Wall seconds from the program's start to its exit, not counting the wait for a slot.
    public var seconds: Double = 0
  }

  /// Programs run at most one per core at once. The suite runs its tests in parallel, and
  /// when every test started its program at once (over a hundred of them) each took up to a
  /// minute on two cores, even `rowkit --help`: longer than the bounds that tests of
  /// timeouts check, whatever the code under test did.
  private static let slots = DispatchSemaphore(value: max(2, ProcessInfo.processInfo.activeProcessorCount))

  /// The `rowkit` binary next to the test bundle, or `ROWKIT_BINARY`.
  public static let binary: URL = {
    if let path = ProcessInfo.processInfo.environment["ROWKIT_BINARY"] { return URL(fileURLWithPath: path) }
    let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    var directory = executable.deletingLastPathComponent()
    while directory.path != "/" {
      let candidate = directory.appendingPathComponent("rowkit")
      var isDirectory: ObjCBool = false
      if FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDirectory), !isDirectory.boolValue {
        return candidate
      }
      directory.deleteLastPathComponent()
    }
    fatalError("the rowkit binary was not found next to \(executable.path); build it with swift build")
  }()

  /// Runs `rowkit` with `arguments` to its end.
  public static func run(
    _ arguments: [String], in directory: URL? = nil, environment: [String: String] = [:], standardInput: Data? = nil
  ) async throws -> Result {
    try await runProgram(binary, arguments, in: directory, environment: environment, standardInput: standardInput)
  }

  /// Runs any program to its end, with this process's environment plus `environment`, and
  /// standard input from `standardInput` (or /dev/null).
  ///
  /// The waiting happens on a thread of its own: a test that blocked one of Swift
  /// concurrency's cooperative threads (two on a 2-core machine) while a program ran would
  /// stall every other test behind it, and timing tests would fail for no fault of their own.
  public static func runProgram(
    _ executable: URL, _ arguments: [String], in directory: URL? = nil, environment: [String: String] = [:],
    standardInput: Data? = nil
  ) async throws -> Result {
    try await withCheckedThrowingContinuation { continuation in
      Thread {
        continuation.resume(with: Swift.Result {
          try runBlocking(executable, arguments, in: directory, environment: environment, standardInput: standardInput)
        })
      }.start()
    }
  }

  private static func runBlocking(
    _ executable: URL, _ arguments: [String], in directory: URL?, environment: [String: String], standardInput: Data?
  ) throws -> Result {
    // This runs on a thread of its own (see runProgram), never on a cooperative one.
    slots.wait()
    defer { slots.signal() }
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    if let directory { process.currentDirectoryURL = directory }
    var merged = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    // What a program leaves in the temporary folder (`rowkit check`'s default failure images)
    // lands in this test process's own folder, removed when the tests end.
    if environment["TMPDIR"] == nil { merged["TMPDIR"] = TestSupport.processTemporaryDirectory.path }
    // The font scan cache too: the first program of a run scans the fonts and writes it, the
    // others read it, and nothing lands in the home folder.
    if environment["XDG_CACHE_HOME"] == nil {
      merged["XDG_CACHE_HOME"] = TestSupport.processTemporaryDirectory.appendingPathComponent("cache").path
    }
    process.environment = merged
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    let input = standardInput.map { _ in Pipe() }
    process.standardInput = input ?? FileHandle.nullDevice
    let start = Date()
    try process.run()
    if let input, let standardInput {
      // Fed from a thread of its own, so a program that writes before it reads cannot stall;
      // a program that exits without reading it all makes the write fail, not this process.
      signal(SIGPIPE, SIG_IGN)
      Thread {
        try? input.fileHandleForWriting.write(contentsOf: standardInput)
        try? input.fileHandleForWriting.close()
      }.start()
    }
    // Read both pipes before waiting, so a large output cannot fill a pipe and stall. The
    // second reader is a thread of its own, not one of Dispatch's global queues: it blocks for
    // as long as the program runs, and the tests run many programs at once.
    let outData = Locked<Data?>(nil)
    let outDone = DispatchSemaphore(value: 0)
    let reader = Thread {
      let data = out.fileHandleForReading.readDataToEndOfFile()
      outData.withLock { $0 = data }
      outDone.signal()
    }
    reader.start()
    let errData = err.fileHandleForReading.readDataToEndOfFile()
    // This runs on the caller's own thread (see runProgram), never on a cooperative one.
    outDone.wait()
    process.waitUntilExit()
    let seconds = Date().timeIntervalSince(start)
    let stdoutData = outData.withLock { $0 } ?? Data()
    return Result(
      status: process.terminationStatus, stdout: String(decoding: stdoutData, as: UTF8.self),
      stderr: String(decoding: errData, as: UTF8.self), stdoutData: stdoutData, seconds: seconds)
  }
}
