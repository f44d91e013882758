import Foundation

// rowkit-bench: how fast RowKit measures, paints, encodes and loads images.
//
//   swift run -c release rowkit-bench [--rows N] [--repeat N] [--jobs N] [--cjk 1]
//   swift run -c release rowkit-bench stream [--rows N] [--jobs N] [--cache N]
//   swift run -c release rowkit-bench png [--repeat N]
//   swift run -c release rowkit-bench images [--slots N] [--files N] [--repeat N]
//   swift run -c release rowkit-bench yaml [--rows N] > rows.yaml
//   swift run -c release rowkit-bench longtext [--max N] [--repeat N]
//
// The first prints rows per second for measuring alone and for measure + paint + PNG of a
// streamed table on one worker and on N (default: one per core), and checks that every run
// wrote the same bytes; `stream` renders one big table once (100,000 rows by default) and
// prints its time and peak memory; `png` compares RowKit's PNG writer with cairo's on the
// same pixels; `images`, images decoded and scaled per second for image slots over
// generated 1024×768 JPEG and PNG files. Each prints the process's peak memory. `yaml` prints
// the subtitle rows as a table document, for timing `rowkit render` on the very same rows.
// `longtext` lays out one row of a long paragraph of words, of one unbreakable word, and of
// styled-text markup, each 10,000, 20,000, 40,000 and 80,000 characters long (doubling up to
// --max), and prints each time and its ratio to the time of half the length: about 2 (or
// less, once the label's bound stops the text) where layout is linear. `longword` is an old
// name for it.

var arguments = Array(CommandLine.arguments.dropFirst())
let mode = ["images", "stream", "png", "yaml", "longtext", "longword"].contains(arguments.first) ? arguments.removeFirst() : "rows"
var options: [String: Int] = [:]
var iterator = arguments.makeIterator()
while let argument = iterator.next() {
  guard argument.hasPrefix("--"), let value = iterator.next().flatMap(Int.init), value > 0 else {
    FileHandle.standardError.write(Data(
      """
      usage: rowkit-bench [--rows N] [--repeat N] [--jobs N] [--cjk 1]
             rowkit-bench stream [--rows N] [--jobs N] [--cache N]
             rowkit-bench png [--repeat N]
             rowkit-bench images [--slots N] [--files N] [--repeat N]
             rowkit-bench yaml [--rows N]
             rowkit-bench longtext [--max N] [--repeat N]

      """.utf8))
    exit(2)
  }
  options[String(argument.dropFirst(2))] = value
}

if mode == "longtext" || mode == "longword" {
  let maximum = options["max"] ?? 80_000
  let lengths = sequence(first: 10_000) { $0 * 2 }.prefix { $0 <= max(maximum, 10_000) }
  try await longTextBenchmark(lengths: Array(lengths), repeats: options["repeat"] ?? 3)
} else if mode == "yaml" {
  print(subtitleRowsDocument(options["rows"] ?? 2000), terminator: "")
} else if mode == "images" {
  try await imageBenchmark(
    slots: options["slots"] ?? 1000, files: options["files"] ?? 100, repeats: options["repeat"] ?? 5)
} else if mode == "png" {
  try await pngBenchmark(repeats: options["repeat"] ?? 5)
} else if mode == "stream" {
  try await streamBenchmark(
    rowCount: options["rows"] ?? 100_000, jobs: options["jobs"] ?? ProcessInfo.processInfo.activeProcessorCount,
    cacheCapacity: options["cache"])
} else {
  try await rowBenchmark(
    rowCount: options["rows"] ?? 2000, repeats: options["repeat"] ?? 5,
    jobs: options["jobs"] ?? ProcessInfo.processInfo.activeProcessorCount, cjk: options["cjk"] == 1)
}
