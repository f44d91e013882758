import ArgumentParser
import RowKit

/// `--jobs`: the size of the process's one runtime, for every command that renders in
/// parallel.
struct JobsOption: ParsableArguments {
  @Option(
    name: .customLong("jobs"),
    help: ArgumentHelp(
      "Render workers: rows and cases are laid out, painted, decoded and compared on this many threads (check: in this many processes), \(FlagRange.jobs.text) (default: one per core). The output is the same for any number.",
      valueName: "n"))
  var count: Int?

  func validate() throws {
    try FlagRange.jobs.check(count.map(Double.init))
  }

  /// Sizes the process's runtime; call it before anything renders.
  func configureRuntime() throws {
    if let count { try RowKitRuntime.configure(jobs: count) }
  }
}
