import Foundation
import RowKit
import RowKitGraphics

/// How a value becomes the layout record a layout snapshot compares: every row's height, and
/// every element's frame, text, font, color, line count and image state, without a pixel
/// (as swift-snapshot-testing's `recursiveDescription` pins a view's tree). The reference is
/// `<name>.layout.json` alone; a layout snapshot still passes after a toolchain upgrade that
/// changes only how glyphs are rasterized, and its failures are the layout-change sentences.
///
/// ```swift
/// await assertSnapshot(of: SettingsItem(text: "On", caption: "Wi-Fi"), as: .layout(), named: "settings-on")
/// ```
public struct LayoutSnapshotting<Value>: Sendable {
  /// Lays a value out and returns its record.
  public var layout: @Sendable (Value) async throws -> LayoutRecord

  /// A strategy that makes its record with `layout`.
  public init(layout: @escaping @Sendable (Value) async throws -> LayoutRecord) {
    self.layout = layout
  }

  /// The layout record of the table that `strategy` draws. An image strategy without a
  /// table (``ImageSnapshotting/image``) has no layout: checking it is an error.
  public init(_ strategy: ImageSnapshotting<Value>) {
    let renderWithLayout = strategy.renderWithLayout
    layout = { value in
      guard let renderWithLayout else { throw SnapshotError("this strategy draws no table, so it has no layout record") }
      guard let record = try await renderWithLayout(value, true).layout else {
        throw SnapshotError("the render made no layout record (a table over \(SnapshotCheck.maximumLayoutRecordRows) rows has none)")
      }
      return record
    }
  }
}

extension LayoutSnapshotting where Value == any TableDataSource {
  /// The layout of the whole table.
  public static func layout(
    configuration: TableConfiguration = TableConfiguration(), stylesheet: Stylesheet = .default,
    images: SnapshotImages = .none, allowing substitutes: SnapshotSubstitutes = []
  ) -> LayoutSnapshotting<any TableDataSource> {
    LayoutSnapshotting(.table(configuration: configuration, stylesheet: stylesheet, images: images, allowing: substitutes))
  }
}

extension LayoutSnapshotting where Value: TableDataSource {
  /// The layout of the whole table.
  public static func layout(
    configuration: TableConfiguration = TableConfiguration(), stylesheet: Stylesheet = .default,
    images: SnapshotImages = .none, allowing substitutes: SnapshotSubstitutes = []
  ) -> LayoutSnapshotting<Value> {
    LayoutSnapshotting(.table(configuration: configuration, stylesheet: stylesheet, images: images, allowing: substitutes))
  }
}

extension LayoutSnapshotting where Value: TableItem {
  /// The layout of one item's row, as the only row of a table.
  public static func layout(
    mapping: CellMapping = CellMapping(), configuration: TableConfiguration = TableConfiguration(),
    stylesheet: Stylesheet = .default, images: SnapshotImages = .none, allowing substitutes: SnapshotSubstitutes = []
  ) -> LayoutSnapshotting<Value> {
    LayoutSnapshotting(
      .row(mapping: mapping, configuration: configuration, stylesheet: stylesheet, images: images, allowing: substitutes))
  }
}

extension LayoutSnapshotting where Value == TableDocument {
  /// The layout of a table document, laid out as `rowkit render` lays it out.
  public static var layout: LayoutSnapshotting<TableDocument> { LayoutSnapshotting(.document) }
}

/// How a layout snapshot ended.
public enum LayoutSnapshotOutcome: Sendable, Equatable {
  /// The layout equals its reference record.
  case matched
  /// A reference record was written; the check fails so that it is looked at. `changes` are
  /// the differences from the record it replaced (none for a new one).
  case recorded(path: String, reason: String, changes: [LayoutChange])
  /// The layout differs from its reference record, or there is none and none may be written.
  case failed(message: String, changes: [LayoutChange], actualRecord: String?)
  /// The check could not run: a bad name, a duplicate, an unreadable record, a failed render.
  case error(message: String)

  /// Whether the layout matched its reference.
  public var passed: Bool { self == .matched }

  /// The failure's message, then one line for each change; nil when the check passed.
  public var message: String? {
    switch self {
    case .matched: return nil
    case .recorded(let path, let reason, let changes):
      return "\(reason): recorded \(path); look at it, then run again" + Self.lines(changes)
    case .failed(let message, let changes, _): return message + Self.lines(changes)
    case .error(let message): return message
    }
  }

  private static func lines(_ changes: [LayoutChange]) -> String {
    changes.map { "\n  \($0.sentence)" }.joined()
  }
}

extension ReferenceStore {
  /// Lays `value` out with `strategy` and checks its record against the reference record
  /// for `suite`/`name` (see ``checkLayout(_:suite:name:record:)``).
  nonisolated(nonsending) public func checkLayout<Value>(
    _ value: Value, as strategy: LayoutSnapshotting<Value>, suite: String, name: String, record: RecordMode? = nil
  ) async -> LayoutSnapshotOutcome {
    do {
      let layout = try await laidOut { try await strategy.layout(value) }
      // Reading and writing records is file work: on a render worker, never the caller's.
      let site = Self.checkSite
      return try await RenderPool.shared.run {
        Self.$checkSite.withValue(site) { self.checkLayout(layout, suite: suite, name: name, record: record) }
      }
    } catch {
      return .error(message: "\(Self.key(suite: suite, name: name)): layout failed: \(error)")
    }
  }

  /// Runs `body`, a closure that captures the value: passed as a parameter, it keeps a value
  /// that is not `Sendable` in the caller's region, as the image strategies' renders do.
  nonisolated(nonsending) private func laidOut(_ body: () async throws -> LayoutRecord) async throws -> LayoutRecord {
    try await body()
  }

  /// Checks `layout` against the reference record `<suite>/<name>.layout.json`, which has no
  /// PNG beside it. Recording follows the record mode as for images: a missing record is
  /// written (unless the mode is `never`), a changed one under `failed` and `all`. References of
  /// another environment are compared, not refused: a layout does not depend on rasterization,
  /// and a font package whose files changed and whose metrics did not changes nothing here.
  /// On a failure the actual record is written beside the failure images.
  public func checkLayout(_ layout: LayoutRecord, suite: String, name: String, record: RecordMode? = nil) -> LayoutSnapshotOutcome {
    let reference: URL
    var mode: RecordMode
    var environmentDiffers = false
    switch claim(suite: suite, name: name, options: .exact, record: record, explainsEnvironment: false) {
    case .success(let claim):
      (reference, mode) = (claim.reference, claim.mode)
    case .failure(let early):
      guard case .environmentMismatch = early.outcome, let url = try? referenceURL(suite: suite, name: name) else {
        return .error(message: early.outcome.message ?? "\(suite)/\(name): not checked")
      }
      (reference, mode, environmentDiffers) = (url, .never, true)
    }
    let key = Self.key(suite: suite, name: name)
    let recordURL = LayoutRecord.url(besidePNG: reference)
    func write(reason: String, changes: [LayoutChange]) -> LayoutSnapshotOutcome {
      do {
        try writeLayoutRecord(layout, to: recordURL)
        return .recorded(path: recordURL.path, reason: reason, changes: changes)
      } catch {
        return .error(message: "\(key): recording \(recordURL.path) failed: \(error)")
      }
    }
    let old: LayoutRecord
    switch readLayoutRecord(at: recordURL) {
    case .absent where mode != .never:
      return write(reason: "\(key): no layout reference", changes: [])
    case .unreadable where mode != .never:
      return write(reason: "\(key): the layout reference was unreadable", changes: [])
    case .absent:
      return .failed(message: "\(key): no layout reference at \(recordURL.path), and recording is off", changes: [], actualRecord: nil)
    case .unreadable(let reason):
      return .error(message: "\(key): \(reason)")
    case .record(let stored):
      old = stored
    }
    let changes = LayoutChanges.compare(old, layout).filter { !(environmentDiffers && $0.isFontDigestOnly) }
    let folder = artifactDirectory(suite: suite, name: name)
    if changes.isEmpty {
      removeStaleArtifactsHere(suite: suite, name: name)
      // Under `all` a record that differs without a change to tell (one written before a key
      // was recorded) is written again and the check passes, as beside a PNG that matched.
      if mode == .all, old != layout {
        do {
          try writeLayoutRecord(layout, to: recordURL)
        } catch {
          return .error(message: "\(key): recording \(recordURL.path) failed: \(error)")
        }
      }
      return .matched
    }
    if mode == .all || mode == .failed {
      removeStaleArtifactsHere(suite: suite, name: name)
      return write(reason: "\(key): the layout changed", changes: changes)
    }
    let actualURL = folder.appendingPathComponent("actual.layout.json")
    // Never through a link out of the artifacts folder (see FailureArtifacts.clear).
    let kept = (try? OutputWriter.createFolder(folder)) != nil && FailureArtifacts.clear(folder, root: artifactsRoot)
      && (try? OutputWriter.write(layout.jsonBytes(), to: actualURL)) != nil
    let count = changes.count == 1 ? "1 change" : "\(changes.count) changes"
    return .failed(
      message: "\(key): the layout differs from \(recordURL.path) (\(count))" + (kept ? "; actual record: \(actualURL.path)" : ""),
      changes: changes, actualRecord: kept ? actualURL.path : nil)
  }
}
