import Foundation
import RowKitGraphics
import RowKitSnapshot

/// The commands that run `rowkit-review` in this process's place (`runReviewProgram`), by
/// name: known before any command type is looked at. Nothing of this process outlives the
/// exec, so they start no thread here (`FontPreload`) and leave the stop signals to the
/// program that replaces this one.
let commandsRunningReviewProgram: Set<String> = ["review", "preview"]

/// Runs `rowkit-review` with `arguments` in this process's place: the HTTP servers of
/// `rowkit review` and `rowkit preview` are a program of their own beside this one (see
/// Package.swift: their library would otherwise load with every subcommand), and Ctrl-C and
/// the exit status are then the server's own. Returns only by throwing.
func runReviewProgram(_ arguments: [String]) throws -> Never {
  let me = URL(fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0])
  let server = me.deletingLastPathComponent().appendingPathComponent("rowkit-review")
  guard FileManager.default.isExecutableFile(atPath: server.path) else {
    throw SnapshotError("\(server.path): the review and preview server is not installed beside rowkit (swift build builds both)")
  }
  let words = ([server.path] + arguments).map { strdup($0) } + [nil]
  defer { words.forEach { free($0) } }
  // The server sets the text libraries' variables aside itself, and gives the browser it
  // opens the user's own: it must see them as the user set them.
  UsersTextSettings.restore()
  execv(server.path, words)
  throw SnapshotError("\(server.path): cannot start: \(String(cString: strerror(errno)))")
}
