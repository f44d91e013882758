import Foundation
import RowKitGraphics

/// A contact sheet of cell designs: each design's preview items, normal and selected, in a
/// section of its own. `rowkit catalog --designs DIR` renders it in a plain and a grouped
/// table side by side.
public struct DesignCatalog {
  /// One design of the catalog.
  public struct Entry {
    /// The design's name: its file name without the extension.
    public var name: String
    /// The loaded design.
    public var template: DesignTemplate
    /// The design file it was loaded from.
    public var file: URL
  }

  /// The designs, one section each, in order.
  public var entries: [Entry]

  /// A catalog of `entries`.
  public init(entries: [Entry]) {
    self.entries = entries
  }

  /// Every design file in `folder` (YAML files whose top level has `body`), named after the
  /// file, checked against `stylesheet`; `bundle://` URLs resolve under `assets`.
  public static func load(
    folder: URL, stylesheet: Stylesheet = .default, fontFamilies: [String], assets: URL? = nil
  ) throws -> DesignCatalog {
    var isFolder: ObjCBool = false
    if FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder), !isFolder.boolValue {
      throw DocumentError(file: displayPath(folder), message: "a file, not a folder of cell designs")
    }
    let listing: [URL]
    do {
      listing = try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
    } catch {
      throw DocumentError(file: displayPath(folder), message: "no such folder, or it cannot be read")
    }
    let files = listing
      .filter { ["yaml", "yml"].contains($0.pathExtension.lowercased()) }
      .sorted { $0.lastPathComponent < $1.lastPathComponent }
    var entries: [Entry] = []
    for file in files where DesignFileLoader.looksLikeDesign(file) {
      let template = try DesignTemplate.load(
        contentsOf: file, stylesheet: stylesheet, fontFamilies: fontFamilies, assets: assets ?? folder)
      entries.append(Entry(name: file.deletingPathExtension().lastPathComponent, template: template, file: file))
    }
    guard !entries.isEmpty else {
      throw DocumentError(file: displayPath(folder), message: "no cell design files (YAML with a body:) in the folder")
    }
    return DesignCatalog(entries: entries)
  }

  /// Whether the YAML file at `url` looks like a cell design (its top level has `body`).
  package static func isDesignFile(_ url: URL) -> Bool {
    DesignFileLoader.looksLikeDesign(url)
  }

  /// One section per design: each preview item, then the same item selected. A design
  /// without previews shows its field names in braces.
  public func dataSource() -> SectionedDataSource {
    var mapping = CellMapping()
    var sections: [TableSection] = []
    for entry in entries {
      mapping.register(DesignFileCell(name: entry.name, template: entry.template), forTypeNamed: entry.name)
      let previews = Self.previewFields(of: entry.template)
      var items: [any TableItem] = []
      for fields in previews {
        let shown = entry.template.shownFields
        items.append(DocumentItem(typeName: entry.name, fields: fields, shownFields: shown))
        items.append(DocumentItem(typeName: entry.name, fields: fields, options: ItemOptions(isSelected: true), shownFields: shown))
      }
      sections.append(TableSection(header: entry.name, items: items))
    }
    return SectionedDataSource(sections: sections, cellMapping: mapping)
  }

  /// The fields of each of `template`'s preview items; for a design without previews, one
  /// item that shows its field names in braces.
  public static func previewFields(of template: DesignTemplate) -> [[String: String]] {
    template.previews.isEmpty
      ? [Dictionary(uniqueKeysWithValues: template.fields.map { ($0, template.imageFields.contains($0) ? "" : "{\($0)}") })]
      : template.previews
  }

  /// The contact sheet: the catalog as a plain and a grouped table, side by side.
  public func contactSheet(
    configuration: TableConfiguration = TableConfiguration(), stylesheet: Stylesheet = .default, assets: URL,
    environment: TextEnvironment? = nil, pipeline: ImagePipeline = .shared
  ) async throws -> ContactSheet {
    var tables: [Bitmap] = []
    var manifests: [Manifest] = []
    for style in [TableStyle.plain, .grouped] {
      var styled = configuration
      styled.style = style
      let renderer = TableRenderer(
        configuration: styled, stylesheet: stylesheet, environment: environment,
        imageResolver: ImageURLResolver(assetsDirectory: assets, baseDirectory: assets), pipeline: pipeline)
      let rendered = try await renderer.render(dataSource())
      tables.append(rendered.image)
      manifests.append(rendered.manifest)
    }
    return ContactSheet(image: Bitmap.sideBySide(tables, gap: 16), manifests: manifests)
  }

  /// The designs' contact sheet, and the manifests of its plain and grouped tables.
  public struct ContactSheet: Sendable {
    /// The plain and the grouped table side by side.
    public var image: Bitmap
    /// The manifests of the plain and the grouped table, in that order.
    public var manifests: [Manifest]

    /// The rows of the plain table with an image that failed to load (the grouped table
    /// has the same rows).
    public var rowsWithFailedImages: [Manifest.Row] {
      (manifests.first?.rows ?? []).filter { $0.images.contains { $0.state == .failed } }
    }
  }
}

extension TableDocument {
  /// A one-row plain table of preview item `index` of the design in `file` (normal or
  /// selected), as `rowkit check --designs` checks it: rendered through the same path as a
  /// table document, and errors name the design file and its `preview[index]`.
  public static func designPreview(
    _ template: DesignTemplate, named name: String, file: URL, preview index: Int, selected: Bool, stylesheet: Stylesheet,
    assets: URL
  ) -> TableDocument {
    var mapping = CellMapping()
    mapping.register(DesignFileCell(name: name, template: template), forTypeNamed: name)
    let fields = DesignCatalog.previewFields(of: template)[index]
    let item = DocumentItem(typeName: name, fields: fields, options: ItemOptions(isSelected: selected), shownFields: template.shownFields)
    return TableDocument(
      file: file, configuration: TableConfiguration(), stylesheet: stylesheet, assetsDirectory: assets,
      imageFolders: ImageFolders(),
      dataSource: SectionedDataSource(sections: [TableSection(items: [item])], cellMapping: mapping),
      designs: [name: template], places: [[Place(line: 0, column: 0, keyPath: "preview[\(index)]")]])
  }
}
