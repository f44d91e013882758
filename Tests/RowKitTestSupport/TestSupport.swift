import Foundation
import RowKit
import RowKitGraphics

/// Paths and builders shared by RowKit's test targets.
public enum TestSupport {
  /// The repository's top folder.
  public static let repositoryRoot: URL = {
    var url = URL(fileURLWithPath: #filePath)
    while url.path != "/" {
      url.deleteLastPathComponent()
      if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { return url }
    }
    fatalError("Package.swift not found above \(#filePath)")
  }()

  public static var assets: URL { repositoryRoot.appendingPathComponent("Assets") }
  public static var snapshots: URL { repositoryRoot.appendingPathComponent("Snapshots") }

  /// Seconds until `condition` holds, polled every 50 ms on a thread of its own, or nil
  /// after `limit` seconds. Timing on its own thread keeps the figure honest while the rest
  /// of the suite keeps Swift concurrency's cooperative threads busy.
  public static func secondsUntil(within limit: Double, _ condition: @escaping @Sendable () -> Bool) async -> Double? {
    await withCheckedContinuation { continuation in
      Thread {
        let start = Date()
        while Date().timeIntervalSince(start) < limit {
          if condition() {
            continuation.resume(returning: Date().timeIntervalSince(start))
            return
          }
          Thread.sleep(forTimeInterval: 0.05)
        }
        continuation.resume(returning: condition() ? limit : nil)
      }.start()
    }
  }

  /// How `process` ended, waited for on a thread of its own; nil for one that has not ended
  /// within 120 s (a bound far above any machine's need, not a speed figure), which is then
  /// killed.
  public static func end(of process: Process) async -> (reason: Process.TerminationReason, status: Int32)? {
    if await secondsUntil(within: 120, { !process.isRunning }) == nil {
      kill(process.processIdentifier, SIGKILL)
      return nil
    }
    return await withCheckedContinuation { continuation in
      Thread {
        process.waitUntilExit()
        continuation.resume(returning: (process.terminationReason, process.terminationStatus))
      }.start()
    }
  }

  /// One folder per test process under the system's temporary folder, holding every
  /// test's own folders, and removed when the process exits: a run leaves nothing behind,
  /// even when a test fails before its own clean-up.
  public static let processTemporaryDirectory: URL = {
    removeFoldersOfEndedProcesses()
    let url = FileManager.default.temporaryDirectory
      .appendingPathComponent("rowkit-tests-\(getpid())-\(UUID().uuidString.prefix(8))")
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    processTemporaryPath.withLock { $0 = url.path }
    atexit {
      if let path = TestSupport.processTemporaryPath.withLock({ $0 }) { try? FileManager.default.removeItem(atPath: path) }
    }
    return url
  }()

  private static let processTemporaryPath = Locked<String?>(nil)

  /// Removes the folders of earlier test processes that ended without their `atexit` (a
  /// crash, a signal, a debugger stopped): `rowkit-tests-PID-…` whose process is gone.
  private static func removeFoldersOfEndedProcesses() {
    let folder = FileManager.default.temporaryDirectory
    for name in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [] where name.hasPrefix("rowkit-tests-") {
      guard let pid = Int32(name.dropFirst("rowkit-tests-".count).prefix { $0 != "-" }), pid != getpid(),
        kill(pid, 0) != 0, errno == ESRCH
      else { continue }
      try? FileManager.default.removeItem(at: folder.appendingPathComponent(name))
    }
  }

  public static func temporaryDirectory(_ name: String = #function) throws -> URL {
    let safe = name.filter { $0.isLetter || $0.isNumber }
    let url = processTemporaryDirectory.appendingPathComponent("\(safe)-\(UUID().uuidString.prefix(8))")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }

  /// A renderer with the standard environment and a fresh shaper.
  public static func renderer(
    _ configuration: TableConfiguration = TableConfiguration(), stylesheet: Stylesheet = .default
  ) throws -> TableRenderer {
    TableRenderer(configuration: configuration, stylesheet: stylesheet)
  }

  /// A catalog renderer with the catalog's generated images preloaded.
  public static func catalogRenderer(style: TableStyle) throws -> TableRenderer {
    var renderer = TableRenderer(configuration: TableConfiguration(style: style, now: Catalog.now))
    for (url, bitmap) in try Catalog.images() { renderer.preload(bitmap, for: url) }
    return renderer
  }

  /// Lays out one item in a one-row table and returns its placed row.
  public static func layoutRow(
    _ item: any TableItem, width: Double = 375, style: TableStyle = .plain, mapping: CellMapping = CellMapping(),
    renderer: TableRenderer? = nil, shaper: TextShaper? = nil
  ) throws -> PlacedRow {
    let renderer = renderer ?? TableRenderer(configuration: TableConfiguration(width: width, style: style))
    let table = try renderer.layout(
      SectionedDataSource(sections: [TableSection(items: [item])], cellMapping: mapping), shaper: shaper)
    return table.rows[0]
  }
}

/// The number of threads this process runs now.
public func threadCount() -> Int {
  Int(kernelStatus("Threads") ?? "") ?? -1
}

/// A field of what the kernel says of this process (`of: "self"`) or of the calling thread
/// (`"thread-self"`) in `/proc/<of>/status`, such as `Threads` or `Cpus_allowed_list`.
public func kernelStatus(_ field: String, of which: String = "self") -> String? {
  let status = (try? String(contentsOfFile: "/proc/\(which)/status", encoding: .utf8)) ?? ""
  let line = status.split(separator: "\n").first { $0.hasPrefix(field + ":") }
  return line.map { $0.dropFirst(field.count + 1).trimmingCharacters(in: .whitespaces) }
}

/// Polls `condition` for up to `seconds`: a bound far above what the condition needs, so a
/// slow machine cannot fail it, only a condition that never holds.
public func eventually(within seconds: Double, _ condition: () -> Bool) async -> Bool {
  let end = Date().addingTimeInterval(seconds)
  while Date() < end {
    if condition() { return true }
    try? await Task.sleep(nanoseconds: 20_000_000)
  }
  return condition()
}
