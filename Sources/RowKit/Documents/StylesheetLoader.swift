import Foundation
import RowKitGraphics

/// Reads stylesheet files: `extends` (`default` or a path), `vars` and `styles`.
struct StylesheetLoader {
  /// The font families a font variable may name.
  let fontFamilies: [String]

  /// Loads the stylesheet at `url`, following `extends` and refusing cycles.
  func load(_ url: URL, displayName: String, chain: [String] = []) throws -> Stylesheet {
    let canonical = url.standardizedFileURL.resolvingSymlinksInPath().path
    let value = try YAMLValue.load(contentsOf: url, displayName: displayName)
    return try decode(value, directory: url.deletingLastPathComponent(), chain: chain + [canonical])
  }

  /// Decodes a stylesheet map (from a file or inline in a document).
  func decode(_ value: YAMLValue, directory: URL, chain: [String]) throws -> Stylesheet {
    let map = try value.mapping(allowed: ["extends", "vars", "styles"])
    var base = Stylesheet.default
    if let extends = map["extends"] {
      let name = try extends.string()
      if name != "default" {
        let url = resolve(name, against: directory)
        let canonical = url.standardizedFileURL.resolvingSymlinksInPath().path
        if chain.contains(canonical) {
          let cycle = (chain + [canonical]).map { URL(fileURLWithPath: $0).lastPathComponent }.joined(separator: " → ")
          throw extends.error("stylesheets extend each other in a cycle: \(cycle)")
        }
        guard FileManager.default.fileExists(atPath: url.path) else {
          throw extends.error("stylesheet file '\(name)' does not exist (looked for \(url.path))")
        }
        base = try load(url, displayName: displayPath(url), chain: chain)
      }
    }
    var sheet = base
    if let vars = map["vars"] {
      for (name, entry) in try vars.mapping().entries {
        sheet.variables[name] = try variable(entry, in: sheet)
      }
    }
    if let styles = map["styles"] {
      for (name, entry) in try styles.mapping().entries {
        sheet.styles[name] = try style(entry, in: sheet)
      }
    }
    return sheet
  }

  private func variable(_ entry: YAMLValue, in sheet: Stylesheet) throws -> Stylesheet.Value {
    if case .scalar(let scalar) = entry.node, scalar.style == .plain, let number = Double.construct(from: scalar),
      number.isFinite
    {
      return .number(number)
    }
    let text = try entry.string()
    if text.hasPrefix("#") {
      guard let color = Color(hex: text) else {
        throw entry.error("'\(text)' is not a color (write #RRGGBB or #RRGGBBAA)")
      }
      return .color(color)
    }
    if let existing = sheet.variables[text] { return existing }
    guard let font = Font.parse(text) else {
      throw entry.error(
        "'\(text)' is neither a color (#RRGGBB), a number, a font (\"Inter Bold 17\") nor a defined variable")
    }
    try checkFamily(font, entry)
    return .font(font)
  }

  func checkFamily(_ font: Font, _ entry: YAMLValue) throws {
    guard fontFamilies.contains(where: { $0.caseInsensitiveCompare(font.family) == .orderedSame }) else {
      throw entry.error(
        "font family '\(font.family)' is not loaded (RowKit's fonts: \(fontFamilies.joined(separator: ", ")))")
    }
  }

  // MARK: - Styles

  private func style(_ entry: YAMLValue, in sheet: Stylesheet) throws -> Style {
    var elements: [StyleElement] = []
    for element in try entry.sequence() {
      let map = try element.mapping()
      guard map.entries.count == 1, let (name, parameters) = map.entries.first else {
        throw element.error("each style element is a map with one key, such as { fill: \"#FFFFFF\" }")
      }
      elements.append(try styleElement(name, parameters, in: sheet))
    }
    return Style(elements)
  }

  private func styleElement(_ name: String, _ value: YAMLValue, in sheet: Stylesheet) throws -> StyleElement {
    switch name {
    case "shape":
      return .shape(try shape(value))
    case "inset":
      let insets = try value.insets()
      return .inset(EdgeInsets(top: insets.top, left: insets.left, bottom: insets.bottom, right: insets.right))
    case "fill":
      return .fill(try color(value, in: sheet))
    case "linearGradient":
      let colors = try value.sequence()
      guard colors.count == 2 else { throw value.error("a linear gradient takes two colors, [top, bottom]") }
      return .linearGradient(try color(colors[0], in: sheet), try color(colors[1], in: sheet))
    case "border":
      let map = try value.mapping(allowed: ["color", "width"])
      let width = try map["width"]?.double() ?? 1
      guard width > 0, width <= 100 else { throw value.error("border width \(width) is out of range (0 to 100)") }
      return .border(color: try color(map.required("color"), in: sheet), width: width)
    default:
      var message = "unknown style element '\(name)' (known: \(Style.elementNames.joined(separator: ", ")))"
      if let suggestion = YAMLValue.closest(to: name, in: Set(Style.elementNames)) {
        message += "; did you mean '\(suggestion)'?"
      }
      throw DocumentError(
        file: value.file, line: value.line, column: value.column, keyPath: value.keyPath, message: message)
    }
  }

  private func shape(_ value: YAMLValue) throws -> StyleShape {
    if case .scalar = value.node {
      let name = try value.string()
      guard name == "rectangle" else { throw value.error("unknown shape '\(name)' (rectangle, or { roundedRect: R })") }
      return .rectangle
    }
    let map = try value.mapping(allowed: ["rectangle", "roundedRect"])
    if map["rectangle"] != nil { return .rectangle }
    let radius = try map.required("roundedRect", "a corner radius, -1 for a pill, or four radii")
    if case .sequence = radius.node {
      let radii = try radius.sequence().map { try $0.double() }
      guard radii.count == 4 else { throw radius.error("four radii: [topLeft, topRight, bottomRight, bottomLeft]") }
      return .roundedRect(CornerRadii(topLeft: radii[0], topRight: radii[1], bottomRight: radii[2], bottomLeft: radii[3]))
    }
    return .roundedRect(CornerRadii(all: try radius.double()))
  }

  func color(_ value: YAMLValue, in sheet: Stylesheet) throws -> Color {
    let text = try value.string()
    do {
      return try sheet.color(text)
    } catch {
      throw value.error(error.message)
    }
  }

  func resolve(_ path: String, against directory: URL) -> URL {
    path.hasPrefix("/") ? URL(fileURLWithPath: path) : directory.appendingPathComponent(path)
  }
}

/// A path as the user would recognize it: relative to the working folder when inside it.
func displayPath(_ url: URL) -> String {
  let path = url.standardizedFileURL.path
  let here = FileManager.default.currentDirectoryPath
  let prefix = here.hasSuffix("/") ? here : here + "/"
  return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
}
