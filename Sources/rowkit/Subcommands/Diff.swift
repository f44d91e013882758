import ArgumentParser
import Foundation
import RowKit
import RowKitGraphics
import RowKitSnapshot

extension RowKitCommand {
  struct Diff: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "diff",
      abstract: "Compare two images (PNG, JPEG or WebP) pixel by pixel, as pixelmatch 7.2 does.",
      discussion: """
        Exits 0 when the images match within the tolerances, 1 when they differ, 2 when an \
        image cannot be read. Decoded pixels are compared, never file bytes, and formats are \
        told apart by their first bytes, so a PNG may be compared with a WebP. Semi-transparent \
        pixels are blended over pixelmatch's background pattern first: fully transparent pixels \
        of any color are equal, and any visible change of alpha counts. Images of different \
        sizes always differ; they are compared on a canvas as large as both, where every pixel \
        only one image covers counts as different. The diff image shows the first image faded \
        to gray with differing pixels in red, antialiasing in yellow, ignored regions in blue \
        and the part only one image covers striped in magenta.

        Example:
          rowkit diff expected.png actual.png -o diff.png
          rowkit diff a.png b.webp --threshold 0.1 --ignore-antialiasing --max-diff-pixels 50
          rowkit diff -q a.png b.png && echo same
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

    @Flag(
      name: .shortAndLong,
      help: "Print nothing: the exit status tells. Without -o or --composite, stops at the first pixel that decides.")
    var quiet = false

    @OptionGroup var tolerance: ToleranceOptions

    func validate() throws {
      if output == "-" || composite == "-" {
        throw ValidationError("diff prints its result on standard output: give -o and --composite files")
      }
      try output.map(OutputTarget.init)?.checkPNG(option: "-o")
      try composite.map(OutputTarget.init)?.checkPNG(option: "--composite")
    }

    func run() async throws {
      let options = try tolerance.comparisonOptions()
      if quiet && json { throw ValidationError("--quiet and --json: choose one") }
      let referenceBytes = try Self.read(reference)
      let actualBytes = try Self.read(actual)
      let drawsImages = output != nil || composite != nil
      if !drawsImages, Self.sameBytes(referenceBytes, actualBytes) {
        // Byte-identical files hold the same pixels: checking that they decode is enough.
        let size = try Self.decoding(reference) { try ImageDecoder.check(referenceBytes) }
        try report(ImageComparison.identical(width: size.width, height: size.height, options: options))
        return
      }
      // The two decodes are independent and most of the time: each runs in a task of its own.
      async let decodedReference = Self.decoding(reference) { try ImageDecoder.decodeRGBA(referenceBytes) }
      async let decodedActual = Self.decoding(actual) { try ImageDecoder.decodeRGBA(actualBytes) }
      let (first, second) = try await (decodedReference, decodedActual)
      if quiet && !drawsImages {
        if !ImageComparison.matches(first, second, options: options) { throw ExitCode(1) }
        return
      }
      let outcome = ImageComparison.compare(first, second, options: options)
      if drawsImages {
        let diff = DiffImage.make(outcome, reference: first, actual: second)
        let outputs = OutputFiles()
        if let output {
          try outputs.write(try PNG.encode(diff), to: OutputTarget(output), name: "diff.png", option: "-o")
        }
        if let composite {
          let panels = [first.bitmap, diff, second.bitmap]
          try outputs.write(
            try PNG.encode(DiffImage.composite(panels)), to: OutputTarget(composite), name: "composite.png",
            option: "--composite")
        }
        try outputs.commit()
      }
      try report(outcome.result)
    }

    /// Prints `result` as asked and exits 1 when it failed.
    private func report(_ result: RowKitSnapshot.ComparisonResult) throws {
      if json {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try StandardStreams.write(try encoder.encode(result) + Data("\n".utf8))
      } else if !quiet {
        StandardStreams.print(result.summary)
      }
      if !result.passed { throw ExitCode(1) }
    }

    /// The bytes of one image file, naming the file in any error.
    static func read(_ path: String) throws -> [UInt8] {
      do {
        return try InputFile.read(path)
      } catch {
        throw OutputError("\(path): \(error)")
      }
    }

    static func sameBytes(_ first: [UInt8], _ second: [UInt8]) -> Bool {
      first.count == second.count
        && first.withUnsafeBytes { a in second.withUnsafeBytes { b in a.count == 0 || memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0 } }
    }

    /// Decodes (or checks) the image of the file at `path`, naming the file in any error.
    static func decoding<T>(_ path: String, _ decode: () throws -> T) throws -> T {
      do {
        return try decode()
      } catch {
        throw OutputError("\(path): \(error)")
      }
    }
  }
}
