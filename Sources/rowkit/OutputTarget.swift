import ArgumentParser
import Foundation
import RowKit

/// An output `render` was told to write (`-o`, `--manifest`), as the user named it.
///
/// - A regular file, a new one, or a symbolic link to either: RowKit's writer puts it in place
///   atomically (a temporary file renamed over it; through a link, at the link's target).
/// - `-`: standard output.
/// - A FIFO, a device, a socket, a symbolic link to one, or a path under /dev or /proc
///   (`/dev/stdout`): written through, never replaced.
///
/// ``OutputFiles`` stages every output and puts them in place together, standard output and
/// written-through outputs last.
struct OutputTarget {
  enum Kind {
    case file
    case standardOutput
    case writeThrough
  }

  let path: String
  let kind: Kind

  init(_ path: String) {
    self.path = path
    var info = stat()
    if path == "-" {
      kind = .standardOutput
    } else if path.hasPrefix("/dev/") || path.hasPrefix("/proc/") {
      kind = .writeThrough
    } else if stat(path, &info) == 0, info.st_mode & S_IFMT != S_IFREG, info.st_mode & S_IFMT != S_IFDIR {
      kind = .writeThrough
    } else {
      kind = .file
    }
  }

  /// Whether writing here would write to a terminal. A FIFO is never opened to find out
  /// (opening it would wait for a reader).
  var isTerminal: Bool {
    switch kind {
    case .file: return false
    case .standardOutput: return isatty(STDOUT_FILENO) != 0
    case .writeThrough:
      var info = stat()
      guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFCHR else { return false }
      let descriptor = open(path, O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
      guard descriptor >= 0 else { return false }
      defer { close(descriptor) }
      return isatty(descriptor) != 0
    }
  }

  /// Refuses a PNG output that cannot be one: a name with another extension than .png (RowKit
  /// writes only PNG), or a terminal.
  func checkPNG(option: String) throws {
    let pathExtension = (path as NSString).pathExtension
    if kind == .file, !pathExtension.isEmpty, pathExtension.lowercased() != "png" {
      throw ValidationError(
        "\(option) \(path): rowkit writes only PNG images; name the file .png (a .\(pathExtension) name would hold PNG bytes)")
    }
    if isTerminal {
      throw ValidationError(
        "\(option) \(path): refusing to write a PNG image to a terminal; redirect standard output to a file or a pipe "
          + "(rowkit render table.yaml -o - > table.png)")
    }
  }
}

/// Everything one command writes, put in place together or not at all.
///
/// Files are staged under temporary names beside their targets (`AtomicFiles`); standard
/// output and written-through outputs in a private staging folder. ``commit()`` renames the
/// files into place, then copies the staged outputs to standard output and the devices
/// (which nothing can take back, so they come last); when any of that fails, every file is
/// put back as it was. Nothing committed: ``discard()`` (or the end of this object) removes
/// everything staged.
final class OutputFiles {
  /// The files staged beside their targets, for the writers that stage their own.
  let files = AtomicFiles()
  private var folder: URL?
  private var deliveries: [(target: OutputTarget, staged: URL, option: String)] = []
  /// Each file already taken, its links resolved: by the output option that writes it, or
  /// as a file the command reads.
  private var claimed: [String: String] = [:]
  /// The output files among them, their links resolved, by the option that writes each.
  private var outputs: [String: String] = [:]
  /// The folders `--rows-dir` fills with row files, their links resolved, and the paths the
  /// user gave.
  private var rowsFolders: [String: String] = [:]

  deinit {
    discard()
  }

  /// Where a writer should write the output `target` (the value of `option`): the target
  /// itself for a file, which the writer stages in ``files``; else a file named `name` in
  /// the staging folder, copied out at the commit. A file in a folder that does not exist is
  /// refused here, before anything is rendered, with the message every output path gives.
  func url(for target: OutputTarget, name: String, option: String) throws -> URL {
    guard target.kind != .file else {
      let url = URL(fileURLWithPath: target.path)
      var isFolder: ObjCBool = false
      let parent = url.deletingLastPathComponent().path
      guard FileManager.default.fileExists(atPath: parent, isDirectory: &isFolder), isFolder.boolValue else {
        throw OutputError(writing: url, errno: FileManager.default.fileExists(atPath: parent) ? ENOTDIR : ENOENT)
      }
      // Two outputs staged as one file would leave one of them, silently; an output over a
      // file the command reads would replace the user's document with it.
      if let path = ContainedPath.resolved(url) {
        if let taken = claimed[path] {
          throw OutputError("cannot write \(target.path) for \(option): it is \(taken); nothing is written")
        }
        if let rows = rowsFolder(holdingRowFile: path) {
          throw OutputError(
            "cannot write \(target.path) for \(option): it is the name of a row file of --rows-dir \(rows); nothing is written")
        }
        claimed[path] = "the file of \(option)"
        outputs[path] = option
      }
      return url
    }
    if folder == nil {
      let url = FileManager.default.temporaryDirectory.appendingPathComponent("rowkit-\(UUID().uuidString)")
      do {
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
      } catch {
        throw OutputError("cannot create a staging folder in \(FileManager.default.temporaryDirectory.path): \(error.localizedDescription)")
      }
      folder = url
    }
    let staged = folder!.appendingPathComponent("\(deliveries.count)-\(name)")
    deliveries.append((target, staged, option))
    return staged
  }

  /// Takes `folder` for the row files `--rows-dir` writes (`s0-r0.png`, …): no other output,
  /// and no file the command reads, may be one of them there, since the rows would take its
  /// place.
  func claimRowsFolder(_ folder: String) throws {
    guard let resolved = ContainedPath.resolved(URL(fileURLWithPath: folder)) else { return }
    rowsFolders[resolved] = folder
    for (path, taken) in claimed where rowsFolder(holdingRowFile: path) != nil {
      throw OutputError("cannot write the rows of --rows-dir \(folder): \(path) is \(taken); nothing is written")
    }
  }

  /// The `--rows-dir` folder whose row files include `path`, as the user named it.
  private func rowsFolder(holdingRowFile path: String) -> String? {
    let url = URL(fileURLWithPath: path)
    guard let folder = rowsFolders[url.deletingLastPathComponent().path] else { return nil }
    let name = url.lastPathComponent
    guard name.hasPrefix("s"), name.hasSuffix(".png") else { return nil }
    let parts = name.dropFirst().dropLast(4).split(separator: "-", omittingEmptySubsequences: false)
    guard parts.count == 2, parts[1].hasPrefix("r"), let section = Int(parts[0]), let row = Int(parts[1].dropFirst()),
      Manifest.rowFileName(section: section, row: row) == name
    else { return nil }
    return folder
  }

  /// Refuses any output written over `files`, which the command reads (a document and the
  /// stylesheets, designs and fonts it names).
  func protect(_ files: [URL]) {
    for file in files {
      if let path = ContainedPath.resolved(file) { claimed[path] = "\(file.lastPathComponent), which this command reads" }
    }
  }

  /// Refuses, before the commit, an output file that is one of `images`, the local images
  /// the render read (known only once it ran): the output would replace a picture the
  /// document (or `source`) shows.
  func refuseOverwriting(images: Set<String>, shownBy source: String = "the document") throws {
    for image in images {
      guard let path = ContainedPath.resolved(URL(fileURLWithPath: image)) else { continue }
      let option = outputs[path] ?? rowsFolder(holdingRowFile: path).map { "--rows-dir \($0)" }
      guard let option else { continue }
      throw OutputError(
        "cannot write \(image) for \(option): \(source) shows it as an image, which this command reads; nothing is written")
    }
  }

  /// Stages `bytes` as the output `target`.
  func write(_ bytes: [UInt8], to target: OutputTarget, name: String, option: String) throws {
    try files.stage(bytes, as: try url(for: target, name: name, option: option))
  }

  /// Puts every file in place, then writes standard output and the devices; on any failure
  /// the files are put back as they were, and nothing is left staged.
  func commit() throws {
    defer { discard() }
    try files.commit {
      for (target, staged, option) in deliveries { try deliver(target, from: staged, option: option) }
    }
  }

  /// Removes everything staged.
  func discard() {
    files.discard()
    if let folder { try? FileManager.default.removeItem(at: folder) }
    folder = nil
    deliveries = []
  }

  /// Copies a staged output to its target: to standard output, or written through.
  private func deliver(_ target: OutputTarget, from staged: URL, option: String) throws {
    guard FileManager.default.fileExists(atPath: staged.path) else {
      let tiles = OutputWriter.tileURLs(for: staged, count: 2)
      if FileManager.default.fileExists(atPath: tiles[0].path) {
        throw OutputError(
          "\(option) \(target.path): the table is taller than --max-png-height and was cut into tiles, which only "
            + "files can hold; raise --max-png-height or write to a file")
      }
      throw OutputError("\(option) \(target.path): nothing was written")
    }
    switch target.kind {
    case .file: return
    case .standardOutput:
      let handle = try FileHandle(forReadingFrom: staged)
      defer { try? handle.close() }
      while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty { try StandardStreams.write(chunk) }
    case .writeThrough:
      do {
        try OutputWriter.moveIntoPlace(staged, to: URL(fileURLWithPath: target.path))
      } catch {
        throw OutputError("cannot write \(target.path): \((error as? OutputError)?.message ?? error.localizedDescription)")
      }
    }
  }
}

/// Refuses an output file named as the `--rows-dir` folder itself (`-o x.png --rows-dir
/// x.png`), which was then said to be "a folder" that was not there yet.
func checkRowsFolder(_ rowsDir: String?, isNamedByNone outputs: [(option: String, path: String?)]) throws {
  guard let rowsDir, let folder = ContainedPath.resolved(URL(fileURLWithPath: rowsDir)) else { return }
  for (option, path) in outputs {
    guard let path, path != "-", ContainedPath.resolved(URL(fileURLWithPath: path)) == folder else { continue }
    throw ValidationError("\(option) and --rows-dir both name \(path): the rows go in a folder of their own")
  }
}
