import Foundation
import RowKitTestSupport
import Testing

/// Issue 24, item 8: a failed render writes none of its outputs. Every output is staged
/// beside its target and put in place together, standard output and devices last; when any
/// of it fails, the files already in place are put back as they were. And item 17 (f): an
/// output in a missing folder gets one clear message, whichever flag names it.
@Suite struct AtomicOutputTests {
  static let features = TestSupport.assets.appendingPathComponent("Samples/features.yaml").path

  /// A folder of the test's own, removed by `body`'s end.
  func withFolder(_ name: String = #function, _ body: (URL) async throws -> Void) async throws {
    let folder = try TestSupport.temporaryDirectory(name)
    defer { try? FileManager.default.removeItem(at: folder) }
    try await body(folder)
  }

  /// Every file under `folder`, with its contents, so that a test can see nothing changed.
  func snapshot(of folder: URL) throws -> [String: Data] {
    var files: [String: Data] = [:]
    let enumerator = FileManager.default.enumerator(atPath: folder.path)
    while let path = enumerator?.nextObject() as? String {
      let url = folder.appendingPathComponent(path)
      var isFolder: ObjCBool = false
      let exists = FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder)
      files[path] = !exists || isFolder.boolValue ? Data() : try Data(contentsOf: url)
    }
    return files
  }

  /// The example: `-o out.png --manifest /dev/full` left `out.png`.
  @Test func aFailedManifestLeavesNoPNG() async throws {
    try await withFolder { folder in
      let result = try await CommandRunner.run(
        ["render", Self.features, "-o", "out.png", "--rows-dir", "rows", "--manifest", "/dev/full"], in: folder)
      #expect(result.status == 2)
      #expect(result.stderr.hasSuffix("rowkit: error: cannot write /dev/full: No space left on device\n"), "\(result.stderr)")
      #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }
  }

  @Test func aFailedRenderPutsBackWhatItReplaced() async throws {
    try await withFolder { folder in
      let rows = folder.appendingPathComponent("rows")
      try FileManager.default.createDirectory(at: rows, withIntermediateDirectories: true)
      try Data("old table".utf8).write(to: folder.appendingPathComponent("out.png"))
      try Data("old row".utf8).write(to: rows.appendingPathComponent("s0-r0.png"))
      try Data("the user's".utf8).write(to: rows.appendingPathComponent("notes.txt"))
      try FileManager.default.createSymbolicLink(
        atPath: folder.appendingPathComponent("link.json").path, withDestinationPath: "target.json")
      try Data("old manifest".utf8).write(to: folder.appendingPathComponent("target.json"))
      let before = try snapshot(of: folder)
      let result = try await CommandRunner.run(
        ["render", Self.features, "-o", "out.png", "--rows-dir", "rows", "--manifest", "link.json", "--variants-sheet", "/dev/full",
         "--variant-appearance", "light,dark"],
        in: folder)
      #expect(result.status == 2, "\(result.stderr)")
      #expect(try snapshot(of: folder) == before, "no .tmp or .old file stays, and every file is as it was")

      // The same outputs without variants, and standard output that fails last.
      let piped = try await Redirection.outputFull.run(
        ["render", Self.features, "-o", "out.png", "--rows-dir", "rows", "--manifest", "-"], in: folder)
      #expect(piped.status == 2, "\(piped.stderr)")
      #expect(piped.stderr.contains("cannot write to standard output: No space left on device"), "\(piped.stderr)")
      #expect(try snapshot(of: folder) == before)

      // And nothing in the way: everything is written, the user's file stays.
      let written = try await CommandRunner.run(
        ["render", Self.features, "-o", "out.png", "--rows-dir", "rows", "--manifest", "link.json"], in: folder)
      #expect(written.status == 0, "\(written.stderr)")
      #expect(try Data(contentsOf: folder.appendingPathComponent("out.png")).prefix(4) == Data([0x89, 0x50, 0x4E, 0x47]))
      #expect(try Data(contentsOf: rows.appendingPathComponent("notes.txt")) == Data("the user's".utf8))
      #expect(try FileManager.default.destinationOfSymbolicLink(atPath: folder.appendingPathComponent("link.json").path) == "target.json")
      #expect(try Data(contentsOf: folder.appendingPathComponent("target.json")).first == UInt8(ascii: "{"))
    }
  }

  /// A folder made for `--rows-dir` (and its parents) goes again when the render fails.
  @Test func foldersMadeForAFailedRenderAreRemoved() async throws {
    try await withFolder { folder in
      let result = try await CommandRunner.run(
        ["render", Self.features, "--rows-dir", "new/deeper/rows", "--variants-sheet", "/dev/full", "--variant-appearance", "light,dark"],
        in: folder)
      #expect(result.status == 2)
      #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }
  }

  /// A variant's name cannot go into a device's: each variant needs a file of its own.
  @Test func variantsRefuseADeviceOutput() async throws {
    try await withFolder { folder in
      for arguments in [["--manifest", "/dev/null"], ["-o", "/dev/stdout"], ["-o", "-"]] {
        let result = try await CommandRunner.run(
          ["render", Self.features, "--variant-appearance", "light,dark"] + arguments, in: folder)
        #expect(result.status == 2, "\(arguments)")
        #expect(result.stderr.contains("variants write one file per variant: \(arguments[0]) must name a file"), "\(result.stderr)")
      }
      #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
      #expect(!FileManager.default.fileExists(atPath: "/dev/null@light"))
    }
  }

  /// Item 17 (f): `--manifest` and `diff -o` into a missing folder gave Foundation's raw
  /// message while `-o` gave a clear one.
  @Test func everyOutputInAMissingFolderGetsOneMessage() async throws {
    try await withFolder { folder in
      let png = folder.appendingPathComponent("a.png").path
      let made = try await CommandRunner.run(["render", Self.features, "-o", png])
      #expect(made.status == 0, "\(made.stderr)")
      let missing = folder.appendingPathComponent("missing")
      let target = missing.appendingPathComponent("out.png").path
      let json = missing.appendingPathComponent("out.json").path
      for (arguments, path) in [
        (["render", Self.features, "-o", target], target),
        (["render", Self.features, "--manifest", json], json),
        (["render", Self.features, "-o", png + ".png", "--manifest", json], json),
        (["render", Self.features, "--variants-sheet", target, "--variant-appearance", "light,dark"], target),
        (["render", Self.features, "--manifest", json, "--variant-appearance", "light,dark"],
         missing.appendingPathComponent("out@light.json").path),
        (["catalog", "-o", target], target),
        (["catalog", "-o", png + ".png", "--manifest", json], json),
        (["diff", png, png, "-o", target], target),
        (["diff", png, png, "--composite", target], target),
      ] {
        let result = try await CommandRunner.run(arguments)
        #expect(result.status == 2, "\(arguments): \(result.stderr)")
        #expect(
          result.stderr.hasSuffix("rowkit: error: cannot write \(path): the folder \(missing.path) does not exist\n"),
          "\(arguments): \(result.stderr)")
      }
      #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["a.png"])
    }
  }
}
