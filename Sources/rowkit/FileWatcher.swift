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
  mutating func watch(_ files: [URL]) {
    stamps = Dictionary(uniqueKeysWithValues: files.map { ($0.path, Self.stamp($0.path)) })
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
