import Foundation
import RowKitGraphics

/// A rendered table: its layout, what each image slot showed, the table image (one tile,
/// or several for a table taller than Cairo's surface limit), optional per-row images, and
/// the manifest.
public struct RenderedTable {
  public var layout: TableLayout
  public var images: ResolvedImages
  public var tiles: [TableRenderer.Tile]
  /// Each row's own image, when rows were asked for.
  public var rowImages: [Bitmap]
  public var manifest: Manifest
}

extension TableRenderer {
  /// What a render produces.
  public struct Outputs: OptionSet, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    public static let table = Outputs(rawValue: 1)
    public static let rows = Outputs(rawValue: 2)
  }

  /// Lays out, loads images and paints `dataSource`.
  nonisolated(nonsending) public func render(
    _ dataSource: any TableDataSource, policy: ImagePolicy = .complete, outputs: Outputs = [.table]
  ) async throws -> RenderedTable {
    let table = try layout(dataSource)
    let images = try await loadImages(for: table, policy: policy)
    let tiles = outputs.contains(.table) ? try renderTable(table, images: images) : []
    let rows = outputs.contains(.rows) ? try table.rows.map { try renderRow($0, in: table, images: images) } : []
    return RenderedTable(
      layout: table, images: images, tiles: tiles, rowImages: rows, manifest: Manifest(table: table, images: images))
  }
}

extension TableDocument {
  /// A renderer for this document, with `configuration` in place of the document's own.
  public func makeRenderer(
    configuration: TableConfiguration? = nil, shaper: TextShaper? = nil, pipeline: ImagePipeline = .shared
  ) throws -> TableRenderer {
    let configuration = configuration ?? self.configuration
    return try TableRenderer(
      configuration: configuration, stylesheet: stylesheet, environment: textEnvironment(for: configuration),
      imageResolver: imageResolver, pipeline: pipeline,
      shaper: shaper.flatMap { $0.environment == textEnvironment(for: configuration) ? $0 : nil })
  }

  /// A streaming renderer for this document, with `configuration` in place of the
  /// document's own.
  public func makeStreamingRenderer(
    configuration: TableConfiguration? = nil, pipeline: ImagePipeline = .shared
  ) -> StreamingRenderer {
    let configuration = configuration ?? self.configuration
    return StreamingRenderer(
      configuration: configuration, stylesheet: stylesheet, environment: textEnvironment(for: configuration),
      imageResolver: imageResolver, pipeline: pipeline)
  }

  /// Renders the document straight to files; an error about a row names the row's place in
  /// the document.
  public func render(
    with renderer: StreamingRenderer, policy: ImagePolicy = .complete, to destination: StreamingRenderer.Destination
  ) async throws -> StreamingRenderer.Report {
    do {
      return try await renderer.render(dataSource, policy: policy, to: destination)
    } catch let error as RowLayoutError {
      throw self.error(section: error.section, row: error.row, "\(error.underlying)")
    }
  }

  /// Renders the document; an error about a row names the row's place in the document.
  nonisolated(nonsending) public func render(
    with renderer: TableRenderer, policy: ImagePolicy = .complete, outputs: TableRenderer.Outputs = [.table]
  ) async throws -> RenderedTable {
    do {
      return try await renderer.render(dataSource, policy: policy, outputs: outputs)
    } catch let error as RowLayoutError {
      throw self.error(section: error.section, row: error.row, "\(error.underlying)")
    }
  }
}

/// Writes render results. Every file is written to a temporary name and renamed into place,
/// so a failed run never leaves a half-written file.
public enum OutputWriter {
  /// Writes `data` to `url` atomically: to a temporary file beside it, then renamed over it,
  /// so readers see the old file or the new one, never a part.
  public static func write(_ data: [UInt8], to url: URL) throws {
    let directory = url.deletingLastPathComponent()
    let temporary = directory.appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).tmp")
    do {
      try Data(data).write(to: temporary)
      try moveIntoPlace(temporary, to: url)
    } catch {
      try? FileManager.default.removeItem(at: temporary)
      throw OutputError("cannot write \(url.path): \((error as? OutputError)?.message ?? error.localizedDescription)")
    }
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

  /// The file names of a table's tiles: the output name itself for one tile, or the name
  /// with `-1`, `-2`, … before the extension for several.
  public static func tileURLs(for output: URL, count: Int) -> [URL] {
    guard count > 1 else { return [output] }
    let stem = output.deletingPathExtension().lastPathComponent
    let ext = output.pathExtension.isEmpty ? "png" : output.pathExtension
    return (1...count).map { output.deletingLastPathComponent().appendingPathComponent("\(stem)-\($0).\(ext)") }
  }

  /// Writes a rendered table: the table PNG (or tiles), the rows' PNGs, and the manifest.
  /// Everything is encoded before the first file is written.
  public static func write(
    _ rendered: RenderedTable, table: URL?, rowsDirectory: URL?, manifest manifestURL: URL?
  ) throws {
    var manifest = rendered.manifest
    var files: [(URL, [UInt8])] = []
    if let table {
      let urls = tileURLs(for: table, count: rendered.tiles.count)
      for (url, tile) in zip(urls, rendered.tiles) { files.append((url, try PNG.encode(tile.bitmap))) }
      if rendered.tiles.count > 1 {
        let scale = rendered.layout.configuration.scale
        manifest.tiles = zip(urls, rendered.tiles).map { url, tile in
          Manifest.Tile(
            file: url.lastPathComponent, y: Double(tile.topPixel) / scale, height: Double(tile.bitmap.height) / scale)
        }
      }
    }
    if let rowsDirectory {
      for (index, row) in rendered.layout.rows.enumerated() {
        let name = Manifest.rowFileName(section: row.section, row: row.row)
        files.append((rowsDirectory.appendingPathComponent(name), try PNG.encode(rendered.rowImages[index])))
        manifest.rows[index].file = name
      }
    }
    if let manifestURL { files.append((manifestURL, try manifest.jsonBytes())) }
    if let rowsDirectory {
      do {
        try FileManager.default.createDirectory(at: rowsDirectory, withIntermediateDirectories: true)
      } catch {
        throw OutputError("cannot create \(rowsDirectory.path): \(error.localizedDescription)")
      }
    }
    for (url, data) in files { try write(data, to: url) }
  }
}

extension Manifest {
  /// Pretty-printed JSON with sorted keys: the same manifest is always the same bytes.
  public func jsonBytes() throws -> [UInt8] {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    return [UInt8](try encoder.encode(self)) + [0x0A]
  }
}

public struct OutputError: Error, CustomStringConvertible {
  public var message: String
  public init(_ message: String) { self.message = message }
  public var description: String { message }
}
