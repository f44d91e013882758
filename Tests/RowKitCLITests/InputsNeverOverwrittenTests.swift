import Foundation
import RowKitTestSupport
import Testing

/// What a bad-input audit of every subcommand found: outputs written over files the command
/// read, a FIFO among references that made `check` wait forever, writes through a link out
/// of a folder, and files written before a failure the command could have seen at its start.
@Suite(.serialized) struct InputsNeverOverwrittenTests {
  func run(_ arguments: [String], in folder: URL) async throws -> CommandRunner.Result {
    try await CommandRunner.run(
      arguments, in: folder,
      environment: ["CI": "", "ROWKIT_RECORD": "", "ROWKIT_SNAPSHOT_ARTIFACTS": folder.appendingPathComponent(".artifacts").path])
  }

  func bytes(_ url: URL) -> Data? { FileManager.default.contents(atPath: url.path) }

  /// Every file under `folder` (links not followed), by path.
  func listing(_ folder: URL) -> Set<String> {
    Set(FileManager.default.enumerator(atPath: folder.path)?.allObjects as? [String] ?? [])
  }

  @Test func aBrandFontOfFontsIsNeverWrittenOver() async throws {
    let folder = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let fonts = folder.appendingPathComponent("fonts")
    try FileManager.default.createDirectory(at: fonts, withIntermediateDirectories: false)
    let font = fonts.appendingPathComponent("brand.ttf")
    try FileManager.default.copyItem(atPath: "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", toPath: font.path)
    let original = bytes(font)
    try Data("items:\n  - type: text\n    text: a\n".utf8).write(to: folder.appendingPathComponent("r.yaml"))
    for command in [
      ["render", "r.yaml", "--manifest", "fonts/brand.ttf", "--fonts", "fonts"],
      ["catalog", "-o", "c.png", "--manifest", "fonts/brand.ttf", "--fonts", "fonts"],
    ] {
      let result = try await run(command, in: folder)
      #expect(result.status == 2, "\(command): \(result.stderr)")
      #expect(result.stderr.contains("brand.ttf, which this command reads"), "\(command): \(result.stderr)")
      #expect(bytes(font) == original, "\(command)")
      #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("c.png").path))
    }
  }

  @Test func theDesignsSheetNeverReplacesAnImageTheDesignsShow() async throws {
    let folder = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let root = TestSupport.repositoryRoot
    try FileManager.default.copyItem(at: root.appendingPathComponent("Assets/Designs"), to: folder.appendingPathComponent("designs"))
    try FileManager.default.createDirectory(at: folder.appendingPathComponent("assets"), withIntermediateDirectories: false)
    try FileManager.default.copyItem(at: root.appendingPathComponent("Assets/images"), to: folder.appendingPathComponent("assets/images"))
    let person = folder.appendingPathComponent("assets/images/person.png")
    let original = bytes(person)
    let over = try await run(
      ["catalog", "--designs", "designs", "--stylesheet", "designs/styles.yaml", "--assets", "assets", "-o", "assets/images/person.png"],
      in: folder)
    #expect(over.status == 2, "\(over.stderr)")
    #expect(over.stderr.contains("person.png for -o: a design shows it as an image"), "\(over.stderr)")
    #expect(bytes(person) == original)
    let file = try await run(["catalog", "--designs", "designs/feed.yaml", "-o", "d.png"], in: folder)
    #expect(file.status == 2 && file.stderr.contains("feed.yaml: a file, not a folder of cell designs"), "\(file.stderr)")
  }

  /// A references folder comes from a pull request: a FIFO in a reference's place is a
  /// failed case, not a check that waits for a writer forever.
  @Test func aFIFOInAReferencesPlaceFailsTheCase() async throws {
    let folder = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    try FileManager.default.createDirectory(at: folder.appendingPathComponent("docs"), withIntermediateDirectories: false)
    try Data("items:\n  - type: text\n    text: Hi\n".utf8).write(to: folder.appendingPathComponent("docs/a.yaml"))
    let recorded = try await run(["check", "docs", "--snapshots", "refs", "--jobs", "1"], in: folder)
    #expect(recorded.status == 1 && recorded.stdout.hasPrefix("NEW a"), "\(recorded.stdout)\(recorded.stderr)")
    let reference = folder.appendingPathComponent("refs/a.png")
    try FileManager.default.removeItem(at: reference)
    #expect(mkfifo(reference.path, 0o644) == 0)
    let checked = try await run(
      ["check", "docs", "--snapshots", "refs", "--jobs", "1", "--record", "never", "--no-cache", "--report", "report"], in: folder)
    #expect(checked.status == 1, "\(checked.stdout)\(checked.stderr)")
    #expect(checked.stdout.contains("refs/a.png: not a regular file"), "\(checked.stdout)")
    #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("report/cases/a/actual.png").path))
  }

  @Test func schemasAreNeverWrittenThroughALinkOrIntoAFIFO() async throws {
    let folder = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let outside = folder.appendingPathComponent("outside.json")
    try Data("mine".utf8).write(to: outside)
    let linked = folder.appendingPathComponent("linked")
    try FileManager.default.createDirectory(at: linked, withIntermediateDirectories: false)
    try FileManager.default.createSymbolicLink(
      atPath: linked.appendingPathComponent("table-document.schema.json").path, withDestinationPath: outside.path)
    let throughLink = try await run(["schema", "--output", "linked"], in: folder)
    #expect(throughLink.status == 2 && throughLink.stderr.contains("a symbolic link is there"), "\(throughLink.stderr)")
    #expect(bytes(outside) == Data("mine".utf8))
    #expect(listing(linked) == ["table-document.schema.json"], "all or none: \(listing(linked))")
    let fifoFolder = folder.appendingPathComponent("fifo")
    try FileManager.default.createDirectory(at: fifoFolder, withIntermediateDirectories: false)
    #expect(mkfifo(fifoFolder.appendingPathComponent("stylesheet.schema.json").path, 0o644) == 0)
    let intoFIFO = try await run(["schema", "--output", "fifo"], in: folder)
    #expect(intoFIFO.status == 2 && intoFIFO.stderr.contains("not a regular file is there"), "\(intoFIFO.stderr)")
    #expect(listing(fifoFolder) == ["stylesheet.schema.json"], "\(listing(fifoFolder))")
  }

  /// The baseline is put in place with the output: standard output that fails leaves it as
  /// it was.
  @Test func aLintBaselineIsNotRewrittenWhenStandardOutputFails() async throws {
    let folder = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    // A baseline of a document with no finding, then the document given one (gray text).
    let document = folder.appendingPathComponent("t.yaml")
    try Data("items:\n  - { type: subtext, text: Body, caption: Caption }\n".utf8).write(to: document)
    let first = try await run(["lint", "t.yaml", "--baseline", "base.json", "--update-baseline"], in: folder)
    #expect(first.status == 0, "\(first.stderr)")
    try Data("stylesheet: { vars: { tableSubTextColor: \"#999999\" } }\nitems:\n  - { type: subtext, text: Body, caption: Caption }\n".utf8)
      .write(to: document)
    let original = bytes(folder.appendingPathComponent("base.json"))
    let failed = try await CommandRunner.runProgram(
      URL(fileURLWithPath: "/bin/sh"), ["-c", "\"$0\" lint t.yaml --baseline base.json --update-baseline > /dev/full", CommandRunner.binary.path],
      in: folder, environment: ["CI": ""])
    #expect(failed.status == 2, "\(failed.stderr)")
    #expect(bytes(folder.appendingPathComponent("base.json")) == original)
    let written = try await run(["lint", "t.yaml", "--baseline", "base.json", "--update-baseline"], in: folder)
    #expect(written.status == 0 && written.stdout.contains("updated base.json"), "\(written.stdout)\(written.stderr)")
    #expect(bytes(folder.appendingPathComponent("base.json")) != original, "the same run with its output written does rewrite it")
  }

  /// `--prune` deletes what RowKit wrote: a lone `.layout.json` that holds no layout record
  /// is the user's; a record damaged by a merge is still RowKit's.
  @Test func pruneLeavesAFileThatIsNoLayoutRecord() async throws {
    let folder = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    try FileManager.default.createDirectory(at: folder.appendingPathComponent("docs"), withIntermediateDirectories: false)
    try Data("items:\n  - type: text\n    text: Hi\n".utf8).write(to: folder.appendingPathComponent("docs/a.yaml"))
    _ = try await run(["check", "docs", "--snapshots", "refs", "--jobs", "1"], in: folder)
    let foreign = folder.appendingPathComponent("refs/lonely.layout.json")
    try Data(#"{"x":1}"#.utf8).write(to: foreign)
    // An orphan whose record a merge damaged is still RowKit's, and goes with its image.
    let record = try #require(bytes(folder.appendingPathComponent("refs/a.layout.json")))
    try FileManager.default.copyItem(at: folder.appendingPathComponent("refs/a.png"), to: folder.appendingPathComponent("refs/old.png"))
    try (Data("<<<<<<< HEAD\n".utf8) + record).write(to: folder.appendingPathComponent("refs/old.layout.json"))
    let pruned = try await run(["check", "docs", "--snapshots", "refs", "--jobs", "1", "--prune"], in: folder)
    #expect(pruned.status == 0, "\(pruned.stderr)")
    #expect(!pruned.stdout.contains("lonely"), "\(pruned.stdout)")
    #expect(bytes(foreign) == Data(#"{"x":1}"#.utf8))
    #expect(pruned.stdout.contains("old.png"), "\(pruned.stdout)")
    #expect(listing(folder.appendingPathComponent("refs")).filter { $0.hasPrefix("old") }.isEmpty, "\(listing(folder))")
  }

  /// A render that cannot replace another user's file in a shared sticky folder leaves the
  /// file as it was and nothing of its own: the backup made for taking the commit back went
  /// with it (renaming it back failed as the rename had). Run as `nobody`, so only as root.
  @Test(.enabled(if: getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")))
  func aFailedReplaceInAStickyFolderLeavesNoBackup() async throws {
    let shared = URL(fileURLWithPath: "/tmp").appendingPathComponent("rowkit-sticky-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: shared, withIntermediateDirectories: false)
    defer { try? FileManager.default.removeItem(at: shared) }
    #expect(chmod(shared.path, 0o1777) == 0)
    try Data("items:\n  - type: text\n    text: Hi\n".utf8).write(to: shared.appendingPathComponent("t.yaml"))
    try Data("old".utf8).write(to: shared.appendingPathComponent("t.png"))
    let result = try await CommandRunner.runProgram(
      URL(fileURLWithPath: "/usr/bin/setpriv"),
      ["--reuid=65534", "--regid=65534", "--clear-groups", "--", CommandRunner.binary.path, "render", "t.yaml", "-o", "t.png"],
      in: shared, environment: ["CI": "", "XDG_CACHE_HOME": shared.appendingPathComponent(".cache").path])
    #expect(result.status == 2, "\(result.stderr)")
    #expect(result.stderr.contains("t.png: Operation not permitted"), "\(result.stderr)")
    #expect(bytes(shared.appendingPathComponent("t.png")) == Data("old".utf8))
    #expect(Set(listing(shared).filter { !$0.hasPrefix(".cache") }) == ["t.yaml", "t.png"], "\(listing(shared))")
  }

  /// The cache's folder is made when a response is kept, not by a command that fails first.
  @Test func aFailedRenderMakesNoHTTPCacheFolder() async throws {
    let folder = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let result = try await run(["render", "missing.yaml", "-o", "z.png", "--http-cache", "cache"], in: folder)
    #expect(result.status == 2)
    #expect(listing(folder).isEmpty, "\(listing(folder))")
  }

  /// A default image that cannot be shown is said (a warning; the slot's state stays the
  /// default's, so strict renders pass as before), and a password in an image URL is never
  /// printed nor recorded.
  @Test func aMissingDefaultIsToldAndPasswordsAreHidden() async throws {
    let folder = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    try Data(
      """
      items:
        - { type: image, text: typo, defaultImage: placehodler.png }
        - { type: image, text: secret, imageURL: nowhere.png, defaultImage: "https://alice:s3cret@127.0.0.1:9/d.png" }
        - { type: image, text: creds, imageURL: "http://alice:s3cret@127.0.0.1:9/x.png" }

      """.utf8
    ).write(to: folder.appendingPathComponent("t.yaml"))
    let result = try await run(["render", "t.yaml", "-o", "t.png", "--manifest", "m.json"], in: folder)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stderr.contains("row 0 (s0-r0): image slot image: the default image placehodler.png cannot be shown"), "\(result.stderr)")
    #expect(result.stderr.contains("its default https://***@127.0.0.1:9/d.png cannot be shown either (a default image is never downloaded"), "\(result.stderr)")
    #expect(result.stderr.contains("the slot is left empty"), "\(result.stderr)")
    #expect(!result.stderr.contains("its default is shown"), "\(result.stderr)")
    #expect(!result.stderr.contains("s3cret"), "\(result.stderr)")
    let strict = try await run(["render", "t.yaml", "-o", "s.png", "--strict-images", "--placeholders"], in: folder)
    #expect(strict.status == 0, "no image was asked for, so none failed: \(strict.stderr)")
    #expect(strict.stderr.contains("row 1 (s0-r1): image slot image: the default image https://***@127.0.0.1:9/d.png cannot be shown"), "\(strict.stderr)")
  }

  /// `check` says it too, on every run: the case passes (nothing asked for failed), but is
  /// never passed from the render cache, which would pass it without the warning.
  @Test func checkWarnsAboutADefaultThatCannotBeShownOnEveryRun() async throws {
    let folder = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let docs = folder.appendingPathComponent("docs")
    try FileManager.default.createDirectory(at: docs, withIntermediateDirectories: true)
    try Data("items:\n  - { type: image, text: typo, defaultImage: placehodler.png }\n".utf8)
      .write(to: docs.appendingPathComponent("t.yaml"))
    let warning = "docs/t.yaml: row 0 (s0-r0): image slot image: the default image placehodler.png cannot be shown"
    let recorded = try await run(["check", "docs", "--snapshots", "refs", "--jobs", "1"], in: folder)
    #expect(recorded.status == 1, "a new reference is for review: \(recorded.stderr)")
    for _ in 0..<2 {
      let checked = try await run(["check", "docs", "--snapshots", "refs", "--jobs", "1"], in: folder)
      #expect(checked.status == 0, "\(checked.stdout)\(checked.stderr)")
      #expect((checked.stdout + checked.stderr).contains(warning), "\(checked.stdout)\(checked.stderr)")
      #expect(!checked.stdout.contains("(cached)"), "\(checked.stdout)")
    }
    #expect(!listing(folder.appendingPathComponent("refs")).contains { $0.hasSuffix(".inputs.json") })
    #expect(listing(folder.appendingPathComponent("refs")).contains { $0.hasSuffix(".png") })
  }
}
