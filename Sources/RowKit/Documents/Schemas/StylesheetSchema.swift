import RowKitGraphics

extension SchemaParts {
  /// `stylesheet.schema.json`: the keys of a stylesheet file (`StylesheetLoader`).
  package static func stylesheet() -> OrderedJSON {
    var schema = header(
      "stylesheet.schema.json", title: "RowKit stylesheet",
      description: "A stylesheet: variables (fonts, colors, numbers) and named style chains, extending the default stylesheet or another file.")
    let (body, defs) = stylesheetBody(prefix: "")
    schema = schema.merging(body)
    schema["$defs"] = defs
    return schema
  }

  /// What each of `CellMetrics/variables` sizes, for its description.
  static let metricDescriptions: [String: String] = [
    "tableCellPadding": "Three20's padding around a cell's content",
    "tableRowHeight": "the least row height",
    "tableCaptionWidth": "the width of a caption column",
    "tableCaptionSpacing": "the space after a caption",
    "tableImageSize": "the size of an image item's image",
    "tableImageSpacing": "the space after an image",
    "tableSubtitleImageSpacing": "the space after a subtitle row's image",
    "tableMessageImageSize": "the size of a message row's image",
    "tableMessageMargin": "the margin inside a message row",
    "tableMoreButtonMargin": "the left margin of a more-button row",
    "tableMoreButtonMinimumHeight": "the least height of a more-button row",
    "tableStyledTextPadding": "the padding around styled text",
    "tableControlSpacing": "the space between a control row's caption and control",
    "tableSpinnerSize": "the size of an activity spinner",
    "tableDisclosureIndicatorWidth": "the width a disclosure chevron takes",
    "tableDetailDisclosureButtonWidth": "the width a detail disclosure button takes",
    "tableCheckmarkWidth": "the width a checkmark takes",
    "tableHeaderPlainHeight": "the height of a plain table's section header",
    "tableHeaderGroupedHeight": "the height of a grouped table's section header",
    "tableHeaderGroupedFirstHeight": "the height of a grouped table's first header",
    "tableSectionGap": "the gap between grouped sections",
    "tableGroupedMargin": "a grouped table's side margins",
    "tableGroupedCornerRadius": "the corner radius of a grouped section",
    "tableSeparatorInsetLeft": "how far separators start from the left",
    "tableSeparatorInsetRight": "how far separators stop from the right",
  ]

  /// The stylesheet's keys and its `$defs`. `prefix` names the `$defs` inside another
  /// schema: a table document embeds the stylesheet schema for its inline `stylesheet:`, so
  /// that each schema file stands alone and no editor has to resolve a reference to another
  /// file.
  static func stylesheetBody(prefix: String) -> (body: OrderedJSON, defs: OrderedJSON) {
    func key(_ name: String) -> String {
      prefix.isEmpty ? name : prefix + name.prefix(1).uppercased() + name.dropFirst()
    }
    func ref(_ name: String) -> OrderedJSON { ["$ref": .string("#/$defs/" + key(name))] }

    let element: OrderedJSON = [
      "description": "A style element: a map with one key, such as { fill: \"#FFFFFF\" }, or the word content.",
      "anyOf": [
        ["const": "content"],
        ["type": "object", "properties": styleElements(), "additionalProperties": false, "minProperties": 1, "maxProperties": 1],
      ],
    ]
    var darkVariables = ref("variables")
    darkVariables["description"] =
      "Values of variables in the dark appearance (a variants: appearance of dark); each variable must also be defined under vars or by the default stylesheet."
    let body: OrderedJSON = [
      "type": "object",
      "additionalProperties": false,
      "properties": [
        "extends": [
          "type": "string", "pattern": .string(notBlank),
          "description": "default (the built-in stylesheet, also used when extends is left out), default-dark (its dark appearance) or the path of another stylesheet, relative to this file.",
        ],
        "fonts": fontFiles(),
        "vars": ref("variables"),
        "darkVars": darkVariables,
        "styles": [
          "type": "object", "description": "Named styles: each a chain of elements drawn first to last.",
          "additionalProperties": ref("style"),
        ],
      ],
    ]
    let defs: OrderedJSON = .object([
      .init(key("variables"), variables()),
      .init(key("style"), ["type": "array", "description": "A style: elements drawn first to last.", "items": ref("element")]),
      .init(key("element"), element),
    ])
    return (body, defs)
  }

  /// The stylesheet's `vars:`: the default stylesheet's variables, each of its kind and
  /// within its bounds, and variables of one's own.
  static func variables() -> OrderedJSON {
    var properties: [OrderedJSON.Member] = []
    for (name, font) in Stylesheet.defaultFonts {
      properties.append(.init(name, self.font("A font variable (default \"\(font)\")")))
    }
    for (name, _) in Stylesheet.defaultColors {
      properties.append(.init(name, color("A color variable")))
    }
    for variable in CellMetrics.variables {
      let what = metricDescriptions[variable.name] ?? variable.name
      properties.append(
        .init(
          variable.name,
          [
            "description": .string(
              "A number variable: \(what) (default \(Bounds.format(variable.value)); \(Bounds.describe(variable.range))), or the name of another number variable"),
            "anyOf": [
              ["type": "number", "minimum": .number(variable.range.lowerBound), "maximum": .number(variable.range.upperBound)],
              ["type": "string", "pattern": .string(variableNamePattern)],
            ],
          ]))
    }
    for (name, words) in Stylesheet.keywordVariables {
      properties.append(
        .init(name, ["enum": .strings(words), "description": .string("How separators are drawn: \(words.joined(separator: ", ")).")]))
    }
    let other: OrderedJSON = [
      "description": "A variable of your own: a number, a color (#RRGGBB or #RRGGBBAA), a font (\"Inter Bold 17\"), or the name of another variable",
      "anyOf": [
        ["type": "number", "minimum": .number(Bounds.number.lowerBound), "maximum": .number(Bounds.number.upperBound)],
        ["type": "string", "allOf": [["pattern": .string(colorPattern)], ["pattern": .string(fontPattern + "|^#")]]],
      ],
    ]
    return [
      "type": "object",
      "description": "Named fonts, colors and numbers. The default stylesheet's variables keep their kind.",
      "properties": .object(properties),
      "additionalProperties": other,
    ]
  }

  /// The style elements (`StyleElementDecoder`), each a map with one key, in the order of
  /// ``Style/elementNames``.
  static func styleElements() -> OrderedJSON {
    let radius = numberOrVariable(Bounds.radius, "").removing("description")
    let shapeKinds: OrderedJSON = [
      "rectangle": ["description": "A plain rectangle (any value, or none)."],
      "roundedRect": [
        "description": "A rectangle with rounded corners: one radius, or [topLeft, topRight, bottomRight, bottomLeft]; -1 rounds a whole side (a pill).",
        "anyOf": [radius, ["type": "array", "items": radius, "minItems": 4, "maxItems": 4]],
      ],
      "roundedLeftArrow": numberOrVariable(Bounds.radius, "A rounded rectangle pointing left; its corner radius"),
      "roundedRightArrow": numberOrVariable(Bounds.radius, "A rounded rectangle pointing right; its corner radius"),
      "speechBubble": closed(
        [
          "radius": numberOrVariable(Bounds.radius, "The corner radius (default 5)"),
          "pointLocation": numberOrVariable(Bounds.turn, "Where the point sits along the edge, in degrees (default 60)"),
          "pointAngle": numberOrVariable(Bounds.turn, "The direction the point faces, in degrees (default 90)"),
          "pointSize": pair(Bounds.offset, "The point's width and height (default [10, 5])"),
        ], description: "A speech bubble."),
    ]
    let shape: OrderedJSON = [
      "description": "Sets the shape for the rest of the chain: rectangle, or a map with one of roundedRect, roundedLeftArrow, roundedRightArrow, speechBubble.",
      "anyOf": [
        ["const": "rectangle"],
        ["type": "object", "properties": shapeKinds, "additionalProperties": false, "minProperties": 1, "maxProperties": 1],
      ],
    ]
    let width = numberOrVariable(Bounds.borderWidth, "The border's width (default 1)")
    func shadow(_ description: String) -> OrderedJSON {
      closed(
        [
          "color": color("The shadow's color"),
          "blur": numberOrVariable(Bounds.blur, "The blur radius (default 0)"),
          "offset": pair(Bounds.offset, "How far the shadow falls (default [0, 0])"),
        ], required: ["color"], description: description)
    }
    var fourBorder = closed(
      [
        "top": color("The top edge's color"), "right": color("The right edge's color"),
        "bottom": color("The bottom edge's color"), "left": color("The left edge's color"), "width": width,
      ], description: "A border of up to four edges, each with its own color; at least one edge.")
    fourBorder["anyOf"] = [["required": ["top"]], ["required": ["right"]], ["required": ["bottom"]], ["required": ["left"]]]
    let twoColors: OrderedJSON = ["type": "array", "items": color("a color"), "minItems": 2, "maxItems": 2]
    let schemas: [String: OrderedJSON] = [
      "shape": shape,
      "inset": insets(
        Bounds.inset, "Moves the frame's edges in (or out, where negative) for the rest of the chain", variables: true),
      "box": closed(
        [
          "margin": insets(Bounds.inset, "Space outside the box", variables: true),
          "padding": insets(Bounds.inset, "Space inside the box, around the content", variables: true),
        ], description: "A box model: margin outside, padding inside."),
      "fill": color("Fills the shape with a color"),
      "linearGradient": (["description": "Fills the shape with a vertical gradient: [top, bottom]."] as OrderedJSON).merging(twoColors),
      "reflectiveFill": [
        "description": "A glossy fill (Three20's TTReflectiveFillStyle): a color, or { color, bottomHighlight }.",
        "anyOf": [
          color("the fill's color"),
          closed(
            [
              "color": color("The fill's color"),
              "bottomHighlight": ["type": "boolean", "description": "Whether the bottom is lit too."],
            ], required: ["color"]),
        ],
      ],
      "shadow": shadow("A drop shadow outside the shape."),
      "innerShadow": shadow("A shadow inside the shape."),
      "border": closed(
        ["color": color("The border's color"), "width": width], required: ["color"],
        description: "A solid border along the shape."),
      "highlightBorder": closed(
        ["color": color("The border's color"), "highlight": color("The highlight's color"), "width": width],
        required: ["color", "highlight"], description: "A border with a highlight along its top."),
      "fourBorder": fourBorder,
      "bevelBorder": closed(
        [
          "highlight": color("The lit edges' color"), "shadow": color("The shaded edges' color"), "width": width,
          "lightSource": numberOrVariable(Bounds.angle, "Where the light comes from, in degrees (default 125)"),
        ], description: "A bevelled border lit from one side."),
      "gradientBorder": closed(
        [
          "colors": (["description": "Two colors, [top, bottom]."] as OrderedJSON).merging(twoColors),
          "locations": [
            "description": "Where the two colors sit, [first, second], 0 to 1 (default [0, 1]).", "type": "array",
            "items": numberOrVariable(Bounds.fraction, "").removing("description"), "minItems": 2, "maxItems": 2,
          ],
          "width": width,
        ], required: ["colors"], description: "A border drawn with a gradient."),
      "blend": [
        "description": "How the rest of the chain combines with what is below it.", "enum": cases(of: BlendMode.self),
      ],
      "text": closed(
        [
          "font": font("The text's font"),
          "color": color("The text's color"),
          "shadowColor": color("The text shadow's color"),
          "shadowOffset": pair(Bounds.offset, "How far the text shadow falls"),
          "align": ["enum": cases(of: TextStyle.Alignment.self), "description": "left, center or right."],
        ], description: "How text drawn inside this style looks."),
      "content": [
        "description": "Where the content (an image, a row's text) is drawn; no parameters.",
        "anyOf": [["type": "null"], ["type": "object", "maxProperties": 0]],
      ],
    ]
    return .object(
      Style.elementNames.map { name in
        guard let schema = schemas[name] else { preconditionFailure("the stylesheet schema describes no style element '\(name)'") }
        return .init(name, schema)
      })
  }
}
