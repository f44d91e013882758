import Foundation
import RowKitTestSupport
import Testing

/// Bad JSON and bad arguments are told with their file and place, as documents are: the
/// bad-input audit found reports, baselines and `diff` naming neither.
@Suite struct BadInputPlaceTests {
  func run(_ arguments: [String], in folder: URL) async throws -> CommandRunner.Result {
    try await CommandRunner.run(arguments, in: folder, environment: ["CI": ""])
  }

  @Test func aBrokenReportOrBaselineNamesItsLineAndColumn() async throws {
    let folder = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    try FileManager.default.createDirectory(at: folder.appendingPathComponent("report"), withIntermediateDirectories: false)
    try Data("{\n  \"cases\": [\n    ,\n  ]\n}\n".utf8).write(to: folder.appendingPathComponent("report/report.json"))
    let plan = try await run(["shards", "plan", "2", "--timings", "report"], in: folder)
    #expect(plan.status == 2, "\(plan.stderr)")
    #expect(plan.stderr.contains("report.json: not a RowKit report: not JSON (line 3, column"), "\(plan.stderr)")

    try Data("items: [{ type: text, text: Hi }]\n".utf8).write(to: folder.appendingPathComponent("t.yaml"))
    try Data("{\n  \"version\": 1,\n  \"findings\": [,]\n}\n".utf8).write(to: folder.appendingPathComponent("base.json"))
    let lint = try await run(["lint", "t.yaml", "--baseline", "base.json"], in: folder)
    #expect(lint.status == 2, "\(lint.stderr)")
    #expect(lint.stderr.contains("base.json: not JSON (line 3, column"), "\(lint.stderr)")
  }

  /// A control character the YAML reader refuses is placed by line and column, not by byte.
  @Test func aNULInADocumentIsPlacedByLineAndColumn() async throws {
    let folder = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    try Data("items:\n  - type: text\n    text: Hé\u{0}llo\n".utf8).write(to: folder.appendingPathComponent("nul.yaml"))
    let result = try await run(["render", "nul.yaml", "-o", "n.png"], in: folder)
    #expect(result.status == 2)
    #expect(result.stderr.contains("nul.yaml:3:13: malformed YAML: control characters are not allowed"), "\(result.stderr)")
  }

  @Test func schemaCheckGivenAFileSaysSo() async throws {
    let folder = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    try Data("x".utf8).write(to: folder.appendingPathComponent("t.yaml"))
    let result = try await run(["schema", "--check", "t.yaml"], in: folder)
    #expect(result.status == 2)
    #expect(result.stderr.contains("t.yaml: a file; --check names the folder the schema files are in"), "\(result.stderr)")
  }

  /// Two images too far apart in size to compare: the message names both files.
  @Test func diffNamesTheFilesItCannotCompare() async throws {
    let folder = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    try Data(Self.pngHeader(width: 8, height: 8)).write(to: folder.appendingPathComponent("small.png"))
    try Data(Self.pngHeader(width: 1, height: 2_000_000_000)).write(to: folder.appendingPathComponent("tall.png"))
    let result = try await run(["diff", "small.png", "tall.png"], in: folder)
    #expect(result.status == 2, "\(result.stderr)")
    #expect(result.stderr.contains("small.png and tall.png: the images are 8×8 and 1×2000000000 pixels"), "\(result.stderr)")
  }

  /// A PNG's signature, header, the start of its data and its end: enough for its size to be read.
  static func pngHeader(width: UInt32, height: UInt32) -> [UInt8] {
    func bigEndian(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * $0)) } }
    let chunk = Array("IHDR".utf8) + bigEndian(width) + bigEndian(height) + [8, 6, 0, 0, 0]
    // The start of a zlib stream: the rows are never read, the sizes refused first.
    let data = Array("IDAT".utf8) + [0x78, 0x9C]
    let end = Array("IEND".utf8)
    return [137, 80, 78, 71, 13, 10, 26, 10] + bigEndian(13) + chunk + bigEndian(crc32(chunk))
      + bigEndian(2) + data + bigEndian(crc32(data)) + bigEndian(0) + end + bigEndian(crc32(end))
  }

  static func crc32(_ bytes: [UInt8]) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
      crc ^= UInt32(byte)
      for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
    }
    return ~crc
  }
}
