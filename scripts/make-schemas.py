#!/usr/bin/env python3
"""Writes Schemas/*.schema.json: the JSON Schemas (draft 2020-12) of RowKit's table
documents, stylesheets and cell design files, and of the check report RowKit writes
(report.json).

The schemas follow the decoders in Sources/RowKit/Documents (TableDocument.swift,
ItemDecoder.swift, StylesheetLoader.swift, StyleElementDecoder.swift, DesignFile.swift,
BrandFonts.swift, YAMLValue.swift) and the number bounds of Sources/RowKit/Files/Bounds.swift
and CellMetrics.swift. When a decoder changes, change this script, run it, and commit both:

    python3 scripts/make-schemas.py          # writes Schemas/
    python3 scripts/make-schemas.py --check  # fails when Schemas/ is not what it writes

`scripts/check-schemas.py` (run by scripts/test.sh) runs the check, validates every sample
file against its schema, and makes sure that every structural bad-input fixture under
Tests/Fixtures/bad-input is refused by the schema as it is by the decoder.

What a JSON Schema cannot say, and the decoders check on their own: names that must exist
elsewhere (styles, variables, font families, files, a custom item's fields), width × scale at
most 8192 pixels, styled-text markup, image URLs, and how many rows all sections add up to.
Where the decoders are lenient the schemas ask for the plain form: `yes`/`no`/`on`/`off` for
true and false (YAML 1.1 words that YAML 1.2 editors read as text), and an empty value
(`key:` with nothing after it) that a decoder reads as a missing key.
"""
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BASE = "https://rowkit.invalid/schemas/"  # no published home yet: .invalid is never resolved

# Sources/RowKit/Files/Bounds.swift
B = {
    "tableWidth": (64, 4096), "scale": (0.5, 4), "rowHeight": (1, 2000), "length": (0, 2000),
    "width": (0, 4096), "padding": (0, 1000), "inset": (-1000, 1000), "offset": (-1000, 1000),
    "radius": (-1, 1000), "blur": (0, 100), "borderWidth": (0.01, 100), "grow": (0, 1000),
    "angle": (-360, 360), "turn": (0, 360), "fraction": (0, 1), "lines": (0, 1000),
    "number": (-10000, 10000),
}
MAXIMUM_ROWS = 100_000
VARIANT_VALUES_PER_AXIS = 16

# Sources/RowKit/Table/Variant.swift and DesignLint.swift.
CONTENT_SIZE_CATEGORIES = ["xSmall", "small", "medium", "large", "xLarge", "xxLarge", "xxxLarge",
                           "AX1", "AX2", "AX3", "AX4", "AX5"]
APPEARANCES = ["light", "dark"]
DIRECTIONS = ["ltr", "rtl"]
LINT_RULES = ["contrast", "truncated", "clipped", "tapTarget", "missingGlyph", "overlap", "imageFailed", "headroom"]

# Sources/RowKit/Styles/CellMetrics.swift: the number variables and their bounds.
METRICS = [
    ("tableCellPadding", 10, "padding", "Three20's padding around a cell's content"),
    ("tableRowHeight", 44, "rowHeight", "the least row height"),
    ("tableCaptionWidth", 75, "width", "the width of a caption column"),
    ("tableCaptionSpacing", 12, "padding", "the space after a caption"),
    ("tableImageSize", 50, "length", "the size of an image item's image"),
    ("tableImageSpacing", 12, "padding", "the space after an image"),
    ("tableSubtitleImageSpacing", 6, "padding", "the space after a subtitle row's image"),
    ("tableMessageImageSize", 34, "length", "the size of a message row's image"),
    ("tableMessageMargin", 6, "padding", "the margin inside a message row"),
    ("tableMoreButtonMargin", 40, "padding", "the left margin of a more-button row"),
    ("tableMoreButtonMinimumHeight", 66, "length", "the least height of a more-button row"),
    ("tableStyledTextPadding", 6, "padding", "the padding around styled text"),
    ("tableControlSpacing", 8, "padding", "the space between a control row's caption and control"),
    ("tableSpinnerSize", 20, "length", "the size of an activity spinner"),
    ("tableDisclosureIndicatorWidth", 20, "width", "the width a disclosure chevron takes"),
    ("tableDetailDisclosureButtonWidth", 33, "width", "the width a detail disclosure button takes"),
    ("tableCheckmarkWidth", 24, "width", "the width a checkmark takes"),
    ("tableHeaderPlainHeight", 22, "length", "the height of a plain table's section header"),
    ("tableHeaderGroupedHeight", 36, "length", "the height of a grouped table's section header"),
    ("tableHeaderGroupedFirstHeight", 46, "length", "the height of a grouped table's first header"),
    ("tableSectionGap", 10, "length", "the gap between grouped sections"),
    ("tableGroupedMargin", 10, "padding", "a grouped table's side margins"),
    ("tableGroupedCornerRadius", 8, "radius", "the corner radius of a grouped section"),
    ("tableSeparatorInsetLeft", 0, "width", "how far separators start from the left"),
    ("tableSeparatorInsetRight", 0, "width", "how far separators stop from the right"),
]

# Sources/RowKit/Styles/Stylesheet+Default.swift
FONT_VARIABLES = {
    "font": "Inter 14", "tableFont": "Inter Bold 17", "tableSmallFont": "Inter Bold 15",
    "tableTitleFont": "Inter Bold 13", "tableButtonFont": "Inter Bold 13", "tableSummaryFont": "Inter 17",
    "tableTimestampFont": "Inter 13", "tableHeaderPlainFont": "Inter Bold 16",
    "tableHeaderGroupedFont": "Inter Bold 18", "tableFooterFont": "Inter 15", "tableValueFont": "Inter 17",
    "activityLabelFont": "Inter 17", "tableControlFont": "Inter 15",
}
COLOR_VARIABLES = [
    "textColor", "highlightedTextColor", "backgroundTextColor", "backgroundColor", "linkTextColor",
    "tableSubTextColor", "tableTitleTextColor", "tableActivityTextColor", "tableErrorTextColor",
    "timestampTextColor", "moreLinkTextColor", "tableValueTextColor", "placeholderTextColor",
    "tablePlainBackgroundColor", "tableGroupedBackgroundColor", "tableGroupedStripeColor",
    "tableGroupedCellBackgroundColor", "tableGroupedCellBorderColor", "tablePlainCellSeparatorColor",
    "tableGroupedCellSeparatorColor", "tableHeaderTintColor", "tableSeparatorEtchColor", "tableHeaderTextColor",
    "tableHeaderShadowColor", "tableHeaderBorderColor", "tableGroupedHeaderTextColor",
    "tableGroupedHeaderShadowColor", "tableFooterTextColor", "selectionTopColor", "selectionBottomColor",
    "disclosureIndicatorColor", "detailButtonColor", "checkmarkColor", "activityIndicatorColor", "switchOnColor",
    "switchOffColor", "controlBorderColor", "sliderTrackColor", "fallbackCellColor", "fallbackTextColor",
]
KEYWORD_VARIABLES = {
    "tablePlainCellSeparatorStyle": ["none", "singleLine", "singleLineEtched"],
    "tableGroupedCellSeparatorStyle": ["none", "singleLine", "singleLineEtched"],
}
# Sources/RowKitGraphics/Drawing/Canvas+Layers.swift
BLEND_MODES = [
    "normal", "multiply", "screen", "overlay", "darken", "lighten", "colorDodge", "colorBurn", "softLight",
    "hardLight", "difference", "exclusion", "hue", "saturation", "color", "luminosity", "clear", "copy",
    "sourceIn", "sourceOut", "sourceAtop", "destinationOver", "destinationIn", "destinationOut",
    "destinationAtop", "xor", "plusLighter",
]
CONTENT_MODES = ["aspectFit", "aspectFill", "scaleToFill", "center", "left", "right", "top", "bottom"]
STACK_ALIGNMENTS = ["start", "center", "end", "stretch"]
TEXT_ALIGNMENTS = ["left", "center", "right"]
ELLIPSIZE = ["none", "start", "middle", "end"]

# Patterns (ECMA 262, as JSON Schema asks).
HEX = "[0-9A-Fa-f]"
COLOR_PATTERN = f"^(#({HEX}{{3}}|{HEX}{{6}}|{HEX}{{8}})|[^#].*)$"
# A font's size (the last word, when it is a number) is from 1 to 256 points.
FONT_PATTERN = (
    r"^(?!(.*\s)?0*(\.[0-9]*)?$)"
    r"(?!(.*\s)?0*([1-9][0-9]{3,}|[3-9][0-9]{2}|2[6-9][0-9]|25[7-9])(\.[0-9]*)?$)"
    r"(?!(.*\s)?0*256\.[0-9]*[1-9][0-9]*$)(?!#)"
)
TEMPLATE_PATTERN = r"^(?:[^{}]|\{\{|\}\}|\{(?!\{)[^}]*[^}\s][^}]*\})*$"
NOT_BLANK = r"\S"
VARIABLE_NAME_PATTERN = r"^(?![-+]?\.?[0-9])"
DATE_PATTERN = r"^[0-9]{4}-[0-9]{2}-[0-9]{2}([Tt][0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]+)?([Zz]|[+-][0-9]{2}:?[0-9]{2}))?$"
LANGUAGE_PATTERN = r"^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$"
FONT_FILE_PATTERN = r"\.([Tt][Tt][FfCc]|[Oo][Tt][FfCc])$"

BUILT_IN_TYPES = [
    "text", "link", "button", "longText", "grayText", "summary", "activity", "styledText", "caption",
    "rightCaption", "subtext", "settings", "subtitle", "moreButton", "message", "image", "rightImage", "control",
    "checkmark", "style",
]


def bounded(kind, description, integer=False):
    low, high = B[kind]
    return {"type": "integer" if integer else "number", "minimum": low, "maximum": high, "description": description}


def number_or_variable(kind, description):
    """A number within Bounds.<kind>, or the name of a number variable (YAMLValue.number(in:variables:))."""
    low, high = B[kind]
    return {
        "description": f"{description} ({fmt(low)} to {fmt(high)}), or the name of a number variable",
        "anyOf": [
            {"type": "number", "minimum": low, "maximum": high},
            {"type": "string", "pattern": VARIABLE_NAME_PATTERN, "description": "the name of a number variable"},
        ],
    }


def fmt(value):
    return str(int(value)) if float(value).is_integer() else str(value)


def insets(kind, description, variables):
    """One number for every side or [top, right, bottom, left]."""
    one = number_or_variable(kind, "a side") if variables else bounded(kind, "a side")
    one = {k: v for k, v in one.items() if k != "description"}
    low, high = B[kind]
    return {
        "description": f"{description}: one number for every side, or [top, right, bottom, left] "
        f"({fmt(low)} to {fmt(high)} each)",
        "anyOf": [one, {"type": "array", "items": one, "minItems": 4, "maxItems": 4}],
    }


def pair(kind, description):
    one = number_or_variable(kind, "")
    one = {k: v for k, v in one.items() if k != "description"}
    low, high = B[kind]
    return {"description": f"{description}: [x, y] ({fmt(low)} to {fmt(high)} each)", "type": "array",
            "items": one, "minItems": 2, "maxItems": 2}


def color(description):
    return {"type": "string", "pattern": COLOR_PATTERN,
            "description": f"{description}: a color (#RGB, #RRGGBB or #RRGGBBAA) or a color variable's name"}


def font(description):
    return {"type": "string", "pattern": FONT_PATTERN,
            "description": f"{description}: a font (\"Inter Bold 17\", 1 to 256 points) or a font variable's name"}


def style_name(description):
    return {"type": "string", "description": f"{description}: the name of a style in the stylesheet"}


def image_url(description):
    return {"type": "string", "description": f"{description}: bundle://, file://, documents://, cache://, "
            "http(s):// or a path relative to the document"}


def closed(properties, required=(), description=None, **extra):
    schema = {"type": "object", "properties": properties, "additionalProperties": False}
    if required:
        schema["required"] = list(required)
    if description:
        schema["description"] = description
    schema.update(extra)
    return schema


def header(name, title, description):
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", "$id": BASE + name, "title": title,
            "description": description}


# MARK: - Stylesheets

def style_elements():
    shape_kinds = {
        "rectangle": {"description": "A plain rectangle (any value, or none)."},
        "roundedRect": {
            "description": "A rectangle with rounded corners: one radius, or [topLeft, topRight, bottomRight, "
            "bottomLeft]; -1 rounds a whole side (a pill).",
            "anyOf": [
                strip(number_or_variable("radius", "")),
                {"type": "array", "items": strip(number_or_variable("radius", "")), "minItems": 4, "maxItems": 4},
            ],
        },
        "roundedLeftArrow": number_or_variable("radius", "A rounded rectangle pointing left; its corner radius"),
        "roundedRightArrow": number_or_variable("radius", "A rounded rectangle pointing right; its corner radius"),
        "speechBubble": closed({
            "radius": number_or_variable("radius", "The corner radius (default 5)"),
            "pointLocation": number_or_variable("turn", "Where the point sits along the edge, in degrees (default 60)"),
            "pointAngle": number_or_variable("turn", "The direction the point faces, in degrees (default 90)"),
            "pointSize": pair("offset", "The point's width and height (default [10, 5])"),
        }, description="A speech bubble."),
    }
    shape = {
        "description": "Sets the shape for the rest of the chain: rectangle, or a map with one of roundedRect, "
        "roundedLeftArrow, roundedRightArrow, speechBubble.",
        "anyOf": [
            {"const": "rectangle"},
            {"type": "object", "properties": shape_kinds, "additionalProperties": False, "minProperties": 1,
             "maxProperties": 1},
        ],
    }
    width = number_or_variable("borderWidth", "The border's width (default 1)")
    elements = {
        "shape": shape,
        "inset": insets("inset", "Moves the frame's edges in (or out, where negative) for the rest of the chain",
                        variables=True),
        "box": closed({
            "margin": insets("inset", "Space outside the box", variables=True),
            "padding": insets("inset", "Space inside the box, around the content", variables=True),
        }, description="A box model: margin outside, padding inside."),
        "fill": color("Fills the shape with a color"),
        "linearGradient": {"description": "Fills the shape with a vertical gradient: [top, bottom].",
                           "type": "array", "items": color("a color"), "minItems": 2, "maxItems": 2},
        "reflectiveFill": {
            "description": "A glossy fill (Three20's TTReflectiveFillStyle): a color, or { color, bottomHighlight }.",
            "anyOf": [
                color("the fill's color"),
                closed({"color": color("The fill's color"),
                        "bottomHighlight": {"type": "boolean", "description": "Whether the bottom is lit too."}},
                       required=["color"]),
            ],
        },
        "shadow": closed({
            "color": color("The shadow's color"),
            "blur": number_or_variable("blur", "The blur radius (default 0)"),
            "offset": pair("offset", "How far the shadow falls (default [0, 0])"),
        }, required=["color"], description="A drop shadow outside the shape."),
        "innerShadow": closed({
            "color": color("The shadow's color"),
            "blur": number_or_variable("blur", "The blur radius (default 0)"),
            "offset": pair("offset", "How far the shadow falls (default [0, 0])"),
        }, required=["color"], description="A shadow inside the shape."),
        "border": closed({"color": color("The border's color"), "width": width}, required=["color"],
                         description="A solid border along the shape."),
        "highlightBorder": closed({
            "color": color("The border's color"), "highlight": color("The highlight's color"), "width": width,
        }, required=["color", "highlight"], description="A border with a highlight along its top."),
        "fourBorder": {
            **closed({
                "top": color("The top edge's color"), "right": color("The right edge's color"),
                "bottom": color("The bottom edge's color"), "left": color("The left edge's color"),
                "width": width,
            }, description="A border of up to four edges, each with its own color; at least one edge."),
            "anyOf": [{"required": ["top"]}, {"required": ["right"]}, {"required": ["bottom"]},
                      {"required": ["left"]}],
        },
        "bevelBorder": closed({
            "highlight": color("The lit edges' color"), "shadow": color("The shaded edges' color"), "width": width,
            "lightSource": number_or_variable("angle", "Where the light comes from, in degrees (default 125)"),
        }, description="A bevelled border lit from one side."),
        "gradientBorder": closed({
            "colors": {"description": "Two colors, [top, bottom].", "type": "array", "items": color("a color"),
                       "minItems": 2, "maxItems": 2},
            "locations": {"description": "Where the two colors sit, [first, second], 0 to 1 (default [0, 1]).",
                          "type": "array", "items": strip(number_or_variable("fraction", "")), "minItems": 2,
                          "maxItems": 2},
            "width": width,
        }, required=["colors"], description="A border drawn with a gradient."),
        "blend": {"description": "How the rest of the chain combines with what is below it.", "enum": BLEND_MODES},
        "text": closed({
            "font": font("The text's font"),
            "color": color("The text's color"),
            "shadowColor": color("The text shadow's color"),
            "shadowOffset": pair("offset", "How far the text shadow falls"),
            "align": {"enum": TEXT_ALIGNMENTS, "description": "left, center or right."},
        }, description="How text drawn inside this style looks."),
        "content": {"description": "Where the content (an image, a row's text) is drawn; no parameters.",
                    "anyOf": [{"type": "null"}, {"type": "object", "maxProperties": 0}]},
    }
    return elements


def strip(schema):
    return {k: v for k, v in schema.items() if k != "description"}


def variables():
    properties = {}
    for name, value in FONT_VARIABLES.items():
        properties[name] = font(f"A font variable (default \"{value}\")")
    for name in COLOR_VARIABLES:
        properties[name] = {**color("A color variable"), "pattern": COLOR_PATTERN}
    for name, value, kind, what in METRICS:
        low, high = B[kind]
        properties[name] = {
            "description": f"A number variable: {what} (default {fmt(value)}; {fmt(low)} to {fmt(high)}), "
            "or the name of another number variable",
            "anyOf": [{"type": "number", "minimum": low, "maximum": high},
                      {"type": "string", "pattern": VARIABLE_NAME_PATTERN}],
        }
    for name, words in KEYWORD_VARIABLES.items():
        properties[name] = {"enum": words, "description": f"How separators are drawn: {', '.join(words)}."}
    low, high = B["number"]
    other = {
        "description": "A variable of your own: a number, a color (#RRGGBB or #RRGGBBAA), a font (\"Inter Bold "
        "17\"), or the name of another variable",
        "anyOf": [
            {"type": "number", "minimum": low, "maximum": high},
            {"type": "string", "allOf": [{"pattern": COLOR_PATTERN}, {"pattern": FONT_PATTERN + "|^#"}]},
        ],
    }
    return {
        "type": "object",
        "description": "Named fonts, colors and numbers. The default stylesheet's variables keep their kind.",
        "properties": properties,
        "additionalProperties": other,
    }


def stylesheet_body(prefix=""):
    """The stylesheet's keys and $defs; `prefix` names its $defs inside another schema (a table
    document embeds the stylesheet schema for its inline `stylesheet:`, so that each schema file
    stands alone and no editor has to resolve a reference to another file)."""
    def ref(name):
        return {"$ref": f"#/$defs/{prefix}{name[0].upper() + name[1:] if prefix else name}"}

    def key(name):
        return f"{prefix}{name[0].upper() + name[1:]}" if prefix else name

    element = {
        "description": "A style element: a map with one key, such as { fill: \"#FFFFFF\" }, or the word content.",
        "anyOf": [
            {"const": "content"},
            {"type": "object", "properties": style_elements(), "additionalProperties": False, "minProperties": 1,
             "maxProperties": 1},
        ],
    }
    body = {
        "type": "object",
        "additionalProperties": False,
        "properties": {
            "extends": {"type": "string", "pattern": NOT_BLANK,
                        "description": "default (the built-in stylesheet, also used when extends is left out), "
                        "default-dark (its dark appearance) or the path of another stylesheet, relative to this "
                        "file."},
            "fonts": font_files(),
            "vars": ref("variables"),
            "darkVars": {**ref("variables"), "description": "Values of variables in the dark appearance "
                         "(a variants: appearance of dark); each variable must also be defined under vars or by "
                         "the default stylesheet."},
            "styles": {"type": "object", "description": "Named styles: each a chain of elements drawn first to last.",
                       "additionalProperties": ref("style")},
        },
    }
    defs = {
        key("variables"): variables(),
        key("style"): {"type": "array", "description": "A style: elements drawn first to last.",
                       "items": ref("element")},
        key("element"): element,
    }
    return body, defs


def stylesheet_schema():
    schema = header(
        "stylesheet.schema.json", "RowKit stylesheet",
        "A stylesheet: variables (fonts, colors, numbers) and named style chains, extending the default "
        "stylesheet or another file.")
    body, defs = stylesheet_body()
    schema.update(body)
    schema["$defs"] = defs
    return schema


def font_files():
    return {"type": "array", "description": "Font files (.ttf, .otf, .ttc, .otc) to load, relative to this file; "
            "their families can then be named in fonts.",
            "items": {"type": "string", "pattern": FONT_FILE_PATTERN, "description": "A font file's path."}}


# MARK: - Table documents

TEXT = {"type": ["string", "number"],
        "description": "Text the row shows. In YAML a number stays text as written; true and false must be quoted."}


def text(description, kind=TEXT):
    return {**kind, "description": f"{description}. {kind['description']}"}


COMMON = {
    "type": {"description": "The item's type: a built-in type, or a custom type listed under cells:.",
             "anyOf": [{"$ref": "#/$defs/builtInType"}, {"type": "string"}]},
    "url": text("Where the row leads; a row with a url shows a disclosure chevron"),
    "accessoryURL": text("With url, shows a detail disclosure button that leads here"),
    "selected": {"type": "boolean", "description": "Draw this row in its selected state (default false)."},
    "background": style_name("The row's background style"),
    "selectedBackground": style_name("The row's background style when selected"),
}


def built_in_items():
    image_url_field = image_url("The image's URL")
    default_image = image_url("The image shown while the image loads, or when it fails")
    fields = {}
    for name, what in [("text", "A plain row of text"), ("link", "A row of link-colored text"),
                       ("button", "A centered, button-like row"), ("longText", "Text that wraps over many lines"),
                       ("grayText", "Gray, wrapping text"), ("summary", "A centered summary line"),
                       ("activity", "A spinner beside text")]:
        fields[name] = (what, {"text": text("The row's text")}, ["text"])
    fields["styledText"] = ("Text with markup", {
        "text": text("Markup: <b>, <i>, <span class=\"style\">, <a href=\"…\">, <br/>, <img src=\"…\" width=… "
                     "height=…/>")}, ["text"])
    for name, what in [("caption", "A caption on the left, text on the right"),
                       ("rightCaption", "Text on the left, a caption on the right"),
                       ("subtext", "Text with a smaller caption below it"),
                       ("settings", "A setting's name and its value")]:
        fields[name] = (what, {"text": text("The row's text"), "caption": text("The caption")}, ["text"])
    fields["subtitle"] = ("A title, a subtitle below it and an image", {
        "text": text("The title"), "subtitle": text("The line below the title"), "imageURL": image_url_field,
        "defaultImage": default_image}, ["text"])
    fields["moreButton"] = ("A \"load more\" row", {
        "text": text("The row's text"), "subtitle": text("The line below it"),
        "loading": {"type": "boolean", "description": "Show a spinner (default false)."}}, ["text"])
    fields["message"] = ("A message: title, caption, timestamp, text and an image; needs a title or a text", {
        "title": text("The sender or title"), "caption": text("A subject line"), "text": text("The message"),
        "timestamp": {"type": "string", "pattern": DATE_PATTERN,
                      "description": "When: an ISO 8601 date, such as 2011-03-27T18:30:00Z or 2011-03-27."},
        "imageURL": image_url_field, "defaultImage": default_image}, [])
    for name, what in [("image", "Text with an image on the left"), ("rightImage", "Text with an image on the right")]:
        fields[name] = (what, {
            "text": text("The row's text"), "imageURL": image_url_field, "defaultImage": default_image,
            "imageStyle": style_name("The style the image is drawn with")}, ["text"])
    fields["control"] = ("A caption and a control", {
        "caption": text("The caption beside the control"),
        "control": {
            **closed({
                "switch": {"type": "boolean", "description": "A switch, on or off."},
                "textField": text("A text field with this placeholder"),
                "slider": {"type": "number", "minimum": 0, "maximum": 1, "description": "A slider at 0 to 1."},
                "text": text("The text field's text"),
            }, description="One of switch: true/false, textField: placeholder (with an optional text), "
                           "slider: 0…1."),
            "oneOf": [{"required": ["switch"]}, {"required": ["textField"]}, {"required": ["slider"]}],
        }}, ["control"])
    fields["checkmark"] = ("Text with a checkmark", {
        "text": text("The row's text"),
        "checked": {"type": "boolean", "description": "Show the check (default false)."}}, ["text"])
    size = {"type": "number", "exclusiveMinimum": 0, "maximum": B["length"][1]}
    fields["style"] = ("A box drawn with a stylesheet style", {
        "text": text("The text inside the box"), "style": style_name("The box's style"),
        "caption": text("A caption"), "width": {**size, "description": "The box's width (more than 0, at most 2000)."},
        "height": {**size, "description": "The box's height (more than 0, at most 2000)."}}, ["text", "style"])
    assert sorted(fields) == sorted(BUILT_IN_TYPES)
    rules = []
    for name in BUILT_IN_TYPES:
        what, properties, required = fields[name]
        then = closed({**COMMON, **properties}, required=["type"] + required, description=f"{name}: {what}.")
        if name == "message":
            then["anyOf"] = [{"required": ["title"]}, {"required": ["text"]}]
        rules.append({"if": {"properties": {"type": {"const": name}}, "required": ["type"]}, "then": then})
    return rules


def table_document_schema():
    schema = header(
        "table-document.schema.json", "RowKit table document",
        "A table document: the table's size and look, its stylesheet, custom cell designs, and sections of items.")
    scalar = {"type": ["string", "number", "boolean"]}
    custom_item = {
        "description": "A custom item: its fields, bound by name in the design file that cells: lists for its type.",
        "additionalProperties": {**scalar, "description": "A field the item's design file shows."},
    }
    item = {
        "type": "object",
        "description": "One row: a map with a type and the fields of that type.",
        "required": ["type"],
        "properties": COMMON,
        "allOf": built_in_items() + [
            {"if": {"properties": {"type": {"not": {"$ref": "#/$defs/builtInType"}}}, "required": ["type"]},
             "then": custom_item},
        ],
    }
    item_list = {"type": "array", "description": "The rows, top to bottom.", "maxItems": MAXIMUM_ROWS,
                 "items": {"$ref": "#/$defs/item"}}
    section = closed({
        "header": {**scalar, "description": "The section's header text."},
        "footer": {**scalar, "description": "The section's footer text."},
        "items": {"$ref": "#/$defs/items"},
    }, description="A section: an optional header and footer around its items.")
    built_in_only = {"properties": {"type": {"$ref": "#/$defs/builtInType"}}}
    stylesheet_inline, stylesheet_defs = stylesheet_body(prefix="stylesheet")
    schema.update({
        "type": "object",
        "additionalProperties": False,
        "properties": {
            "table": closed({
                "width": bounded("tableWidth", "The table's width in points (default 375; 64 to 4096; width × "
                                 "scale at most 8192 pixels)."),
                "scale": bounded("scale", "Device pixels per point (default 2; 0.5 to 4)."),
                "style": {"enum": ["plain", "grouped"], "description": "plain (default) or grouped."},
                "rowHeight": {"description": "auto (default: each row as tall as its content) or a fixed height "
                              "in points (1 to 2000).",
                              "anyOf": [{"const": "auto"}, bounded("rowHeight", "A fixed row height")]},
                "now": {"type": "string", "pattern": DATE_PATTERN,
                        "description": "The moment relative timestamps count from (ISO 8601); without it, "
                        "messages show dates."},
                "language": {"type": "string", "pattern": LANGUAGE_PATTERN,
                             "description": "The BCP 47 language of the table's text (en, ja, zh-Hant, pt-BR…): it "
                             "picks regional glyph forms and guides line breaking."},
            }, description="The table's size and look; every key has a default, and command-line flags override "
                           "them."),
            "variants": closed({
                "width": {"type": "array", "minItems": 1, "maxItems": VARIANT_VALUES_PER_AXIS, "uniqueItems": True,
                          "description": "Widths to render, in points (64 to 4096).",
                          "items": bounded("tableWidth", "A width in points")},
                "textSize": {"type": "array", "minItems": 1, "maxItems": VARIANT_VALUES_PER_AXIS,
                             "uniqueItems": True, "description": "UIKit content size categories to render: every "
                             "font scales as UIKit scales body text (17 points at large, 53 at AX5).",
                             "items": {"enum": CONTENT_SIZE_CATEGORIES}},
                "appearance": {"type": "array", "minItems": 1, "maxItems": VARIANT_VALUES_PER_AXIS,
                               "uniqueItems": True, "description": "light and/or dark (the default-dark colors).",
                               "items": {"enum": APPEARANCES}},
                "direction": {"type": "array", "minItems": 1, "maxItems": VARIANT_VALUES_PER_AXIS,
                              "uniqueItems": True, "description": "ltr and/or rtl: rtl mirrors every row as UIKit "
                              "mirrors a right-to-left cell (accessories and images on the left, text aligned "
                              "right, chevrons pointing left).",
                              "items": {"enum": DIRECTIONS}},
                "locale": {"type": "array", "minItems": 1, "maxItems": VARIANT_VALUES_PER_AXIS,
                           "uniqueItems": True, "description": "Android's pseudo-locales: en-XA accents every "
                           "letter, brackets every text and pads it with words (short texts grow most); ar-XB "
                           "forces every word right to left and mirrors every row as rtl does; en shows the "
                           "texts as written, beside them.",
                           "items": {"enum": ["en", "en-XA", "ar-XB"]}},
            }, description="The variant matrix: the table is rendered in every combination of these axes "
                           "(at most 256)."),
            "lint": closed({
                "off": {"type": "array", "uniqueItems": True, "description": "Lint rules switched off for this "
                        "document.", "items": {"enum": LINT_RULES}},
            }, description="Design-lint settings (rowkit lint, render --lint)."),
            "fonts": font_files(),
            "stylesheet": {
                "description": "The stylesheet: the path of a stylesheet file (relative to this document), or an "
                "inline stylesheet map. Without it, the default stylesheet.",
                "anyOf": [{"type": "string", "pattern": NOT_BLANK}, {"$ref": "#/$defs/stylesheet"}],
            },
            "assets": {"type": "string", "description": "The folder bundle:// URLs resolve in (default: this "
                       "document's folder)."},
            "documents": {"type": "string", "description": "The folder documents:// URLs resolve in; it must exist."},
            "cache": {"type": "string", "description": "The folder cache:// URLs resolve in; it must exist."},
            "cells": {
                "type": "object", "description": "Custom item types and the cell design files that draw them.",
                "propertyNames": {"not": {"$ref": "#/$defs/builtInType"}},
                "additionalProperties": {"type": "string", "pattern": NOT_BLANK,
                                         "description": "A cell design file's path, relative to this document."},
            },
            "sections": {"type": "array", "description": "The table's sections, top to bottom (or use items).",
                         "items": section},
            "items": {"$ref": "#/$defs/items",
                      "description": "Shorthand for one section without header or footer (or use sections)."},
        },
        "allOf": [
            {"oneOf": [{"required": ["sections"]}, {"required": ["items"]}]},
            {"if": {"required": ["items"]}, "then": {"properties": {"items": {"minItems": 1}}}},
            {"if": {"required": ["sections"]}, "then": {"properties": {"sections": {
                "contains": {"required": ["items"], "properties": {"items": {"minItems": 1}}}}}}},
            # Without cells:, every type is a built-in one.
            {"if": {"not": {"required": ["cells"]}}, "then": {"properties": {
                "items": {"items": built_in_only},
                "sections": {"items": {"properties": {"items": {"items": built_in_only}}}}}}},
        ],
        "$defs": {
            "builtInType": {"enum": BUILT_IN_TYPES, "description": "A built-in item type."},
            "item": item,
            "items": item_list,
            "stylesheet": {**stylesheet_inline, "description": "An inline stylesheet: the keys of a stylesheet "
                           "file (stylesheet.schema.json)."},
            **stylesheet_defs,
        },
    })
    return schema


# MARK: - Cell design files

def cell_design_schema():
    schema = header(
        "cell-design.schema.json", "RowKit cell design",
        "A cell design: a tree of stacks, labels, images and spacers bound to an item's fields.")
    stack = closed({
        "spacing": number_or_variable("padding", "The space between children in points"),
        "align": {"enum": STACK_ALIGNMENTS, "description": "Cross-axis alignment: start, center (an hstack's "
                  "default), end or stretch."},
        "padding": insets("padding", "Space around the children", variables=False),
        "grow": number_or_variable("grow", "How much of the free space this stack takes"),
        "children": {"type": "array", "description": "The views inside, in order.", "items": {"$ref": "#/$defs/view"}},
    }, required=["children"])
    label = {
        **closed({
            "bind": {"type": "string", "description": "The field whose value the label shows."},
            "text": {"type": "string", "pattern": TEMPLATE_PATTERN,
                     "description": "Text with {field} substitutions; {{ and }} write braces."},
            "font": font("The label's font"),
            "color": {"type": "string", "pattern": COLOR_PATTERN,
                      "description": "The label's color: a color, a color variable's name, or a {field} that holds "
                      "one."},
            "highlightedColor": color("The label's color when the row is selected"),
            "lines": bounded("lines", "The most lines (0: no limit).", integer=True),
            "align": {"enum": TEXT_ALIGNMENTS, "description": "left, center or right."},
            "ellipsize": {"enum": ELLIPSIZE, "description": "Where cut-off text shows an ellipsis."},
            "grow": number_or_variable("grow", "How much of the free space this label takes"),
            "name": {"type": "string", "description": "A name tests and lint findings use for this label."},
        }, description="A label: bind (a field) or text, not both."),
        "oneOf": [{"required": ["bind"]}, {"required": ["text"]}],
    }
    image = closed({
        "bind": {"type": "string", "description": "The field whose value is the image's URL."},
        "url": image_url("A fixed image URL (when there is no bind)"),
        "width": number_or_variable("length", "The slot's width in points"),
        "height": number_or_variable("length", "The slot's height in points"),
        "default": image_url("The image shown while the image loads, or when it fails"),
        "style": style_name("The style the image is clipped and drawn with"),
        "contentMode": {"enum": CONTENT_MODES, "description": "How the image fills its slot."},
        "name": {"type": "string", "description": "A name tests and lint findings use for this image."},
    }, required=["width", "height"], description="An image slot; its size never depends on the image.")
    spacer = {
        "description": "Flexible space; without parameters it takes the free space.",
        "anyOf": [{"type": "null"}, closed({
            "minLength": number_or_variable("length", "Its least length in points"),
            "grow": number_or_variable("grow", "How much of the free space it takes"),
        })],
    }
    view = {
        "type": "object",
        "description": "A view: a map with one key: hstack, vstack, zstack, label, image or spacer.",
        "minProperties": 1,
        "maxProperties": 1,
        "additionalProperties": False,
        "properties": {
            "hstack": {**stack, "description": "Children side by side."},
            "vstack": {**stack, "description": "Children one below another."},
            "zstack": {**stack, "description": "Children on top of each other."},
            "label": label,
            "image": image,
            "spacer": spacer,
        },
    }
    schema.update({
        "type": "object",
        "additionalProperties": False,
        "required": ["body"],
        "properties": {
            "padding": insets("padding", "Space around the body in points", variables=False),
            "minHeight": number_or_variable("length", "The row's least height in points"),
            "height": number_or_variable("length", "A fixed row height in points"),
            "background": style_name("The row's background style"),
            "selectedBackground": style_name("The row's background style when selected"),
            "body": {"$ref": "#/$defs/view", "description": "The design's root view."},
            "preview": {"type": "array", "description": "Sample items for catalogs and previews: each the fields "
                        "the design shows.",
                        "items": {"type": "object", "additionalProperties": {
                            "type": ["string", "number", "boolean"], "description": "A field's value."}}},
        },
        "$defs": {"view": view},
    })
    return schema


# MARK: - Check reports


def check_report_schema():
    """report.json of `rowkit check --report` and `rowkit merge-reports`: written by RowKit,
    read by merge-reports, accept and other tools (docs/formats.md, "Check reports")."""
    count = {"type": "integer", "minimum": 0}
    # A report comes from outside (a pull request's CI run): readers refuse any image path
    # but a plain one inside the report folder (ReportFolder.isContainedPath).
    relative = {"type": "string", "pattern": r"^(?!(.*/)?\.\.?(/|$))[A-Za-z0-9._@,-]+(/[A-Za-z0-9._@,-]+)*$",
                "description": "an image: a plain path inside the report folder (no absolute path, no .., no address); "
                "any other makes the report unreadable"}
    status = {"enum": ["passed", "failed", "new", "missing", "error"]}
    case = closed({
        "name": {"type": "string", "description": "the case: the document's path without its extension, "
                 "or <design>/preview-<n>[-selected]"},
        "document": {"type": "string", "description": "the document or design file, absolute"},
        "status": status,
        "message": {"type": "string", "description": "one line: what happened, with the numbers and image paths"},
        "result": {"type": "object", "description": "the comparison's numbers, as `rowkit diff --json` prints them"},
        "reference": relative, "actual": relative, "diff": relative, "composite": relative,
        "warnings": {"type": "array", "items": {"type": "string"},
                     "description": "one line per row with characters no loaded font can draw"},
        "findings": {"type": "array", "items": {"type": "string"},
                     "description": "with --lint, one line per design-lint finding"},
        "headroom": closed({
            "minimum": {"type": "integer", "minimum": 0, "maximum": 100,
                        "description": "the headroom every text slot needs, in percent (--min-headroom)"},
            "slots": {"type": "array", "description": "every label of every row, in table order",
                      "items": closed({
                          "section": count, "row": count,
                          "type": {"type": "string", "description": "the item's type"},
                          "cell": {"type": "string", "description": "the cell that drew the row"},
                          "label": {"type": "string", "description": "the label's name in its row"},
                          "percent": {"type": "integer", "minimum": 0, "maximum": 100, "multipleOf": 5,
                                      "description": "the largest growth of the text, in percent of its length, "
                                      "at which it still fits; absent when it does not fit as written"},
                          "limit": {"enum": ["truncated", "clipped", "overlap"],
                                    "description": "what happens one 5% step further; absent when the text still "
                                    "fits at +100%"},
                      }, required=("section", "row", "type", "cell", "label"))},
        }, required=("minimum", "slots"), description="with --headroom: every text slot's headroom in the case's "
            "render, and the headroom each needs"),
        "layoutChanges": {"type": "array", "description": "what changed in the layout, when the case failed and "
                          "both the reference and the render have a layout record",
                          "items": closed({
                              "row": {"type": "string", "description": "s0-r3, `section 0 header` or `table`"},
                              "element": {"type": ["string", "null"], "description": "the element's name in its row "
                                          "(title, image, accessory…); null for the row itself"},
                              "property": {"type": "string", "description": "what changed: position, size, color, "
                                           "text, fontSize, height, state…"},
                              "from": {"type": ["string", "null"], "description": "the reference's value"},
                              "to": {"type": ["string", "null"], "description": "the render's value"},
                              "sentence": {"type": "string", "description": "the change in one sentence: "
                                           "`s0-r3 title moved down 2 pt (y 12 → 14)`"},
                              "referenceBox": {"type": ["array", "null"], "items": {"type": "integer"},
                                               "minItems": 4, "maxItems": 4,
                                               "description": "where the changed element (or row) is in the "
                                               "reference image, in pixels: [x, y, width, height]; null where it "
                                               "is not there or the change is of the whole table"},
                              "actualBox": {"type": ["array", "null"], "items": {"type": "integer"},
                                            "minItems": 4, "maxItems": 4,
                                            "description": "where the changed element (or row) is in the actual "
                                            "image, in pixels; null where it is not there"},
                          }, required=("row", "element", "property", "from", "to", "sentence", "referenceBox",
                                       "actualBox"))},
        "pixelOnly": {"type": "boolean", "description": "true when the layout records are the same and only "
                      "pixels differ"},
        "pixelOnlyElements": {"type": "array", "items": {"type": "string"},
                              "description": "with pixelOnly: the elements whose boxes hold the differing pixels"},
        "pixelOnlySummary": {"type": "string", "description": "with pixelOnly: `layout unchanged; 412 pixels "
                             "differ, all inside s0-r3 title's glyphs`"},
        "rasterizationOnly": {"type": "boolean", "description": "true when the references were recorded in "
                              "another environment, the layout records are the same but for ink boxes and font "
                              "files' digests, and every differing pixel lies inside glyphs of unchanged text: "
                              "`rowkit accept REPORT --rasterization-only` accepts these"},
        "actualLayout": relative, "referenceLayout": relative,
        "cached": {"type": "boolean", "description": "true when the case passed without rendering: every input "
                   "its render read is as it was when a render matched its reference pixel for pixel "
                   "(Suite/name.inputs.json beside the reference)"},
        "seconds": {"type": "number", "minimum": 0, "description": "the time the render workers spent on the "
                    "case, in seconds to the millisecond, not counting its wait behind other cases: what "
                    "`--shard-by cost --timings REPORT` plans shards from"},
        "renderedBecause": {"type": "array", "items": {"type": "string"},
                            "description": "with --explain-cache: why the render cache could not pass the case, "
                            "one phrase each (`stylesheet ../Styles/app.yaml changed`, `no stored inputs`)"},
    }, required=("name", "document", "status"))
    schema = header(
        "check-report.schema.json", "RowKit check report",
        "report.json of `rowkit check --report DIR` and `rowkit merge-reports -o DIR`.")
    schema.update(closed({
        "summary": closed({**{name: count for name in ("total", "passed", "failed", "new", "missing", "errors", "orphans")},
                           "rasterizationOnly": {**count, "description": "failed cases that differ in rasterization "
                                                 "only (cases[].rasterizationOnly); absent for none"},
                           "cached": {**count, "description": "passed cases that passed without rendering "
                                      "(cases[].cached); absent for none"}},
                          required=("total", "passed", "failed", "new", "missing", "errors", "orphans")),
        "shard": {"type": "string", "pattern": "^[0-9]+/[0-9]+$", "description": "i/n for a shard's report"},
        "suite": {"type": "array", "items": {"type": "string"}, "description": "for a shard: every case of the "
                  "whole suite, in order; rowkit merge-reports puts the shards' cases back in this order and names "
                  "the cases no shard or two shards checked"},
        "run": {"type": "string", "description": "the run's identity, shared by its shards"},
        "snapshots": {"type": "string", "description": "the references folder: relative to the folder the check ran "
                      "in when inside it (Snapshots/Check), else absolute; rowkit accept writes into no other"},
        "recordMode": {"enum": ["never", "missing", "failed", "all"]},
        "options": {"type": "object", "description": "the comparison tolerances"},
        "environment": {"type": "object", "description": "the environment fingerprint (environment.json)"},
        "environmentMismatch": {"type": "string"},
        "cases": {"type": "array", "items": case},
        "orphans": {"type": "array", "items": {"type": "string"},
                    "description": "reference files, relative to snapshots, that no case checks"},
        "failsOnOrphans": {"type": "boolean"},
        "referencesWithoutLayoutRecord": {**count, "description": "references checked that have no layout "
                                          "record beside them (`--record missing` adds them)"},
    }, required=("summary", "run", "snapshots", "recordMode", "options", "environment", "cases", "orphans",
                 "failsOnOrphans")))
    return schema


# MARK: - Layout records


def layout_record_schema():
    """<name>.layout.json beside each reference PNG: what the render laid out (LayoutRecord.swift)."""
    number = {"type": "number"}
    frame = {"type": "array", "items": number, "minItems": 4, "maxItems": 4,
             "description": "[x, y, width, height] in points, in the cell's coordinates, on the 1/64 point grid"}
    color = {"type": "string", "pattern": "^#[0-9A-F]{6}([0-9A-F]{2})?$", "description": "#RRGGBB or #RRGGBBAA"}
    direction = {"enum": ["ltr", "rtl"]}
    run = closed({
        "text": {"type": "string", "description": "the characters drawn by one font"},
        "family": {"type": "string", "description": "the font's family; absent for characters no font has"},
        "file": {"type": "string", "description": "the font file's name"},
        "sha256": {"type": "string", "pattern": "^([0-9a-f]{12}|missing)$",
                   "description": "the first 12 hex digits of the font file's SHA-256"},
    }, required=("text",))
    text = closed({
        "string": {"type": "string"}, "family": {"type": "string", "description": "the family the label asked for"},
        "runs": {"type": "array", "items": run}, "size": number, "weight": {"type": "integer"},
        "italic": {"type": "boolean"}, "lines": {"type": "integer", "minimum": 0},
        "ellipsized": {"type": "boolean"}, "truncated": {"type": "boolean"},
        "missingGlyphs": {"type": "integer", "minimum": 0}, "direction": direction,
    }, required=("string", "family", "runs", "size", "weight", "italic", "lines", "ellipsized", "truncated",
                 "missingGlyphs", "direction"))
    image = closed({
        "state": {"enum": ["loaded", "default", "failed"]},
        "url": {"type": "string"},
        "digest": {"type": "string", "pattern": "^[0-9a-f]{16}$",
                   "description": "the first 16 hex digits of the SHA-256 of the pixels drawn in the slot"},
    })
    element = closed({
        "name": {"type": "string", "description": "unique in its row: title, subtitle, image, accessory…"},
        "kind": {"enum": ["text", "image", "accessory", "background", "decoration"]},
        "frame": frame, "ink": {**frame, "description": "where a label's glyphs put ink, its shadow's included"},
        "color": color, "shadow": {**color, "description": "a label's shadow color (a second drawing of its text)"},
        "text": text, "image": image,
        "style": {"type": "string", "pattern": "^[0-9a-f]{8}$", "description": "a digest of the style drawn"},
        "value": {"type": "string", "description": "the accessory's or control's kind or state"},
    }, required=("name", "kind", "frame"))
    index = {"type": "integer", "minimum": 0}
    band = closed({
        "section": index, "kind": {"enum": ["header", "footer"]}, "y": number, "height": number,
        "elements": {"type": "array", "items": element},
    }, required=("section", "kind", "y", "height", "elements"))
    row = closed({
        "section": index, "row": index, "type": {"type": "string"}, "cell": {"type": "string"},
        "y": number, "height": number, "x": number, "selected": {"type": "boolean"}, "direction": direction,
        "elements": {"type": "array", "items": element},
    }, required=("section", "row", "type", "cell", "y", "height", "x", "selected", "direction", "elements"))
    schema = header(
        "layout-record.schema.json", "RowKit layout record",
        "<name>.layout.json beside a reference <name>.png: every row's elements as the render laid them out.")
    schema.update(closed({
        "version": {"const": 1}, "width": number, "scale": number, "style": {"enum": ["plain", "grouped"]},
        "variant": {"type": "string"}, "height": number,
        "bands": {"type": "array", "items": band}, "rows": {"type": "array", "items": row},
    }, required=("version", "width", "scale", "style", "height", "bands", "rows")))
    return schema


SCHEMAS = {
    "table-document.schema.json": table_document_schema,
    "stylesheet.schema.json": stylesheet_schema,
    "cell-design.schema.json": cell_design_schema,
    "check-report.schema.json": check_report_schema,
    "layout-record.schema.json": layout_record_schema,
}


def render(make):
    return json.dumps(make(), indent=2, ensure_ascii=False) + "\n"


def main():
    check = "--check" in sys.argv[1:]
    stale = []
    for name, make in SCHEMAS.items():
        path = ROOT / "Schemas" / name
        text = render(make)
        if check:
            if not path.exists() or path.read_text() != text:
                stale.append(name)
        else:
            path.parent.mkdir(exist_ok=True)
            path.write_text(text)
    if stale:
        print(f"make-schemas: Schemas/{', '.join(stale)} differ from what scripts/make-schemas.py writes; "
              "run it and commit the result", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
