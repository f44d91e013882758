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
    StandardStreams.claimClosedDescriptors()
    ProcessMemory.keepFreedMemory()
    FontPreload.start(for: CommandLine.arguments)
    do {
      var command = try parseAsRoot()
      if var asyncCommand = command as? AsyncParsableCommand {
        try await asyncCommand.run()
      } else {
        try command.run()
      }
      StandardStreams.exit(0)
    } catch let exit as ExitCode {
      StandardStreams.exit(exit.rawValue)
    } catch is StandardStreams.StandardOutputError {
      // The exit names it.
      StandardStreams.exit(2)
    } catch {
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
}
