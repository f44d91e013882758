import Foundation

/// Whether a path stays inside a folder once every symbolic link on it is followed: what
/// keeps writes into a references folder, and reads of images, from leaving their folder
/// through a link someone committed.
package enum ContainedPath {
  /// `url` with every symbolic link on it resolved, as the kernel would follow them: links
  /// in folders above a file that does not exist yet, and a last link that names a missing
  /// file (a write would create that file). Nil when the links loop.
  public static func resolved(_ url: URL) -> String? {
    var pending = url.path.split(separator: "/").map(String.init)
    if !url.path.hasPrefix("/") {
      pending = FileManager.default.currentDirectoryPath.split(separator: "/").map(String.init) + pending
    }
    var resolved: [String] = []
    var links = 0
    while !pending.isEmpty {
      let part = pending.removeFirst()
      if part == "." { continue }
      if part == ".." {
        // After the links before it are resolved, as the kernel does: `link/..` is the
        // folder above the link's target, not the folder holding the link.
        if !resolved.isEmpty { resolved.removeLast() }
        continue
      }
      let path = "/" + (resolved + [part]).joined(separator: "/")
      var info = stat()
      guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFLNK else {
        resolved.append(part)
        continue
      }
      links += 1
      guard links <= 40, let target = try? FileManager.default.destinationOfSymbolicLink(atPath: path) else { return nil }
      if target.hasPrefix("/") { resolved = [] }
      pending = target.split(separator: "/").map(String.init) + pending
    }
    return "/" + resolved.joined(separator: "/")
  }

  /// `url` absolute, with `.` and `..` taken out of the path as written, as a shell's `cd`
  /// takes them out (`a/link/../x` is `a/x`), and every symbolic link kept by its own name.
  ///
  /// Foundation's `standardizedFileURL` follows every link of a path that holds a `..`, and
  /// none of one that does not, so a document's `../styles/current.yaml` became the file the
  /// link led to, and a link retargeted since went unseen by what recorded the path (the
  /// render cache, `render --watch`); and a file URL made from a relative path has its `..`
  /// taken out as written already. One rule for every path, whatever its links and however
  /// the document was named: the file a document names is the one its words name.
  public static func standardized(_ url: URL) -> URL {
    var parts: [Substring] = []
    let path = url.path.hasPrefix("/") ? url.path : FileManager.default.currentDirectoryPath + "/" + url.path
    for part in path.split(separator: "/") {
      switch part {
      case ".": continue
      case "..": if !parts.isEmpty { parts.removeLast() }
      default: parts.append(part)
      }
    }
    return URL(fileURLWithPath: "/" + parts.joined(separator: "/"))
  }

  /// Whether `url`, its links followed, is `folder` (its links followed too) or inside it.
  public static func isInside(_ url: URL, folder: URL) -> Bool {
    guard let root = resolved(folder) else { return false }
    return isInside(url, resolvedFolder: root)
  }

  /// Whether `url`, its links followed, is `root` or inside it, where `root` is a folder's
  /// path with its links followed already (``resolved(_:)``): for a caller that asks of many
  /// files in one folder.
  public static func isInside(_ url: URL, resolvedFolder root: String) -> Bool {
    guard let path = resolved(url) else { return false }
    return path == root || path.hasPrefix(root == "/" ? "/" : root + "/")
  }
}
