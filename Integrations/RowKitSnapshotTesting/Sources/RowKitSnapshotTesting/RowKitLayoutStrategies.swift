import Foundation
import RowKit
import RowKitSnapshot
import SnapshotTesting

/// A RowKit layout record as swift-snapshot-testing stores and compares it: a
/// `<test>.<name>.layout.json` file in RowKit's deterministic JSON (sorted keys, one value a
/// line, readable in a pull request's diff), compared element by element.
public struct RowKitLayout: Sendable {
  /// The record, or nil when the layout failed or the file could not be read.
  public var record: LayoutRecord?
  /// Why there is no record.
  public var problem: String?

  /// A fresh layout.
  public init(record: LayoutRecord) {
    self.record = record
  }

  /// A layout that failed.
  public init(problem: String) {
    self.problem = problem
  }

  /// A reference file's contents.
  public init(jsonData: Data) {
    do {
      record = try LayoutRecord.decode([UInt8](jsonData), file: "the layout reference")
    } catch {
      problem = "the reference is not a RowKit layout record: \(error)"
    }
  }

  /// The file's contents; empty when there is no record.
  public func jsonData() -> Data {
    (try? record.map { Data(try $0.jsonBytes()) }) ?? Data()
  }
}

extension Diffing where Value == RowKitLayout {
  /// RowKit's layout comparison behind swift-snapshot-testing: a failure tells each change in
  /// one sentence with its numbers (`s0-r0 text "Wi-Fi" → "WLAN"`), as `rowkit check` does.
  public static var rowkitLayout: Diffing<RowKitLayout> {
    .diff(
      toData: { $0.jsonData() },
      fromData: { RowKitLayout(jsonData: $0) },
      diffV2: { reference, actual in
        guard let old = reference.record else { return ("RowKit: \(reference.problem ?? "no layout reference")", []) }
        guard let new = actual.record else { return ("RowKit: the layout failed: \(actual.problem ?? "")", []) }
        let changes = LayoutChanges.compare(old, new)
        guard !changes.isEmpty else { return nil }
        let count = changes.count == 1 ? "1 change" : "\(changes.count) changes"
        return ("RowKit: the layout differs (\(count))" + changes.map { "\n  \($0.sentence)" }.joined(), [])
      })
  }
}

extension Snapshotting where Format == RowKitLayout {
  /// A strategy that lays values out with RowKit's layout strategy `strategy` (from
  /// `RowKitSnapshot`) and keeps the record alone, `.layout.json`, as the reference. Like the
  /// image strategies, the layout runs on the RowKit runtime's executor.
  public static func rowkitLayout(_ strategy: LayoutSnapshotting<Value>) -> Snapshotting<Value, RowKitLayout> {
    let layout = strategy.layout
    return Snapshotting(pathExtension: "layout.json", diffing: .rowkitLayout) { value in
      onRowKitRuntime(
        { RowKitLayout(record: try await layout(value)) },
        failure: { RowKitLayout(problem: "RowKit could not lay the snapshot out: \($0)") })
    }
  }
}

extension Snapshotting where Value: TableItem, Format == RowKitLayout {
  /// The layout of one item's row, `width` points wide (see ``Diffing/rowkitLayout``).
  public static func rowkitLayout(
    width: Double = 375, scale: Double = 2, style: TableStyle = .plain, mapping: CellMapping = CellMapping(),
    stylesheet: Stylesheet = .default, images: SnapshotImages = .none
  ) -> Snapshotting<Value, RowKitLayout> {
    let configuration = TableConfiguration(width: width, scale: scale, style: style)
    return .rowkitLayout(.layout(mapping: mapping, configuration: configuration, stylesheet: stylesheet, images: images))
  }
}

extension Snapshotting where Value: TableDataSource, Format == RowKitLayout {
  /// The layout of the whole table, `width` points wide (see ``Diffing/rowkitLayout``).
  public static func rowkitLayout(
    width: Double = 375, scale: Double = 2, style: TableStyle = .plain, stylesheet: Stylesheet = .default,
    images: SnapshotImages = .none
  ) -> Snapshotting<Value, RowKitLayout> {
    let configuration = TableConfiguration(width: width, scale: scale, style: style)
    return .rowkitLayout(.layout(configuration: configuration, stylesheet: stylesheet, images: images))
  }
}
