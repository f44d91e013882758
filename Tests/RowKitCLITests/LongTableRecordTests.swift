import Foundation
import RowKitTestSupport
import Testing

/// A layout record is made whole in memory; a table longer than a check keeps records of is
/// checked by its pixels alone, in memory that does not grow with it, and no note asks for
/// a record that would never be written.
@Suite struct LongTableRecordTests {
  @Test func aTableOverTheRecordBoundIsCheckedWithoutARecordOrANoteAskingForOne() async throws {
    let folder = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let cases = folder.appendingPathComponent("cases")
    try FileManager.default.createDirectory(at: cases, withIntermediateDirectories: true)
    let rows = (1...2_001).map { "  - { type: text, text: Row \($0) }" }.joined(separator: "\n")
    try "items:\n\(rows)\n".write(to: cases.appendingPathComponent("long.yaml"), atomically: true, encoding: .utf8)
    try "items: [{ type: text, text: Short }]\n".write(
      to: cases.appendingPathComponent("short.yaml"), atomically: true, encoding: .utf8)
    let refs = folder.appendingPathComponent("refs")

    let recorded = try await CommandRunner.run(
      ["check", cases.path, "--snapshots", refs.path, "--record", "all"], environment: ["CI": ""])
    #expect(recorded.status == 1, "\(recorded.stdout)\(recorded.stderr)")
    #expect(FileManager.default.fileExists(atPath: refs.appendingPathComponent("long.png").path))
    #expect(!FileManager.default.fileExists(atPath: refs.appendingPathComponent("long.layout.json").path))
    #expect(FileManager.default.fileExists(atPath: refs.appendingPathComponent("short.layout.json").path))

    let checked = try await CommandRunner.run(["check", cases.path, "--snapshots", refs.path], environment: ["CI": "true"])
    #expect(checked.status == 0, "\(checked.stdout)\(checked.stderr)")
    #expect(!checked.stderr.contains("no layout record"), "\(checked.stderr)")
  }

  /// `--no-layout-records`: PNGs alone are recorded and compared, and a failure is told by
  /// its pixels, with no sentence and no note asking for a record.
  @Test func noLayoutRecordsRecordsAndComparesThePNGsAlone() async throws {
    let folder = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let cases = folder.appendingPathComponent("cases")
    try FileManager.default.createDirectory(at: cases, withIntermediateDirectories: true)
    let table = cases.appendingPathComponent("short.yaml")
    try "items: [{ type: text, text: Short }]\n".write(to: table, atomically: true, encoding: .utf8)
    let refs = folder.appendingPathComponent("refs")
    let recorded = try await CommandRunner.run(
      ["check", cases.path, "--snapshots", refs.path, "--record", "all", "--no-layout-records"], environment: ["CI": ""])
    #expect(recorded.status == 1, "\(recorded.stdout)\(recorded.stderr)")
    #expect(FileManager.default.fileExists(atPath: refs.appendingPathComponent("short.png").path))
    #expect(!FileManager.default.fileExists(atPath: refs.appendingPathComponent("short.layout.json").path))

    let passing = try await CommandRunner.run(
      ["check", cases.path, "--snapshots", refs.path, "--no-layout-records"], environment: ["CI": "true"])
    #expect(passing.status == 0 && !passing.stderr.contains("layout record"), "\(passing.stdout)\(passing.stderr)")
    try "items: [{ type: text, text: Longer }]\n".write(to: table, atomically: true, encoding: .utf8)
    let failing = try await CommandRunner.run(
      ["check", cases.path, "--snapshots", refs.path, "--no-layout-records"], environment: ["CI": "true"])
    #expect(failing.status == 1)
    #expect(failing.stdout.contains("FAILED short: ") && !failing.stdout.contains("→"), "\(failing.stdout)")
  }
}
