import Foundation

/// Files written under temporary names beside their targets and renamed into place together
/// by ``commit()``, or removed by ``discard()``: readers see the old file or the new one,
/// never a part, and a failed run leaves nothing behind. Every file RowKit writes goes
/// through here.
public final class AtomicFiles {
  private var staged: [(temporary: URL, target: URL)] = []
  private var folders: [(temporary: URL, target: URL)] = []
  private var replacements: [(temporary: URL, target: URL, mayReplace: () throws -> Void)] = []
  private let token = UUID().uuidString

  /// An empty set of files, nothing staged.
  public init() {}

  /// A temporary name beside `url`, hidden, unique to this set of files.
  func temporary(beside url: URL, _ suffix: String = "") -> URL {
    url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(token)\(suffix).tmp")
  }

  /// Writes `data` under a temporary name, to become `url` at the commit.
  public func stage(_ data: [UInt8], as url: URL) throws {
    let temporary = temporary(beside: url)
    do {
      try Data(data).write(to: temporary)
    } catch {
      try? FileManager.default.removeItem(at: temporary)
      throw OutputError("cannot write \(url.path): \(error.localizedDescription)")
    }
    staged.append((temporary, url))
  }

  /// Makes an empty temporary file to become `url` at the commit, and returns its name:
  /// for a file written piece by piece.
  func create(for url: URL, suffix: String = "") throws -> URL {
    let temporary = temporary(beside: url, suffix)
    guard FileManager.default.createFile(atPath: temporary.path, contents: nil) else {
      throw OutputError("cannot write \(url.path): cannot create a file in \(url.deletingLastPathComponent().path)")
    }
    staged.append((temporary, url))
    return temporary
  }

  /// Makes the file staged as `temporary` become `url` instead: for tiles, whose names
  /// depend on how many there are.
  func retarget(_ temporary: URL, to url: URL) {
    guard let index = staged.firstIndex(where: { $0.temporary == temporary }) else { return }
    staged[index].target = url
  }

  /// A temporary folder whose files move into `url` (made if missing) at the commit.
  public func folder(for url: URL) throws -> URL {
    let temporary = temporary(beside: url)
    try OutputWriter.createFolder(url.deletingLastPathComponent())
    guard mkdir(temporary.path, 0o755) == 0 else {
      throw OutputError("cannot create \(url.path): \(String(cString: strerror(errno)))")
    }
    folders.append((temporary, url))
    return temporary
  }

  /// A temporary folder beside the folder `url` that takes its place whole at the commit:
  /// the old folder, when `mayReplace` (called then) does not throw, is renamed aside, the
  /// new one renamed into place, and the old one removed. A reader never sees a mix of the
  /// two; a run killed between the renames leaves the old folder under its temporary name.
  public func replacement(for url: URL, mayReplace: @escaping () throws -> Void) throws -> URL {
    let temporary = temporary(beside: url)
    try OutputWriter.createFolder(url.deletingLastPathComponent())
    guard mkdir(temporary.path, 0o755) == 0 else {
      throw OutputError("cannot create \(url.path): \(String(cString: strerror(errno)))")
    }
    replacements.append((temporary, url, mayReplace))
    return temporary
  }

  /// Renames everything into place.
  public func commit() throws {
    for (temporary, target) in folders {
      try OutputWriter.createFolder(target)
      let names = (try? FileManager.default.contentsOfDirectory(atPath: temporary.path))?.sorted() ?? []
      for name in names {
        try Self.rename(temporary.appendingPathComponent(name), to: target.appendingPathComponent(name))
      }
      try? FileManager.default.removeItem(at: temporary)
    }
    folders = []
    for (temporary, target) in staged { try Self.rename(temporary, to: target) }
    staged = []
    for (temporary, target, mayReplace) in replacements {
      try mayReplace()
      var old: URL?
      var info = stat()
      if lstat(target.path, &info) == 0 {
        let aside = self.temporary(beside: target, ".old")
        guard Glibc.rename(target.path, aside.path) == 0 else {
          throw OutputError("cannot replace \(target.path): \(String(cString: strerror(errno)))")
        }
        old = aside
      }
      guard Glibc.rename(temporary.path, target.path) == 0 else {
        let reason = String(cString: strerror(errno))
        if let old { Glibc.rename(old.path, target.path) }
        throw OutputError("cannot replace \(target.path): \(reason)")
      }
      if let old { try? FileManager.default.removeItem(at: old) }
    }
    replacements = []
  }

  /// Removes every temporary file.
  public func discard() {
    for (temporary, _) in staged { try? FileManager.default.removeItem(at: temporary) }
    for (temporary, _) in folders { try? FileManager.default.removeItem(at: temporary) }
    for (temporary, _, _) in replacements { try? FileManager.default.removeItem(at: temporary) }
    staged = []
    folders = []
    replacements = []
  }

  deinit {
    discard()
  }

  private static func rename(_ from: URL, to: URL) throws {
    do {
      try OutputWriter.moveIntoPlace(from, to: to)
    } catch {
      throw OutputError("cannot write \(to.path): \((error as? OutputError)?.message ?? error.localizedDescription)")
    }
  }
}

/// Writes single files atomically, through ``AtomicFiles``.
public enum OutputWriter {
  /// Writes `data` to `url` atomically: to a temporary file beside it, then renamed over it,
  /// so readers see the old file or the new one, never a part.
  public static func write(_ data: [UInt8], to url: URL) throws {
    let files = AtomicFiles()
    try files.stage(data, as: url)
    try files.commit()
  }

  /// Puts the finished file `temporary` at the output path `url`, and never replaces anything
  /// but a regular file there with it:
  /// - a regular file, or nothing: `temporary` is renamed over it, so readers see the old file
  ///   or the new one, never a part;
  /// - a symbolic link: the same at the file it names (created if missing); the link stays;
  /// - a FIFO, a device or a socket, or a path under /proc (`/dev/stdout` leads there): the
  ///   bytes are written through into it, and `temporary` is removed.
  /// On failure `temporary` is left for the caller to remove.
  public static func moveIntoPlace(_ temporary: URL, to url: URL) throws {
    var target = url.path
    func failure(_ path: String) -> OutputError {
      let reason = String(cString: strerror(errno))
      return OutputError(path == url.path ? reason : "\(path): \(reason)")
    }
    var info = stat()
    var hops = 0
    while hops < 40, !target.hasPrefix("/proc/"), lstat(target, &info) == 0, info.st_mode & S_IFMT == S_IFLNK {
      guard let link = try? FileManager.default.destinationOfSymbolicLink(atPath: target) else { throw failure(target) }
      target = link.hasPrefix("/") ? link : (target as NSString).deletingLastPathComponent + "/" + link
      hops += 1
    }
    let exists = stat(target, &info) == 0
    if target.hasPrefix("/proc/") || exists && info.st_mode & S_IFMT != S_IFREG && info.st_mode & S_IFMT != S_IFDIR {
      let data = try Data(contentsOf: temporary)
      let descriptor = open(target, O_WRONLY | O_TRUNC | O_CLOEXEC)
      guard descriptor >= 0 else { throw failure(target) }
      defer { close(descriptor) }
      var written = 0
      while written < data.count {
        let count = data.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress! + written, data.count - written) }
        if count < 0 && errno == EINTR { continue }
        guard count > 0 else { throw failure(target) }
        written += count
      }
      try? FileManager.default.removeItem(at: temporary)
      return
    }
    // NB: rename(2), not FileManager.replaceItemAt, which fails on Linux when the target exists.
    if rename(temporary.path, target) == 0 { return }
    guard errno == EXDEV else { throw failure(target) }
    // A link to another file system: a temporary file beside the target, renamed over it.
    let beside = (target as NSString).deletingLastPathComponent + "/.\((target as NSString).lastPathComponent).\(UUID().uuidString).tmp"
    do {
      try Data(contentsOf: temporary).write(to: URL(fileURLWithPath: beside))
      guard rename(beside, target) == 0 else { throw failure(target) }
    } catch {
      unlink(beside)
      throw error
    }
    try? FileManager.default.removeItem(at: temporary)
  }

  /// Makes the folder `url` and its parents, as `mkdir -p` does: safe when other threads or
  /// processes make the same folders at the same moment (Foundation's
  /// `createDirectory(withIntermediateDirectories:)` fails when another maker wins the race).
  public static func createFolder(_ url: URL) throws {
    var path = ""
    for component in url.standardizedFileURL.path.split(separator: "/") {
      path += "/" + component
      guard mkdir(path, 0o755) != 0 else { continue }
      let reason = errno
      var isFolder: ObjCBool = false
      guard reason == EEXIST, FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue else {
        throw OutputError("cannot create \(url.path): \(String(cString: strerror(reason)))")
      }
    }
  }

  /// The file names of a table's tiles: the output name itself for one tile, or the name
  /// with `-1`, `-2`, … before the extension for several.
  public static func tileURLs(for output: URL, count: Int) -> [URL] {
    guard count > 1 else { return [output] }
    let stem = output.deletingPathExtension().lastPathComponent
    let ext = output.pathExtension.isEmpty ? "png" : output.pathExtension
    return (1...count).map { output.deletingLastPathComponent().appendingPathComponent("\(stem)-\($0).\(ext)") }
  }
}

/// A failure to write an output file, with the message `rowkit` prints.
public struct OutputError: Error, CustomStringConvertible {
  /// What went wrong, naming the file.
  public var message: String
  /// An error explained by `message`.
  public init(_ message: String) { self.message = message }
  /// The ``message``.
  public var description: String { message }
}
