import Foundation
import RowKit
import RowKitTestSupport
import Testing

@testable import RowKitReview

/// `rowkit preview`'s catalog: every case rendered once, then only what a saved file reaches;
/// a file with a mistake shows its error over the last good image.
@Suite struct PreviewCatalogTests {
  /// Two documents (one with a stylesheet) and a design file with one preview item, in a
  /// temporary folder.
  private struct Project {
    let folder: URL
    var designs: URL { folder.appendingPathComponent("Designs") }

    init() throws {
      folder = try TestSupport.temporaryDirectory("preview")
      let files: [String: String] = [
        "Designs/card.yaml": """
          padding: [10, 12, 10, 12]
          preview:
            - { title: Card }
          body:
            label: { bind: title, font: "Inter 17", color: "#000000", name: title }

          """,
        "Designs/styled.yaml": "stylesheet: ../Styles/app.yaml\nitems: [{ type: text, text: Styled }]\n",
        "Designs/plain.yaml": "items: [{ type: text, text: Plain }]\n",
        "Styles/app.yaml": "extends: default\nvars: { textColor: \"#000000\" }\n",
      ]
      for (path, text) in files {
        let url = folder.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: url, atomically: true, encoding: .utf8)
      }
    }

    func edit(_ path: String, _ old: String, _ new: String) throws {
      let url = folder.appendingPathComponent(path)
      let text = try String(contentsOf: url, encoding: .utf8)
      #expect(text.contains(old), "\(path) holds \(old)")
      // Written in place, as an editor saves: a new modification time, and a new size or not.
      try Data(text.replacingOccurrences(of: old, with: new).utf8).write(to: url)
    }
  }

  static let allCases = ["card/preview-1", "card/preview-1-selected", "plain", "styled"]

  @Test func everyCaseRendersOnceThenOnlyWhatASavedFileReaches() async throws {
    let project = try Project()
    defer { try? FileManager.default.removeItem(at: project.folder) }
    let catalog = try PreviewCatalog(paths: [project.designs])
    #expect(await catalog.refresh() == Self.allCases)
    #expect(catalog.entries.map(\.name) == Self.allCases)
    #expect(catalog.entries.allSatisfy { $0.hasImage && $0.error == nil && $0.width == 375 })
    let first = catalog.version
    #expect(catalog.image(of: "plain").map { Array($0.prefix(4)) } == [0x89, 0x50, 0x4E, 0x47])
    #expect(catalog.image(of: "../../etc/passwd") == nil)

    // Nothing saved: nothing rendered, the version stays.
    #expect(await catalog.refresh() == [])
    #expect(catalog.version == first)

    // The stylesheet reaches the document that names it, and nothing else.
    let plainBefore = catalog.image(of: "plain")
    let styledBefore = catalog.image(of: "styled")
    try project.edit("Styles/app.yaml", "#000000", "#0000FF")
    #expect(await catalog.refresh() == ["styled"])
    #expect(catalog.version > first)
    #expect(catalog.image(of: "styled") != styledBefore)
    #expect(catalog.image(of: "plain") == plainBefore)
    let entries = Dictionary(uniqueKeysWithValues: catalog.entries.map { ($0.name, $0) })
    #expect(entries["styled"]!.version == catalog.version && entries["plain"]!.version == first)

    // The design reaches its two cases.
    try project.edit("Designs/card.yaml", "#000000", "#FF0000")
    #expect(await catalog.refresh() == ["card/preview-1", "card/preview-1-selected"])

    // A new document appears, a removed one goes.
    try "items: [{ type: text, text: New }]\n".write(
      to: project.designs.appendingPathComponent("added.yaml"), atomically: true, encoding: .utf8)
    try FileManager.default.removeItem(at: project.designs.appendingPathComponent("plain.yaml"))
    #expect(Set(await catalog.refresh()) == ["added", "plain"])
    #expect(catalog.entries.map(\.name) == ["added", "card/preview-1", "card/preview-1-selected", "styled"])
  }

  /// A case waiting for an image from a server that never answers holds no other case's
  /// update (every case used to wait for the slowest render of the batch), and is not asked
  /// for again while it waits.
  @Test func aCaseWaitingForItsImageHoldsNoOtherCase() async throws {
    let project = try Project()
    defer { try? FileManager.default.removeItem(at: project.folder) }
    let server = try LoopbackHTTPServer(routes: ["/never.png": .hang])
    defer { server.stop() }
    try "items: [{ type: image, text: Slow, imageURL: \"\(server.url("/never.png"))\" }]\n".write(
      to: project.designs.appendingPathComponent("slow.yaml"), atomically: true, encoding: .utf8)
    // No timeout ends the wait while the test runs: the slow case is rendering until the end.
    var configuration = ImagePipeline.Configuration()
    configuration.requestTimeout = 3600
    let catalog = try PreviewCatalog(
      paths: [project.designs], pipeline: ImagePipeline(configuration: configuration), imageDeadline: 3600)
    let updates = Locked<[String]>([])
    try await withThrowingTaskGroup(of: Void.self) { group in
      // On RowKit's executor, not the cooperative pool that the other tests of the run share
      // (a test blocking its threads would stop the watch, not the code under test).
      group.addTask(executorPreference: RowKitRuntime.shared.taskExecutor) {
        try await catalog.watch(every: .milliseconds(20)) { names in updates.withLock { $0 += names } }
      }
      defer { group.cancelAll() }
      let shown = await TestSupport.secondsUntil(within: 120) {
        Set(catalog.entries.filter(\.hasImage).map(\.name)) == Set(Self.allCases)
      }
      try #require(shown != nil, "the other cases were never shown: \(catalog.entries.map { ($0.name, $0.hasImage) })")
      let plain = catalog.image(of: "plain")
      try project.edit("Designs/plain.yaml", "text: Plain", "text: Plainer")
      let updated = await TestSupport.secondsUntil(within: 120) { catalog.image(of: "plain") != plain }
      #expect(updated != nil, "a saved document waited for another case's image")
      #expect(catalog.entries.first { $0.name == "slow" }?.hasImage == false)
      #expect(!updates.withLock { $0 }.contains("slow"))
      #expect(server.requests("/never.png") == 1)
    }
  }

  /// A file that takes a case's name while the case renders (one in an earlier folder) is
  /// rendered once that render is done: the render of the other file is not kept as its.
  @Test func aNameTakenByAnotherFileDuringItsRenderIsRenderedAgain() async throws {
    let folder = try TestSupport.temporaryDirectory("preview")
    defer { try? FileManager.default.removeItem(at: folder) }
    let (first, second) = (folder.appendingPathComponent("A"), folder.appendingPathComponent("B"))
    for path in [first, second] { try FileManager.default.createDirectory(at: path, withIntermediateDirectories: true) }
    let server = try LoopbackHTTPServer(routes: ["/never.png": .hang])
    defer { server.stop() }
    try "items: [{ type: image, text: Slow, imageURL: \"\(server.url("/never.png"))\" }]\n".write(
      to: second.appendingPathComponent("x.yaml"), atomically: true, encoding: .utf8)
    var configuration = ImagePipeline.Configuration()
    configuration.requestTimeout = 3600
    let catalog = try PreviewCatalog(
      paths: [first, second], pipeline: ImagePipeline(configuration: configuration), imageDeadline: 3600)
    try await withThrowingTaskGroup(of: Void.self) { group in
      // On RowKit's executor, not the cooperative pool the run's other tests share.
      group.addTask(executorPreference: RowKitRuntime.shared.taskExecutor) { try await catalog.watch(every: .milliseconds(20)) { _ in } }
      defer { group.cancelAll() }
      let found = await TestSupport.secondsUntil(within: 120) { server.requests("/never.png") == 1 }
      try #require(found != nil, "B/x.yaml was never rendered")
      // A's x.yaml takes the name x from B's, whose render still waits for its image.
      try "table: { width: 200 }\nitems: [{ type: text, text: Mine }]\n".write(
        to: first.appendingPathComponent("x.yaml"), atomically: true, encoding: .utf8)
      let renamed = await TestSupport.secondsUntil(within: 120) { catalog.entries.count == 2 }
      try #require(renamed != nil, "\(catalog.entries.map(\.name))")
      // The image's server goes: B's render ends, with its image failed.
      server.stop()
      let taken = await TestSupport.secondsUntil(within: 120) {
        catalog.entries.first { $0.name == "x" }.map { $0.hasImage && $0.width == 200 } == true
      }
      #expect(taken != nil, "x shows B's render: \(catalog.entries.map { ($0.name, $0.file, $0.width) })")
      #expect(catalog.entries.first { $0.name == "x" }?.file == first.appendingPathComponent("x.yaml").standardizedFileURL.path)
    }
  }

  @Test func aMistakeShowsItsPlaceOverTheLastGoodImageUntilItIsFixed() async throws {
    let project = try Project()
    defer { try? FileManager.default.removeItem(at: project.folder) }
    let catalog = try PreviewCatalog(paths: [project.designs])
    await catalog.refresh()
    let styled = catalog.image(of: "styled")
    let card = catalog.image(of: "card/preview-1")

    // A document value of the wrong kind: its file, line, column and key.
    try project.edit("Designs/styled.yaml", "text: Styled", "text: [1, 2]")
    #expect(await catalog.refresh() == ["styled"])
    var entry = try #require(catalog.entries.first { $0.name == "styled" })
    let error = try #require(entry.error)
    #expect(error.contains("styled.yaml:2:") && error.contains("text"), "\(error)")
    #expect(entry.hasImage)
    #expect(catalog.image(of: "styled") == styled, "the last good image stays")

    // A design that no longer parses keeps its cases, each with the error over its image.
    try project.edit("Designs/card.yaml", "padding: [10, 12, 10, 12]", "padding: [10, 12")
    #expect(await catalog.refresh() == ["card/preview-1", "card/preview-1-selected"])
    entry = try #require(catalog.entries.first { $0.name == "card/preview-1" })
    #expect(entry.error?.contains("card.yaml:") == true, "\(entry.error ?? "no error")")
    #expect(catalog.image(of: "card/preview-1") == card)

    // Fixed: rendered again, the errors gone.
    try project.edit("Designs/card.yaml", "padding: [10, 12", "padding: [10, 12, 10, 12]")
    try project.edit("Designs/styled.yaml", "text: [1, 2]", "text: Styled")
    #expect(Set(await catalog.refresh()) == ["card/preview-1", "card/preview-1-selected", "styled"])
    #expect(catalog.entries.allSatisfy { $0.error == nil })
    #expect(catalog.image(of: "styled") == styled, "the same document renders the same bytes")
  }

  @Test func aBrokenStylesheetIsRenderedOnceUntilItChangesAgain() async throws {
    let project = try Project()
    defer { try? FileManager.default.removeItem(at: project.folder) }
    let catalog = try PreviewCatalog(paths: [project.designs])
    await catalog.refresh()
    try project.edit("Styles/app.yaml", "vars: { textColor: \"#000000\" }", "vars: { textColor: [")
    #expect(await catalog.refresh() == ["styled"])
    let entry = try #require(catalog.entries.first { $0.name == "styled" })
    #expect(entry.error?.contains("app.yaml") == true, "\(entry.error ?? "no error")")
    // Nothing saved since: the error stands, and nothing is rendered again at the next looks.
    let version = catalog.version
    #expect(await catalog.refresh() == [])
    #expect(await catalog.refresh() == [])
    #expect(catalog.version == version)
    // Fixed: rendered again.
    try project.edit("Styles/app.yaml", "vars: { textColor: [", "vars: { textColor: \"#000000\" }")
    #expect(await catalog.refresh() == ["styled"])
    #expect(catalog.entries.first { $0.name == "styled" }?.error == nil)
  }

  /// A stylesheet beside the documents it styles that stops parsing would look like a
  /// document (any file that does not parse does): it is no case of its own, only its
  /// documents show its error.
  @Test func aBrokenStylesheetBesideItsDocumentsIsNoCaseOfItsOwn() async throws {
    let project = try Project()
    defer { try? FileManager.default.removeItem(at: project.folder) }
    try "extends: default\nvars: { textColor: \"#000000\" }\n".write(
      to: project.designs.appendingPathComponent("local.yaml"), atomically: true, encoding: .utf8)
    try "stylesheet: local.yaml\nitems: [{ type: text, text: Local }]\n".write(
      to: project.designs.appendingPathComponent("uses-local.yaml"), atomically: true, encoding: .utf8)
    let catalog = try PreviewCatalog(paths: [project.designs])
    await catalog.refresh()
    #expect(!catalog.entries.contains { $0.name == "local" })
    try project.edit("Designs/local.yaml", "vars: { textColor: \"#000000\" }", "vars: { textColor: [")
    #expect(await catalog.refresh() == ["uses-local"])
    #expect(catalog.entries.first { $0.name == "uses-local" }?.error?.contains("local.yaml") == true)
    #expect(!catalog.entries.contains { $0.name == "local" }, "\(catalog.entries.map(\.name))")
  }

  /// A file named on its own and again inside a named folder is one case; two files of the
  /// same name in different folders are two, neither hidden behind the other.
  @Test func everyFileIsOneCaseHoweverItIsNamed() async throws {
    let project = try Project()
    defer { try? FileManager.default.removeItem(at: project.folder) }
    let nested = project.designs.appendingPathComponent("More")
    try FileManager.default.createDirectory(at: nested, withIntermediateDirectories: true)
    try "items: [{ type: text, text: Nested }]\n".write(
      to: nested.appendingPathComponent("nested.yaml"), atomically: true, encoding: .utf8)
    let other = project.folder.appendingPathComponent("Other")
    try FileManager.default.createDirectory(at: other, withIntermediateDirectories: true)
    try "items: [{ type: text, text: Other plain }]\n".write(
      to: other.appendingPathComponent("plain.yaml"), atomically: true, encoding: .utf8)
    let catalog = try PreviewCatalog(paths: [
      nested.appendingPathComponent("nested.yaml"), project.designs, project.designs.appendingPathComponent("plain.yaml"),
      other.appendingPathComponent("plain.yaml"), project.designs.appendingPathComponent("card.yaml"),
    ])
    await catalog.refresh()
    let entries = catalog.entries
    #expect(entries.filter { $0.file.hasSuffix("/nested.yaml") }.count == 1, "\(entries.map(\.name))")
    #expect(entries.filter { $0.file == project.designs.appendingPathComponent("plain.yaml").path }.count == 1)
    #expect(entries.filter { $0.file == other.appendingPathComponent("plain.yaml").path }.count == 1, "\(entries.map(\.name))")
    #expect(Set(entries.map(\.name)).count == entries.count)
    #expect(entries.map(\.name) == ["Other/plain"] + Self.allCases.filter { $0 != "plain" && $0 != "styled" } + ["nested", "plain", "styled"])

    // A document named like a design's case, or like another document's variant: the later
    // takes `~2`, and both show.
    let clash = project.folder.appendingPathComponent("Clash")
    try FileManager.default.createDirectory(at: clash.appendingPathComponent("card"), withIntermediateDirectories: true)
    try FileManager.default.copyItem(at: project.designs.appendingPathComponent("card.yaml"), to: clash.appendingPathComponent("card.yaml"))
    try "items: [{ type: text, text: Document }]\n".write(
      to: clash.appendingPathComponent("card/preview-1.yaml"), atomically: true, encoding: .utf8)
    try "variants: { appearance: [light, dark] }\nitems: [{ type: text, text: A }]\n".write(
      to: clash.appendingPathComponent("a.yaml"), atomically: true, encoding: .utf8)
    try "items: [{ type: text, text: Plain dark }]\n".write(
      to: clash.appendingPathComponent("a@dark.yaml"), atomically: true, encoding: .utf8)
    let clashing = try PreviewCatalog(paths: [clash])
    await clashing.refresh()
    let names = clashing.entries.map(\.name)
    #expect(Set(names) == ["a@light", "a@dark", "a@dark~2", "card/preview-1", "card/preview-1~2", "card/preview-1-selected"], "\(names)")
    #expect(clashing.entries.first { $0.name == "card/preview-1~2" }?.file.hasSuffix("card/preview-1.yaml") == true)
    #expect(clashing.entries.first { $0.name == "a@dark~2" }?.file.hasSuffix("a@dark.yaml") == true)
    #expect(clashing.entries.allSatisfy { $0.hasImage }, "\(clashing.entries.map { ($0.name, $0.error ?? "") })")
  }

  /// A document or design whose load fails watches every file the load read, up to the one
  /// that failed: a stylesheet it extends that was broken when first read, and fixed since,
  /// renders it again. Before, it watched only itself and `--stylesheet`, and kept the error.
  @Test func aFileBrokenWhenFirstReadIsWatchedUntilItIsFixed() async throws {
    let project = try Project()
    defer { try? FileManager.default.removeItem(at: project.folder) }
    let styles = project.folder.appendingPathComponent("Styles")
    try "extends: parent.yaml\n".write(to: styles.appendingPathComponent("child.yaml"), atomically: true, encoding: .utf8)
    try "vars: { textColor: [\n".write(to: styles.appendingPathComponent("parent.yaml"), atomically: true, encoding: .utf8)

    // A new document whose stylesheet extends a broken one.
    let documents = try PreviewCatalog(paths: [project.designs])
    await documents.refresh()
    try "stylesheet: ../Styles/child.yaml\nitems: [{ type: text, text: Fresh }]\n".write(
      to: project.designs.appendingPathComponent("fresh.yaml"), atomically: true, encoding: .utf8)
    #expect(await documents.refresh() == ["fresh"])
    let error = try #require(documents.entries.first { $0.name == "fresh" }?.error)
    #expect(error.contains("parent.yaml"), "\(error)")
    #expect(await documents.refresh() == [], "nothing saved: not rendered again")
    // One that names a stylesheet not written yet.
    try "stylesheet: ../Styles/later.yaml\nitems: [{ type: text, text: Later }]\n".write(
      to: project.designs.appendingPathComponent("later.yaml"), atomically: true, encoding: .utf8)
    #expect(await documents.refresh() == ["later"])
    #expect(documents.entries.first { $0.name == "later" }?.error?.contains("does not exist") == true)
    try "extends: default\n".write(to: styles.appendingPathComponent("later.yaml"), atomically: true, encoding: .utf8)
    #expect(await documents.refresh() == ["later"])
    #expect(documents.entries.first { $0.name == "later" }?.error == nil)
    // A name mistyped and then put right: the mistyped file is watched only while it is the
    // mistake, so creating it later renders nothing.
    try project.edit("Designs/later.yaml", "Styles/later.yaml", "Styles/latr.yaml")
    #expect(await documents.refresh() == ["later"])
    try project.edit("Designs/later.yaml", "Styles/latr.yaml", "Styles/later.yaml")
    #expect(await documents.refresh() == ["later"])
    #expect(documents.entries.first { $0.name == "later" }?.error == nil)
    try "extends: default\n".write(to: styles.appendingPathComponent("latr.yaml"), atomically: true, encoding: .utf8)
    #expect(await documents.refresh() == [])

    // A design previewed with `--stylesheet` that extends the same broken one.
    let designs = try PreviewCatalog(paths: [project.designs.appendingPathComponent("card.yaml")], stylesheet: styles.appendingPathComponent("child.yaml"))
    #expect(await designs.refresh() == ["card"])
    #expect(designs.entries.first?.error?.contains("parent.yaml") == true, "\(designs.entries.first?.error ?? "no error")")
    #expect(await designs.refresh() == [])

    try project.edit("Styles/parent.yaml", "vars: { textColor: [", "vars: { textColor: \"#000000\" }")
    #expect(await documents.refresh() == ["fresh"])
    #expect(documents.entries.first { $0.name == "fresh" }?.error == nil)
    // Its cases rendered, and the entry of the error gone.
    #expect(await designs.refresh() == ["card/preview-1", "card/preview-1-selected", "card"])
    #expect(designs.entries.map(\.name) == ["card/preview-1", "card/preview-1-selected"])
    #expect(designs.entries.allSatisfy { $0.error == nil && $0.hasImage })
  }

  @Test func variantsMultiplyEveryCaseAndLintFindingsHaveTheirBoxes() async throws {
    let project = try Project()
    defer { try? FileManager.default.removeItem(at: project.folder) }
    // Grey on white fails the contrast rule: a finding about the label, boxed where it is.
    try project.edit("Designs/card.yaml", "#000000", "#BBBBBB")
    let catalog = try PreviewCatalog(
      paths: [project.designs.appendingPathComponent("card.yaml")], variants: VariantAxes(appearances: [.light, .dark]))
    #expect(await catalog.refresh() == [
      "card/preview-1@light", "card/preview-1@dark", "card/preview-1-selected@light", "card/preview-1-selected@dark",
    ])
    let light = try #require(catalog.entries.first { $0.name == "card/preview-1@light" })
    let mark = try #require(light.marks.first { $0.text.contains("contrast") }, "\(light.marks)")
    #expect(mark.text.hasPrefix("s0-r0 title: contrast"), "\(mark.text)")
    // The title's frame: inside the 10/12 padding of a row 375 points wide.
    #expect(mark.x == 12 && mark.y == 10, "\(mark)")
    #expect(mark.width > 0 && mark.width <= 375 - 24 && mark.height > 0)
  }
}
