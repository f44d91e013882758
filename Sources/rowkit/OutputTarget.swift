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
/// Standard output and written-through outputs are rendered into a private staging folder
/// first and copied out only after the render succeeded, so a failed render writes nothing
/// there either.
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

/// The private folder where outputs to standard output or written through are rendered
/// before they are copied out; removed by ``remove()``.
final class OutputStaging {
  private var folder: URL?

  /// Where RowKit should write `target`: the target itself for a file, else a file named
  /// `name` in the staging folder.
  func url(for target: OutputTarget, name: String) throws -> URL {
    guard target.kind != .file else { return URL(fileURLWithPath: target.path) }
    if folder == nil {
      let url = FileManager.default.temporaryDirectory.appendingPathComponent("rowkit-\(UUID().uuidString)")
      do {
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
      } catch {
        throw OutputError("cannot create a staging folder in \(FileManager.default.temporaryDirectory.path): \(error.localizedDescription)")
      }
      folder = url
    }
    return folder!.appendingPathComponent(name)
  }

  /// Copies a staged output to its target: to standard output, or written through.
  /// `staged` is what ``url(for:name:)`` gave for it.
  func deliver(_ target: OutputTarget, from staged: URL, option: String) throws {
    guard target.kind != .file else { return }
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
      let data = try Data(contentsOf: staged)
      FileHandle.standardOutput.write(data)
    case .writeThrough:
      do {
        try OutputWriter.moveIntoPlace(staged, to: URL(fileURLWithPath: target.path))
      } catch {
        throw OutputError("cannot write \(target.path): \((error as? OutputError)?.message ?? error.localizedDescription)")
      }
    }
  }

  func remove() {
    if let folder { try? FileManager.default.removeItem(at: folder) }
    folder = nil
  }
}
