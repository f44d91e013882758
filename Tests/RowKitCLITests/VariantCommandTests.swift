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
}
