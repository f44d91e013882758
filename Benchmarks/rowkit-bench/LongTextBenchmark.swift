import Foundation
import RowKit
import RowKitGraphics

/// Lays out one row of long text for each kind of text and each length, and prints the
/// best time, the ratio to the half length before it (about 2 where the time is linear in the
/// length, 4 where it grows with its square) and how many characters the label shaped. The
/// kinds: a `longText` paragraph of words, a `longText` holding one word without a break
/// opportunity, and a `styledText` whose markup source is that long.
func longTextBenchmark(lengths: [Int], repeats: Int) async throws {
  warnIfDebug()
  let shaper = try TextEnvironment.standard.makeShaper()
  var shaped = 0
  shaper.shapeObserver = { shaped = $0.count }
  print("rowkit-bench longtext: one row 375 pt wide at scale 2, layout only, best of \(repeats), \(ProcessInfo.processInfo.activeProcessorCount) cores")
  print("kind                 characters      time   ×(2n÷n)   shaped   row height")
  for kind in LongTextKind.allCases {
    var previous: Double?
    for length in lengths {
      let source = ListDataSource(items: [kind.item(length: length)])
      var times: [Double] = []
      var height = 0.0
      for _ in 0..<repeats {
        let engine = TableLayoutEngine(configuration: TableConfiguration(width: 375, scale: 2), stylesheet: .default, shaper: shaper)
        times.append(try await seconds { height = try engine.layout(source).size.height })
      }
      let best = times.min()!
      let ratio = previous.map { String(format: "%7.2f", best / $0) } ?? "      –"
      let label = kind.rawValue.padding(toLength: 20, withPad: " ", startingAt: 0)
      print(label + String(format: " %10d %8.3f s %@ %8d %9.0f pt", length, best, ratio, shaped, height))
      previous = best
    }
  }
}

enum LongTextKind: String, CaseIterable {
  case words = "longText, words"
  case unbrokenWord = "longText, one word"
  case markup = "styledText, markup"

  /// An item whose text (the markup source, for styled text) is `length` characters long.
  func item(length: Int) -> any TableItem {
    switch self {
    case .words: return LongTextItem(text: Self.repeated(Self.vocabulary.joined(separator: " ") + " ", to: length))
    case .unbrokenWord: return LongTextItem(text: Self.repeated("abcdefghij", to: length))
    case .markup:
      let pieces = Self.vocabulary.enumerated().map { index, word in
        ["<b>\(word)</b> ", "<i>\(word)</i> ", "\(word) ", "<a href=\"app://\(index)\">\(word)</a> "][index % 4]
      }
      // Whole pieces only, so that every tag is closed: a few characters short at most.
      var markup = ""
      var count = 0
      for piece in (0...).lazy.map({ pieces[$0 % pieces.count] }) {
        guard count + piece.count <= length else { break }
        markup += piece
        count += piece.count
      }
      return StyledTextItem(text: markup)
    }
  }

  static let vocabulary = ["table", "row", "cell", "item", "layout", "Pango", "Cairo", "Three20", "section", "header", "footer"]

  /// `unit` repeated to `length` characters.
  static func repeated(_ unit: String, to length: Int) -> String {
    var text = String(repeating: unit, count: length / unit.count + 1)
    text.removeLast(text.count - length)
    return text
  }
}
