import ArgumentParser
import Foundation
import RowKit
import RowKitGraphics
import RowKitSnapshot

@main
struct RowKitCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "rowkit",
    abstract: "Render table rows to PNG images, the way Three20 drew them.",
    discussion: """
      Exit status: 0 on success, 1 when a comparison fails, 2 on bad input or usage.

      Example:
        rowkit render Assets/Samples/features.yaml -o features.png --rows-dir rows --manifest features.json
      """,
    version: "0.1.0",
    subcommands: [
      Render.self, Measure.self, Catalog.self, Diff.self, Check.self, Shards.self, MergeReports.self, Accept.self, Review.self, Preview.self, Lint.self, Fonts.self, Schema.self,
    ])

  /// Runs the command and maps every failure to RowKit's exit statuses: 2 with one line on
  /// stderr for bad input or usage, 0 for help and version. Everything printed, help
  /// included, goes through ``StandardStreams``, and so does the exit.
  static func main() async {
    // A reader that stops early (`rowkit catalog -o - | head`) made the write raise SIGPIPE,
    // which ended rowkit at once and left what it had staged in the temporary folder.
    // Ignored, the write fails with EPIPE: nothing staged is left, and the command ends with
    // status 2, as for any output that cannot be written.
    signal(SIGPIPE, SIG_IGN)
    TextEnvironment.setAsideUsersTextSettings()
    StandardStreams.claimClosedDescriptors()
    ProcessMemory.keepFreedMemory()
    FontPreload.start(for: CommandLine.arguments)
    var command: any ParsableCommand
    do {
      command = try parseAsRoot()
    } catch {
      exit(reporting: error)
    }
    // The review and preview servers are a program of their own, run in this one's place:
    // they handle these signals themselves.
    if !commandsRunningReviewProgram.contains(type(of: command).configuration.commandName ?? "") {
      StopSignals.install()
    }
    if let asyncCommand = command as? AsyncParsableCommand {
      await runAndExit(asyncCommand)
    }
    do {
      try command.run()
      StandardStreams.exit(0)
    } catch {
      exit(reporting: error)
    }
  }

  /// Runs an async command and exits where it ends, on one of Swift's threads: `main()` is
  /// the main actor's, and returning to it would cost a hop to the thread Dispatch starts for
  /// the main queue (half a millisecond at the end of every command) only to exit there.
  private nonisolated static func runAndExit(_ command: any AsyncParsableCommand) async -> Never {
    var command = command
    do {
      try await command.run()
      StandardStreams.exit(0)
    } catch {
      exit(reporting: error)
    }
  }

  /// Exits with the status `error` calls for, saying why on stderr (help and the version on
  /// stdout, with status 0).
  private nonisolated static func exit(reporting error: any Error) -> Never {
    // An error from a stop under way (a file refused) is the stop's to report, by the signal.
    StopSignals.parkIfStopping()
    if let exit = error as? ExitCode {
      StandardStreams.exit(exit.rawValue)
    }
    if error is StandardStreams.StandardOutputError {
      // The exit names it.
      StandardStreams.exit(2)
    }
    if exitCode(for: error) == .success {
      // Help and the version, which the argument parser would print with `print`.
      StandardStreams.print(fullMessage(for: error))
      StandardStreams.exit(0)
    }
    let message: String
    if error is DocumentError || error is GraphicsError || error is OutputError || error is StyleError || error is SnapshotError
      || error is MissingGlyphsError || error is FailedImagesError
    {
      message = "\(error)"
    } else {
      let first = fullMessage(for: error).split(separator: "\n").first.map(String.init) ?? "\(error)"
      message = first.hasPrefix("Error: ") ? String(first.dropFirst(7)) : first
    }
    StandardStreams.writeError("rowkit: error: \(message)\n")
    StandardStreams.exit(2)
  }
}
