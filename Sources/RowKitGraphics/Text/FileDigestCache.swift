import Foundation

/// The SHA-256 of files that rarely change (RowKit's font files: 70 MB, which every
/// `rowkit check` fingerprints), kept between processes so that a check does not hash them
/// all again each time it starts.
///
/// Digests are kept in a file named after a digest of each file's path, device, inode, size,
/// modification time and status-change time: a file written since, or replaced, gives
/// another name (the status-change time cannot be set back by hand), so a stale digest is
/// never read. A cache file, once written, never changes; it lives in the folder of
/// ``FontScanCache`` (`$XDG_CACHE_HOME/rowkit`), and where that cannot be written every
/// file is simply hashed.
package enum FileDigestCache {
  /// The hex SHA-256 of each file of `paths` (nil for one that cannot be read), from the
  /// cache when it holds them.
  package static func sha256(ofFiles paths: [String]) -> [String?] {
    sha256(ofFiles: paths, cacheRoot: FontScanCache.root)
  }

  /// The hex SHA-256 of each file of `paths`, from the cache in `root` when it holds them.
  static func sha256(ofFiles paths: [String], cacheRoot root: String?) -> [String?] {
    guard let root, let key = key(for: paths) else { return paths.map { SHA256.hex(ofFileAt: $0) } }
    let file = "\(root)/digests-\(key).json"
    if let data = FileManager.default.contents(atPath: file),
      let stored = try? JSONDecoder().decode([String].self, from: data), stored.count == paths.count,
      stored.allSatisfy(SHA256.isHexDigest)
    {
      FontScanCache.markUsed(file)
      return stored
    }
    let digests = paths.map { SHA256.hex(ofFileAt: $0) }
    // Only complete sets are kept: a file that could not be read is tried again next time.
    let complete = digests.compactMap { $0 }
    if complete.count == paths.count, let data = try? JSONEncoder().encode(complete) {
      write(data, to: file, in: root)
    }
    return digests
  }

  /// Writes under a name of its own and renames into place, so that no process reads a
  /// half-written file and two processes writing at once leave one whole file.
  private static func write(_ data: Data, to file: String, in root: String) {
    let partial = "\(file).partial-\(getpid())-\(UUID().uuidString)"
    do {
      try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
      try data.write(to: URL(fileURLWithPath: partial))
      if rename(partial, file) != 0 { try? FileManager.default.removeItem(atPath: partial) }
    } catch {
      try? FileManager.default.removeItem(atPath: partial)
    }
  }

  /// A digest of everything that changes when a file of `paths` may have; nil if one cannot
  /// be examined.
  static func key(for paths: [String]) -> String? {
    var text = "sha256 of files\n"
    for path in paths {
      var status = stat()
      guard stat(path, &status) == 0 else { return nil }
      text += "\(path)\0\(status.st_dev) \(status.st_ino) \(status.st_size) "
        + "\(status.st_mtim.tv_sec).\(status.st_mtim.tv_nsec) \(status.st_ctim.tv_sec).\(status.st_ctim.tv_nsec)\n"
    }
    return String(SHA256.hex(Array(text.utf8)).prefix(32))
  }
}
