import Foundation
import RowKitTestSupport
import Testing

/// `rowkit` in a pipeline (issue 16): `-` reads the document from standard input, `-o -` and
/// `--manifest -` write to standard output, a PNG never goes to a terminal, and an output that
/// is a symbolic link, a FIFO or a device is written through, never replaced.
@Suite struct PipeTests {
  static let samples = TestSupport.assets.appendingPathComponent("Samples")
  static let features = samples.appendingPathComponent("features.yaml")
  static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

  /// A folder of the test's own, removed by `body`'s end.
  func withFolder(_ name: String = #function, _ body: (URL) async throws -> Void) async throws {
    let folder = try TestSupport.temporaryDirectory(name)
    defer { try? FileManager.default.removeItem(at: folder) }
    try await body(folder)
  }

  /// The sample rendered to a file the ordinary way.
  func fileRender(in folder: URL) async throws -> Data {
    let file = folder.appendingPathComponent("file.png")
    let result = try await CommandRunner.run(["render", Self.features.path, "-o", file.path])
    #expect(result.status == 0, "\(result.stderr)")
    return try Data(contentsOf: file)
  }

  /// A reader that stops early: with SIGPIPE at its default, as a shell runs rowkit, the
  /// write ended rowkit at once and left its staged PNG in the temporary folder. The output
  /// is now refused (status 2, naming standard output) and nothing is left.
  @Test func aReaderThatStopsEarlyLeavesNothingStaged() async throws {
    try await withFolder { folder in
      let script = "env --default-signal=PIPE \"$0\" catalog --styles -o - | head -c 10 >/dev/null; echo \"${PIPESTATUS[0]}\""
      let result = try await CommandRunner.runProgram(
        URL(fileURLWithPath: "/bin/bash"), ["-c", script, CommandRunner.binary.path], environment: ["TMPDIR": folder.path])
      #expect(result.stdout == "2\n", "\(result.stdout)\(result.stderr)")
      #expect(result.stderr.contains("rowkit: error: cannot write to standard output: Broken pipe"), "\(result.stderr)")
      #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == [])
    }
  }

  @Test func aDocumentOnStandardInputRendersToStandardOutput() async throws {
    try await withFolder { folder in
      // Relative paths (stylesheet, cells, assets) resolve against the working folder.
      let result = try await CommandRunner.run(
        ["render", "-", "-o", "-"], in: Self.samples, standardInput: try Data(contentsOf: Self.features))
      #expect(result.status == 0, "\(result.stderr)")
      #expect(Array(result.stdoutData.prefix(8)) == Self.pngSignature)
      #expect(result.stdoutData == (try await fileRender(in: folder)), "the piped PNG differs from the file's")
      // Only the sample's deliberately missing image is warned about, naming <stdin>.
      #expect(result.stderr.hasPrefix("rowkit: warning: <stdin>: row 1 (s1-r1): image bundle://images/missing.png failed"), "\(result.stderr)")
      #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
    }
  }

  /// Yams, left to its default, reads `YAMS_DEFAULT_ENCODING` and prints a line to standard
  /// output when it is set: into the PNG. RowKit names its encoding, so the variable changes
  /// nothing.
  @Test func yamsEncodingVariableLeavesThePNGAlone() async throws {
    try await withFolder { folder in
      let result = try await CommandRunner.run(
        ["render", Self.features.path, "-o", "-"], environment: ["YAMS_DEFAULT_ENCODING": "UTF16"])
      #expect(result.status == 0, "\(result.stderr)")
      #expect(result.stdoutData == (try await fileRender(in: folder)), "the piped PNG differs from the file's")
    }
  }

  @Test func theManifestGoesToStandardOutput() async throws {
    try await withFolder { folder in
      let file = folder.appendingPathComponent("manifest.json")
      let toFile = try await CommandRunner.run(["render", Self.features.path, "--manifest", file.path])
      #expect(toFile.status == 0, "\(toFile.stderr)")
      let piped = try await CommandRunner.run(["render", Self.features.path, "--manifest", "-"])
      #expect(piped.status == 0, "\(piped.stderr)")
      #expect(piped.stdoutData == (try Data(contentsOf: file)))
      let json = try JSONSerialization.jsonObject(with: piped.stdoutData) as? [String: Any]
      #expect((json?["rows"] as? [Any])?.count == 11)

      // With the PNG written to a file beside it.
      let png = folder.appendingPathComponent("table.png")
      let both = try await CommandRunner.run(["render", Self.features.path, "-o", png.path, "--manifest", "-"])
      #expect(both.status == 0, "\(both.stderr)")
      #expect(both.stdoutData == (try Data(contentsOf: file)))
      #expect(try Data(contentsOf: png) == (try await fileRender(in: folder)))

      let clash = try await CommandRunner.run(["render", Self.features.path, "-o", "-", "--manifest", "-"])
      #expect(clash.status == 2)
      #expect(clash.stderr.contains("both write to standard output"), "\(clash.stderr)")
      #expect(clash.stdoutData.isEmpty)
    }
  }

  @Test func theStagingFolderIsRemovedAndTilesAreRefused() async throws {
    try await withFolder { folder in
      // rowkit stages standard output in $TMPDIR; nothing may stay there.
      let temporary = folder.appendingPathComponent("tmp")
      try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
      let environment = ["TMPDIR": temporary.path]
      let piped = try await CommandRunner.run(
        ["render", Self.features.path, "-o", "-"], environment: environment)
      #expect(piped.status == 0, "\(piped.stderr)")
      #expect(Array(piped.stdoutData.prefix(8)) == Self.pngSignature)
      // A table cut into tiles is several files: standard output cannot hold them.
      let tiled = try await CommandRunner.run(
        ["render", Self.features.path, "-o", "-", "--max-png-height", "500"], environment: environment)
      #expect(tiled.status == 2)
      #expect(tiled.stderr.contains("cut into tiles"), "\(tiled.stderr)")
      #expect(tiled.stdoutData.isEmpty)
      #expect(try FileManager.default.contentsOfDirectory(atPath: temporary.path).isEmpty)
    }
  }

  @Test(arguments: [
    (["render", "-", "-o", "table.png", "--watch"], "--watch cannot watch standard input"),
    (["render", "features.yaml", "-o", "-", "--watch"], "send -o and --manifest to files"),
    (["render", "features.yaml", "--rows-dir", "-"], "--rows-dir names a folder"),
  ])
  func pipesThatCannotWorkAreRefused(_ arguments: [String], _ message: String) async throws {
    let result = try await CommandRunner.run(arguments, in: Self.samples)
    #expect(result.status == 2)
    #expect(result.stderr.contains(message), "\(result.stderr)")
    #expect(result.stdoutData.isEmpty)
  }

  @Test func measureReadsStandardInput() async throws {
    let fromFile = try await CommandRunner.run(["measure", "features.yaml"], in: Self.samples)
    #expect(fromFile.status == 0, "\(fromFile.stderr)")
    let piped = try await CommandRunner.run(
      ["measure", "-"], in: Self.samples, standardInput: try Data(contentsOf: Self.features))
    #expect(piped.status == 0, "\(piped.stderr)")
    #expect(piped.stdout == fromFile.stdout)
    #expect(piped.stdout.contains("\"rows\""))
  }

  @Test(arguments: [["render", "-", "-o", "-"], ["measure", "-"]])
  func aBadDocumentOnStandardInputNamesStdinAndTheLine(_ arguments: [String]) async throws {
    let document = Data("items:\n  - type: text\n    text: Hi\n  - type: text\n    txt: Hello\n".utf8)
    let result = try await CommandRunner.run(arguments, standardInput: document)
    #expect(result.status == 2)
    #expect(result.stdoutData.isEmpty)
    let lines = result.stderr.split(separator: "\n")
    #expect(lines.count == 1, "\(result.stderr)")
    #expect(result.stderr.contains("<stdin>:5:5: items[1].txt: unknown key 'txt'"), "\(result.stderr)")
  }

  @Test func theHelpSaysWhereRelativePathsResolve() async throws {
    for command in ["render", "measure"] {
      let result = try await CommandRunner.run([command, "--help"])
      let help = result.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
      #expect(help.contains("or - to read it from standard input"), "\(command)")
      #expect(help.contains("resolve against the working folder"), "\(command)")
    }
  }

  @Test func aSymbolicLinkIsWrittenThroughAndKept() async throws {
    try await withFolder { folder in
      let expected = try await fileRender(in: folder)
      let fm = FileManager.default
      // A link to an existing file, one to a file in another folder, and a dangling one.
      let other = folder.appendingPathComponent("other")
      try fm.createDirectory(at: other, withIntermediateDirectories: true)
      try Data("old".utf8).write(to: folder.appendingPathComponent("target.png"))
      try fm.createSymbolicLink(atPath: folder.appendingPathComponent("link.png").path, withDestinationPath: "target.png")
      try fm.createSymbolicLink(
        atPath: folder.appendingPathComponent("far.png").path, withDestinationPath: "other/far-target.png")
      try fm.createSymbolicLink(atPath: folder.appendingPathComponent("manifest.json").path, withDestinationPath: "other/m.json")
      for (link, target) in [("link.png", "target.png"), ("far.png", "other/far-target.png")] {
        let result = try await CommandRunner.run(["render", Self.features.path, "-o", link], in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try fm.destinationOfSymbolicLink(atPath: folder.appendingPathComponent(link).path) == target)
        #expect(try Data(contentsOf: folder.appendingPathComponent(target)) == expected, "\(link)")
      }
      let manifest = try await CommandRunner.run(["render", Self.features.path, "--manifest", "manifest.json"], in: folder)
      #expect(manifest.status == 0, "\(manifest.stderr)")
      #expect(try fm.destinationOfSymbolicLink(atPath: folder.appendingPathComponent("manifest.json").path) == "other/m.json")
      #expect(fm.fileExists(atPath: other.appendingPathComponent("m.json").path))
      let leftovers = try fm.contentsOfDirectory(atPath: folder.path) + fm.contentsOfDirectory(atPath: other.path)
      #expect(leftovers.filter { $0.hasSuffix(".tmp") }.isEmpty, "\(leftovers)")
    }
  }

  @Test func aFIFOIsWrittenThrough() async throws {
    try await withFolder { folder in
      let expected = try await fileRender(in: folder)
      let fifo = folder.appendingPathComponent("table-fifo")
      #expect(mkfifo(fifo.path, 0o600) == 0)
      // The reader blocks in open until the writer opens the FIFO, then reads to its end.
      let reader = Task.detached { () -> Data in
        await withCheckedContinuation { continuation in
          Thread { continuation.resume(returning: FileHandle(forReadingAtPath: fifo.path)?.readDataToEndOfFile() ?? Data()) }
            .start()
        }
      }
      let result = try await CommandRunner.run(["render", Self.features.path, "-o", fifo.path])
      // Should rowkit never have opened the FIFO, this open lets a waiting reader finish.
      let unblock = open(fifo.path, O_WRONLY | O_NONBLOCK)
      if unblock >= 0 { close(unblock) }
      let received = await reader.value
      #expect(result.status == 0, "\(result.stderr)")
      #expect(received == expected)
      var info = stat()
      #expect(lstat(fifo.path, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO, "the FIFO was replaced")
    }
  }

  @Test func devStdoutIsWrittenThroughNotReplaced() async throws {
    try await withFolder { folder in
      var before = stat()
      let linked = lstat("/dev/stdout", &before) == 0 && before.st_mode & S_IFMT == S_IFLNK
      let result = try await CommandRunner.run(["render", Self.features.path, "-o", "/dev/stdout"])
      #expect(result.status == 0, "\(result.stderr)")
      #expect(result.stdoutData == (try await fileRender(in: folder)))
      var after = stat()
      #expect(lstat("/dev/stdout", &after) == 0)
      if linked { #expect(after.st_mode & S_IFMT == S_IFLNK, "/dev/stdout is no longer a symbolic link") }
      #expect(try FileManager.default.contentsOfDirectory(atPath: "/dev").filter { $0.hasSuffix(".tmp") }.isEmpty)
    }
  }

  @Test(arguments: ["table.jpg", "table.JPEG", "table.webp", "table.png.txt"])
  func onlyPNGNamesAreWritten(_ name: String) async throws {
    try await withFolder { folder in
      let result = try await CommandRunner.run(["render", Self.features.path, "-o", name], in: folder)
      #expect(result.status == 2)
      #expect(result.stderr.contains("rowkit writes only PNG images"), "\(result.stderr)")
      #expect(result.stderr.split(separator: "\n").count == 1)
      #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }
  }

  /// `script` (util-linux) runs rowkit with a pseudo-terminal as its standard output.
  static let script = URL(fileURLWithPath: "/usr/bin/script")

  @Test(
    .enabled(
      if: FileManager.default.isExecutableFile(atPath: script.path),
      "needs util-linux's script(1) to give rowkit a terminal as standard output"),
    arguments: ["-", "/dev/stdout"])
  func aPNGIsNeverWrittenToATerminal(_ output: String) async throws {
    let command = "'\(CommandRunner.binary.path)' render '\(Self.features.path)' -o \(output)"
    let result = try await CommandRunner.runProgram(Self.script, ["-qec", command, "/dev/null"])
    #expect(result.status == 2, "\(result.stdout)")
    #expect(result.stdout.contains("refusing to write a PNG image to a terminal"), "\(result.stdout)")
    #expect(!result.stdout.contains("PNG\r\n"), "PNG bytes reached the terminal")
  }
}
