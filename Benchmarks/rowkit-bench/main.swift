import Foundation

// rowkit-bench: how fast RowKit measures, paints and loads images.
//
//   swift run -c release rowkit-bench [--rows N] [--repeat N]
//   swift run -c release rowkit-bench images [--slots N] [--files N] [--repeat N]
//
// The first prints rows per second for measuring alone and for measure + paint + PNG
// encoding of every row; the second, images decoded and scaled per second for image slots
// over generated 1024×768 JPEG and PNG files. Both print the process's peak memory.

var arguments = Array(CommandLine.arguments.dropFirst())
let mode = arguments.first == "images" ? arguments.removeFirst() : "rows"
var options: [String: Int] = [:]
var iterator = arguments.makeIterator()
while let argument = iterator.next() {
  guard argument.hasPrefix("--"), let value = iterator.next().flatMap(Int.init), value > 0 else {
    FileHandle.standardError.write(Data(
      "usage: rowkit-bench [--rows N] [--repeat N]\n       rowkit-bench images [--slots N] [--files N] [--repeat N]\n".utf8))
    exit(2)
  }
  options[String(argument.dropFirst(2))] = value
}

if mode == "images" {
  try await imageBenchmark(
    slots: options["slots"] ?? 1000, files: options["files"] ?? 100, repeats: options["repeat"] ?? 5)
} else {
  try await rowBenchmark(rowCount: options["rows"] ?? 2000, repeats: options["repeat"] ?? 5)
}
