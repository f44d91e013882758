import FuzzSupport
import RowKit

/// A cell design file, decoded as a document's `cells:` reads one (from `Assets/Designs/`,
/// against the samples' stylesheet, so its fonts, colors and styles resolve), then its
/// preview items laid out and painted, normal and selected, as `rowkit catalog --designs`
/// draws them.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDesign(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let bytes = Fuzz.bytes(data, size)
  let folder = Fuzz.assets.appendingPathComponent("Designs")
  let template: DesignTemplate
  do {
    template = try DesignTemplate.decode(
      bytes, as: folder.appendingPathComponent("fuzz.yaml"), stylesheet: FuzzDesign.stylesheet,
      fontFamilies: Fuzz.standardFamilies, assets: Fuzz.assets)
  } catch {
    Fuzz.checkFileError(error)
    return 0
  }
  do {
    var mapping = CellMapping()
    mapping.register(DesignFileCell(name: "FuzzCell", template: template), forTypeNamed: "Fuzz")
    let previews = template.previews.isEmpty
      ? [Dictionary(uniqueKeysWithValues: template.fields.map { ($0, template.imageFields.contains($0) ? "" : "{\($0)}") })]
      : Array(template.previews.prefix(2))
    var items: [any TableItem] = []
    for fields in previews {
      items.append(DocumentItem(typeName: "Fuzz", fields: fields))
      items.append(DocumentItem(typeName: "Fuzz", fields: fields, options: ItemOptions(isSelected: true)))
    }
    try Fuzz.layOutAndPaint(
      SectionedDataSource(sections: [TableSection(items: items)], cellMapping: mapping),
      configuration: TableConfiguration(), stylesheet: FuzzDesign.stylesheet,
      resolver: ImageURLResolver(assetsDirectory: Fuzz.assets, baseDirectory: folder))
  } catch {
    // A row that cannot be laid out or painted: the CLI names the document's item.
    _ = "\(error)"
  }
  return 0
}

enum FuzzDesign {
  /// The samples' stylesheet, which the sample designs use.
  static let stylesheet: Stylesheet = {
    do {
      return try Stylesheet.load(
        contentsOf: Fuzz.assets.appendingPathComponent("Designs/styles.yaml"), fontFamilies: Fuzz.standardFamilies)
    } catch {
      fatalError("Assets/Designs/styles.yaml: \(error)")
    }
  }()
}
