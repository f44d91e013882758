import ArgumentParser
import Foundation
import RowKit
import RowKitGraphics

/// How `render` writes: workers, PNG compression and the tallest PNG.
struct OutputOptions: ParsableArguments {
  @OptionGroup var jobs: JobsOption

  @Option(help: "PNG compression: fast (ISA-L, the default; zlib level 1 in a build without ISA-L) or small (zlib level 9, smaller files, slower).")
  var pngCompression: PNGCompression = .fast

  @Option(
    help: ArgumentHelp(
      "The tallest table PNG, \(FlagRange.maxPngHeight.text) (libpng's read limit); a taller table becomes numbered tiles.",
      valueName: "pixels"))
  var maxPngHeight: Int = 1_000_000

  @Flag(inversion: .prefixedNo, help: "Show a progress bar on stderr for long renders (only when stderr is a terminal).")
  var progress = true

  @Option(help: ArgumentHelp(
    "Seconds a render runs before its progress bar appears, \(FlagRange.progressAfter.text).", valueName: "seconds"))
  var progressAfter: Double = 0.5

  func validate() throws {
    try FlagRange.maxPngHeight.check(maxPngHeight)
    try FlagRange.progressAfter.check(progressAfter)
  }

  func apply(to renderer: inout TableRenderer) {
    renderer.compression = pngCompression
    renderer.maximumTilePixels = maxPngHeight
  }
}

extension PNGCompression: ExpressibleByArgument {}

/// A one-line progress bar on stderr, redrawn at most ten times a second, and only when
/// stderr is a terminal and the render has gone on for a moment.
final class ProgressBar: Sendable {
  /// When the bar was last drawn, and whether it is on the screen.
  private let state = Locked<(lastDraw: Date, drawn: Bool)>((.distantPast, false))
  private let start = Date()
  private let label: String
  private let delay: Double

  /// A bar that appears once the render has run `delay` seconds; nil when stderr is not a
  /// terminal.
  init?(label: String, after delay: Double) {
    guard isatty(STDERR_FILENO) != 0 else { return nil }
    self.label = label
    self.delay = delay
  }

  func update(_ done: Int, _ total: Int) {
    state.withLock { state in
      let now = Date()
      // Short renders finish before a bar would help.
      guard now.timeIntervalSince(start) >= delay, now.timeIntervalSince(state.lastDraw) >= 0.1 || done == total else { return }
      state = (now, true)
      let fraction = total > 0 ? Double(done) / Double(total) : 1
      let width = 30
      let filled = Int(fraction * Double(width))
      let bar = String(repeating: "=", count: filled) + (filled < width ? ">" : "") + String(repeating: " ", count: max(0, width - filled - 1))
      let line = String(format: "\r%@ [%@] %3.0f%%  %d/%d rows", label, bar, fraction * 100, done, total)
      StandardStreams.writeError(Data(line.utf8))
    }
  }

  /// Clears the bar's line.
  func finish() {
    state.withLock { state in
      guard state.drawn else { return }
      StandardStreams.writeError(Data("\r\u{1B}[2K".utf8))
      state.drawn = false
    }
  }
}
