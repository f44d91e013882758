import Foundation
import RowKitGraphics

/// The style catalog: every style element and shape, each row labelled with what it shows,
/// and row backgrounds and styled text. `rowkit catalog --styles` renders it.
public enum StyleCatalog {
  /// The catalog document, decoded as if it lived at `Assets/Styles/catalog.yaml` of
  /// `assetsRoot`'s parent.
  public static func load(fontFamilies: [String], assets: URL? = nil) throws -> TableDocument {
    let folder = (assets ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath)).appendingPathComponent("Styles")
    return try TableDocument.decode(
      Array(document.utf8), as: folder.appendingPathComponent("catalog.yaml"), fontFamilies: fontFamilies,
      checkingFolders: false)
  }

  /// The catalog's document text, as in `Assets/Styles/catalog.yaml`.
  public static var documentText: String { document }

  /// The images the catalog shows, drawn by code, by URL.
  public static func images() throws -> [String: Bitmap] {
    ["bundle://images/person.png": try SampleArtwork.avatar(pixels: 36)]
  }
}
