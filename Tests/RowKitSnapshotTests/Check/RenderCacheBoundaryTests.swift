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
}
