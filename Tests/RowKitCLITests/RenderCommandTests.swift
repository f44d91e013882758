import Foundation
import RowKitGraphics
import RowKitTestSupport
import Testing

/// `rowkit render`, `measure` and `catalog`, run as a user runs them: the built binary.
@Suite struct RenderCommandTests {
  let sample = TestSupport.assets.appendingPathComponent("Samples/features.yaml").path

  @Test func rendersTheSampleTableRowsAndManifest() async throws {
    let out = try TestSupport.temporaryDirectory()
    let result = try await CommandRunner.run([
      "render", sample, "-o", out.appendingPathComponent("table.png").path,
      "--rows-dir", out.appendingPathComponent("rows").path, "--manifest", out.appendingPathComponent("table.json").path,
    ])
    #expect(result.status == 0, "\(result.stderr)")
    // The sample's one deliberately missing image is said, not drawn over in silence.
    #expect(
      result.stderr == "rowkit: warning: \(sample): row 1 (s1-r1): image bundle://images/missing.png failed "
        + "(no readable file at \(TestSupport.assets.appendingPathComponent("images/missing.png").path)), its default is shown\n")
    let table = try PNG.decode(contentsOf: out.appendingPathComponent("table.png"))
    let manifest = try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("table.json"))) as! [String: Any]
    let scale = manifest["scale"] as! Double
    #expect(Double(table.width) == (manifest["width"] as! Double) * scale)
    #expect(Double(table.height) == (manifest["height"] as! Double) * scale)
    let rows = manifest["rows"] as! [[String: Any]]
    #expect(rows.count == 11)
    for row in rows {
      let file = try #require(row["file"] as? String)
      let image = try PNG.decode(contentsOf: out.appendingPathComponent("rows").appendingPathComponent(file))
      #expect(Double(image.height) == (row["height"] as! Double) * scale, "\(file)")
      #expect(file == "s\(row["section"]!)-r\(row["row"]!).png")
    }
    let first = rows[0]
    #expect(first["type"] as? String == "subtitle")
    #expect(first["cell"] as? String == "SubtitleCell")
    #expect(first["accessory"] as? String == "disclosure")
    let images = try #require(first["images"] as? [[String: Any]])
    #expect(images.first?["state"] as? String == "loaded")
    let missing = rows.first { ($0["images"] as? [[String: Any]])?.first?["url"] as? String == "bundle://images/missing.png" }
    #expect((missing?["images"] as? [[String: Any]])?.first?["state"] as? String == "failed")
  }

  /// A misspelled output flag is named as such, not hidden behind "nothing to write".
  /// What the binary loads at start: no test framework (the snapshot assertions live in a
  /// target of their own), no network stack (libcurl is loaded at the first download) and no
  /// OpenSSL (libcrypto is loaded at the first large hash).
  /// Two outputs naming one file, or an output naming a file the render reads (through a
  /// link too), are refused before anything is written: `--manifest` used to replace the
  /// very document it described, and `-o` and `--manifest` on one file left one of them.
  @Test func anOutputNeverReplacesAnotherOutputOrAnInput() async throws {
    let folder = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let document = folder.appendingPathComponent("t.yaml")
    let text = "sections:\n  - items:\n      - { type: text, text: hi }\n"
    try Data(text.utf8).write(to: document)
    let link = folder.appendingPathComponent("link.json")
    try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "t.yaml")
    let same = folder.appendingPathComponent("same.png").path
    let rows = folder.appendingPathComponent("rows").path
    try FileManager.default.createDirectory(atPath: rows, withIntermediateDirectories: false)
    for (arguments, refusal) in [
      (["-o", same, "--manifest", same], "cannot write \(same) for --manifest: it is the file of -o"),
      (["-o", folder.appendingPathComponent("t.png").path, "--manifest", document.path],
       "cannot write \(document.path) for --manifest: it is t.yaml, which this command reads"),
      (["--manifest", link.path], "cannot write \(link.path) for --manifest: it is t.yaml, which this command reads"),
      // The row files would take the table's place, or the manifest's.
      (["-o", rows + "/s0-r0.png", "--rows-dir", rows],
       "cannot write \(rows)/s0-r0.png for -o: it is the name of a row file of --rows-dir \(rows)"),
      (["--rows-dir", rows, "--manifest", rows + "/s12-r3.png"],
       "cannot write \(rows)/s12-r3.png for --manifest: it is the name of a row file of --rows-dir \(rows)"),
    ] {
      let result = try await CommandRunner.run(["render", document.path] + arguments)
      #expect(result.status == 2, "\(arguments)")
      #expect(result.stderr == "rowkit: error: \(refusal); nothing is written\n")
      #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["link.json", "rows", "t.yaml"])
      #expect(try FileManager.default.contentsOfDirectory(atPath: rows).isEmpty)
      #expect(try String(contentsOf: document, encoding: .utf8) == text)
    }
    // Any other name in the rows' folder is the user's to choose.
    let beside = try await CommandRunner.run(["render", document.path, "-o", rows + "/table.png", "--rows-dir", rows, "--manifest", rows + "/s0-r0.json"])
    #expect(beside.status == 0, "\(beside.stderr)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: rows).sorted() == ["s0-r0.json", "s0-r0.png", "table.png"])
  }

  @Test func theBinaryLinksNeitherTestFrameworksNorTheNetworkStack() async throws {
    let result = try await CommandRunner.runProgram(URL(fileURLWithPath: "/usr/bin/ldd"), [CommandRunner.binary.path])
    #expect(result.status == 0, "\(result.stderr)")
    let libraries = result.stdout.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
    #expect(libraries.contains { $0.hasPrefix("libcairo.so") }, "ldd listed no Cairo: \(result.stdout)")
    for unwanted in ["libXCTest", "libTesting", "libFoundationNetworking", "libcurl", "libssl", "libcrypto"] {
      #expect(!libraries.contains { $0.hasPrefix(unwanted) }, "rowkit links \(unwanted)")
    }
  }

  @Test func anUnknownOptionIsNamedBeforeNothingToWrite() async throws {
    let out = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: out) }
    let png = out.appendingPathComponent("x.png").path
    let misspelled = try await CommandRunner.run(["render", sample, "--out", png])
    #expect(misspelled.status == 2)
    #expect(misspelled.stderr.hasPrefix("rowkit: error: Unknown option '--out'"), "\(misspelled.stderr)")
    #expect(!FileManager.default.fileExists(atPath: png))
    let nothing = try await CommandRunner.run(["render", sample])
    #expect(nothing.status == 2)
    #expect(nothing.stderr == "rowkit: error: nothing to write: give -o, --rows-dir, --manifest or --variants-sheet\n")
  }

  @Test func renderingTwiceWritesIdenticalBytes() async throws {
    let out = try TestSupport.temporaryDirectory()
    for name in ["a", "b"] {
      let result = try await CommandRunner.run([
        "render", sample, "-o", out.appendingPathComponent("\(name).png").path,
        "--manifest", out.appendingPathComponent("\(name).json").path,
      ])
      #expect(result.status == 0)
    }
    #expect(try Data(contentsOf: out.appendingPathComponent("a.png")) == Data(contentsOf: out.appendingPathComponent("b.png")))
    #expect(try Data(contentsOf: out.appendingPathComponent("a.json")) == Data(contentsOf: out.appendingPathComponent("b.json")))
  }

  @Test func flagsOverrideTheDocument() async throws {
    let out = try TestSupport.temporaryDirectory()
    let png = out.appendingPathComponent("narrow.png")
    let result = try await CommandRunner.run(["render", sample, "-o", png.path, "--width", "320", "--scale", "1", "--style", "plain"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(try PNG.decode(contentsOf: png).width == 320)
  }

  @Test func placeholdersKeepGeometryAndReportDefaultImages() async throws {
    let out = try TestSupport.temporaryDirectory()
    let complete = try await CommandRunner.run(["measure", sample])
    let result = try await CommandRunner.run(["render", sample, "--placeholders", "--manifest", out.appendingPathComponent("m.json").path])
    #expect(result.status == 0)
    let manifest = try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("m.json"))) as! [String: Any]
    let measured = try JSONSerialization.jsonObject(with: Data(complete.stdout.utf8)) as! [String: Any]
    let rows = manifest["rows"] as! [[String: Any]]
    #expect(rows.map { $0["height"] as! Double } == (measured["rows"] as! [[String: Any]]).map { $0["height"] as! Double })
    let states = rows.flatMap { ($0["images"] as! [[String: Any]]).map { $0["state"] as! String } }
    #expect(!states.isEmpty && states.allSatisfy { $0 == "default" })
  }

  @Test func measurePrintsPositionsWithoutImageStates() async throws {
    let result = try await CommandRunner.run(["measure", sample])
    #expect(result.status == 0)
    let json = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as! [String: Any]
    let rows = json["rows"] as! [[String: Any]]
    var y = -1.0
    for row in rows {
      let rowY = row["y"] as! Double
      #expect(rowY > y)
      y = rowY
      #expect(row["section"] != nil && row["row"] != nil && row["height"] != nil)
      for image in row["images"] as! [[String: Any]] { #expect(image["state"] == nil) }
    }
    #expect((json["sections"] as! [[String: Any]]).count == 4)
  }

  @Test(arguments: ["plain", "grouped"])
  func catalogDrawsEveryBuiltInType(style: String) async throws {
    let out = try TestSupport.temporaryDirectory()
    let result = try await CommandRunner.run([
      "catalog", "-o", out.appendingPathComponent("catalog.png").path, "--style", style,
      "--manifest", out.appendingPathComponent("catalog.json").path,
    ])
    #expect(result.status == 0, "\(result.stderr)")
    let manifest = try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("catalog.json"))) as! [String: Any]
    let types = Set((manifest["rows"] as! [[String: Any]]).map { $0["type"] as! String })
    #expect(types == [
      "text", "link", "button", "longText", "grayText", "summary", "caption", "rightCaption", "subtext", "settings",
      "subtitle", "moreButton", "message", "image", "rightImage", "styledText", "activity", "control", "checkmark",
    ])
    let reference = try PNG.decode(contentsOf: TestSupport.snapshots.appendingPathComponent("Catalog/\(style).png"))
    #expect(try PNG.decode(contentsOf: out.appendingPathComponent("catalog.png")) == reference)
  }

  @Test(arguments: ["render", "measure", "catalog"])
  func helpShowsAnExample(command: String) async throws {
    let result = try await CommandRunner.run([command, "--help"])
    #expect(result.status == 0)
    #expect(result.stdout.contains("Example:"))
    #expect(result.stdout.contains("rowkit \(command)"))
  }

  @Test func jsonDocumentsWork() async throws {
    let out = try TestSupport.temporaryDirectory()
    let json = out.appendingPathComponent("table.json")
    try Data(#"{"table": {"width": 320}, "items": [{"type": "text", "text": "From JSON"}]}"#.utf8).write(to: json)
    let result = try await CommandRunner.run(["measure", json.path])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.contains("\"width\" : 320"))
  }
}

@Suite struct OutputFileTests {
  @Test func renderingReplacesExistingOutputs() async throws {
    let out = try TestSupport.temporaryDirectory()
    let png = out.appendingPathComponent("table.png")
    try Data("old".utf8).write(to: png)
    let sample = TestSupport.assets.appendingPathComponent("Samples/features.yaml").path
    for _ in 0..<2 {
      let result = try await CommandRunner.run(["render", sample, "-o", png.path, "--rows-dir", out.appendingPathComponent("rows").path])
      #expect(result.status == 0, "\(result.stderr)")
    }
    #expect(try PNG.decode(contentsOf: png).width == 750)
    #expect(try FileManager.default.contentsOfDirectory(atPath: out.path).filter { $0.hasSuffix(".tmp") }.isEmpty)
  }
}
