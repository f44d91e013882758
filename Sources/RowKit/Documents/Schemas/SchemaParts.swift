/// The pieces RowKit's JSON Schemas (draft 2020-12) are built of: numbers within one of
/// ``Bounds``' ranges, colors, fonts, style names, closed objects. Every bound and every
/// keyword list comes from the constant or the enumeration the decoders check with, so a
/// schema cannot drift from what a loader accepts.
///
/// What a JSON Schema cannot say, and the decoders check on their own: names that must exist
/// elsewhere (styles, variables, font families, files, a custom item's fields), width × scale
/// at most ``Bounds/maximumPixelWidth`` pixels, styled-text markup, image URLs, and how many
/// rows all sections add up to. Where the decoders are lenient the schemas ask for the plain
/// form: `yes`/`no`/`on`/`off` for true and false (YAML 1.1 words that YAML 1.2 editors read
/// as text), and an empty value (`key:` with nothing after it) that a decoder reads as a
/// missing key.
package enum SchemaParts {
  /// Where the schemas' `$id`s point: no published home yet, and `.invalid` is never resolved.
  package static let base = "https://rowkit.invalid/schemas/"

  // MARK: Patterns (ECMA 262, as JSON Schema asks)

  /// `#RGB`, `#RRGGBB`, `#RRGGBBAA`, or a color variable's name.
  package static let colorPattern = #"^(#([0-9A-Fa-f]{3}|[0-9A-Fa-f]{6}|[0-9A-Fa-f]{8})|[^#].*)$"#
  /// A font, whose size (the last word, when it is a number) is within ``Bounds/fontSize``
  /// (1 to 256 points), or a font variable's name.
  package static let fontPattern =
    #"^(?!(.*\s)?0*(\.[0-9]*)?$)"#
    + #"(?!(.*\s)?0*([1-9][0-9]{3,}|[3-9][0-9]{2}|2[6-9][0-9]|25[7-9])(\.[0-9]*)?$)"#
    + #"(?!(.*\s)?0*256\.[0-9]*[1-9][0-9]*$)(?!#)"#
  /// A design label's text: `{field}` substitutions, `{{` and `}}` for braces.
  package static let templatePattern = #"^(?:[^{}]|\{\{|\}\}|\{(?!\{)[^}]*[^}\s][^}]*\})*$"#
  /// Anything but blanks.
  package static let notBlank = #"\S"#
  /// A name, not a number.
  package static let variableNamePattern = #"^(?![-+]?\.?[0-9])"#
  /// An ISO 8601 date, with or without a time: the decoder's own pattern.
  package static let datePattern = YAMLValue.datePattern
  /// A BCP 47 language tag.
  package static let languagePattern = #"^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$"#
  /// A font file's name: .ttf, .otf, .ttc or .otc.
  package static let fontFilePattern = #"\.([Tt][Tt][FfCc]|[Oo][Tt][FfCc])$"#

  // MARK: Building blocks

  /// The schema's header: `$schema`, `$id`, title and description.
  package static func header(_ name: String, title: String, description: String) -> OrderedJSON {
    [
      "$schema": "https://json-schema.org/draft/2020-12/schema", "$id": .string(base + name), "title": .string(title),
      "description": .string(description),
    ]
  }

  /// A number within `range`.
  package static func bounded(_ range: ClosedRange<Double>, _ description: String) -> OrderedJSON {
    ["type": "number", "minimum": .number(range.lowerBound), "maximum": .number(range.upperBound), "description": .string(description)]
  }

  /// A whole number within `range`.
  package static func bounded(_ range: ClosedRange<Int>, _ description: String) -> OrderedJSON {
    [
      "type": "integer", "minimum": .number(Double(range.lowerBound)), "maximum": .number(Double(range.upperBound)),
      "description": .string(description),
    ]
  }

  /// A number within `range`, or the name of a number variable (`YAMLValue.number(in:variables:)`).
  package static func numberOrVariable(_ range: ClosedRange<Double>, _ description: String) -> OrderedJSON {
    [
      "description": .string("\(description) (\(Bounds.describe(range))), or the name of a number variable"),
      "anyOf": [
        ["type": "number", "minimum": .number(range.lowerBound), "maximum": .number(range.upperBound)],
        ["type": "string", "pattern": .string(variableNamePattern), "description": "the name of a number variable"],
      ],
    ]
  }

  /// One number for every side, or [top, right, bottom, left].
  package static func insets(_ range: ClosedRange<Double>, _ description: String, variables: Bool) -> OrderedJSON {
    let one = (variables ? numberOrVariable(range, "a side") : bounded(range, "a side")).removing("description")
    return [
      "description": .string(
        "\(description): one number for every side, or [top, right, bottom, left] (\(Bounds.describe(range)) each)"),
      "anyOf": [one, ["type": "array", "items": one, "minItems": 4, "maxItems": 4]],
    ]
  }

  /// [x, y], each a number within `range` or a number variable's name.
  package static func pair(_ range: ClosedRange<Double>, _ description: String) -> OrderedJSON {
    [
      "description": .string("\(description): [x, y] (\(Bounds.describe(range)) each)"), "type": "array",
      "items": numberOrVariable(range, "").removing("description"), "minItems": 2, "maxItems": 2,
    ]
  }

  /// A color or a color variable's name.
  package static func color(_ description: String) -> OrderedJSON {
    [
      "type": "string", "pattern": .string(colorPattern),
      "description": .string("\(description): a color (#RGB, #RRGGBB or #RRGGBBAA) or a color variable's name"),
    ]
  }

  /// A font or a font variable's name.
  package static func font(_ description: String) -> OrderedJSON {
    [
      "type": "string", "pattern": .string(fontPattern),
      "description": .string(
        "\(description): a font (\"Inter Bold 17\", \(Bounds.describe(Bounds.fontSize)) points) or a font variable's name"),
    ]
  }

  /// The name of a style.
  package static func styleName(_ description: String) -> OrderedJSON {
    ["type": "string", "description": .string("\(description): the name of a style in the stylesheet")]
  }

  /// An image's URL.
  package static func imageURL(_ description: String) -> OrderedJSON {
    [
      "type": "string",
      "description": .string(
        "\(description): bundle://, file://, documents://, cache://, http(s):// or a path relative to the document"),
    ]
  }

  /// An object with these keys and no others.
  package static func closed(
    _ properties: OrderedJSON, required: [String] = [], description: String? = nil
  ) -> OrderedJSON {
    var schema: OrderedJSON = ["type": "object", "properties": properties, "additionalProperties": false]
    if !required.isEmpty { schema["required"] = .strings(required) }
    if let description { schema["description"] = .string(description) }
    return schema
  }

  /// The font files a stylesheet or a document loads.
  package static func fontFiles() -> OrderedJSON {
    [
      "type": "array",
      "description": "Font files (.ttf, .otf, .ttc, .otc) to load, relative to this file; their families can then be named in fonts.",
      "items": ["type": "string", "pattern": .string(fontFilePattern), "description": "A font file's path."],
    ]
  }

  /// The raw values of an enumeration's cases, in their order, as an `enum`.
  package static func cases<T: CaseIterable & RawRepresentable>(of type: T.Type) -> OrderedJSON
  where T.RawValue == String {
    .strings(T.allCases.map(\.rawValue))
  }
}
