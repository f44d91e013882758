import Foundation

/// The name and SHA-256 of the font files text was drawn with, for layout records: each file
/// hashed once per process, since the same few files draw every label.
public enum FontFileDigests {
  /// A font file as a layout record names it.
  public struct Identity: Hashable, Sendable {
    /// The file's name (`Inter-Regular.otf`), without its folder: the same on every machine.
    public var name: String
    /// The first 12 hex digits of the file's SHA-256; `missing` when it cannot be read.
    public var sha256: String
  }

  private static let known = Locked<[String: Identity]>([:])

  /// The identity of the font file at `path`. Fontconfig may name a link to the file (the
  /// font scan cache links files under its own names): the link is followed to the file.
  public static func identity(ofFileAt path: String) -> Identity {
    if let identity = known.withLock({ $0[path] }) { return identity }
    let resolved = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
    let identity = Identity(
      name: URL(fileURLWithPath: resolved).lastPathComponent,
      sha256: SHA256.hex(ofFileAt: resolved).map { String($0.prefix(12)) } ?? "missing")
    known.withLock { $0[path] = identity }
    return identity
  }
}
