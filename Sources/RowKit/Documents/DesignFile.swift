import Foundation
import RowKitGraphics

/// A cell design loaded from a file: a ``CellDesign`` whose labels and images are bound to
/// an item's fields (`bind: name`, or `text: "{first} {last}"`).
public struct DesignTemplate: Hashable, Sendable {
  /// Where a design element's text comes from.
  public enum TextSource: Hashable, Sendable {
    /// The text of one item field, named by `bind:`.
    case bind(String)
    /// Text with `{field}` substitutions; `{{` and `}}` write braces.
    case template([TemplatePart])
  }

  /// A piece of a design file's text template: literal text or a field.
  public enum TemplatePart: Hashable, Sendable {
    /// Text written as it is.
    case literal(String)
    /// The value of the item field of this name.
    case field(String)
  }

  indirect enum Node: Hashable, Sendable {
    case stack(DesignStack, [Node])
    /// A label, its text, and its color when the color is a template (`"{trendColor}"`).
    case label(DesignLabel, TextSource, color: [TemplatePart]?)
    case image(DesignImage, TextSource?)
    case spacer(DesignSpacer)
  }

  /// The path of the design file, for error messages.
  public let file: String
  var design: CellDesign
  var body: Node
  /// Every field the design reads.
  public internal(set) var fields: Set<String> = []
  /// The fields whose values are image URLs.
  public internal(set) var imageFields: Set<String> = []
  /// The fields the design's labels show, in the order the design shows them: what a row
  /// of the design is known by (its first text) where its item has no title of its own.
  public internal(set) var shownFields: [String] = []
  /// The sample items of the design's `preview:`, as fields.
  public internal(set) var previews: [[String: String]] = []

  /// Adds `field` to ``shownFields``, where a label shows it first.
  mutating func show(_ field: String) {
    if !shownFields.contains(field) { shownFields.append(field) }
  }

  /// Loads and checks the design file at `url` against `stylesheet`; `assets` is where its
  /// `bundle://` URLs resolve (by default the file's folder).
  ///
  /// `fontFamilies` are the families the design's fonts may name: those of the text
  /// environment the design will be drawn with (by default RowKit's standard one, which
  /// `rowkit fonts` lists), plus the families of any brand font files `--fonts` loads; those
  /// of `stylesheet`'s own `fonts:` are added here. A font naming any other family is an
  /// error here, not a silent fallback at render time.
  public static func load(
    contentsOf url: URL, stylesheet: Stylesheet = .default, fontFamilies: [String]? = nil, assets: URL? = nil
  ) throws -> DesignTemplate {
    let url = ContainedPath.standardized(url)
    let folder = url.deletingLastPathComponent()
    return try DesignFileLoader(
      stylesheet: stylesheet,
      fontFamilies: (try fontFamilies ?? TextEnvironment.standard.fontSet().families) + stylesheet.fonts.flatMap(\.families),
      resolver: ImageURLResolver(assetsDirectory: assets ?? folder, baseDirectory: folder)
    ).load(url)
  }

  /// Decodes a design from bytes, as if read from `url`, checked as
  /// ``load(contentsOf:stylesheet:fontFamilies:assets:)`` checks a file: for tools that hold
  /// a design in memory, and for the fuzz harnesses.
  public static func decode(
    _ bytes: [UInt8], as url: URL, stylesheet: Stylesheet = .default, fontFamilies: [String], assets: URL? = nil
  ) throws -> DesignTemplate {
    let folder = url.deletingLastPathComponent()
    return try DesignFileLoader(
      stylesheet: stylesheet, fontFamilies: fontFamilies,
      resolver: ImageURLResolver(assetsDirectory: assets ?? folder, baseDirectory: folder)
    ).decode(YAMLValue.parse(bytes, displayName: displayPath(url)))
  }

  /// Checks that colors given by templates resolve for these fields.
  func checkColors(for fields: [String: String], in stylesheet: Stylesheet) throws(StyleError) {
    func walk(_ node: Node) throws(StyleError) {
      switch node {
      case .stack(_, let children): for child in children { try walk(child) }
      case .label(_, _, let color?):
        _ = try stylesheet.color(ColorReference(parsing: Self.text(.template(color), fields), in: stylesheet))
      default: break
      }
    }
    try walk(body)
  }

  /// The design for one item's fields. Missing fields read as empty text.
  public func design(for fields: [String: String]) -> CellDesign {
    var design = self.design
    design.body = instantiate(body, fields)
    return design
  }

  private func instantiate(_ node: Node, _ fields: [String: String]) -> DesignNode {
    switch node {
    case .stack(var stack, let children):
      stack.children = children.map { instantiate($0, fields) }
      return .stack(stack)
    case .label(var label, let source, let color):
      label.text = Self.text(source, fields)
      if let color {
        // checkColors read this text as a reference for every item's fields before any
        // layout; text of no other form names a variable, which layout then reports.
        let text = Self.text(.template(color), fields)
        label.color = (try? ColorReference(parsing: text)) ?? .variable(text)
      }
      return .label(label)
    case .image(var image, let source):
      if let source { image.url = Self.text(source, fields).nilIfEmpty }
      return .image(image)
    case .spacer(let spacer):
      return .spacer(spacer)
    }
  }

  static func text(_ source: TextSource, _ fields: [String: String]) -> String {
    switch source {
    case .bind(let field): return fields[field] ?? ""
    case .template(let parts):
      return parts.map {
        switch $0 {
        case .literal(let text): return text
        case .field(let field): return fields[field] ?? ""
        }
      }.joined()
    }
  }
}

extension String {
  var nilIfEmpty: String? { isEmpty ? nil : self }
}

/// Draws items with a design file: document items by their fields, and Swift items by
/// their stored properties of the same names.
///
/// ```swift
/// let families = try TextEnvironment.standard.makeShaper().families
/// let person = try DesignTemplate.load(contentsOf: URL(fileURLWithPath: "cells/person.yaml"), fontFamilies: families)
/// dataSource.register(DesignFileCell(name: "PersonCell", template: person), for: PersonItem.self)
/// ```
public struct DesignFileCell: DesignedCell {
  /// The name manifests show for the rows it draws.
  public let name: String
  /// The design file the rows are drawn from.
  public let template: DesignTemplate

  /// A cell named `name` that draws every row from `template`.
  public init(name: String, template: DesignTemplate) {
    self.name = name
    self.template = template
  }

  /// The template's design with the item's fields filled in.
  public func design(for item: any TableItem) throws -> CellDesign {
    template.design(for: Self.fields(of: item))
  }

  /// A document item's fields, or a Swift value's properties as text.
  static func fields(of item: any TableItem) -> [String: String] {
    if let item = item as? DocumentItem { return item.fields }
    var fields: [String: String] = [:]
    for child in Mirror(reflecting: item).children {
      guard let label = child.label else { continue }
      let value = child.value
      if let optional = value as? OptionalText {
        if let text = optional.text { fields[label] = text }
      } else {
        fields[label] = String(describing: value)
      }
    }
    return fields
  }
}

/// Optional properties read as their value, or as missing.
private protocol OptionalText {
  var text: String? { get }
}

extension Optional: OptionalText {
  var text: String? { map { String(describing: $0) } }
}

/// Reads design files (`docs/formats.md`, "Cell design files") and checks them against the stylesheet.
struct DesignFileLoader {
  /// Whether a YAML file looks like a design (its top level has `body`).
  static func looksLikeDesign(_ url: URL) -> Bool {
    guard let value = try? YAMLValue.load(contentsOf: url, displayName: url.lastPathComponent),
      let map = try? value.mapping()
    else { return false }
    return map.keys.contains("body")
  }

  let stylesheet: Stylesheet
  let fontFamilies: [String]
  let resolver: ImageURLResolver

  func load(_ url: URL) throws -> DesignTemplate {
    try decode(YAMLValue.load(contentsOf: url, displayName: displayPath(url)))
  }

  func decode(_ value: YAMLValue) throws -> DesignTemplate {
    let map = try value.mapping(
      allowed: ["padding", "minHeight", "height", "background", "selectedBackground", "body", "preview"])
    var design = CellDesign(body: .spacer(DesignSpacer()))
    if let padding = map["padding"] {
      let insets = try padding.insets(in: Bounds.padding)
      design.padding = EdgeInsets(top: insets.top, left: insets.left, bottom: insets.bottom, right: insets.right)
    }
    if let minHeight = map["minHeight"] { design.minHeight = try minHeight.number(in: Bounds.length, variables: stylesheet) }
    if let height = map["height"] { design.height = try height.number(in: Bounds.rowHeight, variables: stylesheet) }
    if let background = map["background"] { design.background = try styleName(background) }
    if let selected = map["selectedBackground"] { design.selectedBackground = try styleName(selected) }
    var template = DesignTemplate(file: value.file, design: design, body: .spacer(DesignSpacer()))
    template.body = try node(map.required("body", "the design's root view"), into: &template)
    if let preview = map["preview"] {
      for entry in try preview.sequence() {
        template.previews.append(try fields(entry, for: template))
      }
    }
    return template
  }

  /// An item's fields for `template`: each field it shows, and nothing else besides the keys
  /// every item may have. Image fields must be image URLs; templated colors must resolve.
  func fields(_ value: YAMLValue, for template: DesignTemplate, extraKeys: Set<String> = []) throws -> [String: String] {
    let map = try value.mapping(allowed: template.fields.union(extraKeys))
    var fields: [String: String] = [:]
    for field in template.fields.sorted() {
      guard let fieldValue = map[field] else {
        // `field: null` leaves a field out on purpose, as `nil` does for a Swift item.
        if map.entries.contains(where: { $0.0 == field }) { continue }
        throw value.error("missing field '\(field)', which \(template.file) shows (write '\(field): null' to leave it out)")
      }
      guard case .scalar = fieldValue.node else {
        throw fieldValue.error("field '\(field)' must be text, a number or true/false, not \(fieldValue.kindName)")
      }
      fields[field] = try template.imageFields.contains(field) ? fieldValue.imageURL(resolver) : fieldValue.string()
    }
    do {
      try template.checkColors(for: fields, in: stylesheet)
    } catch {
      throw value.error(error.message)
    }
    return fields
  }

  private func node(_ value: YAMLValue, into template: inout DesignTemplate) throws -> DesignTemplate.Node {
    let map = try value.mapping()
    guard map.entries.count == 1, let (kind, body) = map.entries.first else {
      throw value.error("a view is a map with one key: hstack, vstack, zstack, label, image or spacer")
    }
    switch kind {
    case "hstack", "vstack", "zstack":
      let stackMap = try body.mapping(allowed: ["spacing", "align", "padding", "grow", "children"])
      let axis: DesignStack.Axis = kind == "hstack" ? .horizontal : kind == "vstack" ? .vertical : .overlay
      var stack = DesignStack(axis: axis, alignment: axis == .horizontal ? .center : .start, children: [])
      if let spacing = stackMap["spacing"] { stack.spacing = try spacing.number(in: Bounds.padding, variables: stylesheet) }
      if let align = stackMap["align"] { stack.alignment = try option(align, DesignStack.Alignment.self) }
      if let padding = stackMap["padding"] {
        let insets = try padding.insets(in: Bounds.padding)
        stack.padding = EdgeInsets(top: insets.top, left: insets.left, bottom: insets.bottom, right: insets.right)
      }
      if let grow = stackMap["grow"] { stack.grow = try grow.number(in: Bounds.grow, variables: stylesheet) }
      let children = try stackMap.required("children").sequence().map { try node($0, into: &template) }
      return .stack(stack, children)
    case "label":
      let labelMap = try body.mapping(
        allowed: ["bind", "text", "font", "color", "highlightedColor", "lines", "align", "ellipsize", "grow", "name"])
      var label = DesignLabel(text: "")
      let source = try textSource(labelMap, body, into: &template)
      if let font = labelMap["font"] { label.font = try fontReference(font) }
      var colorTemplate: [DesignTemplate.TemplatePart]?
      if let color = labelMap["color"] {
        let reference = try color.string()
        if reference.contains("{") {
          colorTemplate = try Self.parseTemplate(reference, color)
          for case .field(let field) in colorTemplate! { template.fields.insert(field) }
        } else {
          label.color = try colorReference(color)
        }
      }
      if let color = labelMap["highlightedColor"] { label.highlightedColor = try colorReference(color) }
      if let lines = labelMap["lines"] {
        label.lines = try lines.int(in: Bounds.lines)
      }
      if let align = labelMap["align"] { label.alignment = try option(align, TextStyle.Alignment.self) }
      if let ellipsize = labelMap["ellipsize"] { label.ellipsize = try option(ellipsize, TextStyle.Ellipsize.self) }
      if let grow = labelMap["grow"] { label.grow = try grow.number(in: Bounds.grow, variables: stylesheet) }
      label.name = try labelMap["name"]?.string()
      _ = try fontReference(YAMLValue(node: .init(label.font.description), file: body.file, keyPath: body.keyPath + ".font"))
      return .label(label, source, color: colorTemplate)
    case "image":
      let imageMap = try body.mapping(
        allowed: ["bind", "url", "width", "height", "default", "style", "contentMode", "name"])
      var image = DesignImage(
        url: nil, width: try imageMap.required("width").number(in: Bounds.length, variables: stylesheet),
        height: try imageMap.required("height").number(in: Bounds.length, variables: stylesheet))
      var source: DesignTemplate.TextSource?
      if let bind = imageMap["bind"] {
        let field = try bind.string()
        template.fields.insert(field)
        template.imageFields.insert(field)
        source = .bind(field)
      } else if let url = imageMap["url"] {
        image.url = try imageURL(url)
      }
      if let fallback = imageMap["default"] { image.defaultURL = try imageURL(fallback) }
      if let style = imageMap["style"] { image.style = try styleName(style) }
      if let mode = imageMap["contentMode"] { image.contentMode = try option(mode, ContentMode.self) }
      image.name = try imageMap["name"]?.string()
      return .image(image, source)
    case "spacer":
      var spacer = DesignSpacer()
      if !body.isNull {
        let spacerMap = try body.mapping(allowed: ["minLength", "grow"])
        if let minLength = spacerMap["minLength"] { spacer.minLength = try minLength.number(in: Bounds.length, variables: stylesheet) }
        if let grow = spacerMap["grow"] { spacer.grow = try grow.number(in: Bounds.grow, variables: stylesheet) }
      }
      return .spacer(spacer)
    default:
      let kinds: Set<String> = ["hstack", "vstack", "zstack", "label", "image", "spacer"]
      var message = "unknown view '\(kind)' (hstack, vstack, zstack, label, image or spacer)"
      if let suggestion = YAMLValue.closest(to: kind, in: kinds) { message += "; did you mean '\(suggestion)'?" }
      throw value.error(message)
    }
  }

  private func textSource(
    _ map: KeyedValues, _ owner: YAMLValue, into template: inout DesignTemplate
  ) throws -> DesignTemplate.TextSource {
    if let bind = map["bind"] {
      guard map["text"] == nil else { throw bind.error("a label has either bind or text, not both") }
      let field = try bind.string()
      template.fields.insert(field)
      template.show(field)
      return .bind(field)
    }
    guard let text = map["text"] else { throw owner.error("a label needs bind (a field) or text") }
    let parts = try Self.parseTemplate(try text.string(), text)
    for case .field(let field) in parts {
      template.fields.insert(field)
      template.show(field)
    }
    return .template(parts)
  }

  static func parseTemplate(_ text: String, _ value: YAMLValue) throws -> [DesignTemplate.TemplatePart] {
    var parts: [DesignTemplate.TemplatePart] = []
    var literal = ""
    var index = text.startIndex
    while index < text.endIndex {
      let character = text[index]
      let next = text.index(after: index)
      if character == "{", next < text.endIndex, text[next] == "{" {
        literal.append("{")
        index = text.index(after: next)
      } else if character == "}", next < text.endIndex, text[next] == "}" {
        literal.append("}")
        index = text.index(after: next)
      } else if character == "{" {
        guard let close = text[next...].firstIndex(of: "}") else {
          throw value.error("'{' opens a field that is never closed (write {{ for a brace)")
        }
        let field = String(text[next..<close]).trimmingCharacters(in: .whitespaces)
        guard !field.isEmpty else { throw value.error("'{}' names no field") }
        if !literal.isEmpty { parts.append(.literal(literal)) }
        literal = ""
        parts.append(.field(field))
        index = text.index(after: close)
      } else if character == "}" {
        throw value.error("'}' closes nothing (write }} for a brace)")
      } else {
        literal.append(character)
        index = next
      }
    }
    if !literal.isEmpty { parts.append(.literal(literal)) }
    return parts
  }

  private func option<T: RawRepresentable & CaseIterable>(_ value: YAMLValue, _ type: T.Type) throws -> T
  where T.RawValue == String {
    let text = try value.string()
    guard let option = T(rawValue: text) else {
      throw value.error("'\(text)' is not one of \(T.allCases.map(\.rawValue).joined(separator: ", "))")
    }
    return option
  }

  func styleName(_ value: YAMLValue) throws -> String {
    try value.styleName(in: stylesheet)
  }

  private func fontReference(_ value: YAMLValue) throws -> FontReference {
    let text = try value.string()
    let reference: FontReference
    let font: Font
    do {
      reference = try FontReference(parsing: text, in: stylesheet)
      font = try stylesheet.font(reference)
    } catch {
      throw value.error(error.message)
    }
    try StylesheetLoader(fontFamilies: fontFamilies).checkFont(font, value)
    return reference
  }

  private func colorReference(_ value: YAMLValue) throws -> ColorReference {
    let text = try value.string()
    do {
      let reference = try ColorReference(parsing: text, in: stylesheet)
      _ = try stylesheet.color(reference)
      return reference
    } catch {
      throw value.error(error.message)
    }
  }

  private func imageURL(_ value: YAMLValue) throws -> String {
    try value.imageURL(resolver)
  }

}
