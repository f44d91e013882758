import Foundation
import RowKitGraphics
import RowKitTestSupport
import Testing

/// `rowkit render`'s streaming flags, run as a user runs them: `--jobs`, `--max-png-height`,
/// `--png-compression` and the progress bar.
@Suite struct StreamingCommandTests {
  let sample = TestSupport.assets.appendingPathComponent("Samples/features.yaml").path

  /// Renders the sample with `flags` into a new folder: the table, its rows and manifest.
  private func render(_ flags: [String], name: String = #function) async throws -> (folder: URL, result: CommandRunner.Result) {
    let folder = try TestSupport.temporaryDirectory(name + flags.joined())
    let result = try await CommandRunner.run(
      [
        "render", sample, "-o", folder.appendingPathComponent("table.png").path,
        "--rows-dir", folder.appendingPathComponent("rows").path,
        "--manifest", folder.appendingPathComponent("table.json").path,
      ] + flags)
    return (folder, result)
  }

  private func files(in folder: URL) throws -> [String: Data] {
    var files: [String: Data] = [:]
    let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)!
    for case let url as URL in enumerator where !url.hasDirectoryPath {
      files[url.path.replacingOccurrences(of: folder.path, with: "")] = try Data(contentsOf: url)
    }
    return files
  }

  @Test func everyNumberOfJobsWritesTheSameFiles() async throws {
    let one = try await render(["--jobs", "1"])
    #expect(one.result.status == 0, "\(one.result.stderr)")
    let expected = try files(in: one.folder)
    #expect(expected.count == 13, "table, manifest and 11 rows")
    for jobs in ["2", "4"] {
      let many = try await render(["--jobs", jobs])
      #expect(many.result.status == 0, "\(many.result.stderr)")
      #expect(try files(in: many.folder) == expected, "--jobs \(jobs)")
    }
  }

  /// A table whose rows two workers lay out at once gives the bytes of one job on every run:
  /// each run is a new process, whose rows go to workers in an order of its own and whose
  /// fonts are measured anew. Before the metrics hook, most runs broke a word of some rows one
  /// letter later (see DeterminismTests).
  @Test func mixedScriptRowsRenderTheSameOnTwoJobsEveryTime() async throws {
    let document = TestSupport.repositoryRoot.appendingPathComponent("Tests/Fixtures/determinism/mixed-script-rows.yaml").path
    let one = try await CommandRunner.run(["render", document, "-o", "-", "--jobs", "1"])
    #expect(one.status == 0, "\(one.stderr)")
    #expect(one.stdoutData.starts(with: [0x89, 0x50, 0x4E, 0x47]), "a PNG")
    for _ in 0..<6 {
      let two = try await CommandRunner.run(["render", document, "-o", "-", "--jobs", "2"])
      #expect(two.status == 0, "\(two.stderr)")
      #expect(two.stdoutData == one.stdoutData)
    }
  }

  @Test func aLowHeightLimitWritesNumberedTilesThatTheManifestLists() async throws {
    let whole = try await render([])
    let tiled = try await render(["--max-png-height", "500"])
    #expect(tiled.result.status == 0, "\(tiled.result.stderr)")
    let manifest = try JSONSerialization.jsonObject(with: Data(contentsOf: tiled.folder.appendingPathComponent("table.json"))) as! [String: Any]
    let tiles = try #require(manifest["tiles"] as? [[String: Any]])
    #expect(tiles.count >= 2)
    #expect(!FileManager.default.fileExists(atPath: tiled.folder.appendingPathComponent("table.png").path))
    var pixels: [UInt8] = []
    for (index, tile) in tiles.enumerated() {
      #expect(tile["file"] as? String == "table-\(index + 1).png")
      let bitmap = try PNG.decode(contentsOf: tiled.folder.appendingPathComponent("table-\(index + 1).png"))
      #expect(bitmap.height <= 500)
      #expect(Double(bitmap.height) == (tile["height"] as! Double) * 2)
      pixels += bitmap.pixels
    }
    #expect(pixels == (try PNG.decode(contentsOf: whole.folder.appendingPathComponent("table.png")).pixels), "the tiles stack into the table")
  }

  @Test func smallCompressionKeepsThePixelsInASmallerFile() async throws {
    let fast = try await render([])
    let small = try await render(["--png-compression", "small"])
    #expect(small.result.status == 0, "\(small.result.stderr)")
    let fastFile = fast.folder.appendingPathComponent("table.png")
    let smallFile = small.folder.appendingPathComponent("table.png")
    #expect(try PNG.decode(contentsOf: smallFile) == PNG.decode(contentsOf: fastFile))
    #expect(try Data(contentsOf: smallFile).count < Data(contentsOf: fastFile).count)
  }

  @Test(arguments: [
    (["--jobs", "0"], "--jobs"), (["--jobs", "1000"], "--jobs"), (["--jobs", "many"], "--jobs"),
    (["--max-png-height", "0"], "--max-png-height"), (["--png-compression", "tiny"], "--png-compression"),
  ])
  func badValuesExitWithStatusTwoAndWriteNothing(flags: [String], named flag: String) async throws {
    let (folder, result) = try await render(flags)
    #expect(result.status == 2, "\(result.stderr)")
    #expect(result.stderr.contains(flag), "\(result.stderr)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
  }

  /// A table long enough that a bar would show (it waits half a second).
  private func longDocument() throws -> URL {
    let folder = try TestSupport.temporaryDirectory()
    let rows = (1...1200).map { "  - { type: subtitle, text: \"Row \($0)\", subtitle: \"A subtitle long enough to wrap onto its second line, row \($0)\" }" }
    let url = folder.appendingPathComponent("long.yaml")
    try Data(("items:\n" + rows.joined(separator: "\n") + "\n").utf8).write(to: url)
    return url
  }

  @Test func noProgressBarWhenStderrIsNotATerminal() async throws {
    let document = try longDocument()
    let result = try await CommandRunner.run(["render", document.path, "-o", document.deletingPathExtension().appendingPathExtension("png").path])
    #expect(result.status == 0)
    #expect(result.stderr.isEmpty, "\(result.stderr)")
  }

  @Test func aProgressBarOnATerminalIsClearedAtTheEnd() async throws {
    let document = try longDocument()
    let output = document.deletingPathExtension().appendingPathExtension("png")
    // util-linux's `script` runs the command on a pseudo-terminal. `--progress-after 0`
    // shows the bar at once, however fast the machine renders.
    let command = [CommandRunner.binary.path, "render", document.path, "-o", output.path, "--progress-after", "0"]
      .map { "'\($0)'" }.joined(separator: " ")
    let result = try await CommandRunner.runProgram(URL(fileURLWithPath: "/usr/bin/script"), ["-qec", command, "/dev/null"])
    let terminal = result.stdout
    #expect(result.status == 0, "\(terminal)")
    #expect(terminal.contains("1200/1200 rows"), "\(terminal.debugDescription)")
    #expect(terminal.hasSuffix("\r\u{1B}[2K"), "the bar's line is cleared: \(terminal.suffix(40).debugDescription)")
    #expect(FileManager.default.fileExists(atPath: output.path))
  }
}
