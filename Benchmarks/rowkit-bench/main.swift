import Foundation
import RowKit
import RowKitGraphics

// rowkit-bench: how fast RowKit measures and paints subtitle rows.
//
//   swift run -c release rowkit-bench [--rows N] [--repeat N]
//
// Prints rows per second for measuring alone and for measure + paint + PNG encoding of
// every row, and the process's peak memory.

var rowCount = 2000
var repeats = 5
var arguments = CommandLine.arguments.dropFirst().makeIterator()
while let argument = arguments.next() {
  switch argument {
  case "--rows": rowCount = Int(arguments.next() ?? "") ?? rowCount
  case "--repeat": repeats = Int(arguments.next() ?? "") ?? repeats
  default:
    FileHandle.standardError.write(Data("usage: rowkit-bench [--rows N] [--repeat N]\n".utf8))
    exit(2)
  }
}

/// Subtitle rows with varied, deterministic text: some subtitles wrap to two lines.
func subtitleRows(_ count: Int) -> ListDataSource {
  let words = ["table", "row", "cell", "item", "image", "layout", "Pango", "Cairo", "Three20", "section",
               "header", "label", "subtitle", "render", "measure", "paint", "pixel", "scale"]
  var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
  func next() -> Int {
    seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
    return Int(seed >> 33)
  }
  func phrase(_ length: Int) -> String { (0..<length).map { _ in words[next() % words.count] }.joined(separator: " ") }
  return ListDataSource(items: (0..<count).map { index in
    SubtitleItem(
      text: "\(index + 1). " + phrase(2 + next() % 3).capitalized, subtitle: phrase(4 + next() % 12),
      options: ItemOptions(url: "app://row/\(index)"))
  })
}

func seconds(_ body: () async throws -> Void) async rethrows -> Double {
  let start = DispatchTime.now().uptimeNanoseconds
  try await body()
  return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

func peakMemoryMB() -> Double {
  var usage = rusage()
  getrusage(RUSAGE_SELF.rawValue, &usage)
  return Double(usage.ru_maxrss) / 1024
}

let source = subtitleRows(rowCount)
let configuration = TableConfiguration(width: 375, scale: 2)
let shaper = try TextEnvironment.standard.makeShaper()

var measureTimes: [Double] = []
var fullTimes: [Double] = []
var pngBytes = 0
var tableHeight = 0.0
for _ in 0..<repeats {
  let renderer = try TableRenderer(configuration: configuration, shaper: shaper)
  measureTimes.append(try await seconds { tableHeight = try renderer.layout(source).size.height })
  fullTimes.append(try await seconds {
    let table = try renderer.layout(source)
    let images = try await renderer.loadImages(for: table)
    var bytes = 0
    for row in table.rows {
      bytes += try PNG.encode(renderer.renderRow(row, in: table, images: images)).count
    }
    pngBytes = bytes
  })
}

func report(_ label: String, _ times: [Double], rows rowCount: Int) {
  let best = times.min()!
  let median = times.sorted()[times.count / 2]
  let line = String(
    format: "%@ %6.0f rows/s  (best %.3f s, median %.3f s for %d rows, %d runs)",
    label, Double(rowCount) / best, best, median, rowCount, times.count)
  print(line)
}

#if DEBUG
print("warning: a debug build; run `swift run -c release rowkit-bench` for real figures")
#endif
print("rowkit-bench: \(rowCount) subtitle rows, 375 pt wide at scale 2, \(String(format: "%.0f", tableHeight)) pt tall")
report("measure only:               ", measureTimes, rows: rowCount)
report("measure + paint + PNG:      ", fullTimes, rows: rowCount)
print(String(format: "PNG output per run:          %.1f MB (%d row PNGs)", Double(pngBytes) / 1_048_576, rowCount))
print(String(format: "peak memory (max RSS):       %.1f MB", peakMemoryMB()))
