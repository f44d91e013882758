import Foundation

/// Whether a path stays inside a folder once every symbolic link on it is followed: what
/// keeps writes into a references folder, and reads of images, from leaving their folder
/// through a link someone committed.
public enum ContainedPath {
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

  /// `url` absolute, with `.` and `..` taken out as the kernel takes them, and every other
  /// symbolic link kept by its own name: the folder before a `..` has its links followed (as
  /// the kernel climbs from where a link leads), and no other. Foundation's
  /// `standardizedFileURL` follows every link of a path that holds a `..`, so a document's
  /// `../styles/current.yaml` became the file the link led to, and a link retargeted since
  /// went unseen by what recorded the path (the render cache, `render --watch`).
  public static func standardized(_ url: URL) -> URL {
    var parts: [String] = url.path.hasPrefix("/") ? [] : FileManager.default.currentDirectoryPath.split(separator: "/").map(String.init)
    for part in url.path.split(separator: "/") {
      switch part {
      case ".": continue
      case "..":
        let above = URL(fileURLWithPath: "/" + parts.joined(separator: "/"))
        if let followed = resolved(above) { parts = followed.split(separator: "/").map(String.init) }
        if !parts.isEmpty { parts.removeLast() }
      default: parts.append(String(part))
      }
    }
    return URL(fileURLWithPath: "/" + parts.joined(separator: "/"))
  }

  /// Whether `url`, its links followed, is `folder` (its links followed too) or inside it.
  public static func isInside(_ url: URL, folder: URL) -> Bool {
    guard let path = resolved(url), let root = resolved(folder) else { return false }
    return path == root || path.hasPrefix(root == "/" ? "/" : root + "/")
  }
}
