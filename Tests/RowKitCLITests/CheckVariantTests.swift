import Foundation
import RowKitGraphics
import RowKitTestSupport
import Testing

/// `rowkit check` with a document's variants (one case and one reference per variant) and
/// with `--lint` (a case with findings fails).
@Suite struct CheckVariantTests {
  @Test func eachVariantIsACaseWithItsOwnReference() async throws {
    let folder = try TestSupport.temporaryDirectory()
    let cases = folder.appendingPathComponent("cases")
    try FileManager.default.createDirectory(at: cases, withIntermediateDirectories: true)
    try "variants: { appearance: [light, dark], direction: [ltr, rtl] }\nitems: [{ type: caption, text: Joe, caption: Name }]\n"
      .write(to: cases.appendingPathComponent("person.yaml"), atomically: true, encoding: .utf8)
    try "items: [{ type: text, text: Plain }]\n".write(
      to: cases.appendingPathComponent("plain.yaml"), atomically: true, encoding: .utf8)
    let refs = folder.appendingPathComponent("refs")

    let first = try await CommandRunner.run(
      ["check", cases.path, "--snapshots", refs.path, "--record", "missing"], environment: ["CI": ""])
    #expect(first.status == 1, "\(first.stdout)\(first.stderr)")
    #expect(first.stdout.contains("5 cases: 0 passed, 0 failed, 5 new"), "\(first.stdout)")
    let names = ["person@light,ltr", "person@light,rtl", "person@dark,ltr", "person@dark,rtl", "plain"]
    for name in names {
      #expect(FileManager.default.fileExists(atPath: refs.appendingPathComponent("\(name).png").path), "\(name)")
    }
    // Each reference is its variant: the dark ones are darker, the rtl ones differ from ltr.
    let light = try PNG.decode(contentsOf: refs.appendingPathComponent("person@light,ltr.png"))
    let rtl = try PNG.decode(contentsOf: refs.appendingPathComponent("person@light,rtl.png"))
    let dark = try PNG.decode(contentsOf: refs.appendingPathComponent("person@dark,ltr.png"))
    #expect(light != rtl && light != dark)
    #expect(dark.pixels[1] < 100 && light.pixels[1] > 200)

    let second = try await CommandRunner.run(["check", cases.path, "--snapshots", refs.path], environment: ["CI": "true"])
    #expect(second.status == 0, "\(second.stdout)\(second.stderr)")
    #expect(second.stdout.contains("5 cases: 5 passed"), "\(second.stdout)")
    #expect(second.stdout.contains("person@dark,rtl"), "\(second.stdout)")

    // The flags replace the document's axis of the same name, as for render, and give
    // variants to a document without any.
    let flagged = try await CommandRunner.run(
      ["check", cases.path, "--snapshots", refs.path, "--variant-appearance", "dark"], environment: ["CI": "true"])
    #expect(flagged.status == 1, "plain@dark has no reference: \(flagged.stdout)")
    #expect(flagged.stdout.contains("3 cases: 2 passed"), "\(flagged.stdout)")
    for name in ["person@dark,ltr", "person@dark,rtl", "plain@dark"] {
      #expect(flagged.stdout.contains(name), "\(name): \(flagged.stdout)")
    }
    #expect(!flagged.stdout.contains("PASSED person@light"), "\(flagged.stdout)")
  }

  @Test func lintFailsACaseWithFindings() async throws {
    let folder = try TestSupport.temporaryDirectory()
    let cases = folder.appendingPathComponent("cases")
    try FileManager.default.createDirectory(at: cases, withIntermediateDirectories: true)
    try "stylesheet: { vars: { tableSubTextColor: \"#777777\" } }\nitems: [{ type: subtext, text: Body, caption: Caption }]\n"
      .write(to: cases.appendingPathComponent("gray.yaml"), atomically: true, encoding: .utf8)
    let refs = folder.appendingPathComponent("refs")
    let record = try await CommandRunner.run(
      ["check", cases.path, "--snapshots", refs.path, "--record", "all"], environment: ["CI": ""])
    #expect(record.status == 1, "\(record.stdout)\(record.stderr)")

    let plain = try await CommandRunner.run(["check", cases.path, "--snapshots", refs.path], environment: ["CI": "true"])
    #expect(plain.status == 0, "\(plain.stdout)\(plain.stderr)")

    let linted = try await CommandRunner.run(
      ["check", cases.path, "--snapshots", refs.path, "--lint", "--report", folder.appendingPathComponent("report").path],
      environment: ["CI": "true"])
    #expect(linted.status == 1)
    #expect(linted.stdout.contains("FAILED gray: 1 lint finding:"), "\(linted.stdout)")
    #expect(linted.stdout.contains("contrast [caption]: text #777777 on #FFFFFF is 4.48:1"), "\(linted.stdout)")
    let report = try JSONSerialization.jsonObject(
      with: Data(contentsOf: folder.appendingPathComponent("report/report.json"))) as! [String: Any]
    let result = (report["cases"] as! [[String: Any]])[0]
    #expect(result["status"] as? String == "failed")
    #expect((result["findings"] as? [String])?.count == 1)

    let off = try await CommandRunner.run(
      ["check", cases.path, "--snapshots", refs.path, "--lint", "--lint-off", "contrast"], environment: ["CI": "true"])
    #expect(off.status == 0, "\(off.stdout)")
  }
}
