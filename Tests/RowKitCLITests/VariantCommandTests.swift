import Foundation
import RowKitGraphics
import RowKitTestSupport
import Testing

/// `rowkit render` with variants, and `rowkit lint`, run as a user runs them.
@Suite struct VariantCommandTests {
  func write(_ yaml: String, in folder: URL, name: String = "table.yaml") throws -> String {
    let url = folder.appendingPathComponent(name)
    try yaml.write(to: url, atomically: true, encoding: .utf8)
    return url.path
  }

  @Test func renderWritesOneTableAndManifestPerVariant() async throws {
    let out = try TestSupport.temporaryDirectory()
    let document = try write(
      "variants: { appearance: [light, dark] }\nitems: [{ type: subtitle, text: Video, subtitle: Shoot }]\n", in: out)
    let result = try await CommandRunner.run([
      "render", document, "-o", out.appendingPathComponent("t.png").path, "--manifest", out.appendingPathComponent("t.json").path,
      "--rows-dir", out.appendingPathComponent("rows").path, "--variant-text-size", "large,AX5",
    ])
    #expect(result.status == 0, "\(result.stderr)")
    for name in ["light,large", "light,AX5", "dark,large", "dark,AX5"] {
      let manifestData = try Data(contentsOf: out.appendingPathComponent("t@\(name).json"))
      let manifest = try JSONSerialization.jsonObject(with: manifestData) as! [String: Any]
      #expect(manifest["variant"] as? String == name)
      let table = try PNG.decode(contentsOf: out.appendingPathComponent("t@\(name).png"))
      #expect(Double(table.height) == (manifest["height"] as! Double) * 2)
      let row = try PNG.decode(contentsOf: out.appendingPathComponent("rows/\(name)/s0-r0.png"))
      let rows = manifest["rows"] as! [[String: Any]]
      #expect(Double(row.height) == (rows[0]["height"] as! Double) * 2)
    }
    #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("t.png").path))
  }

  @Test func badVariantFlagsAreUsageErrors() async throws {
    let out = try TestSupport.temporaryDirectory()
    let document = try write("items: [{ type: text, text: Hi }]\n", in: out)
    let png = out.appendingPathComponent("t.png").path
    let unknown = try await CommandRunner.run(["render", document, "-o", png, "--variant-text-size", "huge"])
    #expect(unknown.status == 2)
    #expect(unknown.stderr.contains("--variant-text-size: 'huge' is not one of xSmall"), "\(unknown.stderr)")
    let toStdout = try await CommandRunner.run(["render", document, "-o", "-", "--variant-appearance", "light,dark"])
    #expect(toStdout.status == 2)
    let wide = try await CommandRunner.run(["render", document, "-o", png, "--scale", "4", "--variant-width", "320,4000"])
    #expect(wide.status == 2)
    #expect(wide.stderr.contains("width × scale is 16000 pixels"), "\(wide.stderr)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: out.path) == ["table.yaml"])
  }

  @Test func lintExitsZeroOneOrTwo() async throws {
    let out = try TestSupport.temporaryDirectory()
    let clean = try write("items: [{ type: text, text: Hi }]\n", in: out, name: "clean.yaml")
    let gray = try write(
      "stylesheet: { vars: { tableSubTextColor: \"#777777\" } }\nitems: [{ type: subtext, text: Body, caption: Caption }]\n",
      in: out, name: "gray.yaml")
    let bad = try write("items: [{ type: text, txt: Hi }]\n", in: out, name: "bad.yaml")

    let ok = try await CommandRunner.run(["lint", clean])
    #expect(ok.status == 0, "\(ok.stderr)")
    #expect(ok.stdout.contains("0 findings in 1 document"))

    let found = try await CommandRunner.run(["lint", clean, gray, "--variant-appearance", "light,dark"])
    #expect(found.status == 1)
    #expect(found.stdout.contains("gray.yaml@light: s0-r0 (subtext) contrast [caption]: text #777777 on #FFFFFF is 4.48:1"),
      "\(found.stdout)")
    #expect(found.stdout.contains("1 finding in 2 documents (4 tables with their variants)"), "\(found.stdout)")

    let off = try await CommandRunner.run(["lint", gray, "--lint-off", "contrast"])
    #expect(off.status == 0)
    // A misspelled rule is refused by every command that takes the flag, linting or not.
    for command in [["lint", gray], ["render", gray, "-o", "-"]] {
      let misspelled = try await CommandRunner.run(command + ["--lint-off", "contrst"])
      #expect(misspelled.status == 2 && misspelled.stderr.contains("--lint-off: 'contrst' is not a lint rule"), "\(command): \(misspelled.stderr)")
    }

    let json = try await CommandRunner.run(["lint", gray, "--json"])
    #expect(json.status == 1)
    let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as! [String: Any]
    #expect(object["findings"] as? Int == 1)
    let reports = object["reports"] as! [[String: Any]]
    let finding = ((reports[0]["rows"] as! [[String: Any]])[0]["findings"] as! [[String: Any]])[0]
    #expect(finding["rule"] as? String == "contrast")
    #expect(finding["label"] as? String == "caption")

    let refused = try await CommandRunner.run(["lint", clean, bad])
    #expect(refused.status == 2)
    #expect(refused.stderr.contains("bad.yaml:1:") && refused.stderr.contains("unknown key 'txt'"), "\(refused.stderr)")
    #expect(refused.stdout.isEmpty)
  }

  @Test func renderLintPutsFindingsInTheManifest() async throws {
    let out = try TestSupport.temporaryDirectory()
    let document = try write("table: { rowHeight: 30 }\nitems: [{ type: text, text: Go, url: \"app://go\" }]\n", in: out)
    let manifest = out.appendingPathComponent("t.json")
    let result = try await CommandRunner.run(["render", document, "--manifest", manifest.path, "--lint"])
    #expect(result.status == 0, "\(result.stderr)")
    let object = try JSONSerialization.jsonObject(with: Data(contentsOf: manifest)) as! [String: Any]
    let findings = (object["rows"] as! [[String: Any]])[0]["findings"] as! [[String: Any]]
    #expect(findings.map { $0["rule"] as? String } == ["tapTarget"])
  }

  @Test func renderWritesOneFilePerDirection() async throws {
    let out = try TestSupport.temporaryDirectory()
    let document = try write("variants: { direction: [ltr, rtl] }\nitems: [{ type: caption, text: Joe, caption: Name, url: \"app://x\" }]\n", in: out)
    let result = try await CommandRunner.run([
      "render", document, "-o", out.appendingPathComponent("t.png").path, "--manifest", out.appendingPathComponent("t.json").path,
    ])
    #expect(result.status == 0, "\(result.stderr)")
    let ltr = try PNG.decode(contentsOf: out.appendingPathComponent("t@ltr.png"))
    let rtl = try PNG.decode(contentsOf: out.appendingPathComponent("t@rtl.png"))
    #expect(ltr.width == rtl.width && ltr.height == rtl.height)
    #expect(ltr != rtl)
    let manifest = try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("t@rtl.json"))) as! [String: Any]
    #expect(manifest["variant"] as? String == "rtl")
    let flag = try await CommandRunner.run([
      "render", document, "-o", out.appendingPathComponent("f.png").path, "--variant-direction", "rtl",
    ])
    #expect(flag.status == 0, "\(flag.stderr)")
    #expect(try PNG.decode(contentsOf: out.appendingPathComponent("f@rtl.png")) == rtl)
    #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("f@ltr.png").path))
    let bad = try await CommandRunner.run(["render", document, "-o", out.appendingPathComponent("b.png").path, "--variant-direction", "up"])
    #expect(bad.status == 2)
    #expect(bad.stderr.contains("--variant-direction: 'up' is not one of ltr, rtl"), "\(bad.stderr)")
  }

  /// `--variants-sheet`: one PNG, a column per variant side by side (16 pixels apart), each
  /// a band naming the variant above the variant's own table image.
  @Test func variantsSheetPutsEveryVariantSideBySide() async throws {
    let out = try TestSupport.temporaryDirectory()
    let document = try write(
      "variants: { width: [320, 375], direction: [ltr, rtl] }\nitems: [{ type: subtitle, text: Video, subtitle: Shoot, url: \"app://v\" }]\n",
      in: out)
    let sheetURL = out.appendingPathComponent("sheet.png")
    let result = try await CommandRunner.run([
      "render", document, "--variants-sheet", sheetURL.path, "-o", out.appendingPathComponent("t.png").path,
    ])
    #expect(result.status == 0, "\(result.stderr)")
    let sheet = try PNG.decode(contentsOf: sheetURL)
    let names = ["320pt,ltr", "320pt,rtl", "375pt,ltr", "375pt,rtl"]
    let tables = try names.map { try PNG.decode(contentsOf: out.appendingPathComponent("t@\($0).png")) }
    #expect(sheet.width == tables.map(\.width).reduce(0, +) + 3 * 16)
    let title = sheet.height - tables[0].height
    #expect(title >= 22 * 2)
    // Each column's lower part is its variant's table, pixel for pixel.
    var left = 0
    for table in tables {
      for y in [0, table.height / 2, table.height - 1] {
        let sheetRow = ((title + y) * sheet.width + left) * 4
        let tableRow = y * table.width * 4
        #expect(Array(sheet.pixels[sheetRow..<sheetRow + table.width * 4]) == Array(table.pixels[tableRow..<tableRow + table.width * 4]))
      }
      left += table.width + 16
    }

    let plain = try write("items: [{ type: text, text: Hi }]\n", in: out, name: "plain.yaml")
    let none = try await CommandRunner.run(["render", plain, "--variants-sheet", out.appendingPathComponent("none.png").path])
    #expect(none.status == 2)
    #expect(none.stderr.contains("names no variants"), "\(none.stderr)")
    #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("none.png").path))
  }
}
