// `rowkit review`'s server, in a program of its own: `rowkit review` checks its arguments
// and runs this in its place, `rowkit-review [--check] REPORT [--snapshots DIR] [--port N]
// [--open] [--check-option OPTION]…`. Kept out of `rowkit` so that no other subcommand loads
// the HTTP server's libraries. With --check, REPORT is the documents to check: `rowkit check`
// runs first, with each --check-option, into a report folder of this process's own that it
// removes when it ends. `--cases-at-once N`
// (for the browser tests) makes the page hold fewer cases as HTML, so that a small report
// shows how the page adds the others.
import Foundation
import RowKit
import RowKitGraphics
import RowKitReview
import RowKitSnapshot

TextEnvironment.setAsideUsersTextSettings()

/// Ends the program with status 2 and `message`, its control characters escaped (it may
/// quote a report, which comes from anyone).
func fail(_ message: String) -> Never {
  FileHandle.standardError.write(Data("rowkit: error: \(message.controlCharactersEscaped)\n".utf8))
  ReviewedCheck.removeFolder()
  exit(2)
}

func say(_ line: String) {
  FileHandle.standardOutput.write(Data((line.controlCharactersEscaped + "\n").utf8))
}

if CommandLine.arguments.dropFirst().first == "preview" {
  await servePreview(Array(CommandLine.arguments.dropFirst(2)))
}

var report: String?
var snapshots: String?
var port: UInt16 = 0
var open = false
var checkFirst = false
var casesShownAtOnce = ReviewReport.casesShownAtOnce
var checkOptions: [String] = []
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
  switch argument {
  case "--snapshots":
    guard let value = arguments.popFirst() else { fail("--snapshots needs a folder") }
    snapshots = value
  case "--port":
    guard let value = arguments.popFirst(), let number = UInt16(value) else { fail("--port needs a number from 0 to 65535") }
    port = number
  case "--open":
    open = true
  case "--check":
    checkFirst = true
  case "--check-option":
    guard let value = arguments.popFirst() else { fail("--check-option needs an option of rowkit check") }
    checkOptions.append(value)
  case "--cases-at-once":
    guard let value = arguments.popFirst(), let number = Int(value), number >= 0 else { fail("--cases-at-once needs a number") }
    casesShownAtOnce = number
  case "--":
    report = arguments.popFirst() ?? report
  default:
    guard report == nil, !argument.hasPrefix("-") else { fail("unexpected argument '\(argument)'") }
    report = argument
  }
}
var folder = report ?? "report"
if checkFirst {
  guard let snapshots else { fail("checking \(folder) before the review needs the references: --snapshots DIR") }
  guard let checked = ReviewedCheck.run(documents: folder, snapshots: snapshots, options: checkOptions) else {
    say("Every case of \(folder) passed: nothing to review.")
    ReviewedCheck.removeFolder()
    exit(0)
  }
  folder = checked
}

do {
  let session = try await ReviewSession(
    report: URL(fileURLWithPath: folder), snapshots: snapshots.map { URL(fileURLWithPath: $0) }, checkedHere: checkFirst)
  let server = try ReviewServer(session: session, port: port, reportPath: folder, casesShownAtOnce: casesShownAtOnce)
  try await withThrowingTaskGroup(of: Void.self) { group in
    group.addTask { try await server.run() }
    // A server that cannot listen (a port in use) ends the wait at once, with its reason.
    let address = try await server.waitUntilListening()
    say("Reviewing \(session.reviewable.count) cases of \(folder) at \(address.absoluteString)")
    say("Press Ctrl-C to stop; the review log is \((folder as NSString).appendingPathComponent(ReportFolder.reviewLogFile)).")
    if open { openBrowser(address) }
    try await group.next()
  }
} catch {
  fail("\(error)")
}

/// Starts the user's browser on `address` and does not wait for it: the command `BROWSER`
/// names when it is set (one command, run by the shell, with `%s`, unquoted, standing for
/// the address, or else the address after it), or else xdg-open. A missing opener only says
/// so.
func openBrowser(_ address: URL) {
  let process = Process()
  let environment = ProcessInfo.processInfo.environment
  if let browser = environment["BROWSER"], !browser.trimmingCharacters(in: .whitespaces).isEmpty {
    // The address goes in as the shell's $1, never into the command's text.
    let command = browser.contains("%s") ? browser.replacingOccurrences(of: "%s", with: #""$1""#) : browser + #" "$1""#
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", command, "sh", address.absoluteString]
  } else {
    let opener = "/usr/bin/xdg-open"
    guard FileManager.default.isExecutableFile(atPath: opener) else {
      FileHandle.standardError.write(Data("rowkit: no \(opener) and no BROWSER; open the address yourself\n".utf8))
      return
    }
    process.executableURL = URL(fileURLWithPath: opener)
    process.arguments = [address.absoluteString]
  }
  // The browser draws with the user's own font settings, which this process set aside.
  process.environment = UsersTextSettings.usersOwn(environment)
  do {
    try process.run()
  } catch {
    FileHandle.standardError.write(Data("rowkit: \(process.executableURL?.path ?? "the browser") did not start: \(error)\n".utf8))
  }
}

/// `rowkit check` of the documents `rowkit review DOCS --snapshots DIR` names, into a report
/// folder of its own under the temporary folder, which this process removes when it ends:
/// on Ctrl-C, on a signal to stop, or on an error. (Only SIGKILL leaves it behind.)
enum ReviewedCheck {
  /// The folder, once made; read by the signal handlers, on their own queue.
  private static let folder = Locked<URL?>(nil)
  /// The check while it runs: a signal stops it before its folder is removed.
  private static let runningCheck = Locked<Process?>(nil)
  /// Set by the first signal to stop: from then on, the signal's handler alone ends the process.
  private static let stopping = Locked(false)
  // Kept for the life of the process: a signal source that is released stops handling.
  private static let signalSources = Locked<[any DispatchSourceSignal]>([])

  /// Runs the check and returns its report folder, or nil when every case passed. Exits 2
  /// when the check's input is bad (it printed why).
  static func run(documents: String, snapshots: String, options: [String]) -> String? {
    let temporary = FileManager.default.temporaryDirectory.appendingPathComponent("rowkit-review-XXXXXX")
    var template = Array(temporary.path.utf8CString)
    guard mkdtemp(&template) != nil else { fail("\(temporary.deletingLastPathComponent().path): cannot make a folder for the report") }
    let made = URL(fileURLWithPath: String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
    folder.withLock { $0 = made }
    removeOnSignals()
    let report = made.appendingPathComponent("report")
    let me = URL(fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0])
    let rowkit = me.deletingLastPathComponent().appendingPathComponent("rowkit")
    let check = Process()
    check.executableURL = rowkit
    check.arguments = ["check", documents, "--snapshots", snapshots, "--report", report.path] + options
    // The check's summary goes to stderr: the first line on stdout stays the page's address.
    check.standardOutput = FileHandle.standardError
    // Started under the lock that publishes it: a signal meanwhile finds it, and stops it.
    let started = runningCheck.withLock { running -> (any Error)? in
      do { try check.run() } catch { return error }
      running = check
      return nil
    }
    if let started { fail("\(rowkit.path): cannot run rowkit check: \(started)") }
    check.waitUntilExit()
    runningCheck.withLock { $0 = nil }
    // A check ended by a signal to this process: the handler removes the folder and exits,
    // and this thread must not race it with an error of its own.
    if stopping.withLock({ $0 }) { while true { pause() } }
    switch check.terminationStatus {
    case 0: return nil
    case 1: return report.path
    default: fail("rowkit check \(documents) failed (exit \(check.terminationStatus)); there is no report to review")
    }
  }

  /// Removes the report folder, if one was made.
  static func removeFolder() {
    if let made = folder.withLock({ $0 }) { try? FileManager.default.removeItem(at: made) }
  }

  private static func removeOnSignals() {
    let queue = DispatchQueue(label: "rowkit-review.signals")
    for number in [SIGINT, SIGTERM, SIGHUP] {
      // Not ignored first, as on Darwin: on Linux, Dispatch puts a handler of its own in
      // place as the source starts, and an ignored signal would stay ignored in the check
      // started below (a child keeps what its parent ignores), which then could not be
      // stopped.
      let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
      source.setEventHandler {
        stopping.withLock { $0 = true }
        if let check = runningCheck.withLock({ $0 }) {
          check.terminate()
          check.waitUntilExit()
        }
        removeFolder()
        exit(128 + number)
      }
      source.resume()
      signalSources.withLock { $0.append(source) }
    }
  }
}
