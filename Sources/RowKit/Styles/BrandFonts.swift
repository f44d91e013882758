import Foundation
import RowKitGraphics

/// A font file a document or stylesheet brings (`fonts:`), with the families it defines.
/// Brand fonts are loaded after RowKit's own and can be named in stylesheets and design
/// files like the built-in families.
public struct BrandFont: Hashable, Sendable {
  /// The font file.
  public var file: URL
  /// The families the file's faces declare, as stylesheets name them.
  public var families: [String]

  /// Reads the families of the font file at `file`; throws when it is missing, unreadable or
  /// not a font.
  public init(file: URL) throws {
    self.file = ContainedPath.standardized(file)
    self.families = try FontSet.families(ofFontFile: self.file.path)
  }

  /// The extensions of the font files RowKit loads, in lower case.
  package static let fileExtensions: Set<String> = ["ttf", "otf", "ttc", "otc"]

  /// Whether `name` is a font file's name by its extension (`Brand.TTF` too).
  package static func isFontFileName(_ name: String) -> Bool {
    fileExtensions.contains((name as NSString).pathExtension.lowercased())
  }

  /// The font files (`.ttf`, `.otf`, `.ttc`, `.otc`) directly in `folder`, sorted by name:
  /// what `--fonts DIR` loads.
  public static func fonts(inFolder folder: URL) throws -> [BrandFont] {
    let folder = ContainedPath.standardized(folder)
    // Noted before it is listed: a file added to the folder changes the folder's stamp.
    FilesRead.note(folder)
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory) else {
      throw StyleError("--fonts: the folder \(folder.path) does not exist")
    }
    guard isDirectory.boolValue else {
      throw StyleError("--fonts: \(folder.path) is a file, not a folder of font files")
    }
    let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    return try names.filter(isFontFileName).map {
      let url = folder.appendingPathComponent($0)
      FilesRead.note(url)
      do {
        return try BrandFont(file: url)
      } catch {
        throw StyleError("--fonts: \(error)")
      }
    }
  }

  /// Decodes a `fonts:` list of font file paths relative to `directory`.
  static func decodeList(_ value: YAMLValue, relativeTo directory: URL) throws -> [BrandFont] {
    try value.sequence().map { entry in
      let path = try entry.string()
      guard !path.isEmpty else { throw entry.error("a font file path is empty") }
      let url = ContainedPath.standardized(path.hasPrefix("/") ? URL(fileURLWithPath: path) : directory.appendingPathComponent(path))
      guard isFontFileName(url.lastPathComponent) else {
        throw entry.error("font file '\(path)' is not a .ttf, .otf or .ttc file")
      }
      if let problem = fileProblem(url, named: path, kind: "font file") { throw entry.error(problem) }
      do {
        return try BrandFont(file: url)
      } catch {
        throw entry.error("font file '\(path)': \(error)")
      }
    }
  }
}

extension Array where Element == BrandFont {
  /// Every family these fonts define.
  var families: [String] { flatMap(\.families) }
}
