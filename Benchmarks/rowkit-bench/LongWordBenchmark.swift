import Foundation
import RowKit
import RowKitGraphics

/// Lays out one `longText` row holding a single word of `length` characters with no break
/// opportunity, for each length, and prints the time and how many characters were shaped.
/// Without a bound on what a label shapes, Pango's wrapping of an unbreakable run makes the
/// time grow with the square of the length.
func longWordBenchmark(lengths: [Int], repeats: Int) async throws {
  warnIfDebug()
  let shaper = try TextEnvironment.standard.makeShaper()
  var shaped = 0
  shaper.shapeObserver = { shaped = $0.count }
  print("rowkit-bench longword: one longText row, 375 pt wide, one unbreakable word, best of \(repeats)")
  for length in lengths {
    let word = String(repeating: "abcdefghij", count: length / 10 + 1).prefix(length)
    let source = ListDataSource(items: [LongTextItem(text: String(word))])
    var times: [Double] = []
    var height = 0.0
    for _ in 0..<repeats {
      let engine = TableLayoutEngine(configuration: TableConfiguration(width: 375, scale: 2), stylesheet: .default, shaper: shaper)
      times.append(try await seconds { height = try engine.layout(source).size.height })
    }
    print(String(
      format: "%6d characters: %8.3f s  (median %.3f s; %d characters shaped, row %.0f pt tall)",
      length, times.min()!, times.sorted()[times.count / 2], shaped, height))
  }
}
