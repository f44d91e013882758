import ArgumentParser
import Foundation
import RowKitGraphics

/// The standard fonts, loaded on a thread of their own while the argument parser reads the
/// command line: the parser's reflection over every option of the command takes
/// milliseconds, and the first thing every command that reads a document does is load these
/// fonts (a hundred-odd files into a fontconfig configuration). They load once per process,
/// whichever thread gets there first; a font set is shared by every thread.
enum FontPreload {
  /// The commands that read a document or case and render it.
  static let renderingCommands: Set<String> = Set(
    ([
      RowKitCommand.Render.self, RowKitCommand.Check.self, RowKitCommand.Measure.self, RowKitCommand.Lint.self,
      RowKitCommand.Catalog.self, RowKitCommand.Preview.self,
    ] as [any ParsableCommand.Type])
      .compactMap { $0.configuration.commandName })

  /// Starts loading the standard fonts when `arguments` (the process's, program name first)
  /// name a rendering command. A guess that turns out wrong (bad usage, `--help`) costs a
  /// thread that loads fonts nobody uses and ends by itself; a failure is left for the
  /// command to meet and report.
  static func start(for arguments: [String]) {
    guard arguments.count > 1, renderingCommands.contains(arguments[1]) else { return }
    Thread {
      nameCurrentThread("rowkit-fonts")
      _ = try? TextEnvironment.standard.fontSet()
    }.start()
  }
}
