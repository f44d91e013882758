import Foundation
import RowKitGraphics
@testable import RowKitReview
import RowKitTestSupport
import Testing

/// `rowkit review`'s server, started in this process on a free port and driven over HTTP
/// with curl: accept and undo to the exact bytes, groups, reject, the log and a restart,
/// every attack refused with nothing written, and the served page in Chromium. Serialized:
/// each test runs `rowkit check` and a server, and a 2-core machine runs other tests too.
@Suite(.serialized) struct ReviewServerTests {
  /// A project with a report of 5 cases to review: case-1 and case-2 share one change
  /// (their subtitle "Same" → "Other"), case-3 changed alone, case-4 and case-5 have no
  /// reference. `rowkit check` runs in `work/`; the references are in `refs/` beside it, so
  /// that the report names them by an absolute path that this process can use.
  struct Project {
    var folder: URL
    var work: URL { folder.appendingPathComponent("work") }
    var refs: URL { folder.appendingPathComponent("refs") }
    var report: URL { work.appendingPathComponent("report") }
  }

  func project() async throws -> Project {
    let project = Project(folder: try TestSupport.temporaryDirectory())
    let tables = project.work.appendingPathComponent("tables")
    try FileManager.default.createDirectory(at: tables, withIntermediateDirectories: true)
    func write(_ name: String, text: String, subtitle: String) throws {
      try Data("items:\n  - { type: subtitle, text: \(text), subtitle: \(subtitle) }\n".utf8)
        .write(to: tables.appendingPathComponent("\(name).yaml"))
    }
    for index in 0..<4 { try write("case-\(index)", text: "Case \(index)", subtitle: "Same") }
    let environment = ["ROWKIT_RECORD": "", "ROWKIT_SNAPSHOT_ARTIFACTS": project.folder.appendingPathComponent("artifacts").path]
    let record = try await CommandRunner.run(
      ["check", "tables", "--snapshots", project.refs.path], in: project.work, environment: environment.merging(["CI": ""]) { $1 })
    // New cases exit 1 and are recorded.
    #expect(FileManager.default.fileExists(atPath: project.refs.appendingPathComponent("case-3.png").path), "\(record.stderr)")
    try write("case-1", text: "Case 1", subtitle: "Other")
    try write("case-2", text: "Case 2", subtitle: "Other")
    try write("case-3", text: "Case 3 changed", subtitle: "Same")
    try write("case-4", text: "New 4", subtitle: "Same")
    try write("case-5", text: "New 5", subtitle: "Same")
    let check = try await CommandRunner.run(
      ["check", "tables", "--snapshots", project.refs.path, "--report", "report"], in: project.work,
      environment: environment.merging(["CI": "true"]) { $1 })
    #expect(check.status == 1 && check.stdout.contains("3 failed"), "\(check.stdout)\(check.stderr)")
    return project
  }

  /// Every file under `folder` with its bytes.
  func contents(_ folder: URL) -> [String: Data] {
    let paths = FileManager.default.enumerator(atPath: folder.path)?.allObjects as? [String] ?? []
    return Dictionary(uniqueKeysWithValues: paths.compactMap { path in
      FileManager.default.contents(atPath: folder.appendingPathComponent(path).path).map { (path, $0) }
    })
  }

  /// Serves `project`'s report while `body` runs, and stops.
  func serving<Value: Sendable>(
    _ project: Project, environment: [String: String] = ["CI": ""], _ body: @Sendable (Server) async throws -> Value
  ) async throws -> Value {
    let session = try ReviewSession(report: project.report, snapshots: project.refs, processEnvironment: environment)
    let server = try ReviewServer(session: session, reportPath: "report")
    return try await withThrowingTaskGroup(of: Void.self) { group in
      group.addTask { try await server.run() }
      defer { group.cancelAll() }
      let address = try await server.waitUntilListening()
      return try await body(Server(address: address, token: server.token))
    }
  }

  struct Server: Sendable {
    var address: URL
    var token: String
    var port: Int { address.port! }
    var base: String { "http://127.0.0.1:\(port)" }

    /// curl's answer: the status and the body.
    func request(
      _ path: String, method: String = "GET", body: String? = nil, token: String? = nil, host: String? = nil
    ) async throws -> (status: Int, body: String) {
      var arguments = ["-s", "--path-as-is", "-X", method, "-w", "\n%{http_code}", base + path]
      arguments += ["-H", "X-RowKit-Token: \(token ?? self.token)"]
      if let host { arguments += ["-H", "Host: \(host)"] }
      if let body { arguments += ["-H", "Content-Type: application/json", "--data-binary", body] }
      let result = try await CommandRunner.runProgram(URL(fileURLWithPath: "/usr/bin/curl"), arguments)
      let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
      return (Int(lines.last ?? "") ?? 0, lines.dropLast().joined(separator: "\n"))
    }

    func post(_ path: String, _ body: String = "{}") async throws -> [String: Any] {
      let (status, text) = try await request(path, method: "POST", body: body)
      #expect(status == 200, "\(path) \(body): \(status) \(text)")
      return try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] ?? [:]
    }

    func state() async throws -> [String: Any] {
      let (status, text) = try await request("/api/state")
      #expect(status == 200, "\(text)")
      return try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] ?? [:]
    }
  }

  func log(_ project: Project) throws -> [[String: Any]] {
    let data = try Data(contentsOf: project.report.appendingPathComponent("review-log.json"))
    return (try JSONSerialization.jsonObject(with: data) as? [String: Any])?["entries"] as? [[String: Any]] ?? []
  }

  @Test func acceptingOneCaseThenUndoingPutsBackEveryByte() async throws {
    let project = try await project()
    defer { try? FileManager.default.removeItem(at: project.folder) }
    let before = contents(project.refs)
    try await serving(project) { server in
      let accepted = try await server.post("/api/accept", #"{"cases": ["case-1"]}"#)
      #expect(accepted["reviewed"] as? Int == 1)
      #expect((accepted["cases"] as? [String: String]) == ["case-1": "accepted"])
      let after = contents(project.refs)
      #expect(after["case-1.png"] == FileManager.default.contents(atPath: project.report.appendingPathComponent("cases/case-1/actual.png").path))
      #expect(after["case-1.inputs.json"] == nil, "the render cache's proof of the old image goes, as with rowkit accept")
      #expect(after["case-0.png"] == before["case-0.png"])
      let undone = try await server.post("/api/undo")
      #expect(undone["reviewed"] as? Int == 0)
    }
    #expect(contents(project.refs) == before, "undo put back the exact bytes, the layout record and the inputs too")
    let entries = try log(project)
    #expect(entries.map { $0["action"] as? String } == ["accept", "undo"])
    #expect(entries[1]["undoes"] as? Int == 1)
    let files = entries[0]["files"] as? [[String: Any]] ?? []
    let image = try #require(files.first { $0["path"] as? String == "case-1.png" })
    #expect(image["before"] as? String == SHA256.hex([UInt8](before["case-1.png"]!)))
    #expect((image["after"] as? String)?.count == 64 && image["time"] == nil && entries[0]["time"] is String)
    // The next check's report replaces the reviewed one, its log and undo bytes with it.
    let again = try await CommandRunner.run(
      ["check", "tables", "--snapshots", project.refs.path, "--report", "report"], in: project.work,
      environment: ["CI": "true", "ROWKIT_RECORD": "", "ROWKIT_SNAPSHOT_ARTIFACTS": project.folder.appendingPathComponent("artifacts").path])
    #expect(again.status == 1, "\(again.stderr)")
    #expect(!FileManager.default.fileExists(atPath: project.report.appendingPathComponent("review-log.json").path))
    #expect(!FileManager.default.fileExists(atPath: project.report.appendingPathComponent("review-undo").path))
  }

  @Test func aGroupIsAcceptedInOneActionAndTheReviewSurvivesARestart() async throws {
    let project = try await project()
    defer { try? FileManager.default.removeItem(at: project.folder) }
    let before = contents(project.refs)
    try await serving(project) { server in
      let state = try await server.state()
      let groups = state["groups"] as? [[String: Any]] ?? []
      #expect(groups.map { $0["names"] as? [String] ?? [] } == [["case-1", "case-2"], ["case-4", "case-5"]], "\(groups)")
      #expect(groups.first?["title"] as? String == #"subtitle text "Same" → "Other""#)
      let shared = try await server.post("/api/accept", #"{"group": 0}"#)
      #expect(shared["reviewed"] as? Int == 2)
      let new = try await server.post("/api/accept", #"{"group": 1}"#)
      #expect(new["reviewed"] as? Int == 4)
      #expect(FileManager.default.fileExists(atPath: project.refs.appendingPathComponent("case-5.png").path))
      let rejected = try await server.post("/api/reject", #"{"cases": ["case-3"]}"#)
      #expect(rejected["reviewed"] as? Int == 5)
      #expect((rejected["cases"] as? [String: String])?["case-3"] == "rejected")
    }
    #expect(contents(project.refs)["case-3.png"] == before["case-3.png"], "a rejected case keeps its reference")
    // A new server reads the review from the log, and undoes from it, step by step.
    try await serving(project) { server in
      let state = try await server.state()
      #expect(state["reviewed"] as? Int == 5)
      #expect((state["cases"] as? [String: String]) == [
        "case-1": "accepted", "case-2": "accepted", "case-3": "rejected", "case-4": "accepted", "case-5": "accepted",
      ])
      #expect(try await server.post("/api/undo")["reviewed"] as? Int == 4)
      #expect(try await server.post("/api/undo")["reviewed"] as? Int == 2)
      #expect(!FileManager.default.fileExists(atPath: project.refs.appendingPathComponent("case-5.png").path), "undo removes what accept made")
      #expect(try await server.post("/api/undo")["reviewed"] as? Int == 0)
      let nothing = try await server.request("/api/undo", method: "POST", body: "{}")
      #expect(nothing.status == 409 && nothing.body.contains("nothing to undo"))
    }
    #expect(contents(project.refs) == before)
    #expect(try log(project).map { $0["action"] as? String } == ["accept", "accept", "reject", "undo", "undo", "undo"])
  }

  @Test func everyAttackIsRefusedAndNothingIsWritten() async throws {
    let project = try await project()
    defer { try? FileManager.default.removeItem(at: project.folder) }
    let (refs, report) = (contents(project.refs), contents(project.report))
    try await serving(project) { server in
      let accept = #"{"cases": ["case-1"]}"#
      // No token, a wrong one, and the token of another length.
      for token in ["", String(repeating: "0", count: 64), "x"] {
        #expect(try await server.request("/api/accept", method: "POST", body: accept, token: token).status == 403)
        #expect(try await server.request("/api/state", token: token).status == 403)
        #expect(try await server.request("/?token=\(token)", token: token).status == 403)
      }
      // A foreign Host: a page of another site whose name was rebound to 127.0.0.1.
      for host in ["evil.example:\(server.port)", "127.0.0.1", "localhost:1", "127.0.0.1.evil.example:\(server.port)"] {
        let answer = try await server.request("/api/accept", method: "POST", body: accept, host: host)
        #expect(answer.status == 403 && answer.body.contains("Host"), "\(host): \(answer)")
      }
      // Case names that are paths, plain, absolute or encoded.
      for name in ["../../etc/passwd", "/etc/passwd", "%2e%2e/%2e%2e/etc/passwd", "case-1/../../x", "cases/case-1/actual.png", ""] {
        for action in ["accept", "reject"] {
          let answer = try await server.request("/api/\(action)", method: "POST", body: #"{"cases": ["\#(name)"]}"#)
          #expect(answer.status == 404 && answer.body.contains("no case named"), "\(action) \(name): \(answer)")
        }
      }
      #expect(try await server.request("/api/accept", method: "POST", body: #"{"group": 99}"#).status == 404)
      #expect(try await server.request("/api/accept", method: "POST", body: "case-1").status == 400)
      // Files: only the report's images, never a path out of the folder.
      for path in ["/cases/../../etc/passwd", "/cases/%2e%2e/%2e%2e/etc/passwd", "/cases/%2E%2E/report.json", "//etc/passwd", "/cases//etc/passwd",
                   "/cases/case-1/..%2f..%2f..%2frefs%2fcase-1.png", "/report.json", "/review-log.json"] {
        let answer = try await server.request(path)
        // Refused with a 4xx, or the connection closed by FlyingFox's own path check.
        #expect(answer.status != 200, "\(path): \(answer.status)")
        #expect(!answer.body.contains("root:"), "\(path)")
      }
      #expect(try await server.request("/cases/case-1/actual.png").status == 200)
      // Changes are POSTs only.
      #expect(try await server.request("/api/accept?cases=case-1").status == 404)
      #expect(try await server.request("/api/accept", method: "PUT", body: accept).status == 405)
    }
    #expect(contents(project.refs) == refs, "no reference changed")
    #expect(contents(project.report) == report, "nothing was written into the report folder")
  }

  @Test func acceptingIsRefusedUnderCI() async throws {
    let project = try await project()
    defer { try? FileManager.default.removeItem(at: project.folder) }
    let (refs, report) = (contents(project.refs), contents(project.report))
    try await serving(project, environment: ["CI": "true"]) { server in
      let answer = try await server.request("/api/accept", method: "POST", body: #"{"cases": ["case-1"]}"#)
      #expect(answer.status == 403 && answer.body.contains("CI is set"), "\(answer)")
      #expect(try await server.state()["ci"] as? Bool == true)
    }
    #expect(contents(project.refs) == refs && contents(project.report) == report)
  }

  /// Debian's Chromium, headless, as root needs it: what it prints on stdout.
  func chromium(_ arguments: [String]) async throws -> String {
    guard FileManager.default.isExecutableFile(atPath: "/usr/bin/chromium") else {
      Issue.record("no Chromium: scripts/setup.sh --tests installs Debian's chromium")
      return ""
    }
    let result = try await CommandRunner.runProgram(
      URL(fileURLWithPath: "/usr/bin/chromium"), ["--headless", "--no-sandbox", "--disable-gpu", "--virtual-time-budget=10000"] + arguments)
    return result.stdout
  }

  @Test func thePageReviewsWithItsKeysInChromiumAndStaysStaticFromDisk() async throws {
    let project = try await project()
    defer { try? FileManager.default.removeItem(at: project.folder) }
    let before = contents(project.refs)
    // Opened from disk: today's page, with no buttons and no progress.
    let disk = try await chromium(["--dump-dom", project.report.appendingPathComponent("index.html").absoluteString])
    #expect(disk.contains(#"data-name="case-1""#) && !disk.contains("review-bar") && !disk.contains("Accept (a)"))
    try await serving(project) { server in
      // The page's self-test presses the keys: a accepts the first case (and moves on), u
      // undoes it, k goes back, g accepts its group, and r rejects the last case to review and
      // moves on (to the passed case-0).
      let dom = try await chromium(["--dump-dom", server.address.absoluteString + "#reviewtest"])
      let test = try #require(dom.range(of: #"<pre id="reviewtest">"#).map { String(dom[$0.upperBound...].prefix(400)) }, "\(dom.suffix(2000))")
      #expect(test.hasPrefix("start 0 of 5 reviewed case-1\na 1 of 5 reviewed case-2\nu 0 of 5 reviewed case-2\ng 2 of 5 reviewed case-1\nr 3 of 5 reviewed case-0"), "\(test)")
      #expect(dom.contains(#"id="review-progress">3 of 5 reviewed<"#))
      #expect(dom.contains("Accept all 2"), "each group has its button")
      let state = try await server.state()
      #expect((state["cases"] as? [String: String]) == ["case-1": "accepted", "case-2": "accepted", "case-5": "rejected"])
    }
    let after = contents(project.refs)
    #expect(after["case-1.png"] == FileManager.default.contents(atPath: project.report.appendingPathComponent("cases/case-1/actual.png").path))
    #expect(after["case-2.png"] == FileManager.default.contents(atPath: project.report.appendingPathComponent("cases/case-2/actual.png").path))
    #expect(after["case-3.png"] == before["case-3.png"] && after["case-5.png"] == nil)
    #expect(try log(project).map { $0["action"] as? String } == ["accept", "undo", "accept", "reject"])
  }

  @Test func rowkitReviewPrintsItsAddressAndServesTheReport() async throws {
    let project = try await project()
    defer { try? FileManager.default.removeItem(at: project.folder) }
    let process = Process()
    process.executableURL = CommandRunner.binary
    process.arguments = ["review", "report", "--snapshots", project.refs.path]
    process.currentDirectoryURL = project.work
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    defer {
      process.terminate()
      // Reaped on a thread of its own, as every wait here.
      Thread { process.waitUntilExit() }.start()
    }
    // The first line, read on a thread of its own: the read blocks until the server prints.
    let line: String = await withCheckedContinuation { continuation in
      Thread {
        var bytes: [UInt8] = []
        while let byte = try? output.fileHandleForReading.read(upToCount: 1)?.first, byte != 10 { bytes.append(byte) }
        continuation.resume(returning: String(decoding: bytes, as: UTF8.self))
      }.start()
    }
    let address = try #require(line.split(separator: " ").last.flatMap { URL(string: String($0)) }, "\(line)")
    #expect(line.hasPrefix("Reviewing 5 cases of report at http://127.0.0.1:"), "\(line)")
    let token = try #require(address.query?.split(separator: "=").last.map(String.init))
    #expect(token.count == 64)
    let server = Server(address: address, token: token)
    #expect(try await server.state()["reviewable"] as? [String] == ["case-1", "case-2", "case-3", "case-4", "case-5"])
    let page = try await server.request("/?token=\(token)")
    #expect(page.status == 200 && page.body.contains("review-bar"))
  }

  @Test func casesWithTheSamePixelDifferenceAreOneGroupUnlessASharedChangeIsAlreadyIt() async throws {
    let project = try await project()
    defer { try? FileManager.default.removeItem(at: project.folder) }
    // case-1 and case-2 changed the same subtitle in the same place: the same differing
    // pixels and colors. case-3's change is its own.
    let session = try ReviewSession(report: project.report, snapshots: project.refs, processEnvironment: ["CI": ""])
    let identical = IdenticalDifferences.groups(of: session.report, in: project.report)
    #expect(identical.map(\.names) == [["case-1", "case-2"]])
    #expect(identical.first?.kind == .identicalPixels)
    // The shared change "Same" → "Other" has the very same cases: it is not repeated.
    #expect(session.groups.map(\.kind) == [.sharedChange, .new])
  }
}
