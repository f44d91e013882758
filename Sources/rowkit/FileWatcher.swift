import Foundation
import RowKit

/// Notices when any of a set of files changes, by polling their modification times and
/// sizes: no platform notification API, and a file replaced by an editor's rename is seen
/// like one written in place. A folder among them (the `--fonts` folder) is watched for the
/// font files it lists, not its modification time: a render that writes its outputs into
/// the folder changes that time, and would make itself render again, forever.
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
        if let since, let modified = Self.fileModificationDate(file.path), modified >= since { return (file.path, "stale") }
        return (file.path, Self.stamp(file.path))
      }, uniquingKeysWith: { first, _ in first })
  }

  /// When the file at `path` was last modified; nil for a folder or nothing.
  private static func fileModificationDate(_ path: String) -> Date? {
    guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
      attributes[.type] as? FileAttributeType != .typeDirectory
    else { return nil }
    return attributes[.modificationDate] as? Date
  }

  /// Whether a watched file differs from when it was last remembered.
  func hasChanges() -> Bool {
    stamps.contains { path, stamp in Self.stamp(path) != stamp }
  }

  private static func stamp(_ path: String) -> String {
    guard let attributes = try? FileManager.default.attributesOfItem(atPath: path) else { return "missing" }
    if attributes[.type] as? FileAttributeType == .typeDirectory {
      let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
      return "folder of " + names.filter(BrandFont.isFontFileName).sorted().joined(separator: "/")
    }
    let date = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
    let size = (attributes[.size] as? NSNumber)?.intValue ?? -1
    let inode = (attributes[.systemFileNumber] as? NSNumber)?.intValue ?? -1
    return "\(date)-\(size)-\(inode)"
  }
}
