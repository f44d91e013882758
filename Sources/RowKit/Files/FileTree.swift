import Foundation

/// The files of a folder tree, listed with `readdir`: a suite of thousands of documents and
/// references is listed without a URL, a `stat` and a path standardization per entry, which
/// cost `FileManager`'s enumerator most of a cached check's time.
///
/// Linked folders are never entered, so a listing stays inside its folder whatever links a
/// repository holds; a link is listed as an entry of its own.
package enum FileTree {
  /// One entry below the listed folder.
  package struct Entry: Sendable, Equatable {
    /// The path from the listed folder, parts joined by `/`.
    package var path: String
    /// What the entry is, not following a link.
    package var kind: Kind

    package enum Kind: Sendable, Equatable {
      case file
      case folder
      case link
      case other
    }

    /// The entry's name, its path's last part.
    package var name: Substring { path.split(separator: "/").last ?? Substring(path) }
  }

  /// Every entry below `folder` (folders included, each before its contents), in no set
  /// order; with `skippingHidden`, entries whose name starts with `.` are left out and hidden
  /// folders not entered. A folder that cannot be read lists nothing below it; nil when
  /// `folder` itself cannot be read.
  package static func entries(under folder: String, skippingHidden: Bool = false) -> [Entry]? {
    var entries: [Entry] = []
    guard list(folder, prefix: "", skippingHidden: skippingHidden, into: &entries) else { return nil }
    return entries
  }

  private static func list(_ folder: String, prefix: String, skippingHidden: Bool, into entries: inout [Entry]) -> Bool {
    guard let stream = opendir(folder) else { return false }
    defer { closedir(stream) }
    var folders: [String] = []
    while let entry = readdir(stream) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
        String(decoding: bytes.prefix(while: { $0 != 0 }), as: UTF8.self)
      }
      if name == "." || name == ".." || (skippingHidden && name.hasPrefix(".")) { continue }
      let path = prefix + name
      var kind: Entry.Kind
      switch Int32(entry.pointee.d_type) {
      case Int32(DT_REG): kind = .file
      case Int32(DT_DIR): kind = .folder
      case Int32(DT_LNK): kind = .link
      case Int32(DT_UNKNOWN): kind = lstatKind(folder + "/" + name)
      default: kind = .other
      }
      entries.append(Entry(path: path, kind: kind))
      if kind == .folder { folders.append(name) }
    }
    for name in folders {
      _ = list(folder + "/" + name, prefix: prefix + name + "/", skippingHidden: skippingHidden, into: &entries)
    }
    return true
  }

  /// What the entry at `path` is, for file systems whose listings do not say.
  private static func lstatKind(_ path: String) -> Entry.Kind {
    var info = stat()
    guard lstat(path, &info) == 0 else { return .other }
    switch info.st_mode & S_IFMT {
    case S_IFREG: return .file
    case S_IFDIR: return .folder
    case S_IFLNK: return .link
    default: return .other
    }
  }

  /// Whether the entry at `path` is a regular file once links are followed.
  package static func isRegularFile(following path: String) -> Bool {
    var info = stat()
    return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
  }
}
