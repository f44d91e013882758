import Foundation
import RowKitTestSupport
import Testing

/// Where `rowkit`'s standard output or error goes, for a run through the shell.
enum Redirection: String, CaseIterable, CustomStringConvertible {
  case outputFull = ">/dev/full"
  case outputClosed = ">&-"
  case errorFull = "2>/dev/full"
  case errorClosed = "2>&-"

  var description: String { rawValue }

  /// `rowkit arguments` with this redirection, run by /bin/sh (not exec'd: a rowkit that a
  /// signal ended gives the shell's status 128 + the signal, which no assertion takes for 2).
  /// Outside CI, whatever runs the tests: `accept` refuses to run under CI.
  func run(_ arguments: [String], in folder: URL? = nil) async throws -> CommandRunner.Result {
    try await CommandRunner.runProgram(
      URL(fileURLWithPath: "/bin/sh"), ["-c", "\"$0\" \"$@\" \(rawValue)", CommandRunner.binary.path] + arguments,
      in: folder, environment: ["CI": "false"])
  }
}

/// Issue 24, item 7: an unwritable standard output or error never stops `rowkit` with a
/// signal (Foundation's `FileHandle.write(_:)` trapped: exit 132). A run whose standard output
/// cannot be written exits 2 with a message on stderr; one whose standard error cannot be
/// written exits 2, silently.
@Suite struct StandardStreamTests {
  static let features = TestSupport.assets.appendingPathComponent("Samples/features.yaml")

  /// A folder with a document, a reference folder and a report of a check of it, and the
  /// shard report that merge-reports reads: what every subcommand needs to write to stdout.
  static func makeProject() async throws -> URL {
    let folder = try TestSupport.temporaryDirectory("StandardStreamProject")
    let cases = folder.appendingPathComponent("cases")
    try FileManager.default.createDirectory(at: cases, withIntermediateDirectories: true)
    try "items: [{ type: text, text: Hello }]\n".write(
      to: cases.appendingPathComponent("hello.yaml"), atomically: true, encoding: .utf8)
    let png = folder.appendingPathComponent("a.png")
    let render = try await CommandRunner.run(["render", features.path, "-o", png.path])
    #expect(render.status == 0, "\(render.stderr)")
    for report in ["report", "shard"] {
      let check = try await CommandRunner.run(
        ["check", "cases", "--snapshots", "refs", "--record", "never", "--report", report, "--shard", "1/1"], in: folder)
      #expect(check.status == 1, "\(check.stdout)\(check.stderr)")
    }
    return folder
  }

  /// Each subcommand, and help, run so that it writes to standard output.
  static let writingToStandardOutput: [[String]] = [
    ["render", features.path, "-o", "-"],
    ["render", features.path, "--manifest", "-"],
    ["measure", features.path],
    ["check", "cases", "--snapshots", "refs", "--record", "never"],
    ["lint", features.path],
    ["fonts"],
    ["fonts", "Tokyo 東京"],
    ["diff", "a.png", "a.png"],
    ["diff", "a.png", "a.png", "--json"],
    ["accept", "report", "--all", "--snapshots", "refs"],
    ["merge-reports", "shard", "-o", "merged"],
    ["catalog", "-o", "-"],
    ["--help"],
    ["render", "--help"],
    ["--version"],
  ]

  /// Each subcommand, run so that it writes to standard error: warnings of a successful run,
  /// or the error of a failed one.
  static let writingToStandardError: [[String]] = [
    ["render", features.path, "-o", "out.png"],
    ["measure", "missing.yaml"],
    ["check", "missing-folder", "--snapshots", "refs"],
    ["lint", "missing.yaml"],
    ["fonts", "--font", "Nonesuch 12", "x"],
    ["diff", "a.png", "missing.png"],
    ["accept", "missing-report", "--all"],
    ["merge-reports", "missing-shard", "-o", "merged"],
    ["catalog", "-o", "out.jpg"],
    ["render", "--no-such-flag"],
  ]

  @Test func noSubcommandCrashesOnAnUnwritableStandardOutput() async throws {
    let folder = try await Self.makeProject()
    defer { try? FileManager.default.removeItem(at: folder) }
    for redirection in [Redirection.outputFull, .outputClosed] {
      for arguments in Self.writingToStandardOutput {
        let result = try await redirection.run(arguments, in: folder)
        #expect(result.status == 2, "\(arguments) \(redirection): status \(result.status), \(result.stderr)")
        #expect(
          result.stderr.contains("rowkit: error: cannot write to standard output: "),
          "\(arguments) \(redirection): \(result.stderr)")
        #expect(!result.stderr.contains("Fatal error"), "\(arguments) \(redirection): \(result.stderr)")
      }
    }
  }

  @Test func noSubcommandCrashesOnAnUnwritableStandardError() async throws {
    let folder = try await Self.makeProject()
    defer { try? FileManager.default.removeItem(at: folder) }
    for redirection in [Redirection.errorFull, .errorClosed] {
      for arguments in Self.writingToStandardError {
        let result = try await redirection.run(arguments, in: folder)
        #expect(result.status == 2, "\(arguments) \(redirection): status \(result.status)")
        #expect(result.stderr.isEmpty)
      }
    }
    // The warning of a render that otherwise succeeded could not be given: the command did
    // not do all it was asked, and says so with its status only.
    #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("out.png").path))
  }

  /// `rowkit fonts > /dev/full` exited 0: `print` drops what a full standard output refuses.
  @Test func fontsFailsOnAFullStandardOutput() async throws {
    let result = try await Redirection.outputFull.run(["fonts"])
    #expect(result.status == 2)
    #expect(result.stderr == "rowkit: error: cannot write to standard output: No space left on device\n")
  }

  /// A closed standard output is never reused by a file rowkit opens: the PNG it renders
  /// is not mixed with what it prints.
  @Test func aClosedStandardOutputIsNotReused() async throws {
    let folder = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let png = folder.appendingPathComponent("out.png")
    let result = try await Redirection.outputClosed.run(["render", Self.features.path, "-o", png.path, "--manifest", "-"])
    #expect(result.status == 2)
    #expect(result.stderr.contains("cannot write to standard output: Bad file descriptor"), "\(result.stderr)")
    // The manifest could not be delivered: the PNG was put back (it did not exist).
    #expect(!FileManager.default.fileExists(atPath: png.path))
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
  }
}
