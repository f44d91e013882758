import Foundation
import RowKitGraphics

/// HTTP responses kept on disk, one file per URL (named by its SHA-256), within a size and
/// an age limit. The oldest files go first when the cache is full.
public final class DiskCache: Sendable {
  /// Where the cache lives and how large it may grow.
  public struct Configuration: Sendable {
    /// The folder the responses are kept in, made if missing.
    public var directory: URL
    /// The most bytes the folder may hold; a larger response is not kept at all.
    public var maximumBytes: Int
    /// Seconds a response stays fresh.
    public var maximumAge: Double

    /// A cache in `directory` of at most `maximumBytes` (100 MiB), whose responses stay fresh for `maximumAge` seconds (a day).
    public init(directory: URL, maximumBytes: Int = 100 << 20, maximumAge: Double = 24 * 3600) {
      self.directory = directory
      self.maximumBytes = maximumBytes
      self.maximumAge = maximumAge
    }
  }

  /// The cache's folder and limits.
  public let configuration: Configuration
  /// How many responses this cache stored; held while a file is written and the folder
  /// trimmed, so two trims never race. (Not a lock over an empty value: ThreadSanitizer
  /// reports Swift's exclusive access to a value of no size as a race.)
  private let stores = Locked(0)

  /// A cache with `configuration`. Its folder is made when the first response is kept, so
  /// that a command that fails before it downloads anything leaves no folder behind.
  public init(_ configuration: Configuration) {
    self.configuration = configuration
  }

  func file(for url: URL) -> URL {
    configuration.directory.appendingPathComponent(SHA256.hex(Array(url.absoluteString.utf8)))
  }

  /// Whether the entry at `file` is one the cache may read or replace: a regular file, or
  /// nothing. A link is never followed (it may lead out of the folder), a FIFO would make a
  /// read or a write wait, and a folder is the user's.
  private static func isOwnEntry(_ file: URL, orMissing: Bool) -> Bool {
    var info = stat()
    guard lstat(file.path, &info) == 0 else { return orMissing && errno == ENOENT }
    return info.st_mode & S_IFMT == S_IFREG
  }

  /// The stored response, if it is younger than the age limit. Only a regular file is read,
  /// never a link or a FIFO under a response's name.
  public func data(for url: URL) -> [UInt8]? {
    let file = file(for: url)
    guard Self.isOwnEntry(file, orMissing: false), let attributes = try? FileManager.default.attributesOfItem(atPath: file.path),
      let date = attributes[.modificationDate] as? Date, Date().timeIntervalSince(date) <= configuration.maximumAge
    else { return nil }
    return try? InputFile.read(file.path, maximumBytes: configuration.maximumBytes)
  }

  /// Keeps `data` as the response for `url`, then removes the oldest files while the folder
  /// is over its size. Anything but a regular file under the response's name (a link, a
  /// FIFO, a folder) is left as it is, and the response is not kept.
  public func store(_ data: [UInt8], for url: URL) {
    guard data.count <= configuration.maximumBytes else { return }
    stores.withLock { count in
      count += 1
      let file = file(for: url)
      guard Self.isOwnEntry(file, orMissing: true) else { return }
      try? FileManager.default.createDirectory(at: configuration.directory, withIntermediateDirectories: true)
      try? OutputWriter.write(data, to: file)
      trim()
    }
  }

  /// Removes the response kept for `url`, when it is a file the cache wrote (a regular file,
  /// never a link or a folder under its name).
  public func remove(for url: URL) {
    let file = file(for: url)
    stores.withLock { _ in
      guard Self.isOwnEntry(file, orMissing: false) else { return }
      try? FileManager.default.removeItem(at: file)
    }
  }

  /// Deletes the oldest responses until the cache fits its size limit. Only what the cache
  /// writes counts and goes: regular files named by a SHA-256. The folder is the user's
  /// (`--http-cache` may name one that holds other things), and nothing else in it is
  /// counted, let alone deleted.
  private func trim() {
    let keys: [URLResourceKey] = [.contentModificationDateKey, .fileSizeKey, .isRegularFileKey, .isSymbolicLinkKey]
    guard let files = try? FileManager.default.contentsOfDirectory(
      at: configuration.directory, includingPropertiesForKeys: keys)
    else { return }
    var entries = files.compactMap { file -> (URL, Date, Int)? in
      guard SHA256.isHexDigest(file.lastPathComponent), let values = try? file.resourceValues(forKeys: Set(keys)),
        values.isSymbolicLink != true, values.isRegularFile == true
      else { return nil }
      return (file, values.contentModificationDate ?? .distantPast, values.fileSize ?? 0)
    }
    var total = entries.reduce(0) { $0 + $1.2 }
    entries.sort { $0.1 < $1.1 }
    for (file, _, size) in entries where total > configuration.maximumBytes {
      try? FileManager.default.removeItem(at: file)
      total -= size
    }
  }
}
