import FuzzSupport
import RowKit

/// Styled-text markup, parsed as a document's `styledText` item is, its spans checked
/// against its text, then laid out and painted in a row, as `rowkit render` draws it.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMarkup(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  guard let source = Fuzz.text(Fuzz.bytes(data, size)) else { return 0 }
  let markup: StyledTextMarkup
  do {
    markup = try StyledTextMarkup(parsing: source)
  } catch {
    _ = "\(error)"
    return 0
  }
  let length = markup.text.unicodeScalars.count
  for span in markup.spans where span.range.lowerBound < 0 || span.range.upperBound > length {
    fatalError("span \(span) outside the text's \(length) scalars")
  }
  do {
    try Fuzz.layOutAndPaint(
      SectionedDataSource(sections: [TableSection(items: [StyledTextItem(text: source)])]),
      configuration: TableConfiguration(), stylesheet: .default,
      resolver: ImageURLResolver(assetsDirectory: Fuzz.assets, baseDirectory: Fuzz.assets))
  } catch {
    _ = "\(error)"
  }
  return 0
}
