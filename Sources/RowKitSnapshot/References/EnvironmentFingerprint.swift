import Foundation
import RowKit
import RowKitGraphics

/// Everything besides the input that decides RowKit's pixels: library versions, the font
/// files' contents, font options and the CPU architecture. Stored beside the references, so
/// that running in another environment gives one clear message instead of a wall of pixel
/// failures.
public struct EnvironmentFingerprint: Hashable, Sendable, Codable {
  /// A font file and the SHA-256 of its contents.
  public struct FontFile: Hashable, Sendable, Codable {
    /// The font file's path.
    public var file: String
    /// The hex SHA-256 of the file's contents, or `missing`.
    public var sha256: String
  }

  /// The versions of the C libraries that draw.
  public var libraries: LibraryVersions
  /// The CPU architecture (`x86_64`, `arm64` or `other`).
  public var architecture: String
  /// The text environment's font files, in order, with their hashes.
  public var fonts: [FontFile]
  /// The font options text is rendered with: grayscale antialiasing, no hinting.
  public var fontOptions: String
  /// The text environment's language.
  public var language: String

  /// The file name inside a references folder.
  public static let fileName = "environment.json"

  /// The fingerprint of this process with `environment`'s fonts.
  public static func current(_ environment: TextEnvironment = .standard) -> EnvironmentFingerprint {
    if let cached = cache.withLock({ $0[environment] }) { return cached }
    let digests = FileDigestCache.sha256(ofFiles: environment.fontFiles.map(\.path))
    let fonts = zip(environment.fontFiles, digests).map { font, digest in
      FontFile(file: font.path, sha256: digest ?? "missing")
    }
    #if arch(x86_64)
      let architecture = "x86_64"
    #elseif arch(arm64)
      let architecture = "arm64"
    #else
      let architecture = "other"
    #endif
    let fingerprint = EnvironmentFingerprint(
      libraries: .current, architecture: architecture, fonts: fonts,
      fontOptions: environment.fontOptions, language: environment.language)
    cache.withLock { $0[environment] = fingerprint }
    return fingerprint
  }

  /// Fingerprints by environment: hashing the font files takes a moment, once per process.
  private static let cache = Locked<[TextEnvironment: EnvironmentFingerprint]>([:])

  /// What differs from `other`, one phrase each (`pango 1.50.12 → 1.54.0`).
  public func differences(from other: EnvironmentFingerprint) -> [String] {
    var result: [String] = []
    let mine = libraries
    let theirs = other.libraries
    for (name, a, b) in [
      ("cairo", mine.cairo, theirs.cairo), ("pixman", mine.pixman, theirs.pixman), ("pango", mine.pango, theirs.pango),
      ("harfbuzz", mine.harfbuzz, theirs.harfbuzz), ("freetype", mine.freetype, theirs.freetype),
      ("fontconfig", mine.fontconfig, theirs.fontconfig), ("libpng", mine.libpng, theirs.libpng),
    ] where a != b {
      result.append("\(name) \(a) → \(b)")
    }
    // Kept only since a later version: a fingerprint without them says nothing about them.
    for (name, a, b) in [("libjpeg-turbo", mine.libjpegTurbo, theirs.libjpegTurbo), ("libwebp", mine.libwebp, theirs.libwebp)] {
      if let a, let b, a != b { result.append("\(name) \(a) → \(b)") }
    }
    if architecture != other.architecture { result.append("architecture \(architecture) → \(other.architecture)") }
    if fontOptions != other.fontOptions { result.append("font options \(fontOptions) → \(other.fontOptions)") }
    if language != other.language { result.append("language \(language) → \(other.language)") }
    let myFonts = Dictionary(fonts.map { ($0.file, $0.sha256) }, uniquingKeysWith: { a, _ in a })
    let theirFonts = Dictionary(other.fonts.map { ($0.file, $0.sha256) }, uniquingKeysWith: { a, _ in a })
    var added: [String] = []
    var removed: [String] = []
    var changed: [String] = []
    for file in Set(myFonts.keys).union(theirFonts.keys).sorted() where myFonts[file] != theirFonts[file] {
      let name = URL(fileURLWithPath: file).lastPathComponent
      switch (myFonts[file], theirFonts[file]) {
      case (nil, _): added.append(name)
      case (_, nil): removed.append(name)
      default: changed.append(name)
      }
    }
    // A font package update touches many files at once: name a few, count the rest.
    for (names, verb) in [(added, "added"), (removed, "removed"), (changed, "changed")] where !names.isEmpty {
      if names.count == 1 {
        result.append("font \(names[0]) \(verb)")
      } else {
        let shown = names.prefix(3).joined(separator: ", ") + (names.count > 3 ? " and \(names.count - 3) more" : "")
        result.append("\(names.count) fonts \(verb) (\(shown))")
      }
    }
    return result
  }

  /// The fingerprint as `environment.json` holds it: pretty-printed JSON with sorted keys.
  public func jsonBytes() throws -> [UInt8] {
    try DeterministicJSON.bytes(self)
  }
}
