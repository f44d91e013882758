import Foundation
import RowKitGraphics
import RowKitTestSupport
import Testing

/// The `locale` axis from the command line: `--variant-locale` and a document's `locale:`,
/// one file and one reference per pseudo-locale, named like the other axes.
@Suite struct LocaleCommandTests {
  @Test func renderWritesOneFilePerLocale() async throws {
    let folder = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let document = folder.appendingPathComponent("table.yaml")
    try "items: [{ type: caption, text: Joe, caption: Name, url: \"app://x\" }]\n".write(
      to: document, atomically: true, encoding: .utf8)
    let result = try await CommandRunner.run([
      "render", document.path, "-o", folder.appendingPathComponent("t.png").path,
      "--manifest", folder.appendingPathComponent("t.json").path,
      "--variant-locale", "en-XA,ar-XB", "--variant-text-size", "AX3",
    ])
    #expect(result.status == 0, "\(result.stderr)")
    let accented = try PNG.decode(contentsOf: folder.appendingPathComponent("t@en-XA,AX3.png"))
    let bidi = try PNG.decode(contentsOf: folder.appendingPathComponent("t@ar-XB,AX3.png"))
    #expect(accented != bidi)
    let manifest = try JSONSerialization.jsonObject(
      with: Data(contentsOf: folder.appendingPathComponent("t@en-XA,AX3.json"))) as! [String: Any]
    #expect(manifest["variant"] as? String == "en-XA,AX3")

    let bad = try await CommandRunner.run([
      "render", document.path, "-o", folder.appendingPathComponent("b.png").path, "--variant-locale", "en-XA,fr",
    ])
    #expect(bad.status == 2)
    #expect(bad.stderr.contains("--variant-locale: 'fr' is not one of en, en-XA, ar-XB"), "\(bad.stderr)")
    #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("b@en-XA.png").path))
  }

  @Test func checkKeepsAReferencePerLocale() async throws {
    let folder = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let cases = folder.appendingPathComponent("cases")
    try FileManager.default.createDirectory(at: cases, withIntermediateDirectories: true)
    try "variants: { locale: [en-XA, ar-XB], textSize: [large, AX3] }\nitems: [{ type: caption, text: Joe, caption: Name }]\n"
      .write(to: cases.appendingPathComponent("person.yaml"), atomically: true, encoding: .utf8)
    let refs = folder.appendingPathComponent("refs")
    let first = try await CommandRunner.run(
      ["check", cases.path, "--snapshots", refs.path, "--record", "missing"], environment: ["CI": ""])
    #expect(first.stdout.contains("4 cases: 0 passed, 0 failed, 4 new"), "\(first.stdout)\(first.stderr)")
    for name in ["person@en-XA,large", "person@en-XA,AX3", "person@ar-XB,large", "person@ar-XB,AX3"] {
      #expect(FileManager.default.fileExists(atPath: refs.appendingPathComponent("\(name).png").path), "\(name)")
    }
    let second = try await CommandRunner.run(["check", cases.path, "--snapshots", refs.path], environment: ["CI": "true"])
    #expect(second.status == 0, "\(second.stdout)\(second.stderr)")
    #expect(second.stdout.contains("4 cases: 4 passed"), "\(second.stdout)")
  }
}
