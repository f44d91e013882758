import Foundation
import RowKit
import RowKitGraphics
import RowKitTestSupport
import Testing

@testable import RowKitSnapshot

/// A helper process's side of `rowkit check --jobs N` (``SnapshotCheck/HelperProcesses``): a
/// case crosses the pipe whole, and a helper answers each case as the check itself would.
@Suite struct HelperProcessTests {
  /// Lines cross the pipe whole however the writes split them, each once, and the reader ends
  /// once at the end of the input; a last line with no newline (a helper that died in the
  /// middle of it) is not taken for a line.
  @Test func linesAreReadWholeAcrossWritesAndTheEndIsSaidOnce() async throws {
    let pipe = Pipe()
    let (events, delivery) = AsyncStream.makeStream(of: String.self)
    try LineReader.start(
      reading: pipe.fileHandleForReading, line: { delivery.yield(String(decoding: $0, as: UTF8.self)) },
      end: { delivery.yield("<end>"); delivery.finish() })
    let long = String(repeating: "x", count: 200_000)
    // The long line is more than a pipe holds: its writes wait for the reader's thread.
    let pieces = ["ab", "c\nde", "f\n\ng\n", String(long.prefix(100_000)), String(long.dropFirst(100_000)) + "\n", "half"]
    for piece in pieces {
      try pipe.fileHandleForWriting.write(contentsOf: Data(piece.utf8))
    }
    try pipe.fileHandleForWriting.close()
    var seen: [String] = []
    for await event in events { seen.append(event) }
    #expect(seen == ["abc", "def", "", "g", long, "<end>"])
  }

  @Test func aCaseCrossesThePipeWhole() throws {
    let cases = [
      SnapshotCheck.Case(name: "plain", document: URL(fileURLWithPath: "/docs/plain.yaml")),
      SnapshotCheck.Case(
        name: "settings/wifi@320pt,dark,en-XA,AX3,rtl", document: URL(fileURLWithPath: "/docs/settings/wifi.yaml"),
        variant: Variant(width: 320, textSize: .AX3, appearance: .dark, direction: .rtl, locale: .accented)),
      SnapshotCheck.Case(
        name: "card/preview-2-selected", document: URL(fileURLWithPath: "/designs/card.yaml"),
        preview: SnapshotCheck.DesignPreview(
          design: "card", index: 1, selected: true, stylesheet: URL(fileURLWithPath: "/designs/styles.yaml"),
          assets: URL(fileURLWithPath: "/assets"))),
    ]
    for testCase in cases {
      let line = try HelperMessages.line(HelperRequest(index: 7, testCase: CaseMessage(testCase)))
      #expect(line.last == 0x0A && line.dropLast().firstIndex(of: 0x0A) == nil, "one line")
      let request = try HelperMessages.decoder.decode(HelperRequest.self, from: line.dropLast())
      #expect(request.index == 7)
      #expect(request.testCase.testCase == testCase)
    }
  }

  @Test func aHelperAnswersEachCaseAsTheCheckItselfWould() async throws {
    let folder = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let tables = folder.appendingPathComponent("tables")
    try FileManager.default.createDirectory(at: tables, withIntermediateDirectories: true)
    try Data("items: [{ type: text, text: Same }]\n".utf8).write(to: tables.appendingPathComponent("same.yaml"))
    try Data("variants: { appearance: [light, dark] }\nitems: [{ type: subtitle, text: Varied, subtitle: Twice }]\n".utf8)
      .write(to: tables.appendingPathComponent("varied.yaml"))
    let families = try TextEnvironment.standard.fontSet().families
    let artifacts = folder.appendingPathComponent("artifacts")
    func makeCheck(record: RecordMode) -> SnapshotCheck {
      let store = ReferenceStore(
        root: folder.appendingPathComponent("refs"), artifactsRoot: artifacts, environment: .standard, processEnvironment: [:])
      var check = SnapshotCheck(folder: tables, store: store, record: record)
      check.usesRenderCache = false
      return check
    }
    let suite = SnapshotCheck.expandingVariants(
      try SnapshotCheck.discover(in: tables), fontFamilies: families, imageFolders: ImageFolders(), brandFonts: [],
      overriding: VariantAxes())
    #expect(suite.count == 3)
    #expect(try await makeCheck(record: .all).run(suite, fontFamilies: families).summary.new == 3)
    // One case changed since its reference was recorded: a failure, with its images.
    try Data("items: [{ type: text, text: Changed }]\n".utf8).write(to: tables.appendingPathComponent("same.yaml"))

    let check = makeCheck(record: .never)
    /// A result as bytes that are equal when the results are (keys sorted, no time).
    func canonical(_ result: SnapshotCheck.CaseResult) throws -> Data {
      var result = result
      result.seconds = nil
      let encoder = HelperMessages.encoder
      encoder.outputFormatting = .sortedKeys
      return try encoder.encode(result)
    }
    var expected: [Data] = []
    for testCase in suite {
      let (result, _) = await check.check(testCase, fontFamilies: families, cache: nil)
      expected.append(try canonical(result))
    }
    #expect(expected.count == 3)

    let requests = Pipe()
    let replies = Pipe()
    let (lines, delivery) = AsyncStream.makeStream(of: Data.self)
    try LineReader.start(reading: replies.fileHandleForReading, line: { delivery.yield($0) }, end: { delivery.finish() })
    async let serving: Void = SnapshotCheck.serve(
      input: requests.fileHandleForReading, output: replies.fileHandleForWriting) { (check, families) }
    let writer = LineWriter(requests.fileHandleForWriting)
    writer.send(HelperSetup(artifactsRoot: artifacts.path, comparesInAnotherEnvironment: false))
    for (index, testCase) in suite.enumerated() { writer.send(HelperRequest(index: index, testCase: CaseMessage(testCase))) }
    writer.close()
    var answers = [Data?](repeating: nil, count: suite.count)
    var sawReady = false
    for await line in lines {
      let reply = try HelperMessages.decoder.decode(HelperReply.self, from: line)
      if reply.ready == true {
        sawReady = true
        continue
      }
      let result = try #require(reply.result)
      #expect(result.seconds != nil, "the helper times each case")
      answers[try #require(reply.index)] = try canonical(result)
      if answers.allSatisfy({ $0 != nil }) { break }
    }
    try await serving
    #expect(sawReady)
    #expect(answers == expected.map { $0 })
    let statuses = try answers.compactMap { $0 }.map {
      try HelperMessages.decoder.decode(SnapshotCheck.CaseResult.self, from: $0).status
    }
    #expect(statuses == [.failed, .passed, .passed], "the changed case fails, with its images and layout changes")
  }
}
