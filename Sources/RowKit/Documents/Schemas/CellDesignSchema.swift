import RowKitGraphics

extension SchemaParts {
  /// `cell-design.schema.json`: the keys of a cell design file (`DesignFile`).
  package static func cellDesign() -> OrderedJSON {
    var schema = header(
      "cell-design.schema.json", title: "RowKit cell design",
      description: "A cell design: a tree of stacks, labels, images and spacers bound to an item's fields.")
    let stack = closed(
      [
        "spacing": numberOrVariable(Bounds.padding, "The space between children in points"),
        "align": [
          "enum": cases(of: DesignStack.Alignment.self),
          "description": "Cross-axis alignment: start, center (an hstack's default), end or stretch.",
        ],
        "padding": insets(Bounds.padding, "Space around the children", variables: false),
        "grow": numberOrVariable(Bounds.grow, "How much of the free space this stack takes"),
        "children": ["type": "array", "description": "The views inside, in order.", "items": ["$ref": "#/$defs/view"]],
      ], required: ["children"])
    var label = closed(
      [
        "bind": ["type": "string", "description": "The field whose value the label shows."],
        "text": [
          "type": "string", "pattern": .string(templatePattern),
          "description": "Text with {field} substitutions; {{ and }} write braces.",
        ],
        "font": font("The label's font"),
        "color": [
          "type": "string", "pattern": .string(colorPattern),
          "description": "The label's color: a color, a color variable's name, or a {field} that holds one.",
        ],
        "highlightedColor": color("The label's color when the row is selected"),
        "lines": bounded(Bounds.lines, "The most lines (0: no limit)."),
        "align": ["enum": cases(of: TextStyle.Alignment.self), "description": "left, center or right."],
        "ellipsize": ["enum": cases(of: TextStyle.Ellipsize.self), "description": "Where cut-off text shows an ellipsis."],
        "grow": numberOrVariable(Bounds.grow, "How much of the free space this label takes"),
        "name": ["type": "string", "description": "A name tests and lint findings use for this label."],
      ], description: "A label: bind (a field) or text, not both.")
    label["oneOf"] = [["required": ["bind"]], ["required": ["text"]]]
    let image = closed(
      [
        "bind": ["type": "string", "description": "The field whose value is the image's URL."],
        "url": imageURL("A fixed image URL (when there is no bind)"),
        "width": numberOrVariable(Bounds.length, "The slot's width in points"),
        "height": numberOrVariable(Bounds.length, "The slot's height in points"),
        "default": imageURL("The image shown while the image loads, or when it fails"),
        "style": styleName("The style the image is clipped and drawn with"),
        "contentMode": ["enum": cases(of: ContentMode.self), "description": "How the image fills its slot."],
        "name": ["type": "string", "description": "A name tests and lint findings use for this image."],
      ], required: ["width", "height"], description: "An image slot; its size never depends on the image.")
    let spacer: OrderedJSON = [
      "description": "Flexible space; without parameters it takes the free space.",
      "anyOf": [
        ["type": "null"],
        closed([
          "minLength": numberOrVariable(Bounds.length, "Its least length in points"),
          "grow": numberOrVariable(Bounds.grow, "How much of the free space it takes"),
        ]),
      ],
    ]
    let view: OrderedJSON = [
      "type": "object",
      "description": "A view: a map with one key: hstack, vstack, zstack, label, image or spacer.",
      "minProperties": 1,
      "maxProperties": 1,
      "additionalProperties": false,
      "properties": [
        "hstack": stack.merging(["description": "Children side by side."]),
        "vstack": stack.merging(["description": "Children one below another."]),
        "zstack": stack.merging(["description": "Children on top of each other."]),
        "label": label,
        "image": image,
        "spacer": spacer,
      ],
    ]
    schema = schema.merging([
      "type": "object",
      "additionalProperties": false,
      "required": ["body"],
      "properties": [
        "padding": insets(Bounds.padding, "Space around the body in points", variables: false),
        "minHeight": numberOrVariable(Bounds.length, "The row's least height in points"),
        "height": numberOrVariable(Bounds.rowHeight, "A fixed row height in points"),
        "background": styleName("The row's background style"),
        "selectedBackground": styleName("The row's background style when selected"),
        "body": ["$ref": "#/$defs/view", "description": "The design's root view."],
        "preview": [
          "type": "array", "description": "Sample items for catalogs and previews: each the fields the design shows.",
          "items": [
            "type": "object",
            "additionalProperties": ["type": ["string", "number", "boolean"], "description": "A field's value."],
          ],
        ],
      ],
      "$defs": ["view": view],
    ])
    return schema
  }
}
