import Foundation
import RowKitTestSupport
import Testing

@testable import RowKitReview

/// `rowkit preview`'s server: the page in Chromium updating itself as files are saved, the
/// event stream, and every request refused that lacks the token or comes for another host.
@Suite(.serialized) struct PreviewServerTests {
  /// A design with a label grey enough to fail the contrast rule, beside a document.
  static func project() throws -> URL {
    let folder = try TestSupport.temporaryDirectory("previewServer")
    try """
      padding: [10, 12, 10, 12]
      preview:
        - { title: Card }
      body:
        label: { bind: title, font: "Inter 17", color: "#BBBBBB", name: title }

      """.write(to: folder.appendingPathComponent("card.yaml"), atomically: true, encoding: .utf8)
    try "items: [{ type: text, text: Plain }]\n".write(to: folder.appendingPathComponent("plain.yaml"), atomically: true, encoding: .utf8)
    return folder
  }

  /// curl's answer to a GET of `path`: the status and the body.
  static func get(_ base: URL, _ path: String, host: String? = nil, headers: [String] = []) async throws -> (status: Int, body: String) {
    // --max-time: a stream answered where a refusal was due ends the test instead of hanging it.
    var arguments = ["-s", "--path-as-is", "--max-time", "120", "-w", "\n%{http_code}", "http://127.0.0.1:\(base.port!)" + path]
    if let host { arguments += ["-H", "Host: \(host)"] }
    for header in headers { arguments += ["-H", header] }
    let result = try await CommandRunner.runProgram(URL(fileURLWithPath: "/usr/bin/curl"), arguments)
    let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
    return (Int(lines.last ?? "") ?? 0, lines.dropLast().joined(separator: "\n"))
  }

  @Test func thePageUpdatesItselfInChromiumAsFilesAreSaved() async throws {
    let folder = try Self.project()
    defer { try? FileManager.default.removeItem(at: folder) }
    let python = TestSupport.repositoryRoot.appendingPathComponent(".venv/bin/python")
    try #require(FileManager.default.isExecutableFile(atPath: python.path), "bash scripts/setup.sh --tests makes .venv, with Playwright")
    try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/chromium"), "bash scripts/setup.sh --tests installs Debian's chromium")
    let script = TestSupport.repositoryRoot.appendingPathComponent("Tests/Browser/preview-page.py")
    let browser = try await CommandRunner.runProgram(python, [script.path, CommandRunner.binary.path, folder.path])
    #expect(browser.status == 0, "\(browser.stdout)\(browser.stderr)")
    #expect(
      browser.stdout == """
        opened: 3 cases, each image shown; card/preview-1 with 1 finding boxed
        saved card.yaml: its row's image changed by itself, the contrast box gone; the selected row and plain kept theirs
        broke card.yaml: the error names its file and line, over the last good image
        fixed card.yaml: the error is gone
        added added.yaml: it appeared

        """, "\(browser.stderr)")
  }

  /// A connection that keeps the server waiting (here one that never sends its request) is
  /// closed, so idle connections cannot hold its files; the others are still answered. No
  /// time is measured: the test waits for the close, however long the machine takes.
  @Test func aConnectionThatKeepsTheServerWaitingIsClosed() async throws {
    let folder = try Self.project()
    defer { try? FileManager.default.removeItem(at: folder) }
    let catalog = try PreviewCatalog(paths: [folder])
    await catalog.refresh()
    let server = try PreviewServer(catalog: catalog, title: "test", idleSeconds: 0.5)
    try await withThrowingTaskGroup(of: Void.self) { group in
      group.addTask { try await server.run() }
      defer { group.cancelAll() }
      let address = try await server.waitUntilListening()
      let token = try #require(address.query?.split(separator: "=").last.map(String.init))
      // A client that connects and says nothing: the server ends the connection (curl reads
      // an empty answer), where it used to keep it open for good.
      let silent = try await CommandRunner.runProgram(
        // `timeout` only ends a test that would otherwise wait for good on a server that never closes.
        URL(fileURLWithPath: "/usr/bin/timeout"),
        ["600", "/bin/bash", "-c", "exec 3<>/dev/tcp/127.0.0.1/$0 && cat <&3 > /dev/null && echo closed", String(address.port!)])
      #expect(silent.stdout == "closed\n", "\(silent.stdout)\(silent.stderr)")
      #expect(try await Self.get(address, "/?token=\(token)").status == 200)
    }
  }

  @Test func everyRequestNeedsTheTokenAndTheLoopbackHostAndNamesCasesNotPaths() async throws {
    let folder = try Self.project()
    defer { try? FileManager.default.removeItem(at: folder) }
    let catalog = try PreviewCatalog(paths: [folder])
    await catalog.refresh()
    let server = try PreviewServer(catalog: catalog, title: "test")
    try await withThrowingTaskGroup(of: Void.self) { group in
      group.addTask { try await server.run() }
      defer { group.cancelAll() }
      let address = try await server.waitUntilListening()
      let token = try #require(address.query?.split(separator: "=").last.map(String.init))
      let port = address.port!

      #expect(try await Self.get(address, "/?token=\(token)").status == 200)
      let catalogAnswer = try await Self.get(address, "/api/catalog?token=\(token)")
      #expect(catalogAnswer.status == 200 && catalogAnswer.body.contains(#""name" : "card/preview-1""#), "\(catalogAnswer.body)")
      let image = try await Self.get(address, "/image?case=plain&v=1&token=\(token)")
      #expect(image.status == 200 && image.body.hasPrefix("\u{FFFD}PNG"))
      // Another site's page that learned the address is refused an image, as review refuses it.
      let crossSite = try await Self.get(address, "/image?case=plain&v=1&token=\(token)", headers: ["Sec-Fetch-Site: cross-site"])
      #expect(crossSite.status == 403, "\(crossSite.body)")

      // Without the token, with a wrong one, from another host, with a path for a case.
      let wrong = (token.first == "0" ? "1" : "0") + token.dropFirst()
      for path in ["/", "/api/catalog", "/events", "/image?case=plain"] {
        #expect(try await Self.get(address, path).status == 403, "\(path)")
        #expect(try await Self.get(address, path + (path.contains("?") ? "&" : "?") + "token=\(wrong)").status == 403, "\(path)")
      }
      #expect(try await Self.get(address, "/?token=\(token)", host: "attacker.example:\(port)").status == 403)
      #expect(try await Self.get(address, "/?token=\(token)", host: "127.0.0.1:\(port + 1)").status == 403)
      for name in ["../../etc/passwd", "/etc/passwd", "%2e%2e%2f%2e%2e%2fetc%2fpasswd", "plain.yaml"] {
        #expect(try await Self.get(address, "/image?case=\(name)&token=\(token)").status == 404, "\(name)")
      }
      #expect(try await Self.get(address, "/../../etc/passwd?token=\(token)").status == 404)

      // The event stream: the version the page has, at once (its first three lines; the
      // stream itself never ends).
      let readThreeLines = "import sys, urllib.request; r = urllib.request.urlopen(sys.argv[1]); print(''.join(r.readline().decode() for _ in range(3)), end='')"
      let events = try await CommandRunner.runProgram(
        URL(fileURLWithPath: "/usr/bin/python3"), ["-c", readThreeLines, "http://127.0.0.1:\(port)/events?token=\(token)"])
      #expect(events.stdout == "retry: 500\nevent: change\ndata: \(catalog.version)\n", "\(events.stdout)\(events.stderr)")
    }
  }
}
