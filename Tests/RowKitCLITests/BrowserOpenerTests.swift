import Foundation
import RowKitSnapshot
import RowKitTestSupport
import Testing

/// `--open` starts the user's browser on the page, with the user's own settings.
@Suite struct BrowserOpenerTests {
  /// A browser that writes what it was started with (its arguments, and the font variables
  /// RowKit sets aside for its own drawing) into `opened` beside itself, all at once.
  static func recordingBrowser(in folder: URL) throws -> URL {
    let browser = folder.appendingPathComponent("browser.sh")
    try """
      #!/bin/sh
      here=$(dirname "$0")
      {
        for argument in "$@"; do printf 'argument %s\\n' "$argument"; done
        printf 'FREETYPE_PROPERTIES=%s\\n' "$FREETYPE_PROPERTIES"
        printf 'HB_SHAPER_LIST=%s\\n' "$HB_SHAPER_LIST"
        printf 'PANGO_LANGUAGE=%s\\n' "$PANGO_LANGUAGE"
      } > "$here/opened.partial" && mv "$here/opened.partial" "$here/opened"

      """.write(to: browser, atomically: true, encoding: .utf8)
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: browser.path)
    return browser
  }

  /// `rowkit preview --open`, with `browser` as `BROWSER`: what the browser was started with,
  /// once it was; the preview is stopped as a user stops it.
  static func opened(browser: String, in folder: URL) async throws -> [String] {
    try "sections:\n  - items:\n      - { type: text, text: Wi-Fi }\n".write(
      to: folder.appendingPathComponent("table.yaml"), atomically: true, encoding: .utf8)
    let process = Process()
    process.executableURL = CommandRunner.binary
    process.arguments = ["preview", "table.yaml", "--open"]
    process.currentDirectoryURL = folder
    process.environment = ProcessInfo.processInfo.environment.merging([
      "BROWSER": browser, "FREETYPE_PROPERTIES": "cff:no-stem-darkening=0", "HB_SHAPER_LIST": "ot:fallback",
      "PANGO_LANGUAGE": "ja",
    ]) { $1 }
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    // As a shell starts it: the test runner's threads block SIGTERM, which a child inherits.
    try process.runWithNoSignalBlocked()
    defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
    let opened = folder.appendingPathComponent("opened")
    // 120 s: a bound far above any machine's need, not a speed figure.
    let seconds = await TestSupport.secondsUntil(within: 120) { FileManager.default.fileExists(atPath: opened.path) }
    #expect(seconds != nil, "the browser was never started")
    kill(process.processIdentifier, SIGTERM)
    _ = await TestSupport.end(of: process)
    return try String(contentsOf: opened, encoding: .utf8).split(separator: "\n").map(String.init)
  }

  @Test func theBrowserNamedInBROWSERGetsTheAddressAndTheUsersFontSettings() async throws {
    let folder = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let browser = try Self.recordingBrowser(in: folder)
    let lines = try await Self.opened(browser: browser.path, in: folder)
    #expect(lines.count == 4, "\(lines)")
    // The address alone, after the command: the page with its token.
    let address = try #require(lines.first)
    #expect(address.hasPrefix("argument http://127.0.0.1:") && address.contains("token="), "\(address)")
    // rowkit drew without them, and gave them back to the browser it started.
    #expect(Array(lines.dropFirst()) == ["FREETYPE_PROPERTIES=cff:no-stem-darkening=0", "HB_SHAPER_LIST=ot:fallback", "PANGO_LANGUAGE=ja"])
  }

  /// `%s` stands for the address, which goes in as one argument whatever the command around
  /// it holds: never into the command's text, where the shell would read it.
  @Test func percentSInBROWSERIsTheAddressAsOneArgument() async throws {
    let folder = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let browser = try Self.recordingBrowser(in: folder)
    let lines = try await Self.opened(browser: "'\(browser.path)' --new-window %s 'two words'", in: folder)
    #expect(lines.count == 6, "\(lines)")
    #expect(lines.first == "argument --new-window")
    #expect(lines.dropFirst().first?.hasPrefix("argument http://127.0.0.1:") == true, "\(lines)")
    #expect(lines.dropFirst(2).first == "argument two words")
  }
}
