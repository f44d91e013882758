import Foundation
import RowKitGraphics

extension Stylesheet {
  /// Loads a stylesheet file (`extends`, `vars`, `styles`), checked like a document's; its
  /// fonts may name `fontFamilies` (by default those of RowKit's standard text environment,
  /// which `rowkit fonts` lists) and those of its own `fonts:`.
  public static func load(contentsOf url: URL, fontFamilies: [String]? = nil) throws -> Stylesheet {
    let url = ContainedPath.standardized(url)
    return try StylesheetLoader(fontFamilies: try fontFamilies ?? TextEnvironment.standard.fontSet().families)
      .load(url, displayName: displayPath(url))
  }

  /// Loads a stylesheet file as ``load(contentsOf:fontFamilies:)`` does, with every file
  /// read: itself, the stylesheets it extends and its font files.
  package static func loadRecordingFiles(contentsOf url: URL, fontFamilies: [String]) throws -> (Stylesheet, [URL]) {
    let url = ContainedPath.standardized(url)
    let recorder = FileRecorder()
    var loader = StylesheetLoader(fontFamilies: fontFamilies)
    loader.recorder = recorder
    let stylesheet = try loader.load(url, displayName: displayPath(url))
    return (stylesheet, recorder.files)
  }

  /// Decodes a stylesheet from bytes, as if read from `url` (whose folder is where
  /// `extends` and `fonts` resolve), checked as ``load(contentsOf:fontFamilies:)`` checks a
  /// file: for tools that hold a stylesheet in memory, and for the fuzz harnesses.
  public static func decode(_ bytes: [UInt8], as url: URL, fontFamilies: [String]) throws -> Stylesheet {
    let canonical = url.standardizedFileURL.resolvingSymlinksInPath().path
    let value = try YAMLValue.parse(bytes, displayName: displayPath(url))
    return try StylesheetLoader(fontFamilies: fontFamilies)
      .decode(value, directory: url.deletingLastPathComponent(), chain: [canonical])
  }
}

/// Reads stylesheet files: `extends` (`default` or a path), `vars` and `styles`.
struct StylesheetLoader {
  /// The font families a font variable may name (besides the stylesheet's own `fonts:`).
  var fontFamilies: [String]
  /// Collects every file read, for watch mode.
  var recorder: FileRecorder? = nil

  /// Loads the stylesheet at `url`, following `extends` and refusing cycles.
  func load(_ url: URL, displayName: String, chain: [String] = []) throws -> Stylesheet {
    let canonical = url.standardizedFileURL.resolvingSymlinksInPath().path
    recorder?.record(url)
    let value = try YAMLValue.load(contentsOf: url, displayName: displayName)
    return try decode(value, directory: url.deletingLastPathComponent(), chain: chain + [canonical])
  }

  /// Decodes a stylesheet map (from a file or inline in a document).
  func decode(_ value: YAMLValue, directory: URL, chain: [String]) throws -> Stylesheet {
    let map = try value.mapping(allowed: ["extends", "fonts", "vars", "darkVars", "styles"])
    var base = Stylesheet.default
    if let extends = map["extends"] {
      let name = try extends.path(of: "a stylesheet file (or default, or default-dark)")
      if name == Stylesheet.defaultDarkName {
        base = .defaultDark
      } else if name != "default" {
        let url = resolve(name, against: directory)
        let canonical = url.standardizedFileURL.resolvingSymlinksInPath().path
        if chain.contains(canonical) {
          let cycle = (chain + [canonical]).map { URL(fileURLWithPath: $0).lastPathComponent }.joined(separator: " → ")
          throw extends.error("stylesheets extend each other in a cycle: \(cycle)")
        }
        if let problem = fileProblem(url, named: name, kind: "stylesheet file") { throw extends.error(problem) }
        // Each step of a chain is a frame of this recursion: a chain of ten thousand files
        // ran out of stack.
        guard chain.count < Bounds.stylesheetChain else {
          throw extends.error("more than \(Bounds.stylesheetChain) stylesheets extend one another in a chain")
        }
        base = try load(url, displayName: displayPath(url), chain: chain)
      }
    }
    var sheet = base
    var loader = self
    loader.fontFamilies += base.fonts.families
    if let fonts = map["fonts"] {
      for font in try BrandFont.decodeList(fonts, relativeTo: directory) where !sheet.fonts.contains(font) {
        sheet.fonts.append(font)
        recorder?.record(font.file)
      }
      loader.fontFamilies += sheet.fonts.families
    }
    return try loader.decodeVariablesAndStyles(map, onto: sheet)
  }

  private func decodeVariablesAndStyles(_ map: KeyedValues, onto base: Stylesheet) throws -> Stylesheet {
    var sheet = base
    if let vars = map["vars"] {
      let derivedBefore = sheet.derivedStyles
      // A mapping has no order: a variable naming another of the same `vars:` takes that
      // one's new value, wherever it is written. Each round takes the variables whose value
      // names no variable still waiting; a round that takes none leaves a cycle.
      var waiting = try vars.mapping().entries
      while !waiting.isEmpty {
        let waitingNames = Set(waiting.map(\.0))
        func named(_ entry: YAMLValue) -> String? {
          guard case .scalar(let scalar) = entry.node, !scalar.string.hasPrefix("#") else { return nil }
          return scalar.string
        }
        var stillWaiting: [(String, YAMLValue)] = []
        for (name, entry) in waiting {
          if let other = named(entry), other != name, waitingNames.contains(other) {
            stillWaiting.append((name, entry))
          } else {
            sheet.variables[name] = try variable(name, entry, in: sheet)
          }
        }
        if stillWaiting.count == waiting.count, let first = stillWaiting.first?.0 {
          // Each waits for another that waits: following them from any comes round to a
          // cycle, which is told from its start (a variable that only names one is not in it).
          let references = Dictionary(stillWaiting.map { ($0.0, named($0.1) ?? "") }, uniquingKeysWith: { first, _ in first })
          var path = [first]
          while let next = references[path[path.count - 1]], !path.contains(next) { path.append(next) }
          let start = references[path[path.count - 1]] ?? first
          let cycle = Array(path[(path.firstIndex(of: start) ?? 0)...]) + [start]
          let entry = stillWaiting.first { $0.0 == start }?.1 ?? vars
          throw entry.error("variables name each other in a cycle: \(cycle.joined(separator: " → "))")
        }
        waiting = stillWaiting
      }
      // Styles still as the base derived them follow the new variables.
      for (name, style) in sheet.derivedStyles where sheet.styles[name] == derivedBefore[name] {
        sheet.styles[name] = style
      }
    }
    if let darkVars = map["darkVars"] {
      for (name, entry) in try darkVars.mapping().entries {
        let value = try variable(name, entry, in: sheet)
        if let light = sheet.variables[name], light.kind != value.kind {
          throw entry.error("variable '\(name)' is a \(light.kind), so its dark value cannot be a \(value.kind)")
        }
        if sheet.variables[name] == nil {
          throw entry.error("'\(name)' has a dark value but no value: define it under vars first")
        }
        sheet.darkVariables[name] = value
      }
    }
    if let styles = map["styles"] {
      for (name, entry) in try styles.mapping().entries {
        sheet.styles[name] = try style(entry, in: sheet)
      }
    }
    return sheet
  }

  /// A variable's value. A variable the default stylesheet defines keeps its kind: a color
  /// stays a color. A value naming another variable takes that variable's value.
  private func variable(_ name: String, _ entry: YAMLValue, in sheet: Stylesheet) throws -> Stylesheet.Value {
    let value = try parseValue(entry, in: sheet)
    if let allowed = Stylesheet.keywords[name] {
      guard case .keyword(let word) = value, allowed.contains(word) else {
        throw entry.error("variable '\(name)' is one of \(allowed.joined(separator: ", ")), not '\(entry.describe())'")
      }
      return value
    }
    if case .keyword(let word) = value {
      if let problem = FontReference.problem(word) { throw entry.error(problem) }
      throw entry.error(
        "'\(word)' is neither a color (#RRGGBB), a number, a font (\"Inter Bold 17\") nor a defined variable"
          + (Stylesheet.looksLikeName(word) ? " (undefined variable '\(word)')" : ""))
    }
    if let existing = Stylesheet.default.variables[name], existing.kind != value.kind {
      throw entry.error("variable '\(name)' is a \(existing.kind), so '\(value)' (a \(value.kind)) cannot replace it")
    }
    if case .number(let number) = value, let problem = Bounds.problem(number, in: CellMetrics.range(of: name)) {
      throw entry.error(problem)
    }
    return value
  }

  private func parseValue(_ entry: YAMLValue, in sheet: Stylesheet) throws -> Stylesheet.Value {
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
    if let font = Font.parse(text) {
      try checkFont(font, entry)
      return .font(font)
    }
    return .keyword(text)
  }

  /// Checks that `font`'s family is loaded and its size within ``Bounds/fontSize``.
  func checkFont(_ font: Font, _ entry: YAMLValue) throws {
    if let problem = Bounds.problem(font.size, in: Bounds.fontSize, unit: "points") {
      throw entry.error("the font size \(problem)")
    }
    guard fontFamilies.contains(where: { $0.caseInsensitiveCompare(font.family) == .orderedSame }) else {
      throw entry.error(font.familyNotLoadedMessage)
    }
  }

  // MARK: - Styles

  private func style(_ entry: YAMLValue, in sheet: Stylesheet) throws -> Style {
    var elements: [StyleElement] = []
    for element in try entry.sequence() {
      if case .scalar = element.node, (try? element.string()) == "content" {
        elements.append(.content)
        continue
      }
      let map = try element.mapping()
      guard map.entries.count == 1, let (name, parameters) = map.entries.first else {
        throw element.error("each style element is a map with one key, such as { fill: \"#FFFFFF\" }")
      }
      elements.append(try StyleElementDecoder(sheet: sheet, loader: self).decode(name, parameters))
    }
    return Style(elements)
  }

  /// The file `path` names from a stylesheet in `directory`, as the file system finds it: the
  /// folder's links followed before a `..` of the path is taken, so the file read is the one
  /// named in the inputs a render keeps (`Styles/current/../base.yaml`, where `current` links
  /// to `vendor/theme/v2`, is `vendor/theme/base.yaml`, not `Styles/base.yaml`).
  func resolve(_ path: String, against directory: URL) -> URL {
    if path.hasPrefix("/") { return ContainedPath.standardized(URL(fileURLWithPath: path)) }
    return ContainedPath.standardized(directory.resolvingSymlinksInPath().appendingPathComponent(path))
  }
}

/// Why the file that a document, stylesheet or design names as `path` (found at `url`)
/// cannot be read as a `kind`, or nil: it must be a regular file (``InputFile``). A folder is
/// reported at the key that names it, not as a file that cannot be read (found by fuzzing),
/// and a FIFO is refused before anything waits to read it.
func fileProblem(_ url: URL, named path: String, kind: String) -> String? {
  FilesRead.note(url)
  switch InputFile.problem(at: url.path) {
  case nil: return nil
  case .missing: return "\(kind) '\(path)' does not exist (looked for \(url.path))"
  case let problem?: return "\(kind) '\(path)' \(problem.predicate) (\(url.path))"
  }
}

/// The files a document was read from: the document, its stylesheets, its designs.
final class FileRecorder {
  private(set) var files: [URL] = []

  func record(_ url: URL) {
    let standardized = ContainedPath.standardized(url)
    if !files.contains(standardized) { files.append(standardized) }
  }
}

/// A path as the user would recognize it: relative to the working folder when inside it,
/// with `..` taken out as written (`ContainedPath/standardized(_:)`). How a lint baseline
/// names a document, in `rowkit lint` and `rowkit check` alike.
package func displayPath(_ url: URL) -> String {
  let path = ContainedPath.standardized(url).path
  let here = FileManager.default.currentDirectoryPath
  let prefix = here.hasSuffix("/") ? here : here + "/"
  return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
}
