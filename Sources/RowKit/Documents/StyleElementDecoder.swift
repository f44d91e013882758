import RowKitGraphics

/// Decodes one style element of a stylesheet (`{ shadow: { color: "#0008", blur: 4 } }`),
/// checking every parameter's kind. Colors, fonts and numbers may be variable names.
struct StyleElementDecoder {
  let sheet: Stylesheet
  let loader: StylesheetLoader

  func decode(_ name: String, _ value: YAMLValue) throws -> StyleElement {
    switch name {
    case "shape":
      return .shape(try shape(value))
    case "inset":
      return .inset(try insets(value))
    case "box":
      let map = try value.mapping(allowed: ["margin", "padding"])
      return .box(margin: try map["margin"].map(insets) ?? .zero, padding: try map["padding"].map(insets) ?? .zero)
    case "fill":
      return .fill(try color(value))
    case "linearGradient":
      let (first, second) = try colorPair(value)
      return .linearGradient(first, second)
    case "reflectiveFill":
      if case .mapping = value.node {
        let map = try value.mapping(allowed: ["color", "bottomHighlight"])
        return .reflectiveFill(try color(map.required("color")), bottomHighlight: try map["bottomHighlight"]?.bool() ?? false)
      }
      return .reflectiveFill(try color(value), bottomHighlight: false)
    case "shadow", "innerShadow":
      let map = try value.mapping(allowed: ["color", "blur", "offset"])
      let color = try self.color(map.required("color"))
      let blur = try number(map["blur"], default: 0, range: Bounds.blur)
      let offset = try map["offset"].map(size) ?? Size(width: 0, height: 0)
      return name == "shadow"
        ? .shadow(color: color, blur: blur, offset: offset) : .innerShadow(color: color, blur: blur, offset: offset)
    case "border":
      let map = try value.mapping(allowed: ["color", "width"])
      return .border(color: try color(map.required("color")), width: try width(map["width"]))
    case "highlightBorder":
      let map = try value.mapping(allowed: ["color", "highlight", "width"])
      return .highlightBorder(
        color: try color(map.required("color")), highlight: try color(map.required("highlight")), width: try width(map["width"]))
    case "fourBorder":
      let map = try value.mapping(allowed: ["top", "right", "bottom", "left", "width"])
      guard ["top", "right", "bottom", "left"].contains(where: { map[$0] != nil }) else {
        throw value.error("a fourBorder needs at least one of top, right, bottom, left")
      }
      return .fourBorder(
        top: try map["top"].map(color), right: try map["right"].map(color), bottom: try map["bottom"].map(color),
        left: try map["left"].map(color), width: try width(map["width"]))
    case "bevelBorder":
      let map = try value.mapping(allowed: ["highlight", "shadow", "width", "lightSource"])
      return .bevelBorder(
        highlight: try map["highlight"].map(color), shadow: try map["shadow"].map(color), width: try width(map["width"]),
        lightSource: try number(map["lightSource"], default: 125, range: Bounds.angle))
    case "gradientBorder":
      let map = try value.mapping(allowed: ["colors", "locations", "width"])
      let (first, second) = try colorPair(map.required("colors", "two colors, [top, bottom]"))
      var locations = (0.0, 1.0)
      if let value = map["locations"] {
        let list = try value.sequence()
        guard list.count == 2 else { throw value.error("two locations from 0 to 1, [first, second]") }
        locations = (try number(list[0], range: Bounds.fraction), try number(list[1], range: Bounds.fraction))
      }
      return .gradientBorder(first, second, location1: locations.0, location2: locations.1, width: try width(map["width"]))
    case "blend":
      let mode = try value.string()
      guard let blend = BlendMode(rawValue: mode) else {
        throw value.error("unknown blend mode '\(mode)' (\(BlendMode.allCases.map(\.rawValue).joined(separator: ", ")))")
      }
      return .blend(blend)
    case "text":
      let map = try value.mapping(allowed: ["font", "color", "shadowColor", "shadowOffset", "align"])
      var text = TextElement()
      if let font = map["font"] { text.font = try self.font(font) }
      if let color = map["color"] { text.color = try self.color(color) }
      if let shadow = map["shadowColor"] { text.shadowColor = try color(shadow) }
      if let offset = map["shadowOffset"] { text.shadowOffset = try size(offset) }
      if let align = map["align"] {
        let word = try align.string()
        guard let alignment = TextStyle.Alignment(rawValue: word) else {
          throw align.error("align is left, center or right, not '\(word)'")
        }
        text.alignment = alignment
      }
      return .text(text)
    case "content":
      if !value.isNull { _ = try value.mapping(allowed: []) }
      return .content
    default:
      var message = "unknown style element '\(name)' (known: \(Style.elementNames.joined(separator: ", ")))"
      if let suggestion = YAMLValue.closest(to: name, in: Set(Style.elementNames)) {
        message += "; did you mean '\(suggestion)'?"
      }
      throw DocumentError(
        file: value.file, line: value.line, column: value.column, keyPath: value.keyPath, message: message)
    }
  }

  // MARK: - Parameters

  private func shape(_ value: YAMLValue) throws -> StyleShape {
    if case .scalar = value.node {
      let name = try value.string()
      guard name == "rectangle" else {
        throw value.error(
          "unknown shape '\(name)' (rectangle, or a map: roundedRect, roundedLeftArrow, roundedRightArrow, speechBubble)")
      }
      return .rectangle
    }
    let map = try value.mapping(allowed: ["rectangle", "roundedRect", "roundedLeftArrow", "roundedRightArrow", "speechBubble"])
    guard map.entries.count == 1, let (kind, parameters) = map.entries.first else {
      throw value.error("a shape is one of rectangle, roundedRect, roundedLeftArrow, roundedRightArrow, speechBubble")
    }
    switch kind {
    case "rectangle":
      return .rectangle
    case "roundedRect":
      if case .sequence = parameters.node {
        let radii = try parameters.sequence().map { try number($0, range: Bounds.radius) }
        guard radii.count == 4 else { throw parameters.error("four radii: [topLeft, topRight, bottomRight, bottomLeft]") }
        return .roundedRect(CornerRadii(topLeft: radii[0], topRight: radii[1], bottomRight: radii[2], bottomLeft: radii[3]))
      }
      return .roundedRect(CornerRadii(all: try number(parameters, range: Bounds.radius)))
    case "roundedLeftArrow":
      return .roundedLeftArrow(radius: try number(parameters, range: Bounds.radius))
    case "roundedRightArrow":
      return .roundedRightArrow(radius: try number(parameters, range: Bounds.radius))
    default:
      let bubble = try parameters.mapping(allowed: ["radius", "pointLocation", "pointAngle", "pointSize"])
      return .speechBubble(
        radius: try number(bubble["radius"], default: 5, range: Bounds.radius),
        pointLocation: try number(bubble["pointLocation"], default: 60, range: Bounds.turn),
        pointAngle: try number(bubble["pointAngle"], default: 90, range: Bounds.turn),
        pointSize: try bubble["pointSize"].map(size) ?? Size(width: 10, height: 5))
    }
  }

  private func insets(_ value: YAMLValue) throws -> EdgeInsets {
    if case .sequence = value.node {
      let list = try value.sequence().map { try number($0, range: Bounds.inset) }
      guard list.count == 4 else { throw value.error("expected [top, right, bottom, left], found \(list.count) numbers") }
      return EdgeInsets(top: list[0], left: list[3], bottom: list[2], right: list[1])
    }
    return EdgeInsets(all: try number(value, range: Bounds.inset))
  }

  private func size(_ value: YAMLValue) throws -> Size {
    let list = try value.sequence()
    guard list.count == 2 else { throw value.error("expected [x, y], found \(list.count) numbers") }
    return Size(width: try number(list[0], range: Bounds.offset), height: try number(list[1], range: Bounds.offset))
  }

  private func width(_ value: YAMLValue?) throws -> Double {
    try number(value, default: 1, range: Bounds.borderWidth)
  }

  private func number(_ value: YAMLValue?, default fallback: Double, range: ClosedRange<Double>) throws -> Double {
    guard let value else { return fallback }
    return try number(value, range: range)
  }

  /// A number, or the name of a number variable.
  private func number(_ value: YAMLValue, range: ClosedRange<Double>) throws -> Double {
    try value.number(in: range, variables: sheet)
  }

  private func color(_ value: YAMLValue) throws -> Color {
    let text = try value.string()
    do {
      return try sheet.color(ColorReference(parsing: text, in: sheet))
    } catch {
      throw value.error(error.message)
    }
  }

  private func colorPair(_ value: YAMLValue) throws -> (Color, Color) {
    let colors = try value.sequence()
    guard colors.count == 2 else { throw value.error("two colors, [top, bottom]") }
    return (try color(colors[0]), try color(colors[1]))
  }

  private func font(_ value: YAMLValue) throws -> Font {
    let text = try value.string()
    let font: Font
    do {
      font = try sheet.font(FontReference(parsing: text, in: sheet))
    } catch {
      throw value.error(error.message)
    }
    try loader.checkFont(font, value)
    return font
  }
}
