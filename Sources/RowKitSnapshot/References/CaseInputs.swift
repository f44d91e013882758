import Foundation
import RowKit
import RowKitGraphics

/// Everything one case's render read, kept beside its reference (`Suite/name.inputs.json`)
/// when a render of exactly these inputs was the reference pixel for pixel: the render
/// cache's proof that rendering the case again cannot change its outcome.
///
/// RowKit renders deterministically: the same inputs give the same pixels. So while every
/// input named here has the bytes it had, the render code and the environment are the same,
/// and the reference file is the one that was matched, a new render would match again, and
/// `rowkit check` passes the case without rendering it (``SnapshotCheck/usesRenderCache``).
///
/// The inputs are the files the document was read from (itself, its stylesheets along their
/// `extends:` chain, its cell designs and brand fonts), the local images its rows showed,
/// the bytes of its downloaded images as the image cache holds them, the check's settings
/// that change a render (the variant, image folders, brand fonts given on the command line),
/// the environment fingerprint (C library versions and RowKit's own font files) and a digest
/// of the drawing code taken by the build. Files are known by their bytes, never by their
/// times: touching a file renders nothing.
///
/// Only the files the last render read are named. That is exact: those files decide which
/// files a render reads (a document names its stylesheet, a row its image), so while they
/// are unchanged, so is the list.
public struct CaseInputs: Codable, Hashable, Sendable {
  /// A file a render read, and the SHA-256 of its bytes.
  public struct File: Codable, Hashable, Sendable {
    /// What the file is to the case, for the sentences that say what changed.
    public enum Kind: String, Codable, Hashable, Sendable {
      /// The table document or design file the case renders.
      case document
      /// A stylesheet, or one it extends.
      case stylesheet
      /// A cell design file (`cells:`).
      case design
      /// A brand font file.
      case font
      /// A local image a row showed.
      case image
      /// A folder the document names (`assets:`, `documents:`, `cache:`), which must exist
      /// for it to load: its ``File/sha256`` is ``CaseInputs/folder`` or missing.
      case folder
    }

    /// What the file is to the case.
    public var kind: Kind
    /// The file's path: relative to the checked folder when inside it, so that clones of a
    /// repository agree; else absolute.
    public var path: String
    /// The hex SHA-256 of the file's bytes, or ``CaseInputs/missingFile`` for a file that did
    /// not exist (a missing image shows the slot's default, which is an outcome too).
    public var sha256: String
    /// Where ``path`` leads once its symbolic links are followed, stored as ``path`` is; absent
    /// when no link is on the way. A link made, removed or retargeted since changes it: the
    /// same bytes reached another way may not load (an image through a link out of its
    /// assets folder is refused).
    public var target: String?

    /// A file of kind `kind` at `path` whose bytes hash to `sha256`, reached through links
    /// that lead to `target`.
    public init(kind: Kind, path: String, sha256: String, target: String? = nil) {
      self.kind = kind
      self.path = path
      self.sha256 = sha256
      self.target = target
    }
  }

  /// A downloaded image and the SHA-256 of the bytes the render drew.
  public struct Download: Codable, Hashable, Sendable {
    /// The image's URL.
    public var url: String
    /// The hex SHA-256 of its bytes.
    public var sha256: String

    /// The download of `url` whose bytes hash to `sha256`.
    public init(url: String, sha256: String) {
      self.url = url
      self.sha256 = sha256
    }
  }

  /// The version of this file's form; a file of another version is not trusted. Version 2
  /// added the folders a document names, and where each path's links lead.
  public static let currentVersion = 2
  /// The end of the file name beside the reference (`name.inputs.json`).
  public static let fileSuffix = ".inputs.json"
  /// What a missing file hashes to in ``File/sha256``.
  public static let missingFile = "missing"
  /// What a folder that exists hashes to in ``File/sha256``.
  public static let folder = "folder"

  /// The version of the file's form.
  public var version = CaseInputs.currentVersion
  /// The hex SHA-256 of the reference the render matched (of its tiles, in order, for a
  /// tall reference).
  public var reference: String
  /// The digest of RowKit's drawing code that rendered it (taken by the build).
  public var renderCode: String
  /// The hex SHA-256 of the environment fingerprint the case rendered in.
  public var environment: String
  /// The check's settings that change a render, one per line (`variant dark,AX3`).
  public var settings: [String]
  /// The files the render read, sorted by path.
  public var files: [File]
  /// The images the render downloaded, sorted by URL.
  public var downloads: [Download]
  /// Set when the table has more rows than a check keeps a layout record of
  /// (``SnapshotCheck/maximumLayoutRecordRows``): its reference never has one, and the
  /// cache does not wait for one.
  public var tooLongForALayoutRecord: Bool?

  /// Inputs as stored beside a reference.
  public init(
    reference: String, renderCode: String, environment: String, settings: [String], files: [File], downloads: [Download]
  ) {
    self.reference = reference
    self.renderCode = renderCode
    self.environment = environment
    self.settings = settings
    self.files = files.sorted { ($0.path, $0.kind.rawValue) < ($1.path, $1.kind.rawValue) }
    self.downloads = downloads.sorted { $0.url < $1.url }
  }

  /// The file beside the reference PNG `png`.
  public static func url(besidePNG png: URL) -> URL {
    URL(fileURLWithPath: String(png.path.dropLast(png.pathExtension.isEmpty ? 0 : png.pathExtension.count + 1)) + fileSuffix)
  }

  /// The file's bytes: deterministic JSON.
  public func jsonBytes() throws -> [UInt8] {
    try DeterministicJSON.bytes(self)
  }

  /// The inputs stored in `bytes`; nil for anything that is not a file of the current
  /// version (an unreadable file only means the case renders).
  public static func decode(_ bytes: [UInt8]) -> CaseInputs? {
    guard let inputs = try? JSONDecoder().decode(CaseInputs.self, from: Data(bytes)),
      inputs.version == currentVersion
    else { return nil }
    return inputs
  }

  /// The digest of RowKit's drawing code in this build.
  public static var currentRenderCode: String { renderCodeDigest }
}
