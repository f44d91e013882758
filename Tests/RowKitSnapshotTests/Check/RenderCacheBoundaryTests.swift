import Foundation
import RowKitTestSupport
import Testing

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
}
