import Foundation
import RowKitGraphics

/// The files of a streamed render, written under temporary names beside their targets and
/// renamed into place by ``commit()`` once everything is written, or removed by
/// ``discard()``: a failed render leaves no file behind, old or half-written.
final class StreamOutput {
  let destination: StreamingRenderer.Destination
  let width: Int
  let color: PNGColor
  let maximumHeight: Int
  private var writer: PNGStreamWriter?
  private var handle: FileHandle?
  private var tileFiles: [URL] = []
  private var tileHeights: [Int] = []
  private var rowsFolder: URL?
  private var rowFiles: [String] = []
  private var staged: [(temporary: URL, target: URL)] = []
  private let token = UUID().uuidString

  init(destination: StreamingRenderer.Destination, width: Int, color: PNGColor, maximumHeight: Int) throws {
    self.destination = destination
    self.width = width
    self.color = color
    self.maximumHeight = max(1, maximumHeight)
  }

  /// Whether no table pixels were written yet.
  var isEmpty: Bool { tileFiles.isEmpty }

  private func temporary(beside url: URL, _ suffix: String) -> URL {
    url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(token)\(suffix).tmp")
  }

  /// Appends a piece of the table image; a piece never crosses a tile's end.
  func append(_ piece: PNGStrip) throws {
    guard let table = destination.table else { return }
    if writer == nil || tileHeights.last == maximumHeight {
      try closeTile()
      let url = temporary(beside: table, "-\(tileFiles.count + 1)")
      guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
        throw OutputError("cannot write \(table.path): cannot create a file in \(table.deletingLastPathComponent().path)")
      }
      tileFiles.append(url)
      tileHeights.append(0)
      let handle = try FileHandle(forWritingTo: url)
      self.handle = handle
      writer = try PNGStreamWriter(width: width, color: color, file: handle)
    }
    try writer!.append(piece)
    tileHeights[tileHeights.count - 1] += piece.rows
  }

  private func closeTile() throws {
    guard let writer, let handle else { return }
    try writer.finish()
    try handle.close()
    self.writer = nil
    self.handle = nil
  }

  /// Writes one row's PNG.
  func writeRow(_ png: [UInt8], named name: String) throws {
    guard let rows = destination.rowsDirectory else { return }
    if rowsFolder == nil {
      let folder = temporary(beside: rows, "")
      do {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      } catch {
        throw OutputError("cannot create \(rows.path): \(error.localizedDescription)")
      }
      rowsFolder = folder
    }
    let url = rowsFolder!.appendingPathComponent(name)
    do {
      try Data(png).write(to: url)
    } catch {
      throw OutputError("cannot write \(rows.appendingPathComponent(name).path): \(error.localizedDescription)")
    }
    rowFiles.append(name)
  }

  /// Closes the table image and lists its tiles in `manifest` when there are several.
  func finish(manifest: inout Manifest, scale: Double) throws -> (tiles: Int, bytes: Int) {
    try closeTile()
    guard let table = destination.table else { return (0, 0) }
    var bytes = 0
    for file in tileFiles {
      bytes += ((try? FileManager.default.attributesOfItem(atPath: file.path))?[.size] as? Int) ?? 0
    }
    if tileFiles.count > 1 {
      let urls = OutputWriter.tileURLs(for: table, count: tileFiles.count)
      var top = 0
      manifest.tiles = zip(urls, tileHeights).map { url, height in
        defer { top += height }
        return Manifest.Tile(file: url.lastPathComponent, y: Double(top) / scale, height: Double(height) / scale)
      }
    }
    return (tileFiles.count, bytes)
  }

  /// Writes `data` under a temporary name, to become `url` at the commit.
  func stage(_ data: [UInt8], as url: URL) throws {
    let temporary = temporary(beside: url, "")
    do {
      try Data(data).write(to: temporary)
    } catch {
      throw OutputError("cannot write \(url.path): \(error.localizedDescription)")
    }
    staged.append((temporary, url))
  }

  /// Renames everything into place.
  func commit() throws {
    if let table = destination.table {
      let urls = OutputWriter.tileURLs(for: table, count: tileFiles.count)
      for (file, url) in zip(tileFiles, urls) { try Self.rename(file, to: url) }
    }
    if let folder = rowsFolder, let rows = destination.rowsDirectory {
      do {
        try FileManager.default.createDirectory(at: rows, withIntermediateDirectories: true)
      } catch {
        throw OutputError("cannot create \(rows.path): \(error.localizedDescription)")
      }
      for name in rowFiles { try Self.rename(folder.appendingPathComponent(name), to: rows.appendingPathComponent(name)) }
      try? FileManager.default.removeItem(at: folder)
    }
    for (temporary, url) in staged { try Self.rename(temporary, to: url) }
  }

  /// Removes every temporary file.
  func discard() {
    try? handle?.close()
    for file in tileFiles { try? FileManager.default.removeItem(at: file) }
    if let rowsFolder { try? FileManager.default.removeItem(at: rowsFolder) }
    for (temporary, _) in staged { try? FileManager.default.removeItem(at: temporary) }
  }

  private static func rename(_ from: URL, to: URL) throws {
    do {
      try OutputWriter.moveIntoPlace(from, to: to)
    } catch {
      throw OutputError("cannot write \(to.path): \((error as? OutputError)?.message ?? error.localizedDescription)")
    }
  }
}
