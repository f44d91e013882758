import Foundation

extension SchemaParts {
  /// `table-document.schema.json`: the keys of a table document (`TableDocument`) and of its
  /// items (`ItemDecoder`), with an inline stylesheet's.
  package static func tableDocument() -> OrderedJSON {
    let defaults = TableConfiguration()
    var schema = header(
      "table-document.schema.json", title: "RowKit table document",
      description: "A table document: the table's size and look, its stylesheet, custom cell designs, and sections of items.")
    let scalar: OrderedJSON = ["type": ["string", "number", "boolean"]]
    let customItem: OrderedJSON = [
      "description": "A custom item: its fields, bound by name in the design file that cells: lists for its type.",
      "additionalProperties": scalar.merging(["description": "A field the item's design file shows."]),
    ]
    let item: OrderedJSON = [
      "type": "object",
      "description": "One row: a map with a type and the fields of that type.",
      "required": ["type"],
      "properties": commonItemKeys(),
      "allOf": .array(
        builtInItems() + [
          [
            "if": ["properties": ["type": ["not": ["$ref": "#/$defs/builtInType"]]], "required": ["type"]],
            "then": customItem,
          ]
        ]),
    ]
    let itemList: OrderedJSON = [
      "type": "array", "description": "The rows, top to bottom.", "maxItems": .number(Double(Bounds.maximumRows)),
      "items": ["$ref": "#/$defs/item"],
    ]
    let section = closed(
      [
        "header": scalar.merging(["description": "The section's header text."]),
        "footer": scalar.merging(["description": "The section's footer text."]),
        "items": ["$ref": "#/$defs/items"],
      ], description: "A section: an optional header and footer around its items.")
    let builtInOnly: OrderedJSON = ["properties": ["type": ["$ref": "#/$defs/builtInType"]]]
    let (stylesheetInline, stylesheetDefs) = stylesheetBody(prefix: "stylesheet")
    func axis(_ description: String, items: OrderedJSON) -> OrderedJSON {
      [
        "type": "array", "minItems": 1, "maxItems": .number(Double(Bounds.variantValuesPerAxis)), "uniqueItems": true,
        "description": .string(description), "items": items,
      ]
    }
    let table = closed(
      [
        "width": bounded(
          Bounds.tableWidth,
          "The table's width in points (default \(Bounds.format(defaults.width)); \(Bounds.describe(Bounds.tableWidth)); width × scale at most \(Bounds.maximumPixelWidth) pixels)."),
        "scale": bounded(
          Bounds.scale,
          "Device pixels per point (default \(Bounds.format(defaults.scale)); \(Bounds.describe(Bounds.scale)))."),
        "style": ["enum": cases(of: TableStyle.self), "description": "plain (default) or grouped."],
        "rowHeight": [
          "description": .string(
            "auto (default: each row as tall as its content) or a fixed height in points (\(Bounds.describe(Bounds.rowHeight)))."),
          "anyOf": [["const": "auto"], bounded(Bounds.rowHeight, "A fixed row height")],
        ],
        "now": [
          "type": "string", "pattern": .string(datePattern),
          "description": "The moment relative timestamps count from (ISO 8601); without it, messages show dates.",
        ],
        "language": [
          "type": "string", "pattern": .string(languagePattern),
          "description": "The BCP 47 language of the table's text (en, ja, zh-Hant, pt-BR…): it picks regional glyph forms and guides line breaking.",
        ],
      ], description: "The table's size and look; every key has a default, and command-line flags override them.")
    let variants = closed(
      [
        "width": axis(
          "Widths to render, in points (\(Bounds.describe(Bounds.tableWidth))).",
          items: bounded(Bounds.tableWidth, "A width in points")),
        "textSize": axis(
          "UIKit content size categories to render: every font scales as UIKit scales body text (\(Bounds.format(ContentSizeCategory.default.bodySize)) points at \(ContentSizeCategory.default.rawValue), \(Bounds.format(ContentSizeCategory.AX5.bodySize)) at AX5).",
          items: ["enum": cases(of: ContentSizeCategory.self)]),
        "appearance": axis("light and/or dark (the default-dark colors).", items: ["enum": cases(of: Appearance.self)]),
        "direction": axis(
          "ltr and/or rtl: rtl mirrors every row as UIKit mirrors a right-to-left cell (accessories and images on the left, text aligned right, chevrons pointing left).",
          items: ["enum": cases(of: LayoutDirection.self)]),
        "locale": axis(
          "Android's pseudo-locales: en-XA accents every letter, brackets every text and pads it with words (short texts grow most); ar-XB forces every word right to left and mirrors every row as rtl does; en shows the texts as written, beside them.",
          items: ["enum": cases(of: PseudoLocale.self)]),
      ],
      description: "The variant matrix: the table is rendered in every combination of these axes (at most \(Bounds.variants)).")
    let lint = closed(
      [
        "off": [
          "type": "array", "uniqueItems": true, "description": "Lint rules switched off for this document.",
          "items": ["enum": cases(of: LintRule.self)],
        ]
      ], description: "Design-lint settings (rowkit lint, render --lint).")
    schema = schema.merging([
      "type": "object",
      "additionalProperties": false,
      "properties": [
        "table": table,
        "variants": variants,
        "lint": lint,
        "fonts": fontFiles(),
        "stylesheet": [
          "description": "The stylesheet: the path of a stylesheet file (relative to this document), or an inline stylesheet map. Without it, the default stylesheet.",
          "anyOf": [["type": "string", "pattern": .string(notBlank)], ["$ref": "#/$defs/stylesheet"]],
        ],
        "assets": [
          "type": "string", "description": "The folder bundle:// URLs resolve in (default: this document's folder).",
        ],
        "documents": ["type": "string", "description": "The folder documents:// URLs resolve in; it must exist."],
        "cache": ["type": "string", "description": "The folder cache:// URLs resolve in; it must exist."],
        "cells": [
          "type": "object", "description": "Custom item types and the cell design files that draw them.",
          "propertyNames": ["not": ["$ref": "#/$defs/builtInType"]],
          "additionalProperties": [
            "type": "string", "pattern": .string(notBlank),
            "description": "A cell design file's path, relative to this document.",
          ],
        ],
        "sections": [
          "type": "array", "description": "The table's sections, top to bottom (or use items).", "items": section,
        ],
        "items": [
          "$ref": "#/$defs/items", "description": "Shorthand for one section without header or footer (or use sections).",
        ],
      ],
      "allOf": [
        ["oneOf": [["required": ["sections"]], ["required": ["items"]]]],
        ["if": ["required": ["items"]], "then": ["properties": ["items": ["minItems": 1]]]],
        [
          "if": ["required": ["sections"]],
          "then": ["properties": ["sections": ["contains": ["required": ["items"], "properties": ["items": ["minItems": 1]]]]]],
        ],
        // Without cells:, every type is a built-in one.
        [
          "if": ["not": ["required": ["cells"]]],
          "then": [
            "properties": [
              "items": ["items": builtInOnly],
              "sections": ["items": ["properties": ["items": ["items": builtInOnly]]]],
            ]
          ],
        ],
      ],
    ])
    var defs: OrderedJSON = [
      "builtInType": ["enum": .strings(ItemDecoder.builtInItemFields.map(\.type)), "description": "A built-in item type."],
      "item": item,
      "items": itemList,
      "stylesheet": stylesheetInline.merging([
        "description": "An inline stylesheet: the keys of a stylesheet file (stylesheet.schema.json)."
      ]),
    ]
    defs = defs.merging(stylesheetDefs)
    schema["$defs"] = defs
    return schema
  }

  /// Text a row shows.
  private static let textKind: OrderedJSON = [
    "type": ["string", "number"],
    "description": "Text the row shows. In YAML a number stays text as written; true and false must be quoted.",
  ]

  private static func text(_ description: String) -> OrderedJSON {
    var schema = textKind
    if case .string(let kind)? = textKind["description"] { schema["description"] = .string("\(description). \(kind)") }
    return schema
  }

  /// The keys every item may have besides its fields (`ItemDecoder.commonKeys`).
  static func commonItemKeys() -> OrderedJSON {
    [
      "type": [
        "description": "The item's type: a built-in type, or a custom type listed under cells:.",
        "anyOf": [["$ref": "#/$defs/builtInType"], ["type": "string"]],
      ],
      "url": text("Where the row leads; a row with a url shows a disclosure chevron"),
      "accessoryURL": text("With url, shows a detail disclosure button that leads here"),
      "selected": ["type": "boolean", "description": "Draw this row in its selected state (default false)."],
      "background": styleName("The row's background style"),
      "selectedBackground": styleName("The row's background style when selected"),
    ]
  }

  /// Each built-in type's fields, their schemas and the ones it requires, by type.
  static func builtInItemSchemas() -> [String: (what: String, properties: OrderedJSON, required: [String])] {
    let imageURLField = imageURL("The image's URL")
    let defaultImage = imageURL("The image shown while the image loads, or when it fails")
    var fields: [String: (what: String, properties: OrderedJSON, required: [String])] = [:]
    for (name, what) in [
      ("text", "A plain row of text"), ("link", "A row of link-colored text"), ("button", "A centered, button-like row"),
      ("longText", "Text that wraps over many lines"), ("grayText", "Gray, wrapping text"),
      ("summary", "A centered summary line"), ("activity", "A spinner beside text"),
    ] {
      fields[name] = (what, ["text": text("The row's text")], ["text"])
    }
    fields["styledText"] = (
      "Text with markup",
      ["text": text("Markup: <b>, <i>, <span class=\"style\">, <a href=\"…\">, <br/>, <img src=\"…\" width=… height=…/>")],
      ["text"]
    )
    for (name, what) in [
      ("caption", "A caption on the left, text on the right"), ("rightCaption", "Text on the left, a caption on the right"),
      ("subtext", "Text with a smaller caption below it"), ("settings", "A setting's name and its value"),
    ] {
      fields[name] = (what, ["text": text("The row's text"), "caption": text("The caption")], ["text"])
    }
    fields["subtitle"] = (
      "A title, a subtitle below it and an image",
      [
        "text": text("The title"), "subtitle": text("The line below the title"), "imageURL": imageURLField,
        "defaultImage": defaultImage,
      ],
      ["text"]
    )
    fields["moreButton"] = (
      "A \"load more\" row",
      [
        "text": text("The row's text"), "subtitle": text("The line below it"),
        "loading": ["type": "boolean", "description": "Show a spinner (default false)."],
      ],
      ["text"]
    )
    fields["message"] = (
      "A message: title, caption, timestamp, text and an image; needs a title or a text",
      [
        "title": text("The sender or title"), "caption": text("A subject line"), "text": text("The message"),
        "timestamp": [
          "type": "string", "pattern": .string(datePattern),
          "description": "When: an ISO 8601 date, such as 2011-03-27T18:30:00Z or 2011-03-27.",
        ],
        "imageURL": imageURLField, "defaultImage": defaultImage,
      ],
      []
    )
    for (name, what) in [("image", "Text with an image on the left"), ("rightImage", "Text with an image on the right")] {
      fields[name] = (
        what,
        [
          "text": text("The row's text"), "imageURL": imageURLField, "defaultImage": defaultImage,
          "imageStyle": styleName("The style the image is drawn with"),
        ],
        ["text"]
      )
    }
    var control = closed(
      [
        "switch": ["type": "boolean", "description": "A switch, on or off."],
        "textField": text("A text field with this placeholder"),
        "slider": [
          "type": "number", "minimum": .number(Bounds.fraction.lowerBound), "maximum": .number(Bounds.fraction.upperBound),
          "description": .string("A slider at \(Bounds.format(Bounds.fraction.lowerBound)) to \(Bounds.format(Bounds.fraction.upperBound)).")
        ],
        "text": text("The text field's text"),
      ], description: "One of switch: true/false, textField: placeholder (with an optional text), slider: 0…1.")
    control["oneOf"] = [["required": ["switch"]], ["required": ["textField"]], ["required": ["slider"]]]
    fields["control"] = ("A caption and a control", ["caption": text("The caption beside the control"), "control": control], ["control"])
    fields["checkmark"] = (
      "Text with a checkmark",
      ["text": text("The row's text"), "checked": ["type": "boolean", "description": "Show the check (default false)."]],
      ["text"]
    )
    let size: OrderedJSON = ["type": "number", "exclusiveMinimum": 0, "maximum": .number(Bounds.length.upperBound)]
    let most = Bounds.format(Bounds.length.upperBound)
    fields["style"] = (
      "A box drawn with a stylesheet style",
      [
        "text": text("The text inside the box"), "style": styleName("The box's style"), "caption": text("A caption"),
        "width": size.merging(["description": .string("The box's width (more than 0, at most \(most)).")]),
        "height": size.merging(["description": .string("The box's height (more than 0, at most \(most)).")]),
      ],
      ["text", "style"]
    )
    return fields
  }

  /// One `if`/`then` rule per built-in type, in `ItemDecoder`'s order.
  static func builtInItems() -> [OrderedJSON] {
    let schemas = builtInItemSchemas()
    return ItemDecoder.builtInItemFields.map { type, _ in
      guard let (what, properties, required) = schemas[type] else {
        preconditionFailure("the table document schema describes no built-in type '\(type)'")
      }
      var then = closed(
        commonItemKeys().merging(properties), required: ["type"] + required, description: "\(type): \(what).")
      if type == "message" { then["anyOf"] = [["required": ["title"]], ["required": ["text"]]] }
      return ["if": ["properties": ["type": ["const": .string(type)]], "required": ["type"]], "then": then]
    }
  }
}
