import Foundation

/// Three20's styled-text markup, parsed: plain text plus the ranges that are bold, italic,
/// underlined or links. Markup is well-formed XHTML in a small vocabulary; anything else is
/// an error, never silently dropped.
///
/// Tags: `b` and `strong` (bold), `i` and `em` (italic), `u` (underline), `span`, `div` and
/// `p` (blocks start on a new line), `br`, `a href="…"` (links) and
/// `img src="…" width="…" height="…"` (an inline image; its size must be given, since a
/// row's geometry never waits for an image). `class="…"` names a stylesheet style whose
/// text element (font, color) and fill apply to the span. Entities: `&amp; &lt; &gt; &quot; &apos; &nbsp;` and
/// numeric ones. Runs of white space collapse to one space, as in HTML.
public struct StyledTextMarkup: Hashable, Sendable {
  /// A style a markup tag gives its text.
  public enum Attribute: Hashable, Sendable {
    /// Bold text (`b`, `strong`).
    case bold
    /// Italic text (`i`, `em`).
    case italic
    /// Underlined text (`u`).
    case underline
    /// A link to `href` (`a`), drawn in the link style.
    case link(href: String)
    /// A stylesheet style named by `class`.
    case styleClass(String)
    /// An inline image, one object-replacement character wide in ``text``.
    case image(src: String, width: Double, height: Double)
  }

  /// A run of styled text with its attributes.
  public struct Span: Hashable, Sendable {
    /// Offsets in Unicode scalars of ``text``.
    public var range: Range<Int>
    /// The style the span's text takes.
    public var attribute: Attribute
  }

  /// The text without its tags, white space collapsed.
  public let text: String
  /// The styled ranges of ``text``; ranges of nested tags overlap.
  public let spans: [Span]

  /// The tags the markup may use.
  public static let tags: Set<String> = ["b", "strong", "i", "em", "u", "span", "div", "p", "br", "a", "img"]

  /// The style classes the markup names.
  public var styleClasses: [String] {
    spans.compactMap { if case .styleClass(let name) = $0.attribute { return name } else { return nil } }
  }

  /// The inline images' sources.
  public var imageSources: [String] {
    spans.compactMap { if case .image(let src, _, _) = $0.attribute { return src } else { return nil } }
  }

  /// Parses markup; the error message says what is wrong and where (a character offset).
  public init(parsing source: String) throws(MarkupError) {
    var parser = Parser(source: Array(source.unicodeScalars))
    try parser.run()
    text = String(String.UnicodeScalarView(parser.output))
    spans = parser.spans
  }

  /// Markup with every special character escaped, for plain text.
  public static func escaping(_ text: String) -> String {
    var result = ""
    for character in text {
      switch character {
      case "&": result += "&amp;"
      case "<": result += "&lt;"
      case ">": result += "&gt;"
      case "\"": result += "&quot;"
      default: result.append(character)
      }
    }
    return result
  }

  private struct Parser {
    let source: [Unicode.Scalar]
    var index = 0
    var output: [Unicode.Scalar] = []
    var spans: [Span] = []
    var open: [(name: String, start: Int, attributes: [Attribute], at: Int)] = []
    var pendingSpace = false

    init(source: [Unicode.Scalar]) {
      self.source = source
    }

    mutating func run() throws(MarkupError) {
      while index < source.count {
        let scalar = source[index]
        if scalar == "<" {
          try readTag()
        } else if scalar == "&" {
          appendText(try readEntity())
        } else if Self.isWhitespace(scalar) {
          if !output.isEmpty, output.last != "\n" { pendingSpace = true }
          index += 1
        } else {
          appendText(scalar)
          index += 1
        }
      }
      if let unclosed = open.last {
        throw MarkupError("<\(unclosed.name)> at character \(unclosed.at) is never closed")
      }
      while output.last == "\n" || output.last == " " { output.removeLast() }
      // Spans closed after a trailing line break (`<u>a<br/></u>`) reached past the text
      // that the trimming left; each span ends where the text does (found by fuzzing).
      let end = output.count
      spans = spans.map { Span(range: min($0.range.lowerBound, end)..<min($0.range.upperBound, end), attribute: $0.attribute) }
    }

    /// Unicode's White_Space, looked up only outside ASCII (where it is tab to carriage
    /// return, and the space): the lookup was a tenth of a long text's parse.
    static func isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
      scalar.isASCII ? scalar == " " || (scalar.value >= 0x09 && scalar.value <= 0x0D) : scalar.properties.isWhitespace
    }

    mutating func appendText(_ scalar: Unicode.Scalar) {
      if pendingSpace {
        output.append(" ")
        pendingSpace = false
      }
      output.append(scalar)
    }

    mutating func lineBreak() {
      pendingSpace = false
      if let last = output.last, last != "\n" { output.append("\n") }
    }

    mutating func readEntity() throws(MarkupError) -> Unicode.Scalar {
      let start = index
      guard let end = source[index...].prefix(12).firstIndex(of: ";") else {
        throw MarkupError("'&' at character \(start) starts no entity (write &amp;)")
      }
      let name = String(String.UnicodeScalarView(source[(index + 1)..<end]))
      index = end + 1
      switch name {
      case "amp": return "&"
      case "lt": return "<"
      case "gt": return ">"
      case "quot": return "\""
      case "apos": return "'"
      case "nbsp": return "\u{00A0}"
      default:
        if name.hasPrefix("#") {
          let digits = name.dropFirst()
          let value = digits.hasPrefix("x") || digits.hasPrefix("X")
            ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits)
          if let value, let scalar = Unicode.Scalar(value) { return scalar }
        }
        throw MarkupError("unknown entity &\(name); at character \(start)")
      }
    }

    mutating func readTag() throws(MarkupError) {
      let start = index
      guard let end = source[index...].firstIndex(of: ">") else {
        throw MarkupError("'<' at character \(start) opens a tag that never ends (write &lt;)")
      }
      var body = String(String.UnicodeScalarView(source[(index + 1)..<end]))
      index = end + 1
      let closing = body.hasPrefix("/")
      if closing { body.removeFirst() }
      let selfClosing = body.hasSuffix("/")
      if selfClosing { body.removeLast() }
      let (name, attributeText) = splitName(body)
      guard StyledTextMarkup.tags.contains(name) else {
        throw MarkupError(
          "unknown tag <\(name)> at character \(start) (supported: \(StyledTextMarkup.tags.sorted().joined(separator: ", ")))")
      }
      if closing {
        guard let top = open.last else {
          throw MarkupError("</\(name)> at character \(start) closes nothing")
        }
        guard top.name == name else {
          throw MarkupError("</\(name)> at character \(start) does not match <\(top.name)> at character \(top.at)")
        }
        open.removeLast()
        for attribute in top.attributes where top.start < output.count {
          spans.append(Span(range: top.start..<output.count, attribute: attribute))
        }
        if name == "div" || name == "p" { lineBreak() }
        return
      }
      let attributes = try parseAttributes(attributeText, tag: name, at: start)
      if name == "br" {
        guard attributes.keys.allSatisfy({ $0 == "class" }) else {
          throw MarkupError("<br> at character \(start) takes no attributes")
        }
        output.append("\n")
        pendingSpace = false
        return
      }
      if name == "img" {
        guard selfClosing else { throw MarkupError("<img> at character \(start) must close itself: <img … />") }
        guard let src = attributes["src"], !src.isEmpty else { throw MarkupError("<img> at character \(start) has no src") }
        func dimension(_ key: String) throws(MarkupError) -> Double {
          guard let text = attributes[key], let value = Double(text), value > 0, value <= 1000 else {
            throw MarkupError("<img> at character \(start) needs a \(key) from 1 to 1000 (an image never sizes its row)")
          }
          return value
        }
        let width = try dimension("width")
        let height = try dimension("height")
        if let unknown = attributes.keys.sorted().first(where: { !["src", "width", "height", "class"].contains($0) }) {
          throw MarkupError("<img> at character \(start) has an unknown attribute '\(unknown)'")
        }
        if pendingSpace, !output.isEmpty {
          output.append(" ")
          pendingSpace = false
        }
        spans.append(Span(range: output.count..<output.count + 1, attribute: .image(src: src, width: width, height: height)))
        output.append("\u{FFFC}")
        return
      }
      if name == "div" || name == "p" { lineBreak() }
      if pendingSpace, !output.isEmpty {
        output.append(" ")
        pendingSpace = false
      }
      var spanAttributes: [Attribute] = []
      switch name {
      case "b", "strong": spanAttributes.append(.bold)
      case "i", "em": spanAttributes.append(.italic)
      case "u": spanAttributes.append(.underline)
      case "a":
        guard let href = attributes["href"] else {
          throw MarkupError("<a> at character \(start) has no href")
        }
        spanAttributes.append(.link(href: href))
      default: break
      }
      if let styleClass = attributes["class"] { spanAttributes.append(.styleClass(styleClass)) }
      let allowed: Set<String> = name == "a" ? ["href", "class"] : ["class"]
      if let unknown = attributes.keys.sorted().first(where: { !allowed.contains($0) }) {
        throw MarkupError("<\(name)> at character \(start) has an unknown attribute '\(unknown)'")
      }
      if selfClosing { return }
      open.append((name, output.count, spanAttributes, start))
    }

    func splitName(_ body: String) -> (String, String) {
      let trimmed = Self.trimmingWhitespace(body[...])
      guard let space = trimmed.firstIndex(where: { $0 == " " || $0 == "\t" || $0 == "\n" }) else {
        return (trimmed.lowercased(), "")
      }
      return (String(trimmed[..<space]).lowercased(), String(trimmed[space...]))
    }

    /// `text` without the spaces and tabs (`CharacterSet.whitespaces`) at its ends. Tags
    /// are nearly always ASCII, where those are the space and the tab: trimmed on the bytes,
    /// as Foundation's trimming (most of the time a 5 MB styled text took to parse) is slow.
    static func trimmingWhitespace(_ text: Substring) -> String {
      let bytes = text.utf8
      guard bytes.allSatisfy({ $0 < 0x80 }) else { return text.trimmingCharacters(in: .whitespaces) }
      func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }
      guard let first = bytes.firstIndex(where: { !isBlank($0) }), let last = bytes.lastIndex(where: { !isBlank($0) }) else {
        return ""
      }
      return String(decoding: bytes[first...last], as: UTF8.self)
    }

    func parseAttributes(_ text: String, tag: String, at offset: Int) throws(MarkupError) -> [String: String] {
      var result: [String: String] = [:]
      var rest = Substring(text)
      while true {
        rest = rest.drop { $0.isWhitespace }
        guard !rest.isEmpty else { return result }
        guard let equals = rest.firstIndex(of: "=") else {
          throw MarkupError("<\(tag)> at character \(offset): attribute '\(rest)' has no value")
        }
        let name = Self.trimmingWhitespace(rest[..<equals]).lowercased()
        rest = rest[rest.index(after: equals)...].drop { $0.isWhitespace }
        guard let quote = rest.first, quote == "\"" || quote == "'" else {
          throw MarkupError("<\(tag)> at character \(offset): the value of '\(name)' must be quoted")
        }
        rest = rest.dropFirst()
        guard let close = rest.firstIndex(of: quote) else {
          throw MarkupError("<\(tag)> at character \(offset): the value of '\(name)' is not closed")
        }
        result[name] = String(rest[..<close])
        rest = rest[rest.index(after: close)...]
      }
    }
  }
}

/// Markup that is not well formed or uses what RowKit does not support.
public struct MarkupError: Error, Hashable, Sendable, CustomStringConvertible {
  /// What is wrong with the markup.
  public var message: String

  /// An error explained by `message`.
  public init(_ message: String) {
    self.message = message
  }

  /// The ``message``.
  public var description: String { message }
}
