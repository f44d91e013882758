import Foundation
import RowKitGraphics
import Yams

/// A YAML node that knows its file, its line and its key path, so that every decoding
/// error can say where it is.
struct YAMLValue {
  let node: Node
  let file: String
  let keyPath: String
  /// Lines of the file before the text this node was parsed from (a piece of a long list,
  /// see `ItemListPieces`): added to the node's own line.
  let lineOffset: Int

  init(node: Node, file: String, keyPath: String, lineOffset: Int = 0) {
    self.node = node
    self.file = file
    self.keyPath = keyPath
    self.lineOffset = lineOffset
  }

  /// The most values a document may reach through aliases, counting each use of an alias in
  /// full. A YAML alias bomb (an anchor repeated in an anchor repeated…) stops here instead
  /// of consuming memory and time. Values written out in the text are not counted: the
  /// text's length bounds them, and the row bound (``Bounds/maximumRows``) applies to rows.
  static let maximumAliasedValues = 2_000_000

  /// The encoding Yams parses in, named: its default reads `YAMS_DEFAULT_ENCODING` from the
  /// process's environment at every parse (copying the whole environment each time), and
  /// when the variable is set prints a line to standard output, where rowkit may be writing a
  /// PNG.
  private static var encoding: Parser.Encoding { .utf8 }

  /// Reads and parses a YAML (or JSON) file.
  static func load(contentsOf url: URL, displayName: String) throws -> YAMLValue {
    try parse(try read(contentsOf: url, displayName: displayName), displayName: displayName)
  }

  /// The bytes of a YAML (or JSON) file, unparsed.
  static func read(contentsOf url: URL, displayName: String) throws -> [UInt8] {
    FilesRead.note(url)
    do {
      return try InputFile.read(url.path)
    } catch {
      throw DocumentError(file: displayName, message: "\(error)")
    }
  }

  static func parse(_ bytes: [UInt8], displayName: String) throws -> YAMLValue {
    guard let text = String(validating: bytes, as: UTF8.self) else {
      let offset = firstInvalidUTF8Offset(bytes)
      let line = bytes[..<offset].filter { $0 == 0x0A }.count + 1
      let lineStart = bytes[..<offset].lastIndex(of: 0x0A).map { $0 + 1 } ?? 0
      throw DocumentError(
        file: displayName, line: line, column: offset - lineStart + 1,
        message: "the file is not valid UTF-8 (byte \(offset))")
    }
    try refuseAliasesInKeys(text, displayName: displayName)
    let node: Node?
    do {
      // Yams' basic resolver: its default one compiles seven regular expressions, which
      // starts ICU's regex engine (1.5 ms of every rowkit run). Plain scalars then stay
      // untyped, and `bool()` reads YAML 1.1's booleans itself.
      node = try Yams.compose(yaml: joiningSurrogatePairs(text), .basic, .default, Self.encoding)
    } catch let error as YamlError {
      throw documentError(error, file: displayName, text: text)
    }
    guard let node, !YAMLValue(node: node, file: displayName, keyPath: "").isNull else {
      throw DocumentError(file: displayName, line: 1, message: "the document is empty")
    }
    guard aliasedValuesFit(node) else {
      throw DocumentError(
        file: displayName, line: node.mark?.line ?? 1,
        message: "the document expands to more than \(maximumAliasedValues) values through aliases (a YAML alias bomb?)")
    }
    return YAMLValue(node: node, file: displayName, keyPath: "")
  }

  /// `text` with each JSON escape of a UTF-16 surrogate pair (`\ud83d\ude00`, as Python's
  /// `json.dumps` writes every character beyond the Basic Multilingual Plane) written as the
  /// one escape YAML reads (`\U0001F600`): libyaml refuses a surrogate escape. Only in a
  /// text that is JSON (Foundation reads it), where every backslash is in a double-quoted
  /// string; elsewhere in YAML `\u` may be literal text. Columns after a joined pair on its
  /// line move two to the left.
  static func joiningSurrogatePairs(_ text: String) -> String {
    let bytes = Array(text.utf8)
    func hexValue(at index: Int) -> UInt32? {
      guard index + 4 <= bytes.count else { return nil }
      var value: UInt32 = 0
      for byte in bytes[index..<index + 4] {
        guard let digit = Character(UnicodeScalar(byte)).hexDigitValue else { return nil }
        value = value << 4 | UInt32(digit)
      }
      return value
    }
    func isPair(at index: Int) -> Bool {
      bytes[index] == UInt8(ascii: "\\") && index + 11 < bytes.count && bytes[index + 1] == UInt8(ascii: "u")
        && bytes[index + 6] == UInt8(ascii: "\\") && bytes[index + 7] == UInt8(ascii: "u")
        && (0xD800...0xDBFF).contains(hexValue(at: index + 2) ?? 0) && (0xDC00...0xDFFF).contains(hexValue(at: index + 8) ?? 0)
    }
    guard bytes.indices.contains(where: isPair), (try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])) != nil
    else { return text }
    var joined: [UInt8] = []
    joined.reserveCapacity(bytes.count)
    var index = 0
    while index < bytes.count {
      if bytes[index] == UInt8(ascii: "\\") {
        if isPair(at: index), let high = hexValue(at: index + 2), let low = hexValue(at: index + 8) {
          let scalar = 0x10000 + (high - 0xD800) << 10 + (low - 0xDC00)
          let digits = String(scalar, radix: 16, uppercase: true)
          joined += Array(("\\U" + String(repeating: "0", count: 8 - digits.count) + digits).utf8)
          index += 12
        } else {
          // Any other escape is copied whole, so an escaped backslash never starts a pair.
          joined += bytes[index..<min(index + 2, bytes.count)]
          index += 2
        }
      } else {
        joined.append(bytes[index])
        index += 1
      }
    }
    return String(decoding: joined, as: UTF8.self)
  }

  /// Whether the values reached through aliases stay within ``maximumAliasedValues``.
  ///
  /// Yams puts the anchored node itself where an alias stands, with the anchor's place in
  /// the text, so a collection met at a place already seen is an alias's use: it and
  /// everything under it count. Scalars are not told apart (an alias of one is a value, and
  /// costs what writing it out would), nor is anything written out once.
  private static func aliasedValuesFit(_ root: Node) -> Bool {
    struct Place: Hashable {
      var isMapping: Bool
      var line: Int
      var column: Int
    }
    var seen = Set<Place>()
    var budget = maximumAliasedValues
    func fits(_ node: Node, aliased: Bool) -> Bool {
      var aliased = aliased
      if !aliased, let mark = node.mark {
        switch node {
        case .mapping, .sequence:
          aliased = !seen.insert(Place(isMapping: node.mapping != nil, line: mark.line, column: mark.column)).inserted
        case .scalar, .alias: break
        }
      }
      if aliased {
        budget -= 1
        if budget < 0 { return false }
      }
      switch node {
      case .scalar, .alias: return true
      case .sequence(let sequence):
        return sequence.allSatisfy { fits($0, aliased: aliased) }
      case .mapping(let mapping):
        return mapping.allSatisfy { fits($0.key, aliased: aliased) && fits($0.value, aliased: aliased) }
      }
    }
    return fits(root, aliased: false)
  }

  /// Refuses a document that uses an alias in a mapping key.
  ///
  /// Yams hashes every mapping's keys while it composes (to find duplicates), before any
  /// budget of aliased values can be checked: an alias bomb in a key (`{*a9 : 1}`,
  /// `[*a8 : 1]`, `? *a8`, `[*a8]: 1`) would take exponential time. So a document with
  /// aliases is composed once with each alias made a plain scalar (its `*` replaced by a
  /// private-use character, which keeps every line and column), which takes time in
  /// proportion to the text, and a key that holds such a scalar is refused where it starts.
  private static func refuseAliasesInKeys(_ text: String, displayName: String) throws {
    let aliasMark: Unicode.Scalar = "\u{E000}"
    guard text.utf8.contains(UInt8(ascii: "*")) else { return }
    var defused = String.UnicodeScalarView()
    // An alias starts a node: at a line's start, after a blank, or after `[`, `{` or `,`; a
    // `*` anywhere else (in a tag, a `%TAG` prefix, the middle of a plain scalar) stays, so
    // that the copy reads as the text does. Its name is letters, digits, `_` and `-`.
    var (beforeStar, previous): (Unicode.Scalar?, Unicode.Scalar?) = (nil, nil)
    for scalar in text.unicodeScalars {
      if previous == "*", beforeStar.map({ " \t\r\n[{,".unicodeScalars.contains($0) }) ?? true, isAliasNameScalar(scalar) {
        defused.removeLast()
        defused.append(aliasMark)
      }
      defused.append(scalar)
      (beforeStar, previous) = (previous, scalar)
    }
    func holdsAlias(_ node: Node) -> Bool {
      switch node {
      case .scalar(let scalar): return scalar.style == .plain && scalar.string.unicodeScalars.first == aliasMark
      case .alias: return true
      case .sequence(let sequence): return sequence.contains(where: holdsAlias)
      case .mapping(let mapping): return mapping.contains { holdsAlias($0.key) || holdsAlias($0.value) }
      }
    }
    func refusal(at mark: Mark?) -> DocumentError {
      DocumentError(
        file: displayName, line: mark?.line ?? 1, column: mark?.column ?? 1, message: "a YAML alias cannot be used as a mapping key")
    }
    func refuse(in node: Node) throws {
      switch node {
      case .scalar, .alias: return
      case .sequence(let sequence): try sequence.forEach(refuse)
      case .mapping(let mapping):
        for (key, value) in mapping {
          if holdsAlias(key) { throw refusal(at: key.mark) }
          try refuse(in: value)
        }
      }
    }
    let node: Node?
    do {
      node = try Yams.compose(yaml: String(defused), .basic, .default, Self.encoding)
    } catch let YamlError.duplicatedKeysInMapping(duplicates, context) where duplicates.contains(where: { $0.hasPrefix("\u{E000}") }) {
      // Two uses of one alias as keys of one mapping.
      throw refusal(at: context.mark)
    } catch let error as YamlError {
      // An alias and a plain scalar stand in the same places, so the text is malformed as
      // it is too, at the same line and column; composing it could reach a key first.
      throw documentError(error, file: displayName, text: text)
    }
    if let node { try refuse(in: node) }
  }

  private static func isAliasNameScalar(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, 0x5F, 0x2D: return true
    default: return false
    }
  }

  private static func firstInvalidUTF8Offset(_ bytes: [UInt8]) -> Int {
    var iterator = bytes.makeIterator()
    var parser = Unicode.UTF8.ForwardParser()
    var offset = 0
    while true {
      switch parser.parseScalar(from: &iterator) {
      case .valid(let scalar): offset += scalar.count
      case .emptyInput: return offset
      case .error: return offset
      }
    }
  }

  private static func documentError(_ error: YamlError, file: String, text: String) -> DocumentError {
    // A JSON document is read as YAML, of which JSON is a part; its mistakes are named as JSON's.
    let format = file.lowercased().hasSuffix(".json") ? "JSON" : "YAML"
    switch error {
    case .scanner(let context, let problem, let mark, _), .parser(let context, let problem, let mark, _),
      .composer(let context, let problem, let mark, _):
      let what = [context?.text, problem].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: " ")
      // The parser places a mistake at the end of input on the line after the last one when
      // the file does not end with a newline: a line the file does not have.
      // Lines end where the parser ends them: at a line feed, a carriage return, the two
      // together, NEL, LS or PS (one Character each to Swift, `\r\n` included).
      let breaks: Set<Character> = ["\n", "\r", "\r\n", "\u{85}", "\u{2028}", "\u{2029}"]
      let lines = text.split(omittingEmptySubsequences: false) { breaks.contains($0) }
      let lineCount = text.last.map { breaks.contains($0) } == true ? lines.count - 1 : lines.count
      if mark.line > max(lineCount, 1) {
        // Said at the end of the last line that holds anything.
        let last = lines.lastIndex { !$0.trimmingCharacters(in: .whitespaces).isEmpty } ?? 0
        let lastLine = lines.isEmpty ? "" : lines[last]
        return DocumentError(
          file: file, line: last + 1, column: lastLine.count + 1,
          message: "malformed \(format): \(what) (the file ends here)")
      }
      return DocumentError(file: file, line: mark.line, column: mark.column, message: "malformed \(format): \(what)")
    case .reader(let problem, let offset, _, _):
      // The reader counts bytes of the UTF-8 text; its line and column are what an editor shows.
      let bytes = Array(text.utf8)
      let end = min(max(offset ?? 0, 0), bytes.count)
      let line = bytes[..<end].filter { $0 == 0x0A }.count + 1
      let lineStart = bytes[..<end].lastIndex(of: 0x0A).map { $0 + 1 } ?? 0
      let column = String(decoding: bytes[lineStart..<end], as: UTF8.self).count + 1
      return DocumentError(file: file, line: line, column: column, message: "malformed \(format): \(problem)")
    case .duplicatedKeysInMapping(let duplicates, let context):
      return DocumentError(
        file: file, line: context.mark.line, column: context.mark.column,
        message: "duplicate key '\(duplicates.first ?? "")'")
    default:
      return DocumentError(file: file, message: "malformed \(format): \(error)")
    }
  }

  // MARK: - Navigation

  var line: Int { node.mark.map { $0.line + lineOffset } ?? 0 }
  var column: Int { node.mark?.column ?? 0 }

  func error(_ message: String) -> DocumentError {
    DocumentError(file: file, line: line, column: column, keyPath: keyPath, message: message)
  }

  var isNull: Bool {
    if case .scalar(let scalar) = node { return scalar.style == .plain && NSNull.construct(from: scalar) != nil }
    return false
  }

  func child(_ key: String, _ node: Node) -> YAMLValue {
    YAMLValue(node: node, file: file, keyPath: keyPath.isEmpty ? key : "\(keyPath).\(key)", lineOffset: lineOffset)
  }

  func element(_ index: Int, _ node: Node) -> YAMLValue {
    YAMLValue(node: node, file: file, keyPath: "\(keyPath)[\(index)]", lineOffset: lineOffset)
  }

  var kindName: String {
    switch node {
    case .scalar: return isNull ? "nothing" : "a single value"
    case .mapping: return "a map"
    case .sequence: return "a list"
    case .alias: return "an alias"
    }
  }

  // MARK: - Scalars

  func string() throws -> String {
    guard case .scalar(let scalar) = node, !isNull else { throw error("expected text, found \(kindName)") }
    // C strings end at NUL: Pango drew a label's text up to it and dropped the rest unseen.
    guard !scalar.string.unicodeScalars.contains("\u{0}") else {
      throw error("the text holds U+0000 (NUL), which ends text for the libraries that draw and read it; remove it")
    }
    return scalar.string
  }

  /// The path of a file (`what` says which kind), which may not be empty: an empty path
  /// would name the folder it is relative to.
  func path(of what: String) throws -> String {
    let path = try string()
    guard !path.trimmingCharacters(in: .whitespaces).isEmpty else {
      throw error("expected the path of \(what), found empty text")
    }
    return path
  }

  /// Text that a row shows or a URL: `string()`, but a value of another kind is refused. In
  /// YAML a number stays text as written (`caption: 12.4` shows "12.4"), and so do words
  /// like `On` that YAML 1.1 would read as true; `true` and `false` are refused, as they are
  /// almost always a value put under the wrong key. In a JSON document, where every text is
  /// quoted, a number, true or false is refused.
  func text() throws -> String {
    if case .scalar(let scalar) = node, scalar.style == .plain, !isNull {
      let written = scalar.string
      if file.lowercased().hasSuffix(".json") {
        throw error("expected text, found \(written); write it in double quotes to show it as text")
      }
      if ["true", "false"].contains(written.lowercased()) {
        throw error("expected text, found \(written); quote it (\"\(written)\") to show it as text")
      }
    }
    return try string()
  }

  func bool() throws -> Bool {
    guard case .scalar(let scalar) = node, let value = Self.boolean(scalar) else {
      throw error("expected true or false, found \(describe())")
    }
    return value
  }

  /// YAML 1.1's booleans, as Yams' default resolver and `Bool.construct` read them: a plain
  /// scalar in one of these spellings, or any case of them under an explicit `!!bool` (or
  /// other non-string) tag; never a quoted or `!!str` scalar.
  static func boolean(_ scalar: Node.Scalar) -> Bool? {
    switch scalar.tag.description {
    case Tag.Name.implicit.rawValue:
      // The parser tags every quoted scalar as a string, so an untagged one is plain.
      return implicitBooleans[scalar.string]
    case Tag.Name.str.rawValue, Tag.Name.nonSpecific.rawValue:
      return nil
    default:
      return implicitBooleans[scalar.string.lowercased()]
    }
  }

  private static let implicitBooleans: [String: Bool] = {
    var spellings: [String: Bool] = [:]
    for (word, value) in [("yes", true), ("no", false), ("true", true), ("false", false), ("on", true), ("off", false)] {
      for spelling in [word, word.prefix(1).uppercased() + word.dropFirst(), word.uppercased()] { spellings[spelling] = value }
    }
    return spellings
  }()

  func double() throws -> Double {
    guard case .scalar(let scalar) = node, let value = Double.construct(from: scalar), value.isFinite else {
      throw error("expected a number, found \(describe())")
    }
    return value
  }

  func int() throws -> Int {
    let value = try double()
    guard value.rounded() == value, abs(value) < 1e9 else { throw error("expected a whole number, found \(describe())") }
    return Int(value)
  }

  /// A number within `range` (one of ``Bounds``'); a number out of it is an error that names
  /// the range.
  func number(in range: ClosedRange<Double>) throws -> Double {
    let value = try double()
    if let problem = Bounds.problem(value, in: range) { throw error(problem) }
    return value
  }

  /// A whole number within `range`.
  func int(in range: ClosedRange<Int>) throws -> Int {
    let value = try int()
    guard range.contains(value) else {
      throw error("\(value) is out of range (\(range.lowerBound) to \(range.upperBound))")
    }
    return value
  }

  /// The dates a document may give: a day, or a day and a time with its zone (ISO 8601 as
  /// RFC 3339 has it). Checked whole before the text is read as a date: the day's reader took
  /// `2026-11-23 and anything` for the day, and a time with no zone for midnight.
  static let datePattern =
    #"^[0-9]{4}-[0-9]{2}-[0-9]{2}([Tt][0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]+)?([Zz]|[+-][0-9]{2}:?[0-9]{2}))?$"#

  func date() throws -> Date {
    let text = try string()
    guard text.range(of: Self.datePattern, options: .regularExpression) != nil else {
      throw error("expected an ISO 8601 date like 2011-03-27T18:30:00Z or a day like 2011-03-27, found '\(text)'")
    }
    let full = ISO8601DateFormatter()
    full.formatOptions = [.withInternetDateTime]
    let fractional = ISO8601DateFormatter()
    fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    let day = ISO8601DateFormatter()
    day.formatOptions = [.withFullDate]
    // RFC 3339 allows `t` and `z`, which the readers do not; and the day's reader is given a
    // day alone, since it reads the day of a time it cannot (`T09:61:00Z`) as midnight.
    let written = text.uppercased()
    if Self.fieldsAreInRange(written),
      let date = written.count == 10 ? day.date(from: written) : full.date(from: written) ?? fractional.date(from: written)
    {
      return date
    }
    throw error("expected an ISO 8601 date like 2011-03-27T18:30:00Z or a day like 2011-03-27, found '\(text)'")
  }

  /// Whether the day, the time and the zone's offset of a date written as ``datePattern``
  /// has it are each in range: the readers roll `2026-02-30` over into March, and
  /// `T24:00:00Z` into the next day.
  ///
  /// Reads only what it checks is there: the pattern's `$` also matches before a final line
  /// break (`2011-03-27\n`, from a YAML block scalar), which is refused here.
  static func fieldsAreInRange(_ text: String) -> Bool {
    let bytes = Array(text.utf8)
    // The number the digits at `range` write; nil where one is missing or not a digit.
    func number(_ range: Range<Int>, of bytes: [UInt8]) -> Int? {
      guard range.upperBound <= bytes.count else { return nil }
      return bytes[range].reduce(Optional(0)) { total, byte in
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) ? total.map { $0 * 10 + Int(byte - UInt8(ascii: "0")) } : nil
      }
    }
    guard bytes.count == 10 || bytes.count >= 20, !text.contains(where: \.isNewline),
      let year = number(0..<4, of: bytes), let month = number(5..<7, of: bytes), let day = number(8..<10, of: bytes)
    else { return false }
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
    guard (1...12).contains(month), (1...days[month - 1]).contains(day) else { return false }
    guard bytes.count > 10 else { return true }
    guard let hour = number(11..<13, of: bytes), let minute = number(14..<16, of: bytes), let second = number(17..<19, of: bytes),
      hour <= 23, minute <= 59, second <= 59
    else { return false }
    // The offset's hours and minutes, as the last digits of the text (`+05:30`, `+0530`).
    guard let sign = bytes.lastIndex(where: { $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-") }), sign > 10 else { return true }
    let offset = bytes[(sign + 1)...].filter { $0 != UInt8(ascii: ":") }
    guard offset.count == 4, let hours = number(0..<2, of: offset), let minutes = number(2..<4, of: offset) else { return false }
    return hours <= 23 && minutes <= 59
  }


  /// One number for all four sides, or a list `[top, right, bottom, left]`, each within
  /// `range`.
  func insets(in range: ClosedRange<Double>) throws -> EdgeInsetsValue {
    if case .sequence = node {
      let values = try sequence().map { try $0.number(in: range) }
      guard values.count == 4 else { throw error("expected [top, right, bottom, left], found \(values.count) numbers") }
      return EdgeInsetsValue(top: values[0], right: values[1], bottom: values[2], left: values[3])
    }
    let all = try number(in: range)
    return EdgeInsetsValue(top: all, right: all, bottom: all, left: all)
  }

  func describe() -> String {
    if case .scalar(let scalar) = node, !isNull { return "'\(scalar.string)'" }
    return kindName
  }

  // MARK: - Collections

  func sequence() throws -> [YAMLValue] {
    guard case .sequence(let sequence) = node else { throw error("expected a list, found \(kindName)") }
    return sequence.enumerated().map { element($0.offset, $0.element) }
  }

  /// The map's entries in order, checked against the keys it may have.
  func mapping(allowed: Set<String>? = nil) throws -> KeyedValues {
    guard case .mapping(let mapping) = node else { throw error("expected a map, found \(kindName)") }
    var entries: [(String, YAMLValue)] = []
    for (keyNode, valueNode) in mapping {
      let keyValue = YAMLValue(node: keyNode, file: file, keyPath: keyPath, lineOffset: lineOffset)
      guard case .scalar(let scalar) = keyNode else { throw keyValue.error("keys must be plain text") }
      let key = scalar.string
      guard !key.unicodeScalars.contains("\u{0}") else {
        throw keyValue.error("a key holds U+0000 (NUL), which ends text for the libraries that draw and read it; remove it")
      }
      if let allowed, !allowed.contains(key) {
        let value = child(key, valueNode)
        var message = "unknown key '\(key)'"
        if let suggestion = YAMLValue.closest(to: key, in: allowed) { message += " (did you mean '\(suggestion)'?)" }
        throw DocumentError(
          file: file, line: keyValue.line, column: keyValue.column, keyPath: value.keyPath, message: message)
      }
      entries.append((key, child(key, valueNode)))
    }
    return KeyedValues(owner: self, entries: entries)
  }

  static func closest(to key: String, in candidates: Set<String>) -> String? {
    var best: (name: String, distance: Int)?
    for candidate in candidates.sorted() {
      let distance = editDistance(key.lowercased(), candidate.lowercased())
      if best == nil || distance < best!.distance { best = (candidate, distance) }
    }
    guard let best, best.distance <= max(2, key.count / 3) else { return nil }
    return best.name
  }

  private static func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a)
    let b = Array(b)
    guard !a.isEmpty else { return b.count }
    guard !b.isEmpty else { return a.count }
    var previous = Array(0...b.count)
    for i in 1...a.count {
      var current = [i] + Array(repeating: 0, count: b.count)
      for j in 1...b.count {
        let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
        current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
      }
      previous = current
    }
    return previous[b.count]
  }
}

/// Four edge values in the order files write them: top, right, bottom, left.
struct EdgeInsetsValue {
  var top, right, bottom, left: Double
}

/// A map's entries, looked up by key.
struct KeyedValues {
  let owner: YAMLValue
  let entries: [(String, YAMLValue)]

  subscript(key: String) -> YAMLValue? {
    entries.first { $0.0 == key }.map(\.1).flatMap { $0.isNull ? nil : $0 }
  }

  func required(_ key: String, _ what: String = "") throws -> YAMLValue {
    guard let value = self[key] else {
      throw owner.error("missing required key '\(key)'\(what.isEmpty ? "" : " (\(what))")")
    }
    return value
  }

  var keys: [String] { entries.map(\.0) }
}
