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
        and the part only one image covers striped in magenta. PNGs are decoded, compared and \
        drawn a strip at a time, so memory does not grow with their size; JPEG and WebP images \
        are decoded whole, up to 40,000,000 pixels.

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
      // Through every link, as a write follows them (a link to a file not written yet too).
      if let output, let composite,
        let first = ContainedPath.resolved(URL(fileURLWithPath: output)), first == ContainedPath.resolved(URL(fileURLWithPath: composite))
      {
        throw ValidationError("-o and --composite name the same file, \(output): give each its own")
      }
      try output.map(OutputTarget.init)?.checkPNG(option: "-o")
      try composite.map(OutputTarget.init)?.checkPNG(option: "--composite")
      for (option, path) in [("-o", output), ("--composite", composite)] {
        guard let path, let written = ContainedPath.resolved(URL(fileURLWithPath: path)) else { continue }
        for image in [reference, actual] where ContainedPath.resolved(URL(fileURLWithPath: image)) == written {
          throw ValidationError("\(option) \(path) is the image \(image), which diff compares: give \(option) a file of its own")
        }
      }
    }

    func run() async throws {
      let options = try tolerance.comparisonOptions()
      if quiet && json { throw ValidationError("--quiet and --json: choose one") }
      let (first, second) = (URL(fileURLWithPath: reference), URL(fileURLWithPath: actual))
      let drawsImages = output != nil || composite != nil
      if !drawsImages, ImageFile.sameBytes(first, second) {
        // Byte-identical files hold the same pixels: checking that they decode is enough.
        let size = try ImageFile.check(at: first, named: reference)
        try report(ImageComparison.identical(width: size.width, height: size.height, options: options))
        return
      }
      // PNGs are decoded a strip at a time as they are compared, and the diff image and the
      // composite written as they are drawn: memory stays a few strips of each, whatever
      // the images' size.
      let referenceRows = try ImageFile.rows(at: first, named: reference)
      let actualRows = try ImageFile.rows(at: second, named: actual)
      if quiet && !drawsImages {
        let result = try naming { try ImageComparison.compare(referenceRows, actualRows, options: options, stopWhenFailed: true) }
        if !result.passed { throw ExitCode(1) }
        return
      }
      let images = drawsImages
        ? DiffImageWriter(
          reference: .init(width: referenceRows.width, height: referenceRows.height),
          actual: .init(width: actualRows.width, height: actualRows.height), diff: output.map { URL(fileURLWithPath: $0) },
          composite: composite.map { URL(fileURLWithPath: $0) })
        : nil
      let result = try naming { try ImageComparison.compare(referenceRows, actualRows, options: options, each: images?.write) }
      if let images {
        let outputs = AtomicFiles()
        defer { outputs.discard() }
        try images.stage(in: outputs)
        try outputs.commit()
      }
      try report(result)
    }

    /// What `compare` returns; a refusal of the two sizes names the two files first (`a.png
    /// and b.png: the images are …`), as a decoding error names its own file.
    private func naming(_ compare: () throws -> RowKitSnapshot.ComparisonResult) throws -> RowKitSnapshot.ComparisonResult {
      do {
        return try compare()
      } catch let error as SnapshotError where error.message.hasPrefix("the images are ") {
        throw SnapshotError("\(reference) and \(actual): \(error.message)")
      }
    }

    /// Prints `result` as asked and exits 1 when it failed.
    private func report(_ result: RowKitSnapshot.ComparisonResult) throws {
      if json {
        try StandardStreams.write(Data(try DeterministicJSON.bytes(result)))
      } else if !quiet {
        StandardStreams.print(result.summary)
      }
      if !result.passed { throw ExitCode(1) }
    }
  }
}
