import Foundation
import RowKitTestSupport
import Testing

/// Issue 24, item 10: a variant's name goes before the extension of the file name only
/// (`-o ../build.v2/table` wrote `../build@light.v2/table`); and item 17 (e): the warnings
/// of each variant's render name the variant.
@Suite struct VariantFileNameTests {
  static let features = TestSupport.assets.appendingPathComponent("Samples/features.yaml").path

  @Test func aDotInAFolderNameStaysThere() async throws {
    let root = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: root) }
    let work = root.appendingPathComponent("work")
    let build = root.appendingPathComponent("build.v2")
    for folder in [work, build] { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
    let result = try await CommandRunner.run(
      [
        "render", Self.features, "-o", "../build.v2/table", "--manifest", "../build.v2/table.json", "--rows-dir",
        "../build.v2/rows", "--variant-appearance", "light,dark",
      ], in: work)
    #expect(result.status == 0, "\(result.stderr)")
    let written = try FileManager.default.contentsOfDirectory(atPath: build.path).sorted()
    #expect(written == ["rows", "table@dark", "table@dark.json", "table@light", "table@light.json"])
    #expect(try FileManager.default.contentsOfDirectory(atPath: root.path).sorted() == ["build.v2", "work"])
    #expect(try FileManager.default.contentsOfDirectory(atPath: build.appendingPathComponent("rows").path).sorted() == ["dark", "light"])
  }

  @Test func eachVariantsWarningsNameIt() async throws {
    let folder = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let result = try await CommandRunner.run(
      ["render", Self.features, "-o", folder.appendingPathComponent("t.png").path, "--variant-appearance", "light,dark"])
    #expect(result.status == 0, "\(result.stderr)")
    let lines = result.stderr.split(separator: "\n").map(String.init)
    #expect(lines.count == 2, "\(result.stderr)")
    #expect(lines.first?.hasPrefix("rowkit: warning: [light] \(Self.features): row 1 (s1-r1): image") == true, "\(result.stderr)")
    #expect(lines.last?.hasPrefix("rowkit: warning: [dark] \(Self.features): row 1 (s1-r1): image") == true, "\(result.stderr)")
  }

  @Test func eachVariantCasesWarningsNameIt() async throws {
    let folder = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let cases = folder.appendingPathComponent("cases")
    try FileManager.default.createDirectory(at: cases, withIntermediateDirectories: true)
    let document = cases.appendingPathComponent("glyph.yaml")
    try "variants: { appearance: [light, dark] }\nitems: [{ type: text, text: \"\u{F0000}\" }]\n".write(
      to: document, atomically: true, encoding: .utf8)
    let result = try await CommandRunner.run(
      ["check", "cases", "--snapshots", "refs", "--record", "never"], in: folder)
    #expect(result.status == 1, "\(result.stderr)")
    let warnings = result.stderr.split(separator: "\n").filter { $0.hasPrefix("rowkit: warning: ") }
    #expect(warnings.count == 2, "\(result.stderr)")
    for (warning, variant) in zip(warnings, ["light", "dark"]) {
      #expect(warning.hasPrefix("rowkit: warning: [\(variant)] \(document.path): row 0 (s0-r0): no glyph for U+F0000"), "\(warning)")
    }
  }
}
