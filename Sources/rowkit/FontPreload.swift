import ArgumentParser
import Foundation
import RowKit
import RowKitGraphics

/// The standard fonts, loaded on a thread of their own while the argument parser reads the
/// command line, and the render workers' shapers made from them: the parser's reflection
/// over every option of the command takes milliseconds, and the first thing every command
/// that reads a document does is load these fonts (a hundred-odd files into a fontconfig
/// configuration), the next a worker's Pango font map. The font set loads once per process,
/// whichever thread gets there first, and is shared by every thread; each worker makes its
/// shaper on its own thread.
enum FontPreload {
  /// The commands that read a document or case and render it in this process.
  static let renderingCommands: Set<String> = Set(
    ([
      RowKitCommand.Render.self, RowKitCommand.Check.self, RowKitCommand.Measure.self, RowKitCommand.Lint.self,
      RowKitCommand.Catalog.self,
    ] as [any ParsableCommand.Type])
      .compactMap { $0.configuration.commandName })

  /// Starts loading the standard fonts when `arguments` (the process's, program name first)
  /// name a rendering command, and then, unless they size the runtime with `--jobs` (which
  /// the command must do before the runtime is made) or name `check` (which sizes it by its
  /// number of cases; a check's helper process has one worker, whose shaper is made here), has
  /// the workers make their shapers, one after the other. A guess that turns out wrong (bad
  /// usage, `--help`, a document in fonts of its own) costs work nobody uses, on a thread that
  /// ends by itself; a failure is left for the command to meet and report. The thread starts
  /// before anything is decided: finding the commands' names is the Swift runtime's first
  /// look at their types, a few hundred microseconds better spent beside the parser than
  /// before it.
  static func start(for arguments: [String]) {
    // Not for a command that runs rowkit-review in this process's place: whatever it loaded
    // would go with the process, and in the test suite `rowkit preview` died at its start
    // twice while its fonts thread was starting threads of its own ("Resource temporarily
    // unavailable", from GLib and from RowKit); why exactly is not known.
    guard arguments.count > 1, !commandsRunningReviewProgram.contains(arguments[1]) else { return }
    // A helper of a check (SnapshotCheck.HelperProcesses) has one render worker: it makes its
    // shaper while it waits for the check's first line. Sized here, before the command can
    // make the runtime.
    let isHelper =
      arguments.contains("--helper-process") && arguments[1] == RowKitCommand.Check.configuration.commandName
      && (try? RowKitRuntime.configure(jobs: 1)) != nil
    startThread(besideCaller: true) {
      guard renderingCommands.contains(arguments[1]) else { return }
      nameCurrentThread("rowkit-fonts")
      let sizesRuntime =
        arguments[1] == RowKitCommand.Check.configuration.commandName
        || arguments.contains { $0 == "--jobs" || $0.hasPrefix("--jobs=") }
      guard (try? TextEnvironment.standard.fontSet()) != nil, isHelper || !sizesRuntime else { return }
      RenderPool.shared.prepare(.standard)
    }
  }
}
