import Foundation
import RowKitTestSupport
import Testing

/// Issue 25: `rowkit schema` prints, writes and checks the JSON Schemas that `Schemas/`
/// holds, and `scripts/check-schemas.py` runs its `--check`.
@Suite struct SchemaCommandTests {
  static let names = ["table-document", "stylesheet", "cell-design", "check-report", "layout-record"]
  static var committed: URL { TestSupport.repositoryRoot.appendingPathComponent("Schemas") }

  /// A fresh folder of this test process's own, removed by the test (and with the process).
  static func folder() throws -> URL {
    let url = TestSupport.processTemporaryDirectory.appendingPathComponent("schema-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }

  @Test func theCommittedSchemasPassTheCheck() async throws {
    let result = try await CommandRunner.run(["schema", "--check", Self.committed.path])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stderr.isEmpty)
  }

  @Test func eachNamePrintsItsCommittedFile() async throws {
    for name in Self.names {
      let result = try await CommandRunner.run(["schema", name])
      #expect(result.status == 0, "\(name): \(result.stderr)")
      let file = try Data(contentsOf: Self.committed.appendingPathComponent("\(name).schema.json"))
      #expect(Data(result.stdout.utf8) == file, "\(name)")
    }
  }

  @Test func checkNamesEachFileThatDiffersOrIsMissing() async throws {
    let folder = try Self.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let written = try await CommandRunner.run(["schema", "--output", folder.path])
    #expect(written.status == 0, "\(written.stderr)")
    for name in Self.names {
      let file = try Data(contentsOf: folder.appendingPathComponent("\(name).schema.json"))
      #expect(file == (try Data(contentsOf: Self.committed.appendingPathComponent("\(name).schema.json"))), "\(name)")
    }
    let clean = try await CommandRunner.run(["schema", "--check", folder.path])
    #expect(clean.status == 0, "\(clean.stderr)")

    // One bound changed by hand, one file gone.
    let stylesheet = folder.appendingPathComponent("stylesheet.schema.json")
    let text = try String(contentsOf: stylesheet, encoding: .utf8)
    try text.replacingOccurrences(of: "\"maximum\": 2000", with: "\"maximum\": 3000").write(to: stylesheet, atomically: true, encoding: .utf8)
    try FileManager.default.removeItem(at: folder.appendingPathComponent("layout-record.schema.json"))
    let check = try await CommandRunner.run(["schema", "--check", folder.path])
    #expect(check.status == 1)
    #expect(check.stderr.contains("\(stylesheet.path) differs from what rowkit schema writes"), "\(check.stderr)")
    #expect(check.stderr.contains("layout-record.schema.json is missing"), "\(check.stderr)")
    for name in ["table-document", "cell-design", "check-report"] { #expect(!check.stderr.contains(name), "\(check.stderr)") }
  }

  @Test func outputOverAFileIsBadUsage() async throws {
    let file = TestSupport.processTemporaryDirectory.appendingPathComponent("schemas-file-\(UUID().uuidString)")
    try Data("mine\n".utf8).write(to: file)
    defer { try? FileManager.default.removeItem(at: file) }
    let result = try await CommandRunner.run(["schema", "--output", file.path])
    #expect(result.status == 2)
    #expect(result.stderr == "rowkit: error: \(file.path): not a folder; --output names the folder the schema files go in\n")
    #expect(try String(contentsOf: file, encoding: .utf8) == "mine\n")
  }

  @Test func standardOutputIsNoFolderToWriteOrCheck() async throws {
    let folder = TestSupport.processTemporaryDirectory.appendingPathComponent("schemas-dash-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    for option in ["--output", "--check"] {
      let result = try await CommandRunner.run(["schema", option, "-"], in: folder)
      #expect(result.status == 2)
      #expect(
        result.stderr.hasPrefix("rowkit: error: \(option) takes a folder, not standard output; to print one schema, name it"),
        "\(result.stderr)")
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty, "no folder named -")
  }

  @Test func checkOfAMissingFolderIsBadUsage() async throws {
    let missing = TestSupport.processTemporaryDirectory.appendingPathComponent("no-schemas-\(UUID().uuidString)")
    let result = try await CommandRunner.run(["schema", "--check", missing.path])
    #expect(result.status == 2)
    #expect(result.stderr == "rowkit: error: \(missing.path): no such folder to check the schemas in\n")
    #expect(!FileManager.default.fileExists(atPath: missing.path))
  }

  @Test func referencePrintsATableOfTheFormatReference() async throws {
    let bounds = try await CommandRunner.run(["schema", "--reference", "bounds"])
    #expect(bounds.status == 0, "\(bounds.stderr)")
    #expect(bounds.stdout.hasPrefix("| what | bound |\n|---|---|\n| table width (`table.width`, `--width`) | 64–4096 points"))
    let variables = try await CommandRunner.run(["schema", "--reference", "number-variables"])
    #expect(variables.status == 0, "\(variables.stderr)")
    #expect(variables.stdout.contains("| `tableRowHeight` | 44 | 1–2000 | the least row height |\n"))
  }

  @Test func badUsageExitsTwo() async throws {
    for arguments in [
      ["schema"], ["schema", "tabledocument"], ["schema", "stylesheet", "--check", "Schemas"], ["schema", "--reference", "colors"],
    ] {
      let result = try await CommandRunner.run(arguments)
      #expect(result.status == 2, "\(arguments)")
      #expect(result.stdout.isEmpty, "\(arguments)")
      #expect(result.stderr.hasPrefix("rowkit: error: "), "\(arguments): \(result.stderr)")
    }
  }
}
