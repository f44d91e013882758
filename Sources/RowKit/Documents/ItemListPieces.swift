import Foundation
import Yams

/// A document's long top-level `items:` list, cut into pieces that are parsed one at a time.
///
/// Yams builds the whole YAML tree before anything is decoded, and its tree takes about ten
/// times the text: 100,000 rows of a 16 MB document took 170 MB, the peak of a whole
/// `rowkit render`. Parsed a piece at a time, only one piece's tree lives at once.
///
/// Only a plain shape is cut: a line `items:` in the first column, then a block list whose
/// entries start `- ` at one indentation, ended by a line in the first column; no anchors
/// or aliases (`&`, `*`), no directives or document markers (`%`, `---`, `...`). An entry
/// starts where no quoted text, flow collection or block text can still be open without the
/// piece before it failing to parse, so each piece parses to exactly its entries as they are
/// in the whole. Whatever goes wrong in a piece (a parse error, a decoding error), the
/// caller decodes the whole document instead, which reports it as it always did.
struct ItemListPieces {
  /// One run of entries: its bytes, the line it starts on, and its entries' indices.
  struct Piece {
    var bytes: Range<Int>
    var firstLine: Int
    var entries: Range<Int>
  }

  /// The document with the list's lines left blank and `items: []` for its key, so that
  /// every other line keeps its number.
  let skeleton: [UInt8]
  /// The line of the `items:` key (from 1): the skeleton must parse to that key there, or
  /// the line was inside some other value.
  let keyLine: Int
  let pieces: [Piece]
  let entryCount: Int
  private let bytes: [UInt8]
  private let displayName: String

  /// Cuts `bytes` into a skeleton and pieces of `entriesPerPiece` entries, or nil when the
  /// document is not of the plain shape (a line indented with a tab is not) or its list has no more than one piece.
  init?(_ bytes: [UInt8], displayName: String, entriesPerPiece: Int = 1024) {
    let newline = UInt8(ascii: "\n"), space = UInt8(ascii: " "), dash = UInt8(ascii: "-")
    for byte in bytes where byte == UInt8(ascii: "&") || byte == UInt8(ascii: "*") { return nil }
    var lines: [Range<Int>] = []
    var start = 0
    while start < bytes.count {
      let end = bytes[start...].firstIndex(of: newline) ?? bytes.count
      lines.append(start..<end)
      start = end + 1
    }
    func indentation(_ line: Range<Int>) -> Int { bytes[line].prefix { $0 == space }.count }
    /// Blank, or nothing but a comment: such lines belong to no value.
    func isEmpty(_ line: Range<Int>) -> Bool {
      let rest = bytes[line].drop { $0 == space || $0 == UInt8(ascii: "\t") || $0 == UInt8(ascii: "\r") }
      return rest.isEmpty || rest.first == UInt8(ascii: "#")
    }
    func starts(_ line: Range<Int>, with text: String) -> Bool { bytes[line].starts(with: text.utf8) }
    var keyLine: Int?
    for (index, line) in lines.enumerated() {
      if starts(line, with: "\t") || starts(line, with: "%") || starts(line, with: "---") || starts(line, with: "...") { return nil }
      guard starts(line, with: "items:") else { continue }
      let rest = bytes[line].dropFirst(6)
      guard keyLine == nil, rest.allSatisfy({ $0 == space || $0 == UInt8(ascii: "\r") }) else { return nil }
      keyLine = index
    }
    guard let keyLine else { return nil }
    // The list: its entries' indentation is the first value line's, which must start an entry.
    var entryIndentation: Int?
    var entryLines: [Int] = []
    var end = lines.count
    for index in (keyLine + 1)..<lines.count {
      let line = lines[index]
      if isEmpty(line) { continue }
      let indent = indentation(line)
      let afterIndent = line.lowerBound + indent
      let isEntry = afterIndent < line.upperBound && bytes[afterIndent] == dash
        && (afterIndent + 1 == line.upperBound || [space, UInt8(ascii: "\r")].contains(bytes[afterIndent + 1]))
      guard let listIndentation = entryIndentation else {
        guard isEntry else { return nil }
        entryIndentation = indent
        entryLines.append(index)
        continue
      }
      if indent == listIndentation && isEntry {
        entryLines.append(index)
      } else if indent < listIndentation || (listIndentation == 0 && indent == 0) {
        // The list ends at a line in the first column (the next key); another is not plain.
        guard indent == 0 else { return nil }
        end = index
        break
      }
    }
    guard entryLines.count > entriesPerPiece else { return nil }
    var pieces: [Piece] = []
    for first in stride(from: 0, to: entryLines.count, by: entriesPerPiece) {
      let startLine = entryLines[first]
      let endLine = first + entriesPerPiece < entryLines.count ? entryLines[first + entriesPerPiece] : end
      let upper = endLine < lines.count ? lines[endLine].lowerBound : bytes.count
      pieces.append(
        Piece(
          bytes: lines[startLine].lowerBound..<upper, firstLine: startLine + 1,
          entries: first..<min(first + entriesPerPiece, entryLines.count)))
    }
    var skeleton = Array(bytes[..<lines[keyLine].lowerBound])
    skeleton += Array("items: []".utf8)
    // One newline for each line of the list, and the key's own.
    skeleton += [UInt8](repeating: newline, count: (keyLine..<end).count)
    if end < lines.count { skeleton += bytes[lines[end].lowerBound...] }
    self.skeleton = skeleton
    self.keyLine = keyLine + 1
    self.pieces = pieces
    self.entryCount = entryLines.count
    self.bytes = bytes
    self.displayName = displayName
  }

  /// Parses `piece` to its entries, each with its key path (`items[i]`) and its lines
  /// numbered as in the whole document.
  func entries(of piece: Piece) throws -> [YAMLValue] {
    let list = try YAMLValue.parse(Array(bytes[piece.bytes]), displayName: displayName)
    guard case .sequence(let sequence) = list.node, sequence.count == piece.entries.count else {
      throw list.error("a piece of the items list did not parse to the entries it was cut at")
    }
    return zip(piece.entries, sequence).map { index, node in
      YAMLValue(node: node, file: displayName, keyPath: "items[\(index)]", lineOffset: piece.firstLine - 1)
    }
  }
}
