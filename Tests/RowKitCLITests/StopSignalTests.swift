import Foundation
import RowKitSnapshot
import RowKitTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Ctrl-C, SIGTERM and SIGHUP stop rowkit as they stop any program, but only after it has
/// stopped its check's helpers and removed every file it staged: an interrupted run leaves
/// each output as it was. Every run here waits on images from a server that never answers,
/// so that it is mid-way, deterministically, when the signal comes. One at a time: each holds
/// two rowkit processes and a server thread per hanging request.
@Suite(.serialized) struct StopSignalTests {
  /// Runs `body` with a server whose images never come and a folder of the test's own,
  /// holding `docs/`: `count` documents, each with one image row from that server.
  private static func withHangingDocuments(
    _ count: Int, _ body: (LoopbackHTTPServer, URL) async throws -> Void
  ) async throws {
    let server = try LoopbackHTTPServer(routes: ["/hang/*": .hang])
    defer { server.stop() }
    let folder = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let docs = folder.appendingPathComponent("docs")
    try FileManager.default.createDirectory(at: docs, withIntermediateDirectories: true)
    for index in 0..<count {
      let url = server.url("/hang/\(index)")
      try Data("items:\n  - { type: image, text: \"Waits \(index)\", imageURL: \"\(url)\" }\n".utf8)
        .write(to: docs.appendingPathComponent("doc\(index).yaml"))
    }
    try await body(server, folder)
  }

  /// Starts `arguments` (rowkit's, or `executable`'s) in `folder` with no signal blocked and
  /// none ignored, as a shell starts it: the test runner's own threads block SIGTERM, and a
  /// child inherits its starting thread's mask.
  private static func start(
    _ arguments: [String], executable: URL = CommandRunner.binary, in folder: URL, environment: [String: String] = [:]
  ) throws -> (process: Process, errors: Pipe) {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    process.currentDirectoryURL = folder
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    process.standardOutput = FileHandle.nullDevice
    let errors = Pipe()
    process.standardError = errors
    try process.runWithNoSignalBlocked()
    return (process, errors)
  }

  /// What the ended run wrote on standard error, read without waiting (a stop says nothing
  /// there: no error of a refused file, no helper's end).
  private static func text(of errors: Pipe) -> String {
    let descriptor = errors.fileHandleForReading.fileDescriptor
    _ = fcntl(descriptor, F_SETFL, O_NONBLOCK)
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
      let count = read(descriptor, &buffer, buffer.count)
      guard count > 0 else { break }
      bytes += buffer[0..<count]
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// A helper program that logs its process identifier to `helper-pids`, then runs rowkit.
  private static func pidLoggingHelper(in folder: URL) throws -> (helper: URL, pids: URL) {
    let pids = folder.appendingPathComponent("helper-pids")
    let helper = folder.appendingPathComponent("helper.sh")
    try "#!/bin/sh\necho $$ >> '\(pids.path)'\nexec '\(CommandRunner.binary.path)' \"$@\"\n".write(
      to: helper, atomically: true, encoding: .utf8)
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: helper.path)
    return (helper, pids)
  }

  /// The one helper `pids` names has ended (gone, or a zombie its new parent has not
  /// waited for yet), waited for 120 s at most (a bound far above any machine's need).
  private static func expectGone(helperIn pids: URL) async throws {
    let logged = try String(contentsOf: pids, encoding: .utf8).split(separator: "\n")
    #expect(logged.count == 1, "\(logged)")
    let helper = try #require(logged.first.flatMap { Int32($0) })
    let ended = await TestSupport.secondsUntil(within: 120) {
      guard let stat = try? String(contentsOfFile: "/proc/\(helper)/stat", encoding: .utf8) else { return true }
      // The state follows the command's name, which is in parentheses.
      return stat.split(separator: ")").last?.split(separator: " ").first == "Z"
    }
    #expect(ended != nil, "the helper outlived the check")
    if ended == nil { kill(helper, SIGKILL) }
  }

  private static func entries(of folder: URL) -> Set<String> {
    Set((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
  }

  @Test func aCheckStoppedByATermSignalStopsItsHelpersAndLeavesNoReport() async throws {
    try await Self.withHangingDocuments(8) { server, folder in
      let (helper, pids) = try Self.pidLoggingHelper(in: folder)
      let before = Self.entries(of: folder)

      let (check, errors) = try Self.start(
        ["check", "docs", "--snapshots", "refs", "--report", "report", "--jobs", "2", "--timeout", "3600", "--deadline", "3600",
         "--helper-executable", helper.path], in: folder)
      // This process takes four cases at once and holds them (no image ever comes, and no
      // request times out): a fifth request is the helper's. 120 s: a bound far above any
      // machine's need, not a speed figure.
      let helping = await TestSupport.secondsUntil(within: 120) { server.totalRequests >= 5 }
      #expect(helping != nil, "the helper never asked for its image")
      #expect(Self.entries(of: folder).contains { $0.hasPrefix(".report.") }, "the report is staged")
      kill(check.processIdentifier, SIGTERM)
      let end = await TestSupport.end(of: check)
      let said = Self.text(of: errors)
      #expect(!said.contains("error") && !said.contains("helper process"), "\(said)")

      #expect(end?.reason == .uncaughtSignal && end?.status == SIGTERM, "\(String(describing: end))")
      #expect(Self.entries(of: folder) == before.union(["helper-pids"]), "\(Self.entries(of: folder))")
      try await Self.expectGone(helperIn: pids)
    }
  }

  /// A signal ignored when rowkit starts (`nohup`, a script's background job) stays ignored,
  /// as the process's own status says once it renders: SIGINT ignored, SIGTERM caught.
  @Test func aSignalIgnoredAtTheStartStaysIgnored() async throws {
    try await Self.withHangingDocuments(1) { server, folder in
      let before = Self.entries(of: folder)

      let (render, errors) = try Self.start(
        ["-c", "trap '' INT; exec \"$0\" render docs/doc0.yaml -o table.png --timeout 3600 --deadline 3600", CommandRunner.binary.path],
        executable: URL(fileURLWithPath: "/bin/sh"), in: folder)
      #expect(await TestSupport.secondsUntil(within: 120) { server.totalRequests >= 1 } != nil, "the render never asked for its image")
      let status = try String(contentsOfFile: "/proc/\(render.processIdentifier)/status", encoding: .utf8)
      func signals(_ field: String) -> UInt64 {
        let line = status.split(separator: "\n").first { $0.hasPrefix(field + ":") }
        return line.flatMap { UInt64($0.dropFirst(field.count + 1).trimmingCharacters(in: .whitespaces), radix: 16) } ?? 0
      }
      let bit = { (signal: Int32) in UInt64(1) << UInt64(signal - 1) }
      #expect(signals("SigIgn") & bit(SIGINT) != 0, "SIGINT is no longer ignored: \(status)")
      #expect(signals("SigCgt") & bit(SIGTERM) != 0 && signals("SigCgt") & bit(SIGHUP) != 0, "\(status)")
      kill(render.processIdentifier, SIGTERM)
      let end = await TestSupport.end(of: render)
      let said = Self.text(of: errors)
      #expect(!said.contains("error") && !said.contains("helper process"), "\(said)")

      #expect(end?.reason == .uncaughtSignal && end?.status == SIGTERM, "\(String(describing: end))")
      #expect(Self.entries(of: folder) == before, "\(Self.entries(of: folder))")
    }
  }

  /// `rowkit review DOCS` stopped while its check runs: the check, its helper and the report
  /// folder it was checking into are all gone when review ends.
  @Test func aReviewStoppedDuringItsCheckLeavesNothing() async throws {
    try await Self.withHangingDocuments(8) { server, folder in
      let temporary = folder.appendingPathComponent("tmp")
      try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)

      let (helper, pids) = try Self.pidLoggingHelper(in: folder)

      let (review, errors) = try Self.start(
        ["review", "docs", "--snapshots", "refs", "--", "--jobs", "2", "--timeout", "3600", "--deadline", "3600", "--helper-executable", helper.path],
        in: folder, environment: ["TMPDIR": temporary.path])
      #expect(await TestSupport.secondsUntil(within: 120) { server.totalRequests >= 5 } != nil, "the check's helper never asked for its image")
      kill(review.processIdentifier, SIGTERM)
      let end = await TestSupport.end(of: review)
      let said = Self.text(of: errors)
      #expect(!said.contains("error") && !said.contains("helper process"), "\(said)")

      #expect(end?.reason == .exit && end?.status == 128 + SIGTERM, "\(String(describing: end))")
      #expect(Self.entries(of: temporary).isEmpty, "\(Self.entries(of: temporary))")
      try await Self.expectGone(helperIn: pids)
    }
  }
}
