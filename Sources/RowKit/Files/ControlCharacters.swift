/// Text from documents and reports (a row's text, a case's name, an image's URL) is printed
/// in messages, and a terminal takes the control characters in it as commands: an escape
/// sequence can clear the screen, retitle the window or write the clipboard (OSC 52), and a
/// carriage return can hide the line it ends.
extension String {
  /// The text with every control character but the newline and the tab (C0, DEL and C1,
  /// which terminals act on) written as a visible escape, `\u{1B}`; everything else, every
  /// script and emoji with its joiners, as it is.
  package var controlCharactersEscaped: String {
    guard unicodeScalars.contains(where: \.isTerminalControl) else { return self }
    var result = ""
    result.unicodeScalars.reserveCapacity(unicodeScalars.count)
    for scalar in unicodeScalars {
      if scalar.isTerminalControl {
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
}
