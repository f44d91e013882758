import Foundation
import RowKit
import RowKitGraphics

/// The document harnesses' one path, YAML and JSON alike (the decoder reads both).
public enum FuzzDocument {
  public static func run(_ bytes: [UInt8], fileName: String) {
    let url = Fuzz.assets.appendingPathComponent("Samples").appendingPathComponent(fileName)
    let document: TableDocument
    do {
      // As `rowkit render` and `measure`: decode and check the document and every file it names.
      document = try TableDocument.decode(bytes, as: url, fontFamilies: Fuzz.standardFamilies)
    } catch {
      // A clean error, naming the file and the place: what every bad input must end in.
      Fuzz.checkFileError(error)
      return
    }
    do {
      try Fuzz.layOutAndPaint(
        document.dataSource, configuration: document.configuration, stylesheet: document.stylesheet,
        environment: document.textEnvironment, resolver: document.imageResolver)
    } catch let error as RowLayoutError {
      // As `rowkit measure`: a row that cannot be laid out is an error at the item.
      Fuzz.checkFileError(document.error(section: error.section, row: error.row, "\(error.underlying)"))
    } catch {
      // Painting's errors (a surface out of range…): an error, not a crash.
      _ = "\(error)"
    }
  }
}
