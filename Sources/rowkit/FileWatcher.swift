import Foundation

/// Notices when any of a set of files changes, by polling their modification times and
/// sizes: no platform notification API, and a file replaced by an editor's rename is seen
/// like one written in place.
struct FileWatcher {
  private var stamps: [String: String] = [:]

  init(files: [URL]) {
    watch(files)
  }

  /// Starts watching `files` (and stops watching any others), remembering how they are now.
  /// A file modified at or after `since` (while the render that read it ran) counts as
  /// changed already, so an edit made during a render is never missed.
  mutating func watch(_ files: [URL], changedSince since: Date? = nil) {
    stamps = Dictionary(
      files.map { file -> (String, String) in
        if let since, let modified = Self.modificationDate(file.path), modified >= since { return (file.path, "stale") }
        return (file.path, Self.stamp(file.path))
      }, uniquingKeysWith: { first, _ in first })
  }

  private static func modificationDate(_ path: String) -> Date? {
    (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date
  }

  /// Whether a watched file differs from when it was last remembered.
  func hasChanges() -> Bool {
    stamps.contains { path, stamp in Self.stamp(path) != stamp }
  }

  private static func stamp(_ path: String) -> String {
    guard let attributes = try? FileManager.default.attributesOfItem(atPath: path) else { return "missing" }
    let date = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
    let size = (attributes[.size] as? NSNumber)?.intValue ?? -1
    let inode = (attributes[.systemFileNumber] as? NSNumber)?.intValue ?? -1
    return "\(date)-\(size)-\(inode)"
  }
}
