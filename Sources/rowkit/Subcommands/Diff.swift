import ArgumentParser
import Foundation
import RowKit
import RowKitGraphics
import RowKitSnapshot

extension RowKitCommand {
  struct Diff: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Compare two PNG images pixel by pixel.",
      discussion: """
        Exits 0 when the images match within the tolerances, 1 when they differ (sizes that \
        differ are a difference), 2 when an image cannot be read. Decoded pixels are compared, \
        never PNG bytes. The diff image shows the first image faded to gray with differing \
        pixels in red, antialiasing in yellow and ignored regions in blue.

        Example:
          rowkit diff expected.png actual.png -o diff.png
          rowkit diff a.png b.png --threshold 0.1 --ignore-antialiasing --max-diff-pixels 50
        """)

    @Argument(help: "The reference image.")
    var reference: String

    @Argument(help: "The image to compare with it.")
    var actual: String

    @Option(name: .shortAndLong, help: "Where to write the diff image.")
    var output: String?

    @Option(help: "Where to write reference | diff | actual side by side.")
    var composite: String?

    @Flag(help: "Print the result as JSON instead of one line.")
    var json = false

    @OptionGroup var tolerance: ToleranceOptions

    func run() throws {
      let options = try tolerance.comparisonOptions()
      let paths = [reference, actual]
      // The two decodes are independent and most of the time: run them side by side.
      nonisolated(unsafe) var decoded: [Result<Bitmap, any Error>?] = [nil, nil]
      DispatchQueue.concurrentPerform(iterations: 2) { index in
        let result = Result { () throws -> Bitmap in
          guard let data = FileManager.default.contents(atPath: paths[index]) else {
            throw OutputError("\(paths[index]): no such file")
          }
          do {
            return try PNG.decode([UInt8](data))
          } catch {
            throw OutputError("\(paths[index]): \(error)")
          }
        }
        decoded[index] = result
      }
      let first = try decoded[0]!.get()
      let second = try decoded[1]!.get()
      let outcome = ImageComparison.compare(first, second, options: options)
      if let output {
        try OutputWriter.write(try PNG.encode(DiffImage.make(reference: first, classes: outcome.classes)), to: URL(fileURLWithPath: output))
      }
      if let composite {
        let panels = outcome.result.status == .sizeMismatch
          ? [first, second] : [first, DiffImage.make(reference: first, classes: outcome.classes), second]
        try OutputWriter.write(try PNG.encode(DiffImage.composite(panels)), to: URL(fileURLWithPath: composite))
      }
      if json {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        FileHandle.standardOutput.write(try encoder.encode(outcome.result) + Data("\n".utf8))
      } else {
        print(outcome.result.summary)
      }
      if !outcome.result.passed { throw ExitCode(1) }
    }
  }
}
