import Foundation
import RowKitGraphics
import RowKitSnapshot
import RowKitTestSupport
import Testing

/// The review tools: the HTML report opened in a real browser, watch mode, and the designs
/// contact sheet.
@Suite(.serialized) struct ReviewTests {
  /// A copy of `Assets/` to change freely.
  func assetsCopy() throws -> URL {
    let folder = try TestSupport.temporaryDirectory()
    try FileManager.default.copyItem(at: TestSupport.assets, to: folder.appendingPathComponent("Assets"))
    return folder
  }

  /// Debian's Chromium, headless, as root needs it: what it prints on stdout.
  func chromium(_ arguments: [String]) async throws -> String {
    let candidates = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"]
    guard let binary = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
      Issue.record("no Chromium: scripts/setup.sh installs Debian's chromium")
      return ""
    }
    let result = try await CommandRunner.runProgram(
      URL(fileURLWithPath: binary), ["--headless", "--no-sandbox", "--disable-gpu", "--virtual-time-budget=5000"] + arguments)
    return result.stdout
  }

  @Test func theReportShowsAFailingCaseInChromium() async throws {
    let folder = try assetsCopy()
    #expect(try await CommandRunner.run(["check", "Assets/Samples", "--snapshots", "refs"], in: folder, environment: ["CI": ""]).status == 1)
    let people = folder.appendingPathComponent("Assets/Samples/people.yaml")
    try String(contentsOf: people, encoding: .utf8).replacingOccurrences(of: "Joe Hewitt", with: "Joseph Hewitt")
      .write(to: people, atomically: true, encoding: .utf8)
    let result = try await CommandRunner.run(
      ["check", "Assets/Samples", "--snapshots", "refs", "--report", "report"], in: folder, environment: ["CI": "true"])
    #expect(result.status == 1)
    let page = folder.appendingPathComponent("report/index.html")
    #expect(FileManager.default.fileExists(atPath: page.path))

    // Opened from disk, with no server: the summary, and the failing case first.
    let dom = try await chromium(["--dump-dom", page.absoluteString])
    #expect(dom.contains(#"data-total="7" data-failed="1""#))
    #expect(dom.contains(#"data-passed="6""#))
    // The failing case's own element, up to where the next case begins.
    let failing = try #require(dom.range(of: #"data-name="people" data-status="failed""#))
    let rest = dom[failing.upperBound...]
    let section = String(rest[..<(rest.range(of: "data-name=")?.lowerBound ?? rest.endIndex)])
    for role in ["reference", "diff", "actual"] {
      #expect(section.contains(#"data-role="\#(role)" loading="eager" data-loaded="true""#), "the \(role) image loaded")
    }
    #expect(section.range(of: #"\d+ of 308250 pixels differ"#, options: .regularExpression) != nil, "the exact count: \(section.prefix(2000))")
    // What changed, in a sentence, and the changed label outlined on both images.
    #expect(section.contains(#"<li data-change="0" data-property="text">s0-r0 name text "Joe Hewitt" → "Joseph Hewitt"</li>"#), "\(section.prefix(3000))")
    for role in ["reference", "actual"] {
      let figure = try #require(section.range(of: #"<figure class="\#(role)">"#))
      #expect(section[figure.upperBound...].prefix(600).contains(#"<i class="box" data-change="0""#), "the \(role) image outlines the label")
    }

    // The views switch, by address and by keys.
    let slider = try await chromium(["--dump-dom", page.absoluteString + "#case=people&view=slider"])
    #expect(slider.contains(#"data-name="people" data-status="failed" data-view="slider""#))
    #expect(slider.contains(#"<div class="view slider">"#), "the slider view is shown")
    let selftest = try await chromium(["--dump-dom", page.absoluteString + "#selftest"])
    let log = try #require(selftest.range(of: #"<pre id="selftest">"#)).upperBound
    let lines = selftest[log...].prefix { $0 != "<" }.split(separator: "\n").map(String.init)
    #expect(lines == ["start people", "j features", "k people", "2 slider", "3 blink", "b reference", "1 side", "auto blinks"])

    // A screenshot draws the page.
    let shot = folder.appendingPathComponent("report.png")
    _ = try await chromium(["--window-size=1200,900", "--screenshot=\(shot.path)", page.absoluteString])
    let image = try PNG.decode(contentsOf: shot)
    #expect(image.width == 1200 && image.height == 900)
  }

  /// Issue 26: a change made in several cases is one group with one accept command, and each
  /// case tells its change and outlines it; the group's link goes to the case.
  @Test func sharedChangesAreGroupedWithOneAcceptCommand() async throws {
    let folder = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let tables = folder.appendingPathComponent("tables")
    try FileManager.default.createDirectory(at: tables, withIntermediateDirectories: true)
    func write(_ first: String) throws {
      for (name, second) in [("home", "Bluetooth"), ("work", "Cellular"), ("other", "Battery")] {
        let text = first == "WLAN" && name == "other" ? "Wi-Fi" : first
        // work changes its second row too: the group names it, since accepting the group
        // accepts that change as well.
        let second = first == "WLAN" && name == "work" ? "Cellular data" : second
        try Data("table: { width: 320 }\nitems:\n  - { type: text, text: \(text) }\n  - { type: text, text: \(second) }\n".utf8)
          .write(to: tables.appendingPathComponent("\(name).yaml"))
      }
    }
    try write("Wi-Fi")
    #expect(try await CommandRunner.run(["check", "tables", "--snapshots", "refs"], in: folder, environment: ["CI": ""]).status == 1)
    try write("WLAN")
    let result = try await CommandRunner.run(
      ["check", "tables", "--snapshots", "refs", "--report", "report"], in: folder, environment: ["CI": "true"])
    #expect(result.status == 1)
    let dom = try await chromium(["--dump-dom", folder.appendingPathComponent("report/index.html").absoluteString + "#case=work"])
    let groups = try #require(dom.range(of: #"<ul class="groups" id="groups">"#))
    let list = String(dom[groups.upperBound...].prefix(1500))
    #expect(list.contains(#"<strong>2 cases</strong> text "Wi-Fi" → "WLAN""#), "\(list)")
    #expect(list.contains(##"<a href="#case=home">home</a>, <a href="#case=work">work</a>"##), "\(list)")
    #expect(list.contains("work changes in other ways too; accepting the group accepts those changes as well"), "\(list)")
    #expect(list.contains(#"data-command="rowkit accept report -- home work""#), "\(list)")
    #expect(dom.contains(#"data-name="work" data-status="failed""#))
    #expect(dom.contains(#"<li data-change="0" data-property="text">s0-r0 text "Wi-Fi" → "WLAN"</li>"#))
    // The address named a case: it is the current one.
    #expect(dom.contains(#"data-current="work""#))
  }

  /// A suite split in three shards and merged gives the unsharded run's report.json, and a
  /// review page with the same counts.
  @Test func mergedShardsEqualTheUnshardedRunAndOpenInChromium() async throws {
    let folder = try assetsCopy()
    defer { try? FileManager.default.removeItem(at: folder) }
    let tables = folder.appendingPathComponent("Assets/Samples")
    let environment = ["CI": "", "ROWKIT_RECORD": ""]
    func check(_ flags: [String], ci: Bool = true) async throws -> CommandRunner.Result {
      try await CommandRunner.run(
        ["check", "Assets/Samples", "--snapshots", "refs"] + flags, in: folder, environment: ["CI": ci ? "true" : "", "ROWKIT_RECORD": ""])
    }
    _ = try await check([], ci: false)
    let people = tables.appendingPathComponent("people.yaml")
    try String(contentsOf: people, encoding: .utf8).replacingOccurrences(of: "Joe Hewitt", with: "Joseph Hewitt")
      .write(to: people, atomically: true, encoding: .utf8)
    try FileManager.default.removeItem(at: tables.appendingPathComponent("stocks.yaml"))  // an orphan too

    let full = try await check(["--report", "full"])
    #expect(full.status == 1)
    var statuses: [Int32] = []
    for index in 1...3 {
      statuses.append(try await check(["--shard", "\(index)/3", "--report", "shard-\(index)"]).status)
    }
    #expect(statuses.sorted() == [0, 0, 1], "one shard holds the failing case")
    let merged = try await CommandRunner.run(
      ["merge-reports", "shard-1", "shard-2", "shard-3", "-o", "merged", "--summary", "merged.md"], in: folder, environment: environment)
    #expect(merged.status == 1, "the merged suite fails as the unsharded one: \(merged.stderr)")
    #expect(merged.stdout.contains("merged 3 shards: 6 cases: 5 passed (5 cached), 1 failed, 0 new, 0 missing, 0 errors, 1 orphaned reference"), "\(merged.stdout)")
    // Equal but for the folder the failure images are in, which each message names.
    let fullPath = folder.appendingPathComponent("full").standardizedFileURL.path
    let mergedPath = folder.appendingPathComponent("merged").standardizedFileURL.path
    let fullJSON = try String(contentsOf: folder.appendingPathComponent("full/report.json"), encoding: .utf8)
    let mergedJSON = try String(contentsOf: folder.appendingPathComponent("merged/report.json"), encoding: .utf8)
    #expect(fullJSON.contains(fullPath + "/cases/people/diff.png"))
    // Each case's time is the one thing two runs do not share.
    func withoutTimes(_ json: String) -> String {
      json.replacingOccurrences(of: #"\n *"seconds" : [0-9.e+-]+,"#, with: "", options: .regularExpression)
    }
    #expect(fullJSON.contains(#""seconds" : "#))
    #expect(withoutTimes(mergedJSON) == withoutTimes(fullJSON.replacingOccurrences(of: fullPath + "/", with: mergedPath + "/")))
    // With --report-only-failures, the merge holds what the unsharded check holds: the
    // failed case's images, and no passed case's reference (they were all copied).
    let failuresOnly = try await check(["--report", "failures-only", "--report-only-failures"])
    #expect(failuresOnly.status == 1)
    let mergedFailures = try await CommandRunner.run(
      ["merge-reports", "shard-1", "shard-2", "shard-3", "-o", "merged-failures", "--report-only-failures"], in: folder, environment: environment)
    #expect(mergedFailures.status == 1, "\(mergedFailures.stderr)")
    func files(_ name: String) throws -> [String] {
      let root = folder.appendingPathComponent(name)
      return try FileManager.default.subpathsOfDirectory(atPath: root.path).filter { path in
        var isFolder: ObjCBool = false
        return FileManager.default.fileExists(atPath: root.appendingPathComponent(path).path, isDirectory: &isFolder) && !isFolder.boolValue
      }.sorted()
    }
    #expect(try files("merged-failures") == files("failures-only"))
    #expect(try files("failures-only").allSatisfy { !$0.hasPrefix("cases/") || $0.hasPrefix("cases/people/") })
    let failuresPath = folder.appendingPathComponent("failures-only").standardizedFileURL.path
    let mergedFailuresPath = folder.appendingPathComponent("merged-failures").standardizedFileURL.path
    #expect(
      withoutTimes(try String(contentsOf: folder.appendingPathComponent("merged-failures/report.json"), encoding: .utf8))
        == withoutTimes(
          try String(contentsOf: folder.appendingPathComponent("failures-only/report.json"), encoding: .utf8)
            .replacingOccurrences(of: failuresPath + "/", with: mergedFailuresPath + "/")))

    // Shards by cost, planned from the full run's times (one case made 100 times longer than
    // the others, each as if it rendered: a cached pass's time is no cost), merge into the
    // same report; a plan prints their matrix.
    var timed = try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent("full/report.json"))) as! [String: Any]
    timed["cases"] = (timed["cases"] as! [[String: Any]]).map { item in
      item.merging(["seconds": item["name"] as? String == "world" ? 100.0 : 1.0, "cached": false]) { $1 }
    }
    try FileManager.default.createDirectory(at: folder.appendingPathComponent("timings"), withIntermediateDirectories: true)
    try JSONSerialization.data(withJSONObject: timed).write(to: folder.appendingPathComponent("timings/report.json"))
    var costShards: [[String]] = []
    for index in 1...3 {
      let run = try await check(["--shard", "\(index)/3", "--shard-by", "cost", "--timings", "timings", "--report", "cost-\(index)"])
      costShards.append(run.stdout.split(separator: "\n").compactMap { line in
        let words = line.split(separator: " ")
        return words.count >= 2 && ["PASSED", "FAILED"].contains(words[0]) ? String(words[1].split(separator: ":")[0]) : nil
      })
    }
    #expect(costShards[0] == ["world"], "the long case alone: \(costShards)")
    #expect(costShards.flatMap { $0 }.sorted() == ["features", "feed", "people", "photos", "settings", "world"])
    let costMerged = try await CommandRunner.run(
      ["merge-reports", "cost-1", "cost-2", "cost-3", "-o", "cost-merged"], in: folder, environment: environment)
    #expect(costMerged.stdout.contains("merged 3 shards: 6 cases: 5 passed (5 cached), 1 failed"), "\(costMerged.stdout)\(costMerged.stderr)")
    let costJSON = try String(contentsOf: folder.appendingPathComponent("cost-merged/report.json"), encoding: .utf8)
    let costPath = folder.appendingPathComponent("cost-merged").standardizedFileURL.path
    #expect(withoutTimes(costJSON) == withoutTimes(fullJSON.replacingOccurrences(of: fullPath + "/", with: costPath + "/")))
    let plan = try await CommandRunner.run(["shards", "plan", "3", "--timings", "timings"], in: folder, environment: environment)
    #expect(
      plan.stdout == #"{"include":[{"cases":1,"seconds":100,"shard":"1/3"},{"cases":3,"seconds":3,"shard":"2/3"},{"cases":2,"seconds":2,"shard":"3/3"}]}"# + "\n",
      "\(plan.stdout)\(plan.stderr)")
    // Shards split two ways do not cover the suite once: merging says which cases.
    let twoWays = try await CommandRunner.run(
      ["merge-reports", "shard-1", "cost-2", "cost-3", "-o", "two-ways"], in: folder, environment: environment)
    #expect(twoWays.status == 2 && twoWays.stderr.contains("the shards do not cover the suite exactly once"), "\(twoWays.stderr)")
    #expect(twoWays.stderr.contains("in two shards"), "\(twoWays.stderr)")
    #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("two-ways").path))
    // The merged report over a shard, inside one or around one would take the shard away.
    let shardJSON = try Data(contentsOf: folder.appendingPathComponent("shard-1/report.json"))
    for (output, words) in [("shard-1", "is the shard report shard-1 or inside it"), ("shard-1/merged", "is the shard report shard-1 or inside it"), (".", "is inside -o ., which is replaced whole")] {
      let over = try await CommandRunner.run(
        ["merge-reports", "shard-1", "shard-2", "shard-3", "-o", output], in: folder, environment: environment)
      #expect(over.status == 2 && over.stderr.contains(words), "-o \(output): \(over.stderr)")
    }
    #expect(try Data(contentsOf: folder.appendingPathComponent("shard-1/report.json")) == shardJSON)
    #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("shard-1/merged").path))
    for image in ["people/diff.png", "people/actual.png", "features/reference.png", "world/reference.png"] {
      #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("merged/cases/" + image).path), "\(image)")
    }

    let dom = try await chromium(["--dump-dom", folder.appendingPathComponent("merged/index.html").absoluteString])
    #expect(dom.contains(#"data-total="6" data-failed="1" data-new="0" data-missing="0" data-errors="0" data-passed="5" data-orphans="1""#), "\(dom.prefix(1500))")
    let fullDOM = try await chromium(["--dump-dom", folder.appendingPathComponent("full/index.html").absoluteString])
    #expect(fullDOM.contains(#"data-total="6" data-failed="1" data-new="0" data-missing="0" data-errors="0" data-passed="5" data-orphans="1""#))
    let failing = try #require(dom.range(of: #"data-name="people" data-status="failed""#))
    let section = dom[failing.upperBound...].prefix(4000)
    for role in ["reference", "diff", "actual"] {
      #expect(section.contains(#"data-role="\#(role)" loading="eager" data-loaded="true""#), "the merged \(role) image loaded")
    }
    #expect(section.contains("rowkit accept merged -- people"))
    // The Copy button copies the command; where the page may not use the clipboard (a file
    // opened in headless Chromium), it selects the command for copying by hand.
    let copy = try await chromium(["--dump-dom", folder.appendingPathComponent("merged/index.html").absoluteString + "#copytest"])
    let copied = try #require(copy.range(of: #"<pre id="copytest">"#)).upperBound
    let outcome = copy[copied...].prefix { $0 != "<" }.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
    #expect(outcome == ["true", "rowkit accept merged -- people", ""] || outcome == ["false", "rowkit accept merged -- people", "rowkit accept merged -- people"], "\(outcome)")

    // Refused merges name the folders and write nothing.
    let twice = try await CommandRunner.run(
      ["merge-reports", "shard-1", "shard-2", "shard-2", "-o", "bad"], in: folder, environment: environment)
    #expect(twice.status == 2 && twice.stderr.contains("shard-2 and ") && twice.stderr.contains("are both shard 2/3"), "\(twice.stderr)")
    let missing = try await CommandRunner.run(["merge-reports", "shard-1", "shard-3", "-o", "bad"], in: folder, environment: environment)
    #expect(missing.status == 2 && missing.stderr.contains("shard 2/3 is missing"), "\(missing.stderr)")
    let other = try await check(["--shard", "2/3", "--report", "other", "--threshold", "0.2"])
    #expect(other.status != 2)
    let mixed = try await CommandRunner.run(["merge-reports", "shard-1", "other", "shard-3", "-o", "bad"], in: folder, environment: environment)
    #expect(mixed.status == 2 && mixed.stderr.contains("shard-1 and ") && mixed.stderr.contains("other are shards of different runs"), "\(mixed.stderr)")
    let unsharded = try await CommandRunner.run(["merge-reports", "full", "-o", "bad"], in: folder, environment: environment)
    #expect(unsharded.status == 2 && unsharded.stderr.contains("full: not a shard"), "\(unsharded.stderr)")
    #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("bad").path))
  }

  @Test func watchModeRendersAgainWhenADesignChanges() async throws {
    let folder = try assetsCopy()
    defer { try? FileManager.default.removeItem(at: folder) }
    let output = folder.appendingPathComponent("people.png")
    let process = Process()
    process.executableURL = CommandRunner.binary
    process.arguments = ["render", "Assets/Samples/people.yaml", "-o", output.path, "--watch"]
    process.currentDirectoryURL = folder
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    // As a shell starts it: the test runner's threads block SIGTERM, which a child inherits.
    try process.runWithNoSignalBlocked()
    defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
    // 120 s: a bound far above any machine's need, not a speed figure.
    #expect(await TestSupport.secondsUntil(within: 120) { FileManager.default.fileExists(atPath: output.path) } != nil, "the first render")
    let first = try Data(contentsOf: output)
    let design = folder.appendingPathComponent("Assets/Designs/person.yaml")
    try String(contentsOf: design, encoding: .utf8).replacingOccurrences(of: "spacing: 10", with: "spacing: 24")
      .write(to: design, atomically: true, encoding: .utf8)
    let seconds = await TestSupport.secondsUntil(within: 120) { (try? Data(contentsOf: output)).map { $0 != first } ?? false }
    #expect(seconds != nil, "never rendered again")
    #expect(process.isRunning)
    // Stopped as a user stops it, it ends by the signal and leaves its output, nothing staged.
    kill(process.processIdentifier, SIGTERM)
    let end = await TestSupport.end(of: process)
    #expect(end?.reason == .uncaughtSignal && end?.status == SIGTERM, "\(String(describing: end))")
    let left = try FileManager.default.contentsOfDirectory(atPath: folder.path)
    #expect(Set(left) == ["Assets", "people.png"], "\(left)")
  }

  /// A stylesheet that is broken when the watch starts is watched with the document: fixing
  /// it renders. Before, only the document (and a last good render's files) was watched.
  @Test func watchModeRendersOnceAStylesheetBrokenFromTheStartIsFixed() async throws {
    let folder = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let theme = folder.appendingPathComponent("theme.yaml")
    try "vars: { textColor: [\n".write(to: theme, atomically: true, encoding: .utf8)
    try "stylesheet: theme.yaml\nitems: [{ type: text, text: Watched }]\n".write(
      to: folder.appendingPathComponent("table.yaml"), atomically: true, encoding: .utf8)
    let output = folder.appendingPathComponent("table.png")
    let errors = folder.appendingPathComponent("errors.txt")
    try Data().write(to: errors)
    let errorFile = try FileHandle(forWritingTo: errors)
    defer { try? errorFile.close() }
    let process = Process()
    process.executableURL = CommandRunner.binary
    process.arguments = ["render", "table.yaml", "-o", output.path, "--watch"]
    process.currentDirectoryURL = folder
    process.standardOutput = FileHandle.nullDevice
    process.standardError = errorFile
    try process.runWithNoSignalBlocked()
    defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
    // 120 s: bounds far above any machine's need, not speed figures.
    let reported = await TestSupport.secondsUntil(within: 120) {
      (try? String(contentsOf: errors, encoding: .utf8))?.contains("theme.yaml") == true
    }
    try #require(reported != nil, "the broken stylesheet is reported")
    #expect(!FileManager.default.fileExists(atPath: output.path))
    try "vars: { textColor: \"#000000\" }\n".write(to: theme, atomically: true, encoding: .utf8)
    let rendered = await TestSupport.secondsUntil(within: 120) { FileManager.default.fileExists(atPath: output.path) }
    #expect(rendered != nil, "never rendered once the stylesheet was fixed")
    kill(process.processIdentifier, SIGTERM)
    let end = await TestSupport.end(of: process)
    #expect(end?.reason == .uncaughtSignal && end?.status == SIGTERM, "\(String(describing: end))")
    let left = try FileManager.default.contentsOfDirectory(atPath: folder.path)
    #expect(Set(left) == ["errors.txt", "table.png", "table.yaml", "theme.yaml"], "\(left)")
  }

  /// A watch renders again for a file only a render reads, not the load: a font added to the
  /// `--fonts` folder, a missing image put in place (`--strict-images`), an image or a brand
  /// font edited in place. Before, only the document, its stylesheets and designs were watched.
  /// The output goes into the fonts folder: the folder is watched for the fonts it lists, and
  /// a render's own writes there never start another (they did, without end, when the
  /// folder was watched by its modification time).
  @Test func watchModeRendersAgainForFontsAndImages() async throws {
    let folder = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let fonts = folder.appendingPathComponent("fonts")
    try FileManager.default.createDirectory(at: fonts, withIntermediateDirectories: true)
    try "vars: { tableFont: \"Noto Serif 17\" }\n".write(to: folder.appendingPathComponent("s.yaml"), atomically: true, encoding: .utf8)
    try "stylesheet: s.yaml\nitems: [{ type: image, text: Watched, imageURL: photo.png }]\n".write(
      to: folder.appendingPathComponent("table.yaml"), atomically: true, encoding: .utf8)
    let output = fonts.appendingPathComponent("table.png")
    let (errors, lines) = (folder.appendingPathComponent("errors.txt"), folder.appendingPathComponent("lines.txt"))
    try Data().write(to: errors)
    try Data().write(to: lines)
    let (errorFile, lineFile) = (try FileHandle(forWritingTo: errors), try FileHandle(forWritingTo: lines))
    defer { try? errorFile.close(); try? lineFile.close() }
    let process = Process()
    process.executableURL = CommandRunner.binary
    process.arguments = ["render", "table.yaml", "-o", output.path, "--watch", "--strict-images", "--fonts", fonts.path]
    process.currentDirectoryURL = folder
    process.standardOutput = lineFile
    process.standardError = errorFile
    try process.runWithNoSignalBlocked()
    defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
    func errorsSay(_ text: String) async -> Bool {
      // 120 s: bounds far above any machine's need, not speed figures.
      await TestSupport.secondsUntil(within: 120) { (try? String(contentsOf: errors, encoding: .utf8))?.contains(text) == true } != nil
    }
    func overwrite(_ file: URL, with bytes: Data) throws {
      let handle = try FileHandle(forWritingTo: file)
      defer { try? handle.close() }
      try handle.truncate(atOffset: 0)
      try handle.write(contentsOf: bytes)
    }
    @Sendable func renders() -> Int {
      (try? String(contentsOf: lines, encoding: .utf8)).map { $0.split(separator: "\n").filter { $0.hasPrefix("rendered ") }.count } ?? 0
    }

    try #require(await errorsSay("font family 'Noto Serif' is not loaded"), "the empty fonts folder")
    // The family's font, added to the folder: the load succeeds, the missing image fails.
    try FileManager.default.copyItem(
      atPath: "/usr/share/fonts/truetype/noto/NotoSerif-Regular.ttf", toPath: fonts.appendingPathComponent("Brand.ttf").path)
    try #require(await errorsSay("image photo.png failed"), "never loaded again once the font was added")
    #expect(!FileManager.default.fileExists(atPath: output.path))
    let photo = folder.appendingPathComponent("photo.png")
    try FileManager.default.copyItem(at: TestSupport.repositoryRoot.appendingPathComponent("Assets/images/photo.png"), to: photo)
    try #require(await TestSupport.secondsUntil(within: 120) { renders() >= 1 } != nil, "never rendered once the image was put in place")
    let first = try Data(contentsOf: output)
    @Sendable func outputDiffers(from earlier: Data) -> Bool { (try? Data(contentsOf: output)).map { $0 != earlier } ?? false }
    // Edited in place (the same file, new bytes): the image, then the brand font.
    let person = try Data(contentsOf: TestSupport.repositoryRoot.appendingPathComponent("Assets/images/person.png"))
    try overwrite(photo, with: person)
    try #require(await TestSupport.secondsUntil(within: 120) { outputDiffers(from: first) } != nil, "never rendered again for the edited image")
    let second = try Data(contentsOf: output)
    let bold = try Data(contentsOf: URL(fileURLWithPath: "/usr/share/fonts/truetype/noto/NotoSerif-Bold.ttf"))
    try overwrite(fonts.appendingPathComponent("Brand.ttf"), with: bold)
    try #require(await TestSupport.secondsUntil(within: 120) { outputDiffers(from: second) } != nil, "never rendered again for the edited font")
    // Three changes, three renders (four, should an edit be seen half written); a render
    // that started another rendered hundreds of times by now.
    #expect(renders() < 10, "\(renders()) renders")
    #expect(process.isRunning)
    kill(process.processIdentifier, SIGTERM)
    let end = await TestSupport.end(of: process)
    #expect(end?.reason == .uncaughtSignal && end?.status == SIGTERM, "\(String(describing: end))")
    let left = try FileManager.default.contentsOfDirectory(atPath: folder.path)
    #expect(Set(left) == ["errors.txt", "fonts", "lines.txt", "photo.png", "s.yaml", "table.yaml"], "\(left)")
    #expect(Set(try FileManager.default.contentsOfDirectory(atPath: fonts.path)) == ["Brand.ttf", "table.png"])
  }

  @Test func catalogDesignsWithoutAssetsWarnsAboutEveryBlankImage() async throws {
    let out = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: out) }
    let result = try await CommandRunner.run(
      ["catalog", "--designs", "Assets/Designs", "--stylesheet", "Assets/Designs/styles.yaml", "-o", out.appendingPathComponent("d.png").path],
      in: TestSupport.repositoryRoot)
    #expect(result.status == 0, "\(result.stderr)")
    let lines = result.stderr.split(separator: "\n")
    #expect(lines.first == "rowkit: warning: --designs without --assets: bundle:// images resolve in Assets/Designs, and some were not there")
    #expect(lines.contains { $0.contains("row 0 (s0-r0): image bundle://images/person.png failed") }, "\(result.stderr)")
  }

  @Test func catalogDrawsTheDesignsContactSheet() async throws {
    let out = try TestSupport.temporaryDirectory()
    let png = out.appendingPathComponent("designs.png")
    let result = try await CommandRunner.run([
      "catalog", "--designs", "Assets/Designs", "--stylesheet", "Assets/Designs/styles.yaml", "--assets", "Assets",
      "-o", png.path,
    ], in: TestSupport.repositoryRoot)
    #expect(result.status == 0, "\(result.stderr)")
    // Two designs show a deliberately missing image (their default); nothing else is warned.
    #expect(result.stderr.split(separator: "\n").allSatisfy { $0.contains("images/missing.png failed") }, "\(result.stderr)")
    let reference = try PNG.decode(contentsOf: TestSupport.snapshots.appendingPathComponent("Designs/contact-sheet.png"))
    #expect(try PNG.decode(contentsOf: png) == reference)
  }
}
