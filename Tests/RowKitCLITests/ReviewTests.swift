import Foundation
import RowKitGraphics
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

  @Test func watchModeRendersAgainWhenADesignChanges() async throws {
    let folder = try assetsCopy()
    let output = folder.appendingPathComponent("people.png")
    let process = Process()
    process.executableURL = CommandRunner.binary
    process.arguments = ["render", "Assets/Samples/people.yaml", "-o", output.path, "--watch"]
    process.currentDirectoryURL = folder
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    defer {
      // NB: SIGKILL, since a child of the test runner inherits its blocked SIGTERM.
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
    }
    // 120 s: a bound far above any machine's need, not a speed figure.
    #expect(await TestSupport.secondsUntil(within: 120) { FileManager.default.fileExists(atPath: output.path) } != nil, "the first render")
    let first = try Data(contentsOf: output)
    let design = folder.appendingPathComponent("Assets/Designs/person.yaml")
    try String(contentsOf: design, encoding: .utf8).replacingOccurrences(of: "spacing: 10", with: "spacing: 24")
      .write(to: design, atomically: true, encoding: .utf8)
    let seconds = await TestSupport.secondsUntil(within: 120) { (try? Data(contentsOf: output)).map { $0 != first } ?? false }
    #expect(seconds != nil, "never rendered again")
    #expect(process.isRunning)
  }

  @Test func catalogDrawsTheDesignsContactSheet() async throws {
    let out = try TestSupport.temporaryDirectory()
    let png = out.appendingPathComponent("designs.png")
    let result = try await CommandRunner.run([
      "catalog", "--designs", "Assets/Designs", "--stylesheet", "Assets/Designs/styles.yaml", "--assets", "Assets",
      "-o", png.path,
    ], in: TestSupport.repositoryRoot)
    #expect(result.status == 0, "\(result.stderr)")
    let reference = try PNG.decode(contentsOf: TestSupport.snapshots.appendingPathComponent("Designs/contact-sheet.png"))
    #expect(try PNG.decode(contentsOf: png) == reference)
  }
}
