extension LayoutRecord {
  /// `layout-record.schema.json`: `<name>.layout.json` beside each reference PNG, what the
  /// render laid out.
  package static func schema() -> OrderedJSON {
    let number: OrderedJSON = ["type": "number"]
    let frame: OrderedJSON = [
      "type": "array", "items": number, "minItems": 4, "maxItems": 4,
      "description": "[x, y, width, height] in points, in the cell's coordinates, on the 1/64 point grid",
    ]
    let color: OrderedJSON = ["type": "string", "pattern": #"^#[0-9A-F]{6}([0-9A-F]{2})?$"#, "description": "#RRGGBB or #RRGGBBAA"]
    let direction: OrderedJSON = ["enum": SchemaParts.cases(of: LayoutDirection.self)]
    let closed = SchemaParts.closed
    let run = closed(
      [
        "text": ["type": "string", "description": "the characters drawn by one font"],
        "family": ["type": "string", "description": "the font's family; absent for characters no font has"],
        "file": ["type": "string", "description": "the font file's name"],
        "sha256": [
          "type": "string", "pattern": "^([0-9a-f]{12}|missing)$",
          "description": "the first 12 hex digits of the font file's SHA-256",
        ],
      ], ["text"], nil)
    let span = closed(
      [
        "text": ["type": "string", "description": "the characters the attribute applies to"],
        "range": [
          "type": "array", "items": ["type": "integer", "minimum": 0], "minItems": 2, "maxItems": 2,
          "description": "[start, end) in Unicode scalars of the label's text",
        ],
        "attribute": ["enum": .strings(Span.attributes)],
        "value": ["type": "string", "description": "the attribute's value: a color, weight, font, factor or image size"],
      ], ["text", "range", "attribute"], nil)
    let text = closed(
      [
        "string": ["type": "string"], "family": ["type": "string", "description": "the family the label asked for"],
        "runs": ["type": "array", "items": run], "size": number, "weight": ["type": "integer"],
        "italic": ["type": "boolean"], "lines": ["type": "integer", "minimum": 0],
        "ellipsized": ["type": "boolean"], "truncated": ["type": "boolean"],
        "missingGlyphs": ["type": "integer", "minimum": 0], "direction": direction,
        "alignment": [
          "enum": SchemaParts.cases(of: TextStyle.Alignment.self),
          "description": "how the lines are aligned; absent in records written before it was recorded",
        ],
        "spans": ["type": "array", "items": span, "description": "what styles parts of the text; absent for none"],
        "ellipsis": [
          "enum": .strings(["start", "middle", "end"]),
          "description": "where the ellipsis stands when one is drawn; absent for none, and in records written before it was recorded",
        ],
      ],
      [
        "string", "family", "runs", "size", "weight", "italic", "lines", "ellipsized", "truncated", "missingGlyphs",
        "direction",
      ], nil)
    let image = closed(
      [
        "state": ["enum": SchemaParts.cases(of: ImageState.self)],
        "url": ["type": "string"],
        "digest": [
          "type": "string", "pattern": "^[0-9a-f]{16}$",
          "description": "the first 16 hex digits of the SHA-256 of the pixels drawn in the slot",
        ],
      ], [], nil)
    let element = closed(
      [
        "name": ["type": "string", "description": "unique in its row: title, subtitle, image, accessory…"],
        "kind": ["enum": .strings(Element.kinds)],
        "frame": frame, "ink": frame.merging(["description": "where a label's glyphs put ink, its shadow's included"]),
        "color": color, "shadow": color.merging(["description": "a label's shadow color (a second drawing of its text)"]),
        "text": text, "image": image,
        "style": ["type": "string", "pattern": "^[0-9a-f]{8}$", "description": "a digest of the style drawn"],
        "value": ["type": "string", "description": "the accessory's or control's kind or state"],
      ], ["name", "kind", "frame"], nil)
    let index: OrderedJSON = ["type": "integer", "minimum": 0]
    let band = closed(
      [
        "section": index, "kind": ["enum": SchemaParts.cases(of: SectionBand.Kind.self)], "y": number, "height": number,
        "elements": ["type": "array", "items": element],
      ], ["section", "kind", "y", "height", "elements"], nil)
    let row = closed(
      [
        "section": index, "row": index, "type": ["type": "string"], "cell": ["type": "string"],
        "y": number, "height": number, "x": number, "selected": ["type": "boolean"], "direction": direction,
        "elements": ["type": "array", "items": element],
      ], ["section", "row", "type", "cell", "y", "height", "x", "selected", "direction", "elements"], nil)
    let schema = SchemaParts.header(
      "layout-record.schema.json", title: "RowKit layout record",
      description: "<name>.layout.json beside a reference <name>.png: every row's elements as the render laid them out.")
    return schema.merging(
      closed(
        [
          "version": ["const": .number(Double(currentVersion))], "width": number, "scale": number,
          "style": ["enum": SchemaParts.cases(of: TableStyle.self)],
          "variant": ["type": "string"], "height": number,
          "bands": ["type": "array", "items": band], "rows": ["type": "array", "items": row],
        ], ["version", "width", "scale", "style", "height", "bands", "rows"], nil))
  }
}
