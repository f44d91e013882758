import FuzzSupport
import RowKit

/// A stylesheet file, decoded as `rowkit` reads a document's `stylesheet:` (from
/// `Assets/Designs/`, beside the samples' own stylesheet, so that `extends` and `fonts`
/// resolve), then used: the built-in rows and a sample of each style the file defines are
/// laid out and painted, which reads its variables and style elements.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzStylesheet(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let bytes = Fuzz.bytes(data, size)
  let url = Fuzz.assets.appendingPathComponent("Designs").appendingPathComponent("fuzz.yaml")
  let sheet: Stylesheet
  do {
    sheet = try Stylesheet.decode(bytes, as: url, fontFamilies: Fuzz.standardFamilies)
  } catch {
    Fuzz.checkFileError(error)
    return 0
  }
  do {
    // The styles this file defines or changes (the rest are the default stylesheet's).
    let changed = sheet.styles.keys.filter { Stylesheet.default.styles[$0] != sheet.styles[$0] }.sorted().prefix(4)
    let samples: [any TableItem] = changed.map { StyleItem(text: $0, style: $0, caption: "Aa") }
    let items = samples + Fuzz.sampleItems()
    let style: TableStyle = bytes.count % 2 == 0 ? .plain : .grouped
    try Fuzz.layOutAndPaint(
      SectionedDataSource(sections: [TableSection(header: "Header", footer: "Footer", items: items)]),
      configuration: TableConfiguration(style: style), stylesheet: sheet,
      environment: TableConfiguration().textEnvironment.adding(brandFonts: sheet.fonts.map(\.file)),
      paintedRows: samples.count + 2)
  } catch {
    // A row that cannot be laid out or painted: the CLI names the document's item.
    _ = "\(error)"
  }
  return 0
}
