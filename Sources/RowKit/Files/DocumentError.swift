import Foundation

/// Bad input in a file: which file, where in it, and what is wrong. Its description is one
/// line: `table.yaml:12:7: sections[0].items[2].type: unknown item type 'foo'`.
public struct DocumentError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The path of the file at fault.
  public var file: String
  /// 1-based; 0 when the place has no line (a file that cannot be read at all).
  public var line: Int
  /// 1-based; 0 when the place has no column.
  public var column: Int
  /// The key path of the value at fault (`sections[0].items[2].type`), or empty.
  public var keyPath: String
  /// What is wrong, in a phrase.
  public var message: String

  /// An error at a place in `file`; a line, column or key path of zero or empty is left out of the description.
  public init(file: String, line: Int = 0, column: Int = 0, keyPath: String = "", message: String) {
    self.file = file
    self.line = line
    self.column = column
    self.keyPath = keyPath
    self.message = message
  }

  /// A JSON decoder's coding path as a key path: `findings[3].rule`.
  package static func keyPath(_ codingPath: [any CodingKey]) -> String {
    codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined().drop { $0 == "." }.description
  }

  /// What a JSON decoding error says, in words and without Swift's type names: `no key
  /// 'rows[0].y'`, `at 'rows[0].y': …`, or `not JSON (…)`, with the line and column of the
  /// mistake when `bytes`, the JSON decoded, are given (Foundation's decoder names no place).
  package static func decodingProblem(_ error: any Error, in bytes: [UInt8]? = nil) -> String {
    if case DecodingError.dataCorrupted(let context) = error, context.codingPath.isEmpty, let bytes {
      // Strict JSON that Foundation's decoder still calls "not valid JSON", naming no key: a
      // number its field cannot hold (1.5 or 1e300 where a whole number goes). The YAML
      // parser, which places a mistake, takes much that is not JSON, so it is not the judge.
      if (try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])) != nil {
        return "a number in it does not fit its field (a fraction or exponent where a whole number goes, or one too large)"
      }
      if let place = syntaxPlace(in: bytes) { return "not JSON (\(place))" }
    }
    switch error {
    case DecodingError.keyNotFound(let key, let context):
      return "no key '\(keyPath(context.codingPath + [key]))'"
    case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
      return "at '\(keyPath(context.codingPath))': \(context.debugDescription)"
    case DecodingError.dataCorrupted(let context) where context.codingPath.isEmpty:
      let detail = (context.underlyingError as NSError?)?.userInfo[NSDebugDescriptionErrorKey] as? String
      return detail.map { "not JSON (\($0))" } ?? "not JSON"
    case DecodingError.dataCorrupted(let context):
      return "at '\(keyPath(context.codingPath))': \(context.debugDescription)"
    default:
      return "\(error)"
    }
  }

  /// Where the JSON `bytes` first break the syntax, as the YAML parser (which reads JSON)
  /// finds it: `line 3, column 2: …`; nil when it reads them.
  private static func syntaxPlace(in bytes: [UInt8]) -> String? {
    do {
      _ = try YAMLValue.parse(bytes, displayName: "")
      return nil
    } catch let error as DocumentError where error.line > 0 {
      let message = error.message.hasPrefix("malformed YAML: ") ? String(error.message.dropFirst(16)) : error.message
      return "line \(error.line)" + (error.column > 0 ? ", column \(error.column)" : "") + ": \(message)"
    } catch {
      return nil
    }
  }

  /// `file:line:column: keyPath: message`, leaving out the parts there are not.
  public var description: String {
    var place = file
    if line > 0 {
      place += ":\(line)"
      if column > 0 { place += ":\(column)" }
    }
    return keyPath.isEmpty ? "\(place): \(message)" : "\(place): \(keyPath): \(message)"
  }
}
