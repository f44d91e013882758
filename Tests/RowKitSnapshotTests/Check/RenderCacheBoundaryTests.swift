import Foundation
import RowKitGraphics
import RowKitTestSupport
import Testing

@testable import RowKit
@testable import RowKitSnapshot

/// The project whose files a committed inputs file may have a check read: the Git work tree
/// holding the checked folder (as in a pull request's CI run), else the folder holding both
/// the checked folder and the references, or the checked folder when they share only `/`.
@Suite struct RenderCacheBoundaryTests {
  @Test func theProjectIsTheGitWorkTreeOrWhatHoldsTheChecksFolders() throws {
    let folder = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let tables = folder.appendingPathComponent("app/Tables/Nested")
    try FileManager.default.createDirectory(at: tables, withIntermediateDirectories: true)
    let references = folder.appendingPathComponent("app/Snapshots")
    #expect(RenderCache.boundary(checked: tables, references: references).path == folder.appendingPathComponent("app").standardizedFileURL.path)
    #expect(RenderCache.boundary(checked: tables, references: tables.appendingPathComponent("refs")).path == tables.standardizedFileURL.path)
    #expect(RenderCache.boundary(checked: tables, references: URL(fileURLWithPath: "/srv/refs")).path == tables.standardizedFileURL.path)
    try FileManager.default.createDirectory(at: folder.appendingPathComponent("app/.git"), withIntermediateDirectories: true)
    let app = folder.appendingPathComponent("app").standardizedFileURL
    #expect(RenderCache.boundary(checked: tables, references: URL(fileURLWithPath: "/srv/refs")).path == app.path)
    // A worktree's .git is a file.
    try Data("gitdir: ../.git/worktrees/t\n".utf8).write(to: folder.appendingPathComponent("app/Tables/.git"))
    #expect(RenderCache.boundary(checked: tables, references: references).path == app.appendingPathComponent("Tables").path)
  }

  /// A file saved while a case renders may have been read as it was before: the render keeps
  /// no inputs when any file it read changed after it began, so no proof stands for bytes
  /// that were never rendered.
  @Test func aFileChangedDuringTheRenderKeepsNoInputs() throws {
    let folder = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let table = folder.appendingPathComponent("table.yaml")
    try Data("items: [{ type: text, text: A }]\n".utf8).write(to: table)
    let reference = folder.appendingPathComponent("table.png")
    try Data(PNG.encode(Bitmap(width: 2, height: 2, color: .white))).write(to: reference)
    let document = try TableDocument.load(table, fontFamilies: try TextEnvironment.standard.fontSet().families)
    let cache = RenderCache(folder: folder, environment: "environment", pipeline: ImagePipeline())
    func inputs(renderStart: Date) -> CaseInputs? {
      cache.inputs(
        of: document, manifest: Manifest(configuration: TableConfiguration()), otherFiles: [], reference: reference, settings: [],
        renderStart: renderStart)
    }
    let kept = try #require(inputs(renderStart: Date().addingTimeInterval(60)), "every file is older than the render")
    #expect(kept.files.map(\.kind) == [.folder, .document], "\(kept.files)")
    #expect(inputs(renderStart: Date().addingTimeInterval(-60)) == nil, "the document changed after the render began")
    // A time past now is the file's own (unpacked from an archive), not a save during the render.
    try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(3600)], ofItemAtPath: table.path)
    #expect(inputs(renderStart: Date()) != nil)
  }

  /// When a file's status last changed, which no copy that keeps times can set back.
  static func statusChange(_ url: URL) throws -> Double {
    var info = stat()
    guard stat(url.path, &info) == 0 else { throw CocoaError(.fileNoSuchFile) }
    return Double(info.st_ctim.tv_sec) + Double(info.st_ctim.tv_nsec) / 1e9
  }

  /// Does `change` to `file` until its status change time is after `after`'s: a file system
  /// keeps times to its own tick. Bounded by a count of tries, not by time.
  static func change(_ file: URL, after earlier: URL, by change: () throws -> Void) throws {
    for _ in 0..<100_000 where try statusChange(file) <= statusChange(earlier) { try change() }
    #expect(try statusChange(file) > statusChange(earlier))
  }

  /// The reference replaced while the case was compared (a checkout, an accept), or an input
  /// replaced with its old modification time kept (`cp -p`, `rsync -t`): no proof is kept
  /// for either, since the render or the comparison may have read them as they were before.
  /// A reference the case recorded itself is its own image.
  @Test func aReferenceReplacedOrAFileCopiedWithItsOldTimeDuringTheRenderKeepsNoInputs() throws {
    let folder = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let table = folder.appendingPathComponent("table.yaml")
    try Data("items: [{ type: text, text: A }]\n".utf8).write(to: table)
    let reference = folder.appendingPathComponent("table.png")
    let png = Data(try PNG.encode(Bitmap(width: 2, height: 2, color: .white)))
    try png.write(to: reference)
    let document = try TableDocument.load(table, fontFamilies: try TextEnvironment.standard.fontSet().families)
    let cache = RenderCache(folder: folder, environment: "environment", pipeline: ImagePipeline())
    func inputs(renderStart: Double, recordedReference: Bool = false) -> CaseInputs? {
      cache.inputs(
        of: document, manifest: Manifest(configuration: TableConfiguration()), otherFiles: [], reference: reference, settings: [],
        renderStart: Date(timeIntervalSince1970: renderStart), recordedReference: recordedReference)
    }
    // The reference replaced (a new file renamed over it) after the render began.
    try Self.change(reference, after: table) {
      let staged = folder.appendingPathComponent("staged.png")
      try png.write(to: staged)
      #expect(rename(staged.path, reference.path) == 0)
    }
    let referenceReplaced = (try Self.statusChange(table) + Self.statusChange(reference)) / 2
    #expect(inputs(renderStart: referenceReplaced) == nil, "the reference changed after the render began")
    #expect(inputs(renderStart: referenceReplaced, recordedReference: true) != nil, "the case recorded it")
    // The document replaced by a copy that keeps a time of 2020, after the render began.
    let old = Date(timeIntervalSince1970: 1_600_000_000)
    try Self.change(table, after: reference) {
      try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: table.path)
    }
    let documentCopied = (try Self.statusChange(reference) + Self.statusChange(table)) / 2
    #expect(try FileManager.default.attributesOfItem(atPath: table.path)[.modificationDate] as? Date == old)
    #expect(inputs(renderStart: documentCopied) == nil, "the document changed after the render began, whatever its time says")
    // Nor does a time past now hide it: unpacked during the render with a time to come.
    try Self.change(reference, after: table) {
      try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(3600)], ofItemAtPath: reference.path)
    }
    let referenceUnpacked = (try Self.statusChange(table) + Self.statusChange(reference)) / 2
    #expect(inputs(renderStart: referenceUnpacked) == nil, "the reference changed after the render began, whatever its time says")
  }
}
