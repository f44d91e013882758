// `rowkit review`'s server, in a program of its own: `rowkit review` checks its arguments
// and runs this in its place, `rowkit-review REPORT [--snapshots DIR] [--port N] [--open]`.
// Kept out of `rowkit` so that no other subcommand loads the HTTP server's libraries.
import Foundation
import RowKitReview
import RowKitSnapshot

func fail(_ message: String) -> Never {
  FileHandle.standardError.write(Data("rowkit: error: \(message)\n".utf8))
  exit(2)
}

func say(_ line: String) {
  FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

if CommandLine.arguments.dropFirst().first == "preview" {
  await servePreview(Array(CommandLine.arguments.dropFirst(2)))
}

var report: String?
var snapshots: String?
var port: UInt16 = 0
var open = false
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
  case "--":
    report = arguments.popFirst() ?? report
  default:
    guard report == nil, !argument.hasPrefix("-") else { fail("unexpected argument '\(argument)'") }
    report = argument
  }
}
let folder = report ?? "report"

do {
  let session = try ReviewSession(report: URL(fileURLWithPath: folder), snapshots: snapshots.map { URL(fileURLWithPath: $0) })
  let server = try ReviewServer(session: session, port: port, reportPath: folder)
  async let serving: Void = server.run()
  let address = try await server.waitUntilListening()
  say("Reviewing \(session.reviewable.count) cases of \(folder) at \(address.absoluteString)")
  say("Press Ctrl-C to stop; the review log is \((folder as NSString).appendingPathComponent(ReportFolder.reviewLogFile)).")
  if open { openBrowser(address) }
  try await serving
} catch {
  fail("\(error)")
}

/// Starts xdg-open on `address` and does not wait for it: a missing opener only says so.
func openBrowser(_ address: URL) {
  let opener = "/usr/bin/xdg-open"
  guard FileManager.default.isExecutableFile(atPath: opener) else {
    FileHandle.standardError.write(Data("rowkit: no \(opener); open the address yourself\n".utf8))
    return
  }
  let process = Process()
  process.executableURL = URL(fileURLWithPath: opener)
  process.arguments = [address.absoluteString]
  do { try process.run() } catch { FileHandle.standardError.write(Data("rowkit: \(opener) did not start: \(error)\n".utf8)) }
}
