import Foundation
import RowKit
import RowKitGraphics

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

/// Measures and paints `rowCount` subtitle rows, `repeats` times, and prints rows per second.
func rowBenchmark(rowCount: Int, repeats: Int) async throws {
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

  warnIfDebug()
  print("rowkit-bench: \(rowCount) subtitle rows, 375 pt wide at scale 2, \(String(format: "%.0f", tableHeight)) pt tall")
  report("measure only:               ", measureTimes, count: rowCount, unit: "rows")
  report("measure + paint + PNG:      ", fullTimes, count: rowCount, unit: "rows")
  print(String(format: "PNG output per run:          %.1f MB (%d row PNGs)", Double(pngBytes) / 1_048_576, rowCount))
  print(String(format: "peak memory (max RSS):       %.1f MB", peakMemoryMB()))
}
