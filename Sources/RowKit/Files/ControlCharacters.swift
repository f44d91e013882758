/// Text from documents and reports (a row's text, a case's name, an image's URL) is printed
/// in messages, and a terminal takes the control characters in it as commands: an escape
/// sequence can clear the screen, retitle the window or write the clipboard (OSC 52), and a
/// carriage return can hide the line it ends.
extension String {
  /// The text with every control character but the newline and the tab (C0, DEL and C1,
  /// which terminals act on) written as a visible escape, `\u{1B}`; everything else, every
  /// script and emoji with its joiners, as it is.
  package var controlCharactersEscaped: String {
    escaping(\.isTerminalControl)
  }

  /// The text as one line of a message: ``controlCharactersEscaped``, and the newline, the
  /// tab, the line and paragraph separators and the bidirectional embeddings, overrides and
  /// isolates escaped too, so that a quoted value can neither start a line of its own (a
  /// forged result, a CI log's `::error::` command) nor reorder the line it is in.
  package var escapedForOneLine: String {
    escaping { $0.isTerminalControl || $0.breaksALine }
  }

  /// The text with each scalar that `escapes` written as `\u{1B}`.
  private func escaping(_ escapes: (Unicode.Scalar) -> Bool) -> String {
    guard unicodeScalars.contains(where: escapes) else { return self }
    var result = ""
    result.unicodeScalars.reserveCapacity(unicodeScalars.count)
    for scalar in unicodeScalars {
      if escapes(scalar) {
        result += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
      } else {
        result.unicodeScalars.append(scalar)
      }
    }
    return result
  }
}

extension Unicode.Scalar {
  /// A C0 control but the newline and the tab, DEL, or a C1 control.
  fileprivate var isTerminalControl: Bool {
    (value < 0x20 && value != 0x0A && value != 0x09) || (0x7F...0x9F).contains(value)
  }

  /// The newline, the tab, U+2028 and U+2029, or a bidirectional embedding, override or
  /// isolate (U+202A to U+202E, U+2066 to U+2069).
  fileprivate var breaksALine: Bool {
    value == 0x0A || value == 0x09 || value == 0x2028 || value == 0x2029 || (0x202A...0x202E).contains(value)
      || (0x2066...0x2069).contains(value)
  }
}
