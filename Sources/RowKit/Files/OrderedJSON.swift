/// A JSON value whose objects keep their keys in the order they were given, written as
/// Python's `json.dumps(value, indent=2, ensure_ascii=False)` writes it: the same value is
/// always the same bytes, and a file made from it reads well in a text diff. RowKit's JSON
/// Schemas are built from these.
package enum OrderedJSON: Hashable, Sendable {
  /// `null`.
  case null
  /// `true` or `false`.
  case bool(Bool)
  /// A number; a whole number is written without a fraction.
  case number(Double)
  /// A string.
  case string(String)
  /// An array.
  case array([OrderedJSON])
  /// An object, its members in order.
  case object([Member])

  /// One key of an object and its value.
  package struct Member: Hashable, Sendable {
    /// The member's key.
    package var key: String
    /// The member's value.
    package var value: OrderedJSON

    /// The member `key` with `value`.
    package init(_ key: String, _ value: OrderedJSON) {
      self.key = key
      self.value = value
    }
  }

  /// The value of `key` in an object, nil when it has none (or is no object). Setting it
  /// replaces the value where the key is, or adds the key at the end, as a Python dict does;
  /// setting nil removes the key.
  package subscript(key: String) -> OrderedJSON? {
    get {
      guard case .object(let members) = self else { return nil }
      return members.first { $0.key == key }?.value
    }
    set {
      guard case .object(var members) = self else { return }
      if let index = members.firstIndex(where: { $0.key == key }) {
        if let newValue { members[index].value = newValue } else { members.remove(at: index) }
      } else if let newValue {
        members.append(Member(key, newValue))
      }
      self = .object(members)
    }
  }

  /// This object with `other`'s members set over it, in `other`'s order (Python's
  /// `{**self, **other}`).
  package func merging(_ other: OrderedJSON) -> OrderedJSON {
    guard case .object(let members) = other else { return self }
    var result = self
    for member in members { result[member.key] = member.value }
    return result
  }

  /// This object without the member `key`.
  package func removing(_ key: String) -> OrderedJSON {
    var result = self
    result[key] = nil
    return result
  }

  /// The value as text: two spaces per level, `": "` after keys, a newline at the end.
  package var text: String {
    var output = ""
    write(to: &output, indent: "")
    output.append("\n")
    return output
  }

  private func write(to output: inout String, indent: String) {
    switch self {
    case .null: output.append("null")
    case .bool(let value): output.append(value ? "true" : "false")
    // Whole numbers without a fraction, others as the shortest text that reads back as the
    // same `Double` (as Python's `repr` writes them).
    case .number(let value): output.append(Bounds.format(value))
    case .string(let value): Self.quote(value, into: &output)
    case .array(let values):
      Self.write(values, between: "[", and: "]", to: &output, indent: indent) { value, output, inner in
        value.write(to: &output, indent: inner)
      }
    case .object(let members):
      Self.write(members, between: "{", and: "}", to: &output, indent: indent) { member, output, inner in
        Self.quote(member.key, into: &output)
        output.append(": ")
        member.value.write(to: &output, indent: inner)
      }
    }
  }

  /// An array's or an object's entries, one a line and two spaces deeper than `indent`;
  /// `[]` or `{}` when there are none.
  private static func write<Entry>(
    _ entries: [Entry], between open: String, and close: String, to output: inout String, indent: String,
    entry writeEntry: (Entry, inout String, String) -> Void
  ) {
    guard !entries.isEmpty else { return output.append(open + close) }
    let inner = indent + "  "
    output.append(open)
    for (index, entry) in entries.enumerated() {
      output.append(index == 0 ? "\n" : ",\n")
      output.append(inner)
      writeEntry(entry, &output, inner)
    }
    output.append("\n\(indent)\(close)")
  }

  /// Escapes what JSON requires (quote, backslash, control characters) and nothing else:
  /// other characters, non-ASCII ones included, are written as they are.
  private static func quote(_ string: String, into output: inout String) {
    output.append("\"")
    for scalar in string.unicodeScalars {
      switch scalar {
      case "\"": output.append("\\\"")
      case "\\": output.append("\\\\")
      case "\n": output.append("\\n")
      case "\r": output.append("\\r")
      case "\t": output.append("\\t")
      case "\u{08}": output.append("\\b")
      case "\u{0C}": output.append("\\f")
      case _ where scalar.value < 0x20:
        let hex = String(scalar.value, radix: 16)
        output.append("\\u" + String(repeating: "0", count: 4 - hex.count) + hex)
      default: output.unicodeScalars.append(scalar)
      }
    }
    output.append("\"")
  }
}

extension OrderedJSON: ExpressibleByDictionaryLiteral {
  /// An object with these members, in the order written.
  package init(dictionaryLiteral elements: (String, OrderedJSON)...) {
    self = .object(elements.map { Member($0.0, $0.1) })
  }
}

extension OrderedJSON: ExpressibleByArrayLiteral {
  /// An array of these values.
  package init(arrayLiteral elements: OrderedJSON...) {
    self = .array(elements)
  }
}

extension OrderedJSON: ExpressibleByStringLiteral {
  /// A string.
  package init(stringLiteral value: String) {
    self = .string(value)
  }
}

extension OrderedJSON: ExpressibleByIntegerLiteral {
  /// A whole number.
  package init(integerLiteral value: Int) {
    self = .number(Double(value))
  }
}

extension OrderedJSON: ExpressibleByFloatLiteral {
  /// A number.
  package init(floatLiteral value: Double) {
    self = .number(value)
  }
}

extension OrderedJSON: ExpressibleByBooleanLiteral {
  /// `true` or `false`.
  package init(booleanLiteral value: Bool) {
    self = .bool(value)
  }
}

extension OrderedJSON {
  /// An array of strings: the raw values of an enumeration's cases, in their order.
  package static func strings(_ values: some Sequence<String>) -> OrderedJSON {
    .array(values.map { .string($0) })
  }
}
