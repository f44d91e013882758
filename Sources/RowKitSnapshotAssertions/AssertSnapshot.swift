import Foundation
import RowKit
import RowKitGraphics
@_exported import RowKitSnapshot
import Testing
import XCTest

// The XCTest and Swift Testing assertions live in a target of their own, so that the
// RowKitSnapshot library and the `rowkit` binary link neither test framework.

/// Where a test's references live: `Snapshots/` in the package that holds the test file
/// (or `ROWKIT_SNAPSHOTS`), with failure artifacts under that package's
/// `.build/snapshot-artifacts/` (or `ROWKIT_SNAPSHOT_ARTIFACTS`).
public enum SnapshotConfiguration {
  /// One store per references folder, shared by every test of the process.
  private static let stores = Locked<[String: ReferenceStore]>([:])

  /// The store for references of tests in `filePath`. One store per folder, so that a name
  /// checked twice in one run is caught wherever the two checks are.
  public static func store(for filePath: String) -> ReferenceStore {
    let environment = ProcessInfo.processInfo.environment
    let root: URL
    let artifacts: URL?
    if let explicit = environment["ROWKIT_SNAPSHOTS"] {
      root = URL(fileURLWithPath: explicit)
      artifacts = nil
    } else {
      let package = packageRoot(containing: URL(fileURLWithPath: filePath))
      root = package.appendingPathComponent("Snapshots")
      artifacts = package.appendingPathComponent(".build/snapshot-artifacts")
    }
    return stores.withLock { stores in
      if let store = stores[root.path] { return store }
      let store = ReferenceStore(root: root, artifactsRoot: environment["ROWKIT_SNAPSHOT_ARTIFACTS"] == nil ? artifacts : nil)
      stores[root.path] = store
      return store
    }
  }

  /// The references under the `Snapshots/` folder of `filePath`'s package that no assertion
  /// of this process has checked: what renamed or deleted tests left behind. Call it once,
  /// after the other tests (a last test of a serialized suite, or a test-plan step), and
  /// fail or print on what it returns. Only suites (folders) where at least one assertion
  /// ran are looked at unless `checkedSuitesOnly` is false, so a filtered run does not call
  /// every other suite's references orphans. The paths are relative to `Snapshots/`.
  public static func orphanedReferences(for filePath: String = #filePath, checkedSuitesOnly: Bool = true) -> [String] {
    store(for: filePath).unclaimedReferences(checkedSuitesOnly: checkedSuitesOnly)
  }

  static func packageRoot(containing file: URL) -> URL {
    var directory = file.deletingLastPathComponent()
    while directory.path != "/" {
      if FileManager.default.fileExists(atPath: directory.appendingPathComponent("Package.swift").path) { return directory }
      directory.deleteLastPathComponent()
    }
    return file.deletingLastPathComponent()
  }

  /// The default suite for a test file: its name without `.swift`, as a folder name that the
  /// references' rules take: accents dropped, `-` for punctuation and spaces, and any other
  /// letter or digit by its code point, so that files of other scripts keep folders of their
  /// own (`SettingsRow+Snapshots.swift` → `SettingsRow-Snapshots`, `ÜbersichtTests.swift` →
  /// `UbersichtTests`, `設定.swift` → `U8A2D-U5B9A`). A suite given explicitly is never changed.
  static func suite(for fileID: String) -> String {
    var name = String(fileID.split(separator: "/").last ?? "Snapshots")
    if name.hasSuffix(".swift") { name.removeLast(6) }
    let plain = name.folding(options: [.diacriticInsensitive, .widthInsensitive], locale: nil)
    var safe = ""
    var afterCodePoint = false
    for character in plain {
      let isCodePoint = !character.isASCII && (character.isLetter || character.isNumber)
      if isCodePoint {
        let code = character.unicodeScalars.map { String($0.value, radix: 16, uppercase: true) }.joined(separator: "-U")
        safe += (afterCodePoint ? "-U" : "U") + code
      } else {
        safe.append(character.isASCII && (character.isLetter || character.isNumber || "._-".contains(character)) ? character : "-")
      }
      afterCodePoint = isCodePoint
    }
    return safe.allSatisfy { $0 == "." } ? "Snapshots" : safe
  }
}

// MARK: - Assertions

/// Renders `value` with `strategy` and checks it against its reference
/// `Snapshots/<suite>/<name>.png`, recording a Swift Testing issue or an XCTest failure with
/// exact numbers and the artifact paths when it does not match.
///
/// The value is rendered once when the image equals its reference; otherwise twice, and a
/// difference between the two renders fails as a render that is not deterministic. Renders
/// run on the process's ``RenderPool``, so tests may run in parallel.
///
/// ```swift
/// @Test func settingsRow() async {
///   await assertSnapshot(of: SettingsItem(text: "On", caption: "Wi-Fi"), as: .row(), named: "settings-on")
/// }
/// ```
///
/// - Parameters:
///   - value: What is rendered: an item, a data source, a document or an image.
///   - strategy: How it becomes an image: ``ImageSnapshotting/row(mapping:configuration:stylesheet:images:allowing:)``,
///     ``ImageSnapshotting/table(configuration:stylesheet:images:allowing:)``, ``ImageSnapshotting/document``,
///     ``ImageSnapshotting/image``, or one of your own.
///   - name: The reference's name; explicit, never a counter.
///   - suite: The folder under `Snapshots/`; by default the test file's name.
///   - options: The tolerances; exact by default.
///   - record: The record mode for this check; by default `ROWKIT_RECORD`, else `missing`.
///     Under CI nothing is ever recorded.
///   - store: The references; by default `Snapshots/` of the test's package.
///   - usesRenderCache: Whether a document as loaded from its file (``ImageSnapshotting/document``)
///     may pass without rendering when nothing its render reads changed since it last matched
///     pixel for pixel; true by default, false to always render (`ROWKIT_RENDER_CACHE=off`
///     does the same for every assertion). Values built in Swift always render.
@discardableResult
nonisolated(nonsending) public func assertSnapshot<Value>(
  of value: Value, as strategy: ImageSnapshotting<Value>, named name: String, suite: String? = nil,
  options: ComparisonOptions = .exact, record: RecordMode? = nil, store: ReferenceStore? = nil,
  usesRenderCache: Bool = true,
  fileID: String = #fileID, filePath: StaticString = #filePath, line: Int = #line, column: Int = #column
) async -> SnapshotOutcome {
  let store = store ?? SnapshotConfiguration.store(for: "\(filePath)")
  let outcome: SnapshotOutcome
  var layout = LayoutFindings()
  do {
    (outcome, layout) = try await ReferenceStore.$checkSite.withValue("\(fileID):\(line)") {
      try await store.checkExplaining(
        value, as: strategy, suite: suite ?? SnapshotConfiguration.suite(for: fileID), name: name, options: options,
        record: record, usesRenderCache: usesRenderCache)
    }
  } catch {
    outcome = .error(message: "rendering failed: \(error)")
  }
  if let message = outcome.message {
    // What changed, one sentence a line, under the numbers.
    let sentences = layout.sentences.map { "\n  \($0)" }.joined()
    var hint = ""
    if case .failed(_, _?, _) = outcome { hint = acceptHint(record: record, environment: store.processEnvironment) }
    reportSnapshotFailure(message + sentences + hint, fileID: fileID, filePath: filePath, line: line, column: column)
  }
  return outcome
}

/// Lays `value` out with `strategy` and checks its layout record against the reference
/// record `Snapshots/<suite>/<name>.layout.json`, recording a Swift Testing issue or an
/// XCTest failure that tells each change in a sentence (`s0-r0 title moved down 2 pt (y 12 →
/// 14)`) when it differs. No image is compared or kept: the layout alone is pinned.
///
/// ```swift
/// @Test func settingsRowLayout() async {
///   await assertSnapshot(of: SettingsItem(text: "On", caption: "Wi-Fi"), as: .layout(), named: "settings-on-layout")
/// }
/// ```
///
/// - Parameters:
///   - value: What is laid out: an item, a data source or a document.
///   - strategy: ``LayoutSnapshotting/layout(mapping:configuration:stylesheet:images:allowing:)``
///     for an item's row, the table's or the document's layout, or one of your own.
///   - name: The reference's name; explicit, never a counter.
///   - suite: The folder under `Snapshots/`; by default the test file's name.
///   - record: The record mode for this check; by default `ROWKIT_RECORD`, else `missing`.
///     Under CI nothing is ever recorded.
///   - store: The references; by default `Snapshots/` of the test's package.
@discardableResult
nonisolated(nonsending) public func assertSnapshot<Value>(
  of value: Value, as strategy: LayoutSnapshotting<Value>, named name: String, suite: String? = nil,
  record: RecordMode? = nil, store: ReferenceStore? = nil,
  fileID: String = #fileID, filePath: StaticString = #filePath, line: Int = #line, column: Int = #column
) async -> LayoutSnapshotOutcome {
  let store = store ?? SnapshotConfiguration.store(for: "\(filePath)")
  let outcome = await ReferenceStore.$checkSite.withValue("\(fileID):\(line)") {
    await store.checkLayout(value, as: strategy, suite: suite ?? SnapshotConfiguration.suite(for: fileID), name: name, record: record)
  }
  if let message = outcome.message {
    var hint = ""
    if case .failed(_, let changes, _) = outcome, !changes.isEmpty { hint = acceptHint(record: record, environment: store.processEnvironment) }
    reportSnapshotFailure(message + hint, fileID: fileID, filePath: filePath, line: line, column: column)
  }
  return outcome
}

/// What a failure that compared a reference ends with: how to take the change when it is the
/// one intended. An assertion given its own `record:` mode reads no `ROWKIT_RECORD`.
func acceptHint(record: RecordMode?, environment: [String: String]) -> String {
  // An assertion given its own mode reads no ROWKIT_RECORD; one whose mode records a change
  // records it where CI is not set.
  let step =
    record == nil ? "run the test again with ROWKIT_RECORD=failed to record it,"
    : record == .failed || record == .all ? "run the test once to record it,"
    : "pass record: .failed to this assertion and run it once to record it,"
  let how = RecordMode.isCI(environment) ? "where CI is not set (nothing is recorded under CI), \(step)" : step
  return "\n  if the change is intended, \(how) and look at the new reference before committing it"
}

/// Records a failure in whichever test framework is running.
func reportSnapshotFailure(_ message: String, fileID: String, filePath: StaticString, line: Int, column: Int) {
  if Test.current != nil {
    Issue.record(
      Comment(rawValue: message),
      sourceLocation: SourceLocation(fileID: fileID, filePath: "\(filePath)", line: line, column: column))
  } else {
    XCTFail(message, file: filePath, line: UInt(line))
  }
}
