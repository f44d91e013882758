import Foundation
import RowKitGraphics

/// Files written under temporary names beside their targets and put in place together by
/// ``commit(then:)``, or removed by ``discard()``: readers see each old file or its new one,
/// never a part, and a failed run leaves nothing behind. Every file RowKit writes goes
/// through here.
///
/// The commit renames every file into place, keeping a hard link to each file it replaces,
/// and then writes the devices and FIFOs among the targets; when a rename, a device, or the
/// step the caller gives it fails, every file renamed so far is put back as it was. Renames are atomic one by one, not together: a process killed during the
/// commit (a rename per file, no writing) may leave some targets new and others old, and
/// hidden `.tmp` and `.old` files beside them.
///
/// Sendable: its lists are changed under a lock, and a render hands it to the thread that
/// writes its strips.
package final class AtomicFiles: Sendable {
  private struct State {
    var staged: [(temporary: URL, target: URL)] = []
    var folders: [(temporary: URL, target: URL)] = []
    /// Folders made on the way to a staged folder, removed again (when empty) by a discard.
    var madeFolders: [URL] = []
    /// Folders that take the place of a whole folder, each when its check still allows it.
    var replacements: [(temporary: URL, target: URL, mayReplace: () throws -> Void)] = []
  }

  /// How to take back one step of a commit.
  private enum Undo {
    /// A file was replaced: its old contents, kept at `backup`, go back to `path`.
    case restore(backup: String, path: String)
    /// A file was created at `path`.
    case remove(String)
    /// A folder was renamed into place at `path`, with only files written here in it.
    case removeFolder(String)
    /// A whole folder took the place of the one now kept at `old` (nil: there was none).
    case replaceFolder(old: String?, path: String)
  }

  private let state = Locked(State())
  private let token = UUID().uuidString

  /// Every set of files of the process that is alive, for ``discardEverything()``.
  private struct Everything {
    /// Weak: a set that is released discards its files itself.
    struct Entry: Sendable {
      weak var files: AtomicFiles?
    }

    var sets: [ObjectIdentifier: Entry] = [:]
    /// Set by ``discardEverything()``: no commit starts after it.
    var stopping = false
    var commitsUnderWay = 0
  }

  private static let everything = Locked(Everything())

  /// An empty set of files, nothing staged.
  package init() {
    Self.everything.withLock { $0.sets[ObjectIdentifier(self)] = Everything.Entry(files: self) }
  }

  /// Refuses, from now on, every file or folder staged and every commit started anywhere in
  /// the process: the first step of stopping it (``discardEverything()`` is the last).
  /// Returns whether this call began the stop (false when one was already under way).
  @discardableResult
  package static func beginStopping() -> Bool {
    everything.withLock { everything in
      defer { everything.stopping = true }
      return !everything.stopping
    }
  }

  /// Whether ``beginStopping()`` has been called.
  package static var isStopping: Bool { everything.withLock { $0.stopping } }

  /// Removes every file staged in the process and not put in place, from every set, once
  /// the commits under way have ended (for 2 s at most: a commit's last step may write to a
  /// FIFO nobody reads), after ``beginStopping()`` (which it calls too): for a process
  /// stopped by a signal, which then leaves each output as it was. A thread that checked
  /// just before the stop began may still make a folder inside a staged one (a check's
  /// report): the removal is repeated until the folders stay gone for three looks in a row.
  /// It may wait, so it is called off Swift's cooperative threads.
  package static func discardEverything() {
    let sets = everything.withLock { everything in
      everything.stopping = true
      return everything.sets.values.compactMap(\.files)
    }
    for _ in 0..<2000 where everything.withLock({ $0.commitsUnderWay }) > 0 { usleep(1000) }
    let folders = sets.flatMap { $0.discardReturningFolders() }
    var cleanLooks = 0
    for _ in 0..<200 where cleanLooks < 3 {
      let left = folders.filter { access($0.path, F_OK) == 0 }
      cleanLooks = left.isEmpty ? cleanLooks + 1 : 0
      for folder in left { try? FileManager.default.removeItem(at: folder) }
      usleep(1000)
    }
  }

  /// Records a temporary file or folder just made, unless ``discardEverything()`` has begun:
  /// then it is removed again and the error thrown. Under the process-wide lock, so that
  /// nothing is recorded after that discard has taken the sets' records.
  private func record(_ temporary: URL, _ change: (inout State) -> Void) throws {
    let recorded = Self.everything.withLock { everything in
      guard !everything.stopping else { return false }
      state.withLock(change)
      return true
    }
    guard recorded else {
      try? FileManager.default.removeItem(at: temporary)
      removeMadeFolders()
      throw OutputError("stopped before \(temporary.path) was put in place")
    }
  }

  /// A temporary name beside `url`, hidden, unique to this set of files. A device or a FIFO
  /// (`/dev/stdout`) is no folder's to write in: its bytes wait in the temporary folder.
  func temporary(beside url: URL, _ suffix: String = "") -> URL {
    let writesThrough = (try? OutputWriter.target(of: url))?.writesThrough == true
    let folder = writesThrough ? FileManager.default.temporaryDirectory : url.deletingLastPathComponent()
    return folder.appendingPathComponent(".\(url.lastPathComponent).\(token)\(suffix).tmp")
  }

  /// Writes `data` under a temporary name, to become `url` at the commit.
  package func stage(_ data: [UInt8], as url: URL) throws {
    let temporary = temporary(beside: url)
    try OutputWriter.writeNewFile(data, at: temporary, naming: url)
    try record(temporary) { $0.staged.append((temporary, url)) }
  }

  /// Takes the finished file `temporary`, written by someone else beside `url` (or, for a
  /// device or a FIFO, anywhere), to become `url` at the commit, or be removed at a discard.
  package func adopt(_ temporary: URL, as url: URL) {
    // Refused only when the process is stopping, which removes the file and ends the run.
    try? record(temporary) { $0.staged.append((temporary, url)) }
  }

  /// Keeps `temporary`, a file someone else is still writing, to be removed by a discard of
  /// this set or by the stop of the process (a signal), and never put in place, until
  /// ``release(_:)``: so that a stop while it is written leaves nothing behind.
  package func keepUntilReleased(_ temporary: URL) throws {
    try record(temporary) { $0.staged.append((temporary, temporary)) }
  }

  /// Stops keeping `temporaries` (``keepUntilReleased(_:)``): their writer hands them over.
  package func release(_ temporaries: [URL]) {
    state.withLock { state in state.staged.removeAll { staged in temporaries.contains(staged.temporary) } }
  }

  /// Makes an empty temporary file to become `url` at the commit, and returns its name:
  /// for a file written piece by piece.
  func create(for url: URL, suffix: String = "") throws -> URL {
    let temporary = temporary(beside: url, suffix)
    try OutputWriter.writeNewFile([], at: temporary, naming: url)
    try record(temporary) { $0.staged.append((temporary, url)) }
    return temporary
  }

  /// Makes the file staged as `temporary` become `url` instead: for tiles, whose names
  /// depend on how many there are.
  func retarget(_ temporary: URL, to url: URL) {
    state.withLock { state in
      guard let index = state.staged.firstIndex(where: { $0.temporary == temporary }) else { return }
      state.staged[index].target = url
    }
  }

  /// A temporary folder whose files move into `url` (made if missing) at the commit. The
  /// folders above `url` are made now, and removed again by a discard if they stay empty.
  package func folder(for url: URL) throws -> URL {
    let temporary = temporary(beside: url)
    let made = try OutputWriter.makeFolders(url.deletingLastPathComponent())
    state.withLock { $0.madeFolders += made }
    guard mkdir(temporary.path, 0o755) == 0 else {
      throw OutputError(writing: url, errno: errno)
    }
    try record(temporary) { $0.folders.append((temporary, url)) }
    return temporary
  }

  /// A temporary folder beside the folder `url` that takes its place whole at the commit:
  /// the old folder, when `mayReplace` (called then) does not throw, is renamed aside, the
  /// new one renamed into place, and the old one removed once the commit succeeded. A reader
  /// never sees a mix of the two; a run killed between the renames leaves the old folder
  /// under its temporary name.
  package func replacement(for url: URL, mayReplace: @escaping () throws -> Void) throws -> URL {
    let temporary = temporary(beside: url)
    let made = try OutputWriter.makeFolders(url.deletingLastPathComponent())
    state.withLock { $0.madeFolders += made }
    guard mkdir(temporary.path, 0o755) == 0 else { throw OutputError(writing: url, errno: errno) }
    try record(temporary) { $0.replacements.append((temporary, url, mayReplace)) }
    return temporary
  }

  /// Puts everything in place, then runs `finish` (the outputs that cannot be taken back,
  /// such as standard output, come last). When a rename or `finish` fails, every file is
  /// put back as it was and every temporary file removed.
  package func commit(then finish: () throws -> Void = {}) throws {
    let starts = Self.everything.withLock { everything in
      guard !everything.stopping else { return false }
      everything.commitsUnderWay += 1
      return true
    }
    guard starts else {
      discard()
      throw OutputError("stopped before the outputs were put in place")
    }
    defer { Self.everything.withLock { $0.commitsUnderWay -= 1 } }
    let (folders, staged, replacements) = state.withLock { state in
      defer {
        state.folders = []
        state.staged = []
        state.replacements = []
      }
      return (state.folders, state.staged, state.replacements)
    }
    var undo: [Undo] = []
    // Devices and FIFOs last: what they take cannot be taken back.
    let writesThrough = { (url: URL) in (try? OutputWriter.target(of: url))?.writesThrough == true }
    let ordered = staged.filter { !writesThrough($0.target) } + staged.filter { writesThrough($0.target) }
    do {
      for (temporary, target) in folders { try commitFolder(temporary, to: target, undo: &undo) }
      for (temporary, target) in ordered { try Self.install(temporary, at: target, undo: &undo) }
      for (temporary, target, mayReplace) in replacements {
        try mayReplace()
        try replaceFolder(target, with: temporary, undo: &undo)
      }
      try finish()
    } catch {
      for step in undo.reversed() { Self.take(back: step) }
      Self.remove(staged: staged, folders: folders + replacements.map { ($0.temporary, $0.target) })
      removeMadeFolders()
      throw error
    }
    for case .restore(let backup, _) in undo { unlink(backup) }
    for case .replaceFolder(let old?, _) in undo { try? FileManager.default.removeItem(atPath: old) }
    state.withLock { $0.madeFolders = [] }
  }

  /// Removes the staged files and folders among `temporaries` (names this set gave), and
  /// nothing else: for one writer of several that stage into the same set.
  func discard(_ temporaries: Set<URL>) {
    let (folders, staged) = state.withLock { state in
      defer {
        state.folders.removeAll { temporaries.contains($0.temporary) }
        state.staged.removeAll { temporaries.contains($0.temporary) }
      }
      return (state.folders.filter { temporaries.contains($0.temporary) }, state.staged.filter { temporaries.contains($0.temporary) })
    }
    Self.remove(staged: staged, folders: folders)
  }

  /// Removes every temporary file, and the folders made for them that stayed empty.
  package func discard() {
    _ = discardReturningFolders()
  }

  /// ``discard()``, returning the temporary folders it removed.
  private func discardReturningFolders() -> [URL] {
    let (folders, staged) = state.withLock { state in
      defer {
        state.folders = []
        state.staged = []
        state.replacements = []
      }
      return (state.folders + state.replacements.map { ($0.temporary, $0.target) }, state.staged)
    }
    Self.remove(staged: staged, folders: folders)
    removeMadeFolders()
    return folders.map(\.temporary)
  }

  /// Removes temporary files and folders (those already renamed into place are gone).
  private static func remove(staged: [(temporary: URL, target: URL)], folders: [(temporary: URL, target: URL)]) {
    for (temporary, _) in staged { unlink(temporary.path) }
    for (temporary, _) in folders { try? FileManager.default.removeItem(at: temporary) }
  }

  deinit {
    Self.everything.withLock { _ = $0.sets.removeValue(forKey: ObjectIdentifier(self)) }
    discard()
  }

  private func removeMadeFolders() {
    let made = state.withLock { state in
      defer { state.madeFolders = [] }
      return state.madeFolders
    }
    // Deepest first; rmdir(2) removes only empty folders, so nothing else is ever lost.
    for folder in made.reversed() { rmdir(folder.path) }
  }

  /// Moves the files of the staged folder `temporary` into `target`: the whole folder in one
  /// rename when `target` is new, else file by file, each replaced as files are.
  private func commitFolder(_ temporary: URL, to target: URL, undo: inout [Undo]) throws {
    var info = stat()
    if lstat(target.path, &info) != 0 {
      guard rename(temporary.path, target.path) == 0 else { throw OutputError(writing: target, errno: errno) }
      undo.append(.removeFolder(target.path))
      return
    }
    guard stat(target.path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
      throw OutputError("cannot write \(target.path): it is there and is not a folder")
    }
    let names = (try? FileManager.default.contentsOfDirectory(atPath: temporary.path))?.sorted() ?? []
    for name in names {
      let file = target.appendingPathComponent(name)
      // A link there may come from a checkout or an artifact.
      try OutputWriter.refuseAnythingButAFile(at: file)
      try Self.install(temporary.appendingPathComponent(name), at: file, undo: &undo)
    }
    rmdir(temporary.path)
  }

  /// Renames the folder `target`, if there is one, aside, and `temporary` into its place.
  private func replaceFolder(_ target: URL, with temporary: URL, undo: inout [Undo]) throws {
    var old: URL?
    var info = stat()
    if lstat(target.path, &info) == 0 {
      let aside = self.temporary(beside: target, ".old")
      guard rename(target.path, aside.path) == 0 else { throw OutputError(writing: target, errno: errno) }
      old = aside
    }
    guard rename(temporary.path, target.path) == 0 else {
      let failure = OutputError(writing: target, errno: errno)
      if let old { rename(old.path, target.path) }
      throw failure
    }
    undo.append(.replaceFolder(old: old?.path, path: target.path))
  }

  /// Puts the finished file `temporary` in place of `url` (see
  /// ``OutputWriter/moveIntoPlace(_:to:)``), and records how to take that back.
  private static func install(_ temporary: URL, at url: URL, undo: inout [Undo]) throws {
    let target: OutputWriter.Target
    do {
      target = try OutputWriter.target(of: url)
    } catch {
      throw OutputError("cannot write \(url.path): \((error as? OutputError)?.message ?? "\(error)")")
    }
    guard !target.writesThrough else {
      // A device or a FIFO takes the bytes as they come; nothing can take them back.
      do {
        try OutputWriter.moveIntoPlace(temporary, to: url)
      } catch {
        throw OutputError("cannot write \(url.path): \((error as? OutputError)?.message ?? error.localizedDescription)")
      }
      return
    }
    guard !target.isFolder else { throw OutputError("cannot write \(url.path): a folder is there") }
    var backedUp: String?
    if target.exists {
      // Another name for the old file, which the rename then leaves it under.
      let backup = (target.path as NSString).deletingLastPathComponent
        + "/.\((target.path as NSString).lastPathComponent).\(UUID().uuidString).old"
      // A copy where the file system has no hard links: slower, and as good.
      if link(target.path, backup) == 0 || (try? FileManager.default.copyItem(atPath: target.path, toPath: backup)) != nil {
        undo.append(.restore(backup: backup, path: target.path))
        backedUp = backup
      }
    } else {
      undo.append(.remove(target.path))
    }
    do {
      try OutputWriter.moveIntoPlace(temporary, to: url)
    } catch {
      // The rename failed, so the old file is where it was: its backup goes now, since
      // renaming it back may fail as the rename did (another user's file in a sticky folder).
      if let backedUp {
        unlink(backedUp)
        undo.removeLast()
      }
      throw OutputError("cannot write \(url.path): \((error as? OutputError)?.message ?? error.localizedDescription)")
    }
  }

  private static func take(back step: Undo) {
    switch step {
    case .restore(let backup, let path): rename(backup, path)
    case .remove(let path): unlink(path)
    case .removeFolder(let path): try? FileManager.default.removeItem(atPath: path)
    case .replaceFolder(let old, let path):
      try? FileManager.default.removeItem(atPath: path)
      if let old { rename(old, path) }
    }
  }
}

/// Writes single files atomically, through `AtomicFiles`.
package enum OutputWriter {
  /// Refuses to write `file`, a name RowKit chose inside a folder, when something other than
  /// a regular file is there: a link would lead the write out of the folder, and a FIFO
  /// would take the bytes and keep them.
  package static func refuseAnythingButAFile(at file: URL) throws {
    var info = stat()
    guard lstat(file.path, &info) == 0, info.st_mode & S_IFMT != S_IFREG else { return }
    let what = info.st_mode & S_IFMT == S_IFLNK ? "a symbolic link" : info.st_mode & S_IFMT == S_IFDIR ? "a folder" : "not a regular file"
    throw OutputError("cannot write \(file.path): \(what) is there, and files in a folder are never written through one")
  }

  /// Writes `data` to `url` atomically: to a temporary file beside it, then renamed over it,
  /// so readers see the old file or the new one, never a part.
  package static func write(_ data: [UInt8], to url: URL) throws {
    let files = AtomicFiles()
    try files.stage(data, as: url)
    try files.commit()
  }

  /// Where a file written to `url` lands: the end of any symbolic links at `url`, and
  /// whether it is written through (a FIFO, a device, a socket, a path under /proc) rather
  /// than replaced.
  struct Target {
    var path: String
    var exists: Bool
    var isFolder: Bool
    var writesThrough: Bool
  }

  /// Whether `url` is (or leads to) a device or a FIFO, which takes bytes as they come: no
  /// folder's to hold a temporary file beside it.
  package static func writesThrough(_ url: URL) -> Bool {
    (try? target(of: url))?.writesThrough == true
  }

  static func target(of url: URL) throws -> Target {
    var path = url.path
    var info = stat()
    var hops = 0
    while hops < 40, !path.hasPrefix("/proc/"), lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFLNK {
      guard let link = try? FileManager.default.destinationOfSymbolicLink(atPath: path) else {
        throw OutputError(path == url.path ? String(cString: strerror(errno)) : "\(path): \(String(cString: strerror(errno)))")
      }
      path = link.hasPrefix("/") ? link : (path as NSString).deletingLastPathComponent + "/" + link
      hops += 1
    }
    // Links that lead on past 40 (as the kernel stops) or in a loop: the output would
    // replace the last link followed with a file.
    if hops == 40, lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFLNK {
      throw OutputError(String(cString: strerror(ELOOP)))
    }
    let exists = stat(path, &info) == 0
    let special = exists && info.st_mode & S_IFMT != S_IFREG && info.st_mode & S_IFMT != S_IFDIR
    return Target(
      path: path, exists: exists, isFolder: exists && info.st_mode & S_IFMT == S_IFDIR,
      writesThrough: path.hasPrefix("/proc/") || special)
  }

  /// Puts the finished file `temporary` at the output path `url`, and never replaces anything
  /// but a regular file there with it:
  /// - a regular file, or nothing: `temporary` is renamed over it, so readers see the old file
  ///   or the new one, never a part;
  /// - a symbolic link: the same at the file it names (created if missing); the link stays;
  /// - a FIFO, a device or a socket, or a path under /proc (`/dev/stdout` leads there): the
  ///   bytes are written through into it, and `temporary` is removed.
  /// On failure `temporary` is left for the caller to remove.
  package static func moveIntoPlace(_ temporary: URL, to url: URL) throws {
    let target = try target(of: url).path
    func failure(_ path: String) -> OutputError {
      let reason = String(cString: strerror(errno))
      return OutputError(path == url.path ? reason : "\(path): \(reason)")
    }
    var info = stat()
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
    // A file of this user's that is replaced keeps its permissions (a reference made
    // group-writable, a record made private), as an editor's save keeps them; never its
    // set-user-ID, set-group-ID or sticky bits, and not another user's restrictions, since
    // the new file is this user's. A new file takes the umask's.
    let keptMode: mode_t? = exists && info.st_mode & S_IFMT == S_IFREG && info.st_uid == geteuid() ? info.st_mode & 0o777 : nil
    if let keptMode { _ = chmod(temporary.path, keptMode) }
    // NB: rename(2), not FileManager.replaceItemAt, which fails on Linux when the target exists.
    if rename(temporary.path, target) == 0 { return }
    guard errno == EXDEV else { throw failure(target) }
    // A link to another file system: a temporary file beside the target, renamed over it.
    let beside = (target as NSString).deletingLastPathComponent + "/.\((target as NSString).lastPathComponent).\(UUID().uuidString).tmp"
    do {
      try Data(contentsOf: temporary).write(to: URL(fileURLWithPath: beside))
      if let keptMode { _ = chmod(beside, keptMode) }
      guard rename(beside, target) == 0 else { throw failure(target) }
    } catch {
      unlink(beside)
      throw error
    }
    try? FileManager.default.removeItem(at: temporary)
  }

  /// Writes `bytes` into a new file at `path`, which must not exist yet; an error names
  /// `target`, the output the file is for, and says plainly when its folder is missing.
  static func writeNewFile(_ bytes: [UInt8], at path: URL, naming target: URL) throws {
    let descriptor = open(path.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
    guard descriptor >= 0 else { throw OutputError(writing: target, errno: errno) }
    var written = 0
    while written < bytes.count {
      let count = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress! + written, bytes.count - written) }
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else {
        let reason = errno
        close(descriptor)
        unlink(path.path)
        throw OutputError(writing: target, errno: reason)
      }
      written += count
    }
    // Some file systems (NFS, full disks) report a failed write only when the file closes.
    guard close(descriptor) == 0 else {
      let reason = errno
      unlink(path.path)
      throw OutputError(writing: target, errno: reason)
    }
  }

  /// The nearest of the folders `url` would be made in that exists, when it is not a folder
  /// (a file named as one of them): making `url`'s folders would fail there. Nil otherwise.
  package static func nonFolderOnTheWay(to url: URL) -> URL? {
    var above = url.deletingLastPathComponent()
    while !FileManager.default.fileExists(atPath: above.path), above.path != "/" { above = above.deletingLastPathComponent() }
    var isFolder: ObjCBool = false
    return FileManager.default.fileExists(atPath: above.path, isDirectory: &isFolder) && !isFolder.boolValue ? above : nil
  }

  /// Makes the folder `url` and its parents, as `mkdir -p` does: safe when other threads or
  /// processes make the same folders at the same moment (Foundation's
  /// `createDirectory(withIntermediateDirectories:)` fails when another maker wins the race).
  package static func createFolder(_ url: URL) throws {
    _ = try makeFolders(url)
  }

  /// Makes the folder `url` and its parents, and returns the folders it made, outermost
  /// first.
  static func makeFolders(_ url: URL) throws -> [URL] {
    // Nothing is made once the process is stopping: it would outlive the staged files.
    guard !AtomicFiles.isStopping else { throw OutputError("stopped before \(url.path) was made") }
    var path = ""
    var made: [URL] = []
    for component in url.standardizedFileURL.path.split(separator: "/") {
      path += "/" + component
      guard mkdir(path, 0o755) != 0 else {
        made.append(URL(fileURLWithPath: path))
        continue
      }
      let reason = errno
      var isFolder: ObjCBool = false
      guard reason == EEXIST, FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue else {
        throw OutputError("cannot create \(url.path): \(String(cString: strerror(reason)))")
      }
    }
    return made
  }

  /// The file names of a table's tiles: the output name itself for one tile, or the name
  /// with `-1`, `-2`, … before the extension for several.
  package static func tileURLs(for output: URL, count: Int) -> [URL] {
    guard count > 1 else { return [output] }
    let stem = output.deletingPathExtension().lastPathComponent
    let ext = output.pathExtension.isEmpty ? "png" : output.pathExtension
    return (1...count).map { output.deletingLastPathComponent().appendingPathComponent("\(stem)-\($0).\(ext)") }
  }
}

/// A failure to write an output file, with the message `rowkit` prints.
package struct OutputError: Error, CustomStringConvertible {
  /// What went wrong, naming the file.
  package var message: String
  /// An error explained by `message`.
  package init(_ message: String) { self.message = message }
  /// The ``message``.
  package var description: String { message }

  /// The error of writing the output `url` failing with `errno`: a missing folder is named
  /// as such, so every output path says the same (`cannot write out/t.json: the folder out
  /// does not exist`).
  package init(writing url: URL, errno code: Int32) {
    let folder = url.deletingLastPathComponent().path
    var info = stat()
    let reason: String
    switch code {
    case ENOENT where stat(folder, &info) != 0: reason = "the folder \(folder) does not exist"
    case ENOTDIR: reason = "\(folder) is not a folder"
    default: reason = String(cString: strerror(code))
    }
    self.init("cannot write \(url.path): \(reason)")
  }
}
