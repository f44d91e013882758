import Foundation
internal import CPango

/// Where fontconfig keeps what it learnt from scanning RowKit's font files, so that a
/// process reads one cache file instead of opening every font with FreeType.
///
/// fontconfig caches folders, not files, and trusts a cache while its folder's modification
/// time is unchanged. So the files of a ``TextEnvironment`` are linked into a folder of
/// their own whose name is a digest of each file's path, device, inode, size and modification
/// time and of fontconfig's version: a changed or replaced font file gives another folder
/// (and a fresh scan), and a folder, once made, never changes. Links are named
/// `0007-Name.ttf`, so fontconfig, which scans a folder's entries in name order, adds the
/// files in the environment's order and each face tells which file it came from.
///
/// The folder and fontconfig's cache live in `$XDG_CACHE_HOME/rowkit` (by default
/// `~/.cache/rowkit`); deleting it only costs one scan. Where it cannot be written, fonts
/// are scanned every time, as without a cache.
enum FontScanCache {
  struct Folder {
    /// The folder of links that fontconfig scans.
    var path: String
    /// The folder fontconfig writes its cache file to.
    var fontconfigCache: String

    /// The index in the environment's files of the file that the link `path` points to.
    func fileIndex(ofLink link: String) -> Int? {
      guard link.hasPrefix(path + "/") else { return nil }
      let name = link.dropFirst(path.count + 1)
      guard let dash = name.firstIndex(of: "-") else { return nil }
      return Int(name[..<dash])
    }
  }

  /// The cache's root folder, or nil when the environment names no home for it, or names it
  /// in bytes that are not UTF-8 text fit for fontconfig's configuration. An
  /// `XDG_CACHE_HOME` that is not absolute is ignored, as the XDG specification says; one
  /// that is absolute but unfit means no cache, not another folder.
  static var root: String? {
    enum Named { case none, unfit, folder(String) }
    // Read as bytes: Foundation's environment turns a byte that is not UTF-8 into U+FFFD,
    // and the folder made was then another than the one named.
    func variable(_ name: String) -> Named {
      guard let value = getenv(name) else { return .none }
      let bytes = Array(UnsafeBufferPointer(start: UnsafeRawPointer(value).assumingMemoryBound(to: UInt8.self), count: strlen(value)))
      guard bytes.first == UInt8(ascii: "/") else { return .none }
      // fontconfig reads the folder's name in an XML configuration, where no control
      // character can be written.
      guard let text = String(validating: bytes, as: UTF8.self),
        !text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
      else { return .unfit }
      return .folder(text)
    }
    switch variable("XDG_CACHE_HOME") {
    case .folder(let cache): return cache + "/rowkit"
    case .unfit: return nil
    case .none: break
    }
    if case .folder(let home) = variable("HOME") { return home + "/.cache/rowkit" }
    return nil
  }

  /// The folder of links to `paths` in the cache folder `root`, made if it does not exist
  /// yet; nil if it cannot be made.
  static func linkFolder(for paths: [String], in root: String) -> Folder? {
    guard let key = key(for: paths) else { return nil }
    let folder = Folder(path: "\(root)/fonts-\(key)", fontconfigCache: "\(root)/fontconfig")
    // fontconfig makes its cache folder itself, but takes a folder another process made in
    // the same instant for one it cannot write: two processes of a cold cache printed "No
    // writable cache directories" and scanned without it. Made here, an existing one is fine.
    try? FileManager.default.createDirectory(atPath: folder.fontconfigCache, withIntermediateDirectories: true)
    tidy(root)
    var isFolder: ObjCBool = false
    if FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder) {
      return isFolder.boolValue ? folder : nil
    }
    // Made under a name of its own and renamed into place, so that a process never sees a
    // half-made folder, and two processes making it at once both end with the same one.
    let partial = "\(folder.path).partial-\(getpid())-\(UUID().uuidString)"
    do {
      try FileManager.default.createDirectory(atPath: partial, withIntermediateDirectories: true)
      for (index, path) in paths.enumerated() {
        try FileManager.default.createSymbolicLink(atPath: "\(partial)/" + linkName(index: index, path: path), withDestinationPath: path)
      }
    } catch {
      try? FileManager.default.removeItem(atPath: partial)
      return nil
    }
    if rename(partial, folder.path) != 0 {
      try? FileManager.default.removeItem(atPath: partial)
      guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder), isFolder.boolValue else {
        return nil
      }
    }
    return folder
  }

  /// Makes again the links of `folder` to `paths` that are missing, as ``linkFolder(for:in:)``
  /// names them; leaves every other entry as it is.
  static func restoreLinks(in folder: Folder, to paths: [String]) {
    for (index, path) in paths.enumerated() {
      let link = "\(folder.path)/" + linkName(index: index, path: path)
      var info = stat()
      if lstat(link, &info) != 0, errno == ENOENT {
        try? FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: path)
      }
    }
  }

  /// The name of the link to `path`, the file of the environment at `index`.
  private static func linkName(index: Int, path: String) -> String {
    String(format: "%04d-", index) + (path as NSString).lastPathComponent
  }

  /// How long a brand font's copy, or a file of digests, is kept without being used.
  static let unusedLifetime: TimeInterval = 30 * 24 * 60 * 60

  /// Takes away what no process will read again:
  /// - the half-made folders of processes that have ended (`fonts-….partial-<pid>-…`,
  ///   `brand-….partial-<pid>-…`), an hour old: a command that ended while its fonts thread
  ///   was still making one left it behind;
  /// - brand fonts' copies and files of digests unused for ``unusedLifetime``: a font saved
  ///   a hundred times under a live preview left a hundred copies. Each use marks its own
  ///   (``markUsed(_:)``), so none in use goes; one taken away is made again when needed.
  ///   Unused means neither modified nor changed since: a cache restored from an archive
  ///   (CI's) keeps its files' old modification times, but its files were changed (made)
  ///   when it was restored.
  static func tidy(_ root: String, now: Date = Date()) {
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: root) else { return }
    let unusedSince = now.timeIntervalSince1970 - unusedLifetime
    for name in names where Self.isUsedOnce(name) {
      var info = stat()
      if lstat("\(root)/\(name)", &info) == 0, Double(max(info.st_mtim.tv_sec, info.st_ctim.tv_sec)) < unusedSince {
        try? FileManager.default.removeItem(atPath: "\(root)/\(name)")
      }
    }
    // A folder is made in well under a second: one an hour old whose process is gone here is
    // left over, even from a process of another container sharing the cache (whose number
    // this one cannot see).
    let leftOverSince = now.timeIntervalSince1970 - 3600
    for name in names where name.hasPrefix("fonts-") || name.hasPrefix("brand-") {
      guard let marker = name.range(of: ".partial-") else { continue }
      let digits = name[marker.upperBound...].prefix(while: \.isASCII).prefix(while: \.isNumber)
      var info = stat()
      guard let pid = pid_t(digits), name[marker.upperBound...].dropFirst(digits.count).hasPrefix("-"), pid != getpid(),
        kill(pid, 0) != 0, errno == ESRCH, lstat("\(root)/\(name)", &info) == 0, Double(info.st_mtim.tv_sec) < leftOverSince
      else { continue }
      try? FileManager.default.removeItem(atPath: "\(root)/\(name)")
    }
  }

  /// Whether `name` is a brand font's copy (`brand-` and 32 hex digits) or a file of digests
  /// (`digests-`, 32 hex digits, `.json`): what ``tidy(_:)`` takes away when unused.
  private static func isUsedOnce(_ name: String) -> Bool {
    func isHex(_ text: Substring) -> Bool { text.count == 32 && text.allSatisfy(\.isHexDigit) }
    if name.hasPrefix("brand-") { return isHex(name.dropFirst(6)) }
    if name.hasPrefix("digests-"), name.hasSuffix(".json") { return isHex(name.dropFirst(8).dropLast(5)) }
    return false
  }

  /// Marks the copy or file at `path` used now, so that ``tidy(_:)`` keeps it.
  static func markUsed(_ path: String) {
    utimes(path, nil)
  }

  /// A copy of the brand font at `path` whose bytes never change:
  /// `root/brand-<digest>/<its name>`, made (under a name of its own, renamed into place)
  /// the first time those bytes are drawn, and kept under its own name so that layout
  /// records name the file as before. FreeType maps the font file it reads while a face is in
  /// use: a brand font written over in place (`cp`, an editor's save) under a running preview
  /// crashed it. nil when no copy can be made; the file is then read where it is.
  static func snapshot(ofFontFile path: String, in root: String) -> String? {
    guard let expected = FileDigestCache.sha256(ofFiles: [path], cacheRoot: root).first ?? nil else { return nil }
    let name = (path as NSString).lastPathComponent
    let folder = "\(root)/brand-\(expected.prefix(32))"
    let copy = "\(folder)/\(name)"
    var info = stat()
    if lstat(copy, &info) == 0, info.st_mode & S_IFMT == S_IFREG {
      markUsed(folder)
      return copy
    }
    let partial = "\(folder).partial-\(getpid())-\(UUID().uuidString)"
    do {
      // The bytes copied are the bytes hashed: a file saved in between is not taken.
      let bytes = try InputFile.read(path)
      guard SHA256.hex(bytes) == expected else { return nil }
      try FileManager.default.createDirectory(atPath: partial, withIntermediateDirectories: true)
      try Data(bytes).write(to: URL(fileURLWithPath: "\(partial)/\(name)"))
    } catch {
      try? FileManager.default.removeItem(atPath: partial)
      return nil
    }
    if rename(partial, folder) != 0 {
      try? FileManager.default.removeItem(atPath: partial)
      guard lstat(copy, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
    }
    return copy
  }

  /// A digest of everything that would make an earlier scan of `paths` wrong; nil if a
  /// file cannot be examined.
  private static func key(for paths: [String]) -> String? {
    var text = "fontconfig \(FcGetVersion())\n"
    for path in paths {
      var status = stat()
      guard stat(path, &status) == 0 else { return nil }
      let line =
        "\(path)\0\(status.st_dev) \(status.st_ino) \(status.st_size) "
        + "\(status.st_mtim.tv_sec).\(status.st_mtim.tv_nsec)\n"
      text += line
    }
    return String(SHA256.hex(Array(text.utf8)).prefix(32))
  }
}
