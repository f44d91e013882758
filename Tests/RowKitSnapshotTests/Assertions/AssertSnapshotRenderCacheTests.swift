import Foundation
import RowKit
import RowKitGraphics
import RowKitTestSupport
import Testing

@testable import RowKitSnapshot
import RowKitSnapshotAssertions

/// The render cache in Swift assertions: a document as loaded from its file passes without
/// rendering while nothing it reads changed, and renders whenever anything may have.
@Suite struct AssertSnapshotRenderCacheTests {
  /// A document with a stylesheet, in a temporary folder, and references beside it.
  private struct Fixture {
    let folder: URL
    var document: URL { folder.appendingPathComponent("Documents/row.yaml") }
    var stylesheet: URL { folder.appendingPathComponent("Styles/app.yaml") }
    var references: URL { folder.appendingPathComponent("Snapshots") }

    init() throws {
      folder = try TestSupport.temporaryDirectory("assertionRenderCache")
      try FileManager.default.createDirectory(at: document.deletingLastPathComponent(), withIntermediateDirectories: true)
      try FileManager.default.createDirectory(at: stylesheet.deletingLastPathComponent(), withIntermediateDirectories: true)
      try "stylesheet: ../Styles/app.yaml\nitems: [{ type: subtitle, text: Cached, subtitle: A row }]\n"
        .write(to: document, atomically: true, encoding: .utf8)
      try "extends: default\nvars: { tableSubTextColor: \"#555555\" }\n".write(to: stylesheet, atomically: true, encoding: .utf8)
    }

    func load() throws -> TableDocument {
      try TableDocument.load(document, fontFamilies: try TextEnvironment.standard.fontSet().families)
    }

    func store(_ environment: [String: String] = [:]) -> ReferenceStore {
      ReferenceStore(root: references, artifactsRoot: folder.appendingPathComponent("Artifacts"), processEnvironment: environment)
    }
  }

  /// `.document`, counting its renders, with the render cache's knowledge of its inputs kept.
  private final class CountingDocument: @unchecked Sendable {
    // `@unchecked Sendable`: `renders` is changed only by the render, which each test awaits
    // before reading it; no two renders of one test run at once.
    var renders = 0
    var strategy: ImageSnapshotting<TableDocument> {
      var strategy = ImageSnapshotting<TableDocument>.document
      let render = strategy.renderWithLayout!
      strategy.renderWithLayout = { document, recordsLayout in
        self.renders += 1
        return try await render(document, recordsLayout)
      }
      return strategy
    }
  }

  @Test func anUnchangedDocumentPassesWithoutRenderingAndAnyChangeRenders() async throws {
    let fixture = try Fixture()
    defer { try? FileManager.default.removeItem(at: fixture.folder) }
    let counter = CountingDocument()
    let recorded = try await fixture.store().checkExplaining(try fixture.load(), as: counter.strategy, suite: "S", name: "row").outcome
    guard case .recorded = recorded else { Issue.record("not recorded: \(recorded)"); return }
    let inputs = fixture.references.appendingPathComponent("S/row.inputs.json")
    #expect(FileManager.default.fileExists(atPath: inputs.path), "a recorded render keeps its inputs")
    let stored = try String(contentsOf: inputs, encoding: .utf8)
    #expect(stored.contains("../Documents/row.yaml") && stored.contains("../Styles/app.yaml"), "\(stored)")

    // Nothing changed: passed, no render, as under CI (where nothing is written).
    counter.renders = 0
    var outcome = try await fixture.store(["CI": "true"]).checkExplaining(try fixture.load(), as: counter.strategy, suite: "S", name: "row").outcome
    guard case .matched(let comparison) = outcome else { Issue.record("not matched: \(outcome)"); return }
    #expect(comparison.isIdentical)
    // The reference's own size, read from its header: one subtitle row of 58 points at scale 2.
    #expect(comparison.referenceSize == ComparisonResult.Size(width: 750, height: 116))
    #expect(counter.renders == 0)

    // Opted out, per assertion and by the variable: rendered, and still a match.
    #expect(
      await assertSnapshot(
        of: try fixture.load(), as: counter.strategy, named: "row", suite: "S", store: fixture.store(), usesRenderCache: false
      ).passed)
    #expect(counter.renders == 1)
    outcome = try await fixture.store([ReferenceStore.renderCacheVariable: "off"])
      .checkExplaining(try fixture.load(), as: counter.strategy, suite: "S", name: "row").outcome
    #expect(outcome.passed)
    #expect(counter.renders == 2)

    // A document changed in Swift after loading: its file no longer says what renders.
    var narrower = try fixture.load()
    narrower.configuration.width = 320
    outcome = try await fixture.store(["CI": "true"]).checkExplaining(narrower, as: counter.strategy, suite: "S", name: "row").outcome
    #expect(!outcome.passed, "\(outcome)")
    #expect(counter.renders >= 3)

    // A stylesheet variable that changes pixels: rendered, and failed.
    let before = counter.renders
    try "extends: default\nvars: { tableSubTextColor: \"#C02000\" }\n".write(to: fixture.stylesheet, atomically: true, encoding: .utf8)
    outcome = try await fixture.store(["CI": "true"]).checkExplaining(try fixture.load(), as: counter.strategy, suite: "S", name: "row").outcome
    guard case .failed = outcome else { Issue.record("expected a failure: \(outcome)"); return }
    #expect(counter.renders > before)

    // Back as recorded, with a new modification time: passed without rendering.
    try "extends: default\nvars: { tableSubTextColor: \"#555555\" }\n".write(to: fixture.stylesheet, atomically: true, encoding: .utf8)
    counter.renders = 0
    outcome = try await fixture.store(["CI": "true"]).checkExplaining(try fixture.load(), as: counter.strategy, suite: "S", name: "row").outcome
    #expect(outcome.passed, "\(outcome)")
    #expect(counter.renders == 0)
  }

  /// The assertions of the render cache's article, as it shows them.
  @Test func theArticlesAssertionsPass() async throws {
    let fixture = try Fixture()
    defer { try? FileManager.default.removeItem(at: fixture.folder) }
    let (url, store) = (fixture.document, fixture.store())
    for name in ["settings", "settings-rendered"] {
      _ = try await fixture.store().checkExplaining(try fixture.load(), as: .document, suite: "S", name: name)
    }
    // The article's lines, word for word: the document's font families are RowKit's own
    // when none are given.
    let document = try TableDocument.load(url)
    let cached = await assertSnapshot(of: document, as: .document, named: "settings", suite: "S", store: store)
    let rendered = await assertSnapshot(of: document, as: .document, named: "settings-rendered", suite: "S", store: store, usesRenderCache: false)
    #expect(cached.passed && rendered.passed)
  }

  @Test func aCachedPassStillClaimsItsNameOnce() async throws {
    let fixture = try Fixture()
    defer { try? FileManager.default.removeItem(at: fixture.folder) }
    _ = try await fixture.store().checkExplaining(try fixture.load(), as: .document, suite: "S", name: "row")
    let store = fixture.store(["CI": "true"])
    #expect(try await store.checkExplaining(try fixture.load(), as: .document, suite: "S", name: "row").outcome.passed)
    let twice = try await store.checkExplaining(try fixture.load(), as: .document, suite: "S", name: "row").outcome
    guard case .error(let message) = twice else { Issue.record("not refused: \(twice)"); return }
    #expect(message.contains("checked twice"), "\(message)")
  }

  /// A value built in Swift has no declared inputs: it renders every time.
  @Test func aStrategyMadeByPullbackAlwaysRenders() async throws {
    let fixture = try Fixture()
    defer { try? FileManager.default.removeItem(at: fixture.folder) }
    let strategy = ImageSnapshotting<TableDocument>.document.pullback { (url: URL) in
      try TableDocument.load(url, fontFamilies: try TextEnvironment.standard.fontSet().families)
    }
    #expect(strategy.declaredInputs == nil)
    _ = try await fixture.store().checkExplaining(fixture.document, as: strategy, suite: "S", name: "row")
    #expect(!FileManager.default.fileExists(atPath: fixture.references.appendingPathComponent("S/row.inputs.json").path))
  }
}
