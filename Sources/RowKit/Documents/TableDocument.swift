import Foundation
import RowKitGraphics

/// A table document (YAML or JSON), decoded and checked: its configuration, stylesheet,
/// custom cell designs and sections of items. Every mistake is reported with the file, the
/// line and the key path.
public struct TableDocument: Sendable {
  /// The document's file.
  public var file: URL { didSet { isAsLoaded = false } }
  /// The table's width, scale and style, as the document sets them.
  public var configuration: TableConfiguration { didSet { isAsLoaded = false } }
  /// The stylesheet the document names, or the default one.
  public var stylesheet: Stylesheet { didSet { isAsLoaded = false } }
  /// Where `bundle://` image URLs resolve.
  public var assetsDirectory: URL { didSet { isAsLoaded = false } }
  /// Where `documents://` and `cache://` image URLs resolve.
  public var imageFolders: ImageFolders { didSet { isAsLoaded = false } }
  /// The document's sections of items, with their cells registered.
  public var dataSource: SectionedDataSource { didSet { isAsLoaded = false } }
  /// The design files that `cells:` names, by item type.
  public var designs: [String: DesignTemplate] { didSet { isAsLoaded = false } }
  /// Where each item was written, by section and row.
  let places: [[Place]]
  /// Every file the document was read from: itself, its stylesheets and its cell designs.
  public var dependencies: [URL] = [] { didSet { isAsLoaded = false } }
  /// The brand font files the document's `fonts:` (and `--fonts`) load; the stylesheet's
  /// own are in ``stylesheet``.
  public var fonts: [BrandFont] = [] { didSet { isAsLoaded = false } }
  /// The document's variant matrix (`variants:`); empty axes when it has none.
  public var variantAxes = VariantAxes() { didSet { isAsLoaded = false } }
  /// The lint rules the document switches off (`lint: { off: [...] }`).
  public var lintOptions = LintOptions() { didSet { isAsLoaded = false } }

  /// Whether the document is as ``load(_:fontFamilies:imageFolders:brandFonts:)`` read it,
  /// nothing set on it in Swift since: only then are its files (``dependencies``, fonts and
  /// images) all that its render reads, which the render cache relies on.
  package private(set) var isAsLoaded = false

  /// The fonts and language the document's rows are shaped with: RowKit's fonts in the
  /// table's language, then the document's and the stylesheet's brand fonts.
  public var textEnvironment: TextEnvironment {
    textEnvironment(for: configuration)
  }

  /// The text environment for the document rendered with `configuration` (flags may
  /// change the language).
  public func textEnvironment(for configuration: TableConfiguration) -> TextEnvironment {
    configuration.textEnvironment.adding(brandFonts: (fonts + stylesheet.fonts).map(\.file))
  }

  struct Place: Sendable {
    var line: Int
    var column: Int
    var keyPath: String
  }

  /// The resolver for the document's image URLs.
  public var imageResolver: ImageURLResolver {
    ImageURLResolver(
      assetsDirectory: assetsDirectory, baseDirectory: file.deletingLastPathComponent(),
      documentsDirectory: imageFolders.documents, cacheDirectory: imageFolders.cache)
  }

  /// An error about the item at `section`, `row`, placed where the item was written.
  public func error(section: Int, row: Int, _ message: String) -> DocumentError {
    let place = places[safe: section]?[safe: row]
    return DocumentError(
      file: displayPath(file), line: place?.line ?? 0, column: place?.column ?? 0,
      keyPath: place?.keyPath ?? "sections[\(section)].items[\(row)]", message: message)
  }

  /// Reads and checks the document at `url`. `fontFamilies` are the families fonts may name
  /// besides those of brand fonts (by default those of RowKit's standard text environment,
  /// which `rowkit fonts` lists); `imageFolders` (from the command line) replace the
  /// document's `documents:` and `cache:`; `brandFonts` (from `--fonts`) come before the
  /// document's own `fonts:`.
  public static func load(
    _ url: URL, fontFamilies: [String]? = nil, imageFolders: ImageFolders = ImageFolders(), brandFonts: [BrandFont] = []
  ) throws -> TableDocument {
    // The file the path's words name, as every path it names is resolved: `a/link/../t.yaml`
    // is `a/t.yaml`, however it was given.
    let url = ContainedPath.standardized(url)
    let bytes = try YAMLValue.read(contentsOf: url, displayName: displayPath(url))
    var document = try TableDocumentDecoder(
      file: url, fontFamilies: try fontFamilies ?? TextEnvironment.standard.fontSet().families, folderOverrides: imageFolders,
      extraFonts: brandFonts
    ).decode(bytes, displayName: displayPath(url))
    document.isAsLoaded = true
    return document
  }

  /// Whether the YAML or JSON file at `url` looks like a table document (its top level has
  /// `sections` or `items`) rather than a stylesheet, a cell design, or a manifest that
  /// `rowkit render --manifest` wrote beside its documents (`width`, `scale`, `height` and
  /// `rows` at the top, which no document has). A file that does not parse counts as a
  /// document, so that loading it reports the mistake.
  public static func looksLikeTableDocument(_ url: URL) -> Bool {
    // Most documents are block YAML with `items:` or `sections:` at the start of a line: a
    // key of the top-level mapping, since nothing nested or continued starts in column 0.
    // Telling them by that line spares parsing every file of a suite twice.
    guard let bytes = try? InputFile.read(url.path) else { return true }
    let keys = topLevelBlockKeys(bytes)
    if (keys.contains("items") || keys.contains("sections")) && !keys.contains("rows") { return true }
    guard let value = try? YAMLValue.parse(bytes, displayName: url.lastPathComponent) else { return true }
    guard let map = try? value.mapping() else { return true }
    let isManifest = ["width", "scale", "height", "rows"].allSatisfy { map.keys.contains($0) }
    return (map.keys.contains("sections") || map.keys.contains("items")) && !isManifest
  }

  /// The keys among `items`, `sections` and `rows` that start a line of `bytes` followed by a
  /// colon: keys of a block mapping at the top level.
  private static func topLevelBlockKeys(_ bytes: [UInt8]) -> Set<String> {
    var keys: Set<String> = []
    var lineStart = 0
    while lineStart < bytes.count {
      for key in ["items", "sections", "rows"] {
        let utf8 = Array((key + ":").utf8)
        guard lineStart + utf8.count <= bytes.count, bytes[lineStart..<lineStart + utf8.count].elementsEqual(utf8) else { continue }
        let next = lineStart + utf8.count
        if next == bytes.count || [0x20, 0x0A, 0x0D, 0x09].contains(bytes[next]) { keys.insert(key) }
      }
      guard let newline = bytes[lineStart...].firstIndex(of: 0x0A) else { break }
      lineStart = newline + 1
    }
    return keys
  }

  /// Whether the document at `url` may have a `variants:` block: false only when the word
  /// is nowhere in the file and no escape (`\`) could spell it, so a suite's documents
  /// without variants are not loaded twice.
  public static func mayHaveVariants(_ url: URL) -> Bool {
    guard let bytes = try? InputFile.read(url.path), !bytes.contains(0x5C) else { return true }
    let word = Array("variants".utf8)
    guard bytes.count >= word.count else { return false }
    for start in 0...(bytes.count - word.count) where bytes[start] == word[0] {
      if bytes[start..<start + word.count].elementsEqual(word) { return true }
    }
    return false
  }

  /// Decodes a document from bytes, as if read from `url`: its relative paths resolve against
  /// `url`'s folder, and errors name `url` (`rowkit render -` reads standard input as
  /// `<stdin>` in the working folder). `imageFolders` and `brandFonts` are as for
  /// ``load(_:fontFamilies:imageFolders:brandFonts:)``. Without `checkingFolders`, an
  /// `assets:` folder need not exist (for documents built into RowKit).
  public static func decode(
    _ bytes: [UInt8], as url: URL, fontFamilies: [String], imageFolders: ImageFolders = ImageFolders(),
    brandFonts: [BrandFont] = [], checkingFolders: Bool = true
  ) throws -> TableDocument {
    try TableDocumentDecoder(
      file: url, fontFamilies: fontFamilies, checksFolders: checkingFolders, folderOverrides: imageFolders,
      extraFonts: brandFonts
    ).decode(bytes, displayName: displayPath(url))
  }
}

struct TableDocumentDecoder {
  let file: URL
  var fontFamilies: [String]
  var checksFolders = true
  var folderOverrides = ImageFolders()
  /// Brand fonts from the command line.
  var extraFonts: [BrandFont] = []
  /// The top-level items, when the document was cut into a skeleton and pieces.
  var itemPieces: ItemListPieces?
  var directory: URL { file.deletingLastPathComponent() }

  static let topLevelKeys: Set<String> = [
    "table", "fonts", "stylesheet", "assets", "documents", "cache", "cells", "sections", "items", "variants", "lint",
  ]

  /// Decodes the document in `bytes`: a long top-level list of items a piece at a time
  /// (see ``ItemListPieces``), and anything else, or anything that fails so, whole.
  func decode(_ bytes: [UInt8], displayName: String) throws -> TableDocument {
    if let pieces = ItemListPieces(bytes, displayName: displayName) {
      var decoder = self
      decoder.itemPieces = pieces
      // The whole document's decoding reports a mistake, with its place, as it always did.
      if let document = try? decoder.decode(try YAMLValue.parse(pieces.skeleton, displayName: displayName)) {
        return document
      }
    }
    return try decode(try YAMLValue.parse(bytes, displayName: displayName))
  }

  func decode(_ root: YAMLValue) throws -> TableDocument {
    let recorder = FileRecorder()
    recorder.record(file)
    var document = try decode(root, recorder: recorder)
    document.dependencies = recorder.files
    return document
  }

  private func decode(_ root: YAMLValue, recorder: FileRecorder) throws -> TableDocument {
    let map = try root.mapping(allowed: Self.topLevelKeys)
    let configuration = try decodeConfiguration(map["table"])
    var fonts = extraFonts
    if let list = map["fonts"] {
      for font in try BrandFont.decodeList(list, relativeTo: directory) where !fonts.contains(font) {
        fonts.append(font)
        recorder.record(font.file)
      }
    }
    var decoder = self
    decoder.fontFamilies += fonts.families
    var document = try decoder.decode(map, root: root, configuration: configuration, recorder: recorder)
    document.fonts = fonts
    if let variants = map["variants"] { document.variantAxes = try decodeVariants(variants, configuration: configuration) }
    if let lint = map["lint"] {
      let lintMap = try lint.mapping(allowed: ["off"])
      if let off = lintMap["off"] { document.lintOptions = LintOptions(disabled: Set(try decodeList(off, as: LintRule.self))) }
    }
    return document
  }

  private func decode(
    _ map: KeyedValues, root: YAMLValue, configuration: TableConfiguration, recorder: FileRecorder
  ) throws -> TableDocument {
    let stylesheet = try decodeStylesheet(map["stylesheet"], recorder: recorder)
    let fontFamilies = self.fontFamilies + stylesheet.fonts.families
    let assets = try folder(map["assets"], named: "assets") ?? directory
    let folders = ImageFolders(
      documents: try folderOverrides.documents ?? folder(map["documents"], named: "documents"),
      cache: try folderOverrides.cache ?? folder(map["cache"], named: "cache"))
    let resolver = ImageURLResolver(
      assetsDirectory: assets, baseDirectory: directory, documentsDirectory: folders.documents, cacheDirectory: folders.cache)
    var designs: [String: DesignTemplate] = [:]
    var mapping = CellMapping()
    if let cells = map["cells"] {
      let loader = DesignFileLoader(stylesheet: stylesheet, fontFamilies: fontFamilies, resolver: resolver)
      for (typeName, value) in try cells.mapping().entries {
        if ItemDecoder.builtInTypes.contains(typeName) {
          throw value.error("'\(typeName)' is a built-in item type; give the custom type another name")
        }
        let path = try value.path(of: "a cell design file")
        let url = resolve(path)
        if let problem = fileProblem(url, named: path, kind: "design file") { throw value.error(problem) }
        recorder.record(url)
        let template = try loader.load(url)
        designs[typeName] = template
        mapping.register(DesignFileCell(name: typeName + "Cell", template: template), forTypeNamed: typeName)
      }
    }
    let itemDecoder = ItemDecoder(stylesheet: stylesheet, resolver: resolver, designs: designs)
    var sections: [TableSection] = []
    var places: [[TableDocument.Place]] = []
    switch (map["sections"], map["items"]) {
    case (.some, .some):
      throw root.error("the document has both sections and items; use one of them")
    case (nil, nil):
      throw root.error("the document has no sections or items")
    case (nil, .some(let items)):
      let (section, sectionPlaces) = try decodeItems(items, pieces: itemPieces, decoder: itemDecoder)
      sections = [TableSection(items: section)]
      places = [sectionPlaces]
    case (.some(let sectionList), nil):
      for sectionValue in try sectionList.sequence() {
        let sectionMap = try sectionValue.mapping(allowed: ["header", "footer", "items"])
        let (items, sectionPlaces) = try sectionMap["items"].map { try decodeItems($0, decoder: itemDecoder) } ?? ([], [])
        sections.append(
          TableSection(
            header: try sectionMap["header"]?.string(), footer: try sectionMap["footer"]?.string(), items: items))
        places.append(sectionPlaces)
      }
    }
    let rows = sections.reduce(0) { $0 + $1.items.count }
    guard rows > 0 else { throw root.error("the document has no rows") }
    guard rows <= TableConfiguration.maximumRows else {
      throw root.error(Self.rowBoundMessage("the document has \(rows) rows"))
    }
    return TableDocument(
      file: file, configuration: configuration, stylesheet: stylesheet, assetsDirectory: assets, imageFolders: folders,
      dataSource: SectionedDataSource(sections: sections, cellMapping: mapping), designs: designs, places: places)
  }

  /// The message for a document over the row bound: what it has, then the bound.
  static func rowBoundMessage(_ what: String) -> String {
    "\(what): a table has at most \(TableConfiguration.maximumRows) rows (RowKit's row bound)"
  }

  /// The folder `value` names, relative to the document; it must exist.
  private func folder(_ value: YAMLValue?, named name: String) throws -> URL? {
    guard let value else { return nil }
    let url = resolve(try value.string())
    var isDirectory: ObjCBool = false
    guard !checksFolders || FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) && isDirectory.boolValue
    else {
      throw value.error("the \(name) folder \(url.path) does not exist")
    }
    return url
  }

  /// Decodes a list of items: `value`'s own entries, or, when the document was cut, the
  /// entries of `pieces` (whose skeleton has `value` for their list), each piece's tree freed
  /// before the next is parsed.
  private func decodeItems(
    _ value: YAMLValue, pieces: ItemListPieces? = nil, decoder: ItemDecoder
  ) throws -> ([any TableItem], [TableDocument.Place]) {
    let batches: [() throws -> [YAMLValue]]
    if let pieces {
      guard value.line == pieces.keyLine, case .sequence(let skeletonList) = value.node, skeletonList.isEmpty,
        pieces.entryCount <= TableConfiguration.maximumRows
      else {
        throw value.error("the document's items are not where they were cut from")
      }
      batches = pieces.pieces.map { piece in { try pieces.entries(of: piece) } }
    } else {
      batches = [{ try value.sequence() }]
    }
    var items: [any TableItem] = []
    var places: [TableDocument.Place] = []
    for batch in batches {
      for itemValue in try batch() {
        items.append(try decoder.decode(itemValue))
        places.append(.init(line: itemValue.line, column: itemValue.column, keyPath: itemValue.keyPath))
        guard items.count <= TableConfiguration.maximumRows else {
          throw value.error(Self.rowBoundMessage("more than \(TableConfiguration.maximumRows) items"))
        }
      }
    }
    return (items, places)
  }

  private func decodeConfiguration(_ value: YAMLValue?) throws -> TableConfiguration {
    var configuration = TableConfiguration()
    guard let value else { return configuration }
    let map = try value.mapping(allowed: ["width", "scale", "style", "rowHeight", "now", "language"])
    if let width = map["width"] {
      configuration.width = try width.double()
      if let problem = TableConfiguration(width: configuration.width).problem { throw width.error(problem) }
    }
    if let scale = map["scale"] {
      configuration.scale = try scale.double()
      if let problem = TableConfiguration(width: 100, scale: configuration.scale).problem { throw scale.error(problem) }
    }
    if let style = map["style"] {
      let name = try style.string()
      guard let parsed = TableStyle(rawValue: name) else { throw style.error("style is plain or grouped, not '\(name)'") }
      configuration.style = parsed
    }
    if let rowHeight = map["rowHeight"] {
      if (try? rowHeight.string()) != "auto" {
        configuration.rowHeight = try rowHeight.double()
        if let problem = TableConfiguration(rowHeight: configuration.rowHeight).problem { throw rowHeight.error(problem) }
      }
    }
    if let now = map["now"] { configuration.now = try now.date() }
    if let language = map["language"] {
      configuration.language = try language.string()
      if let problem = TableConfiguration(language: configuration.language).problem { throw language.error(problem) }
    }
    if let problem = configuration.problem { throw value.error(problem) }
    return configuration
  }

  /// The `variants:` block: `width`, `textSize`, `appearance`, `direction` and `locale`, each a list.
  private func decodeVariants(_ value: YAMLValue, configuration: TableConfiguration) throws -> VariantAxes {
    let map = try value.mapping(allowed: ["width", "textSize", "appearance", "direction", "locale"])
    var axes = VariantAxes()
    if let widths = map["width"] {
      for entry in try widths.sequence() {
        let width = try entry.double()
        if let problem = Bounds.problem(width, in: Bounds.tableWidth, unit: "points") { throw entry.error(problem) }
        axes.widths.append(width)
      }
    }
    if let sizes = map["textSize"] { axes.textSizes = try decodeList(sizes, as: ContentSizeCategory.self) }
    if let appearances = map["appearance"] { axes.appearances = try decodeList(appearances, as: Appearance.self) }
    if let directions = map["direction"] { axes.directions = try decodeList(directions, as: LayoutDirection.self) }
    if let locales = map["locale"] { axes.locales = try decodeList(locales, as: PseudoLocale.self) }
    for key in ["width", "textSize", "appearance", "direction", "locale"] {
      let list = map[key]
      if let list, try list.sequence().isEmpty { throw list.error("\(key) lists no values; leave the key out instead") }
    }
    if let problem = axes.problem { throw value.error(problem) }
    for variant in axes.variants {
      if let problem = variant.apply(to: configuration).problem { throw value.error(problem) }
    }
    return axes
  }

  /// A list of words, each one of `T`'s cases.
  private func decodeList<T: RawRepresentable & CaseIterable>(_ value: YAMLValue, as type: T.Type) throws -> [T]
  where T.RawValue == String {
    try value.sequence().map { entry in
      let word = try entry.string()
      guard let parsed = T(rawValue: word) else {
        throw entry.error("'\(word)' is not one of \(T.allCases.map(\.rawValue).joined(separator: ", "))")
      }
      return parsed
    }
  }

  private func decodeStylesheet(_ value: YAMLValue?, recorder: FileRecorder) throws -> Stylesheet {
    let loader = StylesheetLoader(fontFamilies: fontFamilies, recorder: recorder)
    guard let value else { return .default }
    if case .mapping = value.node {
      return try loader.decode(value, directory: directory, chain: [file.standardizedFileURL.path])
    }
    let path = try value.path(of: "a stylesheet file (or a map of vars and styles)")
    let url = resolve(path)
    if let problem = fileProblem(url, named: path, kind: "stylesheet file") { throw value.error(problem) }
    return try loader.load(url, displayName: displayPath(url))
  }

  private func resolve(_ path: String) -> URL {
    ContainedPath.standardized(path.hasPrefix("/") ? URL(fileURLWithPath: path) : directory.appendingPathComponent(path))
  }
}
