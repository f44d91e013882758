import Foundation
import RowKit
import RowKitGraphics
@testable import RowKitReview
import RowKitTestSupport
import Testing

/// `rowkit review`'s server, started in this process on a free port and driven over HTTP
/// with curl: accept and undo to the exact bytes, groups, reject, the log and a restart,
/// every attack refused with nothing written, and the served page in Chromium driven by
/// Playwright. Serialized:
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
    /// The folder of the review's state (the key that seals its log), never the user's own.
    var state: URL { folder.appendingPathComponent("state") }
    /// The environment a review of this project runs in: CI unset, its state in ``state``.
    var reviewEnvironment: [String: String] { ["CI": "", "XDG_STATE_HOME": state.path] }
  }

  /// The failures a project's report has to review.
  enum Failures {
    /// case-1 and case-2 share one change (their subtitle "Same" → "Other"), case-3 changed
    /// alone, case-4 and case-5 have no reference; case-0 passes.
    case fiveToReview
    /// Six failed cases in two groups: case-1, case-2 and case-3 changed their subtitle
    /// "Same" → "Other", case-4, case-5 and case-6 "Same" → "Else"; case-0 passes.
    case sixInTwoGroups
  }

  func project(_ failures: Failures = .fiveToReview) async throws -> Project {
    let project = Project(folder: try TestSupport.temporaryDirectory())
    let tables = project.work.appendingPathComponent("tables")
    try FileManager.default.createDirectory(at: tables, withIntermediateDirectories: true)
    func write(_ name: String, text: String, subtitle: String) throws {
      try Data("items:\n  - { type: subtitle, text: \(text), subtitle: \(subtitle) }\n".utf8)
        .write(to: tables.appendingPathComponent("\(name).yaml"))
    }
    let recorded = failures == .fiveToReview ? 0..<4 : 0..<7
    for index in recorded { try write("case-\(index)", text: "Case \(index)", subtitle: "Same") }
    let environment = ["ROWKIT_RECORD": "", "ROWKIT_SNAPSHOT_ARTIFACTS": project.folder.appendingPathComponent("artifacts").path]
    let record = try await CommandRunner.run(
      ["check", "tables", "--snapshots", project.refs.path], in: project.work, environment: environment.merging(["CI": ""]) { $1 })
    // New cases exit 1 and are recorded.
    #expect(FileManager.default.fileExists(atPath: project.refs.appendingPathComponent("case-3.png").path), "\(record.stderr)")
    switch failures {
    case .fiveToReview:
      try write("case-1", text: "Case 1", subtitle: "Other")
      try write("case-2", text: "Case 2", subtitle: "Other")
      try write("case-3", text: "Case 3 changed", subtitle: "Same")
      try write("case-4", text: "New 4", subtitle: "Same")
      try write("case-5", text: "New 5", subtitle: "Same")
    case .sixInTwoGroups:
      for index in 1...6 { try write("case-\(index)", text: "Case \(index)", subtitle: index <= 3 ? "Other" : "Else") }
    }
    let check = try await CommandRunner.run(
      ["check", "tables", "--snapshots", project.refs.path, "--report", "report"], in: project.work,
      environment: environment.merging(["CI": "true"]) { $1 })
    let failed = failures == .fiveToReview ? "3 failed" : "6 failed"
    #expect(check.status == 1 && check.stdout.contains(failed), "\(check.stdout)\(check.stderr)")
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
    _ project: Project, environment: [String: String] = [:], _ body: @Sendable (Server) async throws -> Value
  ) async throws -> Value {
    let session = try await ReviewSession(
      report: project.report, snapshots: project.refs, processEnvironment: project.reviewEnvironment.merging(environment) { $1 })
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
      _ path: String, method: String = "GET", body: String? = nil, token: String? = nil, host: String? = nil,
      origin: String? = nil, tokenInHeader: Bool = true, headers: [String] = []
    ) async throws -> (status: Int, body: String) {
      var arguments = ["-s", "--path-as-is", "-X", method, "-w", "\n%{http_code}", base + path]
      for header in headers { arguments += ["-H", header] }
      if tokenInHeader { arguments += ["-H", "X-RowKit-Token: \(token ?? self.token)"] }
      if let origin { arguments += ["-H", "Origin: \(origin)"] }
      // An empty host sends none: curl leaves out a header given with nothing after its colon.
      if let host { arguments += ["-H", host.isEmpty ? "Host:" : "Host: \(host)"] }
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
    // A reference's permissions are the user's: kept through the accept and the undo.
    let reference = project.refs.appendingPathComponent("case-1.png").path
    try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: reference)
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
    #expect(try FileManager.default.attributesOfItem(atPath: reference)[.posixPermissions] as? Int == 0o640)
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

  /// An action keeps the bytes undo needs in one file, each file's at its range; a saved
  /// file cut short in the report folder is refused with nothing written, and a sealed log
  /// in the form written before (a file per saved file) still undoes.
  @Test func undoBytesAreOneFileAnActionAndOlderLogsStillUndo() async throws {
    let project = try await project()
    defer { try? FileManager.default.removeItem(at: project.folder) }
    let before = contents(project.refs)
    let logFile = project.report.appendingPathComponent("review-log.json")
    let session = try await ReviewSession(report: project.report, snapshots: project.refs, processEnvironment: project.reviewEnvironment)
    let accepted = try session.accept(["case-1", "case-2"])
    let saved = accepted.files.compactMap(\.saved)
    #expect(Set(saved).count == 1 && saved.count == accepted.files.filter { $0.before != nil }.count)
    #expect(try FileManager.default.contentsOfDirectory(atPath: project.report.appendingPathComponent("review-undo").path).count == 1)
    let whole = try [UInt8](Data(contentsOf: project.report.appendingPathComponent(saved[0])))
    for change in accepted.files where change.saved != nil {
      let range = try #require(change.savedRange)
      #expect(SHA256.hex(whole[range[0]..<range[0] + range[1]]) == change.before, "\(change.path)")
    }

    // The saved file cut short (it lies in the report folder, which anyone may change): the
    // ranges the sealed log names are past its end, so undo is refused and writes nothing.
    let written = try Data(contentsOf: logFile)
    let savedFile = project.report.appendingPathComponent(saved[0])
    try Data(whole.prefix(1000)).write(to: savedFile)
    let afterAccept = contents(project.refs)
    let refused = try await ReviewSession(report: project.report, snapshots: project.refs, processEnvironment: project.reviewEnvironment)
    #expect(throws: ReviewError.self) { try refused.undo() }
    #expect(contents(project.refs) == afterAccept)
    try Data(whole).write(to: savedFile)

    // The same entry as a log written before kept it: each file's bytes in a file of its own.
    var older = try JSONDecoder().decode(ReviewLog.self, from: written)
    older.entries[0].files = try older.entries[0].files.enumerated().map { index, change in
      var change = change
      guard let range = change.savedRange else { return change }
      let path = "review-undo/older-\(index)"
      try Data(whole[range[0]..<range[0] + range[1]]).write(to: project.report.appendingPathComponent(path))
      change.saved = path
      change.savedRange = nil
      return change
    }
    older.seal = try ReviewLogSeal(environment: project.reviewEnvironment).seal(older)
    try Data(try DeterministicJSON.bytes(older)).write(to: logFile)
    let reopened = try await ReviewSession(report: project.report, snapshots: project.refs, processEnvironment: project.reviewEnvironment)
    try reopened.undo()
    #expect(contents(project.refs) == before, "undo put back the exact bytes from the older log's files")
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

  /// The key that seals the log is read when the review begins: a key folder that cannot
  /// hold it stops the review before any reference changes (an accept used to replace the
  /// references and then fail to log it, with nothing left to undo it).
  @Test func anUnusableKeyFolderStopsTheReviewBeforeAnyChange() async throws {
    let project = try await project()
    defer { try? FileManager.default.removeItem(at: project.folder) }
    let keys = project.state.appendingPathComponent("rowkit")
    try FileManager.default.createDirectory(at: keys, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o775])
    let before = contents(project.refs)
    await #expect(throws: ReviewError.self) {
      _ = try await ReviewSession(report: project.report, snapshots: project.refs, processEnvironment: project.reviewEnvironment)
    }
    #expect(contents(project.refs) == before)
    #expect(!FileManager.default.fileExists(atPath: project.report.appendingPathComponent("review-undo").path))
  }

  /// Nor is a case rejected already rejected again: the second entry made the next undo say
  /// "undone" and leave the case rejected. A group with a rejected case rejects the others.
  @Test func rejectingTwiceIsRefused() async throws {
    let project = try await project()
    defer { try? FileManager.default.removeItem(at: project.folder) }
    let session = try await ReviewSession(report: project.report, snapshots: project.refs, processEnvironment: project.reviewEnvironment)
    try session.reject(["case-1"])
    #expect {
      try session.reject(["case-1"])
    } throws: { ($0 as? ReviewError)?.status == 409 && "\($0)".contains("case 'case-1' is rejected already") }
    #expect(try session.reject([], group: 0).cases == ["case-2"])
    #expect {
      try session.reject([], group: 0)
    } throws: { ($0 as? ReviewError)?.status == 409 && "\($0)".contains("every case of the request is rejected already") }
    #expect(try log(project).count == 2)
    // One undo takes one reject back, and the case is open again.
    #expect(try session.undo().cases == ["case-2"])
    #expect(try session.undo().cases == ["case-1"])
  }

  /// A case accepted already is not accepted again (a double click made a second entry that
  /// the next undo took back without a change); and a check run between an accept and its
  /// undo, which writes the render cache's inputs again, does not block the undo.
  @Test func acceptingTwiceIsRefusedAndACheckBetweenDoesNotBlockUndo() async throws {
    let project = try await project()
    defer { try? FileManager.default.removeItem(at: project.folder) }
    let before = contents(project.refs)
    let session = try await ReviewSession(report: project.report, snapshots: project.refs, processEnvironment: project.reviewEnvironment)
    try session.accept(["case-1"])
    #expect {
      try session.accept(["case-1"])
    } throws: { ($0 as? ReviewError)?.status == 409 && "\($0)".contains("case 'case-1' is accepted already") }
    // A group with an accepted case accepts the others alone.
    #expect(try session.accept([], group: 0).cases == ["case-2"])
    #expect(try log(project).count == 2)
    let check = try await CommandRunner.run(
      ["check", "tables", "--snapshots", project.refs.path], in: project.work,
      environment: ["CI": "", "ROWKIT_RECORD": "", "ROWKIT_SNAPSHOT_ARTIFACTS": project.folder.appendingPathComponent("artifacts").path])
    #expect(check.stdout.contains("PASSED case-1") && check.stdout.contains("PASSED case-2"), "\(check.stdout)\(check.stderr)")
    #expect(FileManager.default.fileExists(atPath: project.refs.appendingPathComponent("case-1.inputs.json").path))
    try session.undo()
    try session.undo()
    // The check also recorded the new case-4 and case-5; the accepted cases are as before.
    let accepted = { (files: [String: Data]) in files.filter { $0.key.hasPrefix("case-1.") || $0.key.hasPrefix("case-2.") } }
    #expect(accepted(contents(project.refs)) == accepted(before), "every byte back, the cache inputs the check wrote too")
    #expect(accepted(before).count == 6)
  }

  /// A new case is recorded by the check (outside CI); when the review ran that check itself,
  /// rejecting it removes that reference, which is still the image rejected, and undo puts
  /// it back. A report from elsewhere may call any case new: rejecting then removes nothing.
  /// Undo removes the folders an accept made, and no other; and the render cache's inputs a
  /// check wrote since.
  @Test func rejectingANewCaseRemovesWhatTheCheckRecorded() async throws {
    let project = try await project()
    defer { try? FileManager.default.removeItem(at: project.folder) }
    let tables = project.work.appendingPathComponent("tables")
    try FileManager.default.createDirectory(at: tables.appendingPathComponent("sub"), withIntermediateDirectories: true)
    try Data("items:\n  - { type: text, text: Nine }\n".utf8).write(to: tables.appendingPathComponent("sub/case-9.yaml"))
    let environment = ["ROWKIT_RECORD": "", "ROWKIT_SNAPSHOT_ARTIFACTS": project.folder.appendingPathComponent("artifacts").path]
    let recording = try await CommandRunner.run(
      ["check", "tables", "--snapshots", project.refs.path, "--report", "report"], in: project.work,
      environment: environment.merging(["CI": ""]) { $1 })
    #expect(recording.stdout.contains("NEW sub/case-9"), "\(recording.stdout)\(recording.stderr)")
    let recorded = contents(project.refs)
    #expect(recorded["sub/case-9.png"] != nil && recorded["case-4.png"] != nil)
    // Not this review's own check: its word that a case is new is not taken.
    let elsewhere = try await ReviewSession(report: project.report, snapshots: project.refs, processEnvironment: project.reviewEnvironment)
    #expect(try elsewhere.reject(["case-4"]).files.isEmpty)
    #expect(contents(project.refs) == recorded)
    try elsewhere.undo()
    let session = try await ReviewSession(
      report: project.report, snapshots: project.refs, processEnvironment: project.reviewEnvironment, checkedHere: true)
    #expect(session.groups.last?.title == "are new (the check recorded them)")
    let rejected = try session.reject(["sub/case-9", "case-4"])
    #expect(Set(rejected.files.map(\.path)).isSuperset(of: ["sub/case-9.png", "sub/case-9.layout.json", "case-4.png"]), "\(rejected.files)")
    let after = contents(project.refs)
    #expect(after["case-4.png"] == nil && after["case-5.png"] != nil && after["sub/case-9.png"] == nil)
    try session.undo()
    #expect(contents(project.refs) == recorded, "undo put back every byte the check recorded")
    // A reference changed since the check is no longer the image rejected: nothing is removed.
    try Data("changed".utf8).write(to: project.refs.appendingPathComponent("case-5.png"))
    #expect(throws: ReviewError.self) { try session.reject(["case-5"]) }
    #expect(try Data(contentsOf: project.refs.appendingPathComponent("case-5.png")) == Data("changed".utf8))
    try recorded["case-5.png"]!.write(to: project.refs.appendingPathComponent("case-5.png"))

    // Under CI nothing is recorded: accepting the case makes its folder, and undo removes it.
    try FileManager.default.removeItem(at: project.refs.appendingPathComponent("sub"))
    let missing = try await CommandRunner.run(
      ["check", "tables", "--snapshots", project.refs.path, "--report", "report"], in: project.work,
      environment: environment.merging(["CI": "true"]) { $1 })
    #expect(missing.stdout.contains("MISSING sub/case-9"), "\(missing.stdout)\(missing.stderr)")
    let ciReview = try await ReviewSession(report: project.report, snapshots: project.refs, processEnvironment: project.reviewEnvironment)
    try ciReview.accept(["sub/case-9"])
    #expect(FileManager.default.fileExists(atPath: project.refs.appendingPathComponent("sub/case-9.png").path))
    // A check between writes the case's cache inputs; undo removes them with the case.
    let between = try await CommandRunner.run(
      ["check", "tables", "--snapshots", project.refs.path], in: project.work, environment: environment.merging(["CI": ""]) { $1 })
    #expect(between.stdout.contains("PASSED sub/case-9"), "\(between.stdout)\(between.stderr)")
    #expect(FileManager.default.fileExists(atPath: project.refs.appendingPathComponent("sub/case-9.inputs.json").path))
    try ciReview.undo()
    #expect(!FileManager.default.fileExists(atPath: project.refs.appendingPathComponent("sub").path), "the folder the accept made")
    // A folder that was there, empty, before the accept stays after its undo.
    try FileManager.default.createDirectory(at: project.refs.appendingPathComponent("sub"), withIntermediateDirectories: false)
    try ciReview.accept(["sub/case-9"])
    try ciReview.undo()
    #expect(try FileManager.default.contentsOfDirectory(atPath: project.refs.appendingPathComponent("sub").path).isEmpty)
  }

  /// A report replaced by another check since the review began: the page's state says so
  /// (409), rather than offering an undo that would fail.
  @Test func theStateOfAReplacedReportSaysSo() async throws {
    let project = try await project()
    defer { try? FileManager.default.removeItem(at: project.folder) }
    try await serving(project) { server in
      _ = try await server.post("/api/accept", #"{"cases": ["case-1"]}"#)
      let again = try await CommandRunner.run(
        ["check", "tables", "--snapshots", project.refs.path, "--report", "report"], in: project.work,
        environment: ["CI": "true", "ROWKIT_RECORD": "", "ROWKIT_SNAPSHOT_ARTIFACTS": project.folder.appendingPathComponent("artifacts").path])
      #expect(again.status == 1, "\(again.stderr)")
      let state = try await server.request("/api/state")
      #expect(state.status == 409 && state.body.contains("replaced since this review began"), "\(state)")
    }
  }

  @Test func everyAttackIsRefusedAndNothingIsWritten() async throws {
    let project = try await project()
    defer { try? FileManager.default.removeItem(at: project.folder) }
    let (refs, report) = (contents(project.refs), contents(project.report))
    try await serving(project) { server in
      let accept = #"{"cases": ["case-1"]}"#
      // Undo first needs something to undo: an accept, taken back at the end of this test.
      #expect(try await server.post("/api/accept", accept)["reviewed"] as? Int == 1)
      let changes = [("/api/accept", accept), ("/api/reject", #"{"cases": ["case-3"]}"#), ("/api/undo", "{}"), ("/api/accept", #"{"group": 0}"#)]
      let (refsAccepted, reportAccepted) = (contents(project.refs), contents(project.report))
      // No token, a wrong one, and the token of another length, on every request.
      for token in ["", String(repeating: "0", count: 64), "x"] {
        for (path, body) in changes {
          let answer = try await server.request(path, method: "POST", body: body, token: token)
          #expect(answer.status == 403 && answer.body.contains("token"), "\(path) with token '\(token)': \(answer)")
        }
        #expect(try await server.request("/api/state", token: token).status == 403)
        #expect(try await server.request("/?token=\(token)", token: token).status == 403)
      }
      // A foreign Host (a page of another site whose name was rebound to 127.0.0.1), or none,
      // with the right token: every request, the page and its state too.
      for host in ["evil.example:\(server.port)", "127.0.0.1", "localhost:1", "127.0.0.1.evil.example:\(server.port)", ""] {
        for (path, body) in changes {
          let answer = try await server.request(path, method: "POST", body: body, host: host)
          #expect(answer.status == 403 && answer.body.contains("Host"), "\(path) with Host '\(host)': \(answer)")
        }
        for path in ["/?token=\(server.token)", "/api/state", "/cases/case-1/actual.png"] {
          let answer = try await server.request(path, host: host)
          #expect(answer.status == 403 && answer.body.contains("Host"), "\(path) with Host '\(host)': \(answer)")
        }
      }
      // The right token in the address, not the page's header: what a form or an image of
      // another site can send (the address is in the browser's history). And the header
      // with another site's Origin, as a browser sends it.
      for (path, body) in changes {
        let inAddress = try await server.request("\(path)?token=\(server.token)", method: "POST", body: body, tokenInHeader: false)
        #expect(inAddress.status == 403 && inAddress.body.contains("X-RowKit-Token header"), "\(path): \(inAddress)")
        for origin in ["http://evil.example", "http://127.0.0.1:\(server.port + 1)", "null", "https://127.0.0.1:\(server.port)"] {
          let answer = try await server.request(path, method: "POST", body: body, origin: origin)
          #expect(answer.status == 403 && answer.body.contains("not from \(origin)"), "\(path) from \(origin): \(answer)")
        }
      }
      #expect(contents(project.refs) == refsAccepted && contents(project.report) == reportAccepted, "nothing was written")
      // From the page itself, as a browser sends it: its own origin.
      let fromPage = try await server.request("/api/undo", method: "POST", body: "{}", origin: "http://127.0.0.1:\(server.port)")
      #expect(fromPage.status == 200, "\(fromPage)")
      #expect(try await server.post("/api/accept", accept)["reviewed"] as? Int == 1)
      #expect(try await server.post("/api/undo")["reviewed"] as? Int == 0)
      // Case names that are paths: plain, absolute, percent-encoded, and escaped in the JSON
      // (\u002e is a dot, \u002f a slash).
      for name in [
        "../../etc/passwd", "/etc/passwd", "%2e%2e/%2e%2e/etc/passwd", "%2E%2E%2F%2E%2E%2Fetc%2Fpasswd", "..%2f..%2fetc%2fpasswd",
        #"\u002e\u002e/\u002e\u002e/etc/passwd"#, #"\u002fetc\u002fpasswd"#, "case-1/../../x", "./case-1", "cases/case-1/actual.png", "",
      ] {
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
      // An image of another site's page, as a browser marks its request, is refused; the
      // review page's own, and an address typed in, are not.
      for (site, status) in [("cross-site", 403), ("same-site", 403), ("same-origin", 200), ("none", 200)] {
        let answer = try await server.request("/cases/case-1/actual.png", headers: ["Sec-Fetch-Site: \(site)"])
        #expect(answer.status == status, "Sec-Fetch-Site: \(site): \(answer.status)")
      }
      // An image larger than any of a report's (a sparse file): refused, never read.
      let huge = project.report.appendingPathComponent("cases/case-2/actual.png")
      let original = try Data(contentsOf: huge)
      let handle = try FileHandle(forWritingTo: huge)
      try handle.truncate(atOffset: UInt64(ReviewServer.maximumImageBytes + 1))
      try handle.close()
      #expect(try await server.request("/cases/case-2/actual.png").status == 413)
      try original.write(to: huge)
      // Changes are POSTs only.
      let get = try await server.request("/api/accept?cases=case-1")
      #expect(get.status == 405 && get.body.contains("/api/accept takes POST only"), "\(get)")
      #expect(try await server.request("/api/accept", method: "PUT", body: accept).status == 405)
    }
    #expect(contents(project.refs) == refs, "no reference changed")
    let written = Set(contents(project.report).keys).subtracting(report.keys)
    #expect(written.allSatisfy { $0 == "review-log.json" || $0.hasPrefix("review-undo") }, "\(written.sorted())")
    #expect(
      try log(project).map { $0["action"] as? String } == ["accept", "undo", "accept", "undo"], "the refused requests left no entry")
  }

  @Test func aReferenceThatIsALinkOutOfTheFolderIsNeverWrittenThrough() async throws {
    let project = try await project()
    defer { try? FileManager.default.removeItem(at: project.folder) }
    // case-1's reference is a link to a file outside the references: accepting case-1 would
    // write the actual image there if the link were followed.
    let outside = project.folder.appendingPathComponent("outside.png")
    let reference = project.refs.appendingPathComponent("case-1.png")
    try FileManager.default.moveItem(at: reference, to: outside)
    try FileManager.default.createSymbolicLink(at: reference, withDestinationURL: outside)
    let (outsideBytes, refs) = (try Data(contentsOf: outside), contents(project.refs))
    try await serving(project) { server in
      let answer = try await server.request("/api/accept", method: "POST", body: #"{"cases": ["case-1"]}"#)
      #expect(answer.status == 409 && answer.body.contains("case-1.png leads out of the references folder"), "\(answer)")
      #expect(try await server.state()["reviewed"] as? Int == 0)
    }
    #expect(try Data(contentsOf: outside) == outsideBytes, "the file outside is untouched")
    #expect(try FileManager.default.destinationOfSymbolicLink(atPath: reference.path) == outside.path, "the link is still the link")
    #expect(contents(project.refs) == refs)
  }

  @Test func aReviewLogIsBoundToItsReportAndRefusedBesideAnother() async throws {
    let project = try await project()
    defer { try? FileManager.default.removeItem(at: project.folder) }
    try await serving(project) { server in
      let accepted = try await server.post("/api/accept", #"{"cases": ["case-1"]}"#)
      #expect(accepted["reviewed"] as? Int == 1)
    }
    let logFile = project.report.appendingPathComponent("review-log.json")
    let bound = try JSONSerialization.jsonObject(with: Data(contentsOf: logFile)) as? [String: Any]
    let reportBytes = try Data(contentsOf: project.report.appendingPathComponent("report.json"))
    #expect(bound?["report"] as? String == SHA256.hex([UInt8](reportBytes)), "the log names its report.json by its SHA-256")

    // Another check of the same documents: another report, whose cases the log's entries
    // are not about (case-1's accept would be undone against files it never wrote).
    let other = try await CommandRunner.run(
      ["check", "tables", "--snapshots", project.refs.path, "--report", "other"], in: project.work,
      environment: ["CI": "true", "ROWKIT_SNAPSHOT_ARTIFACTS": project.folder.appendingPathComponent("artifacts").path])
    #expect(other.status == 1, "\(other.stderr)")
    let otherLog = project.work.appendingPathComponent("other/review-log.json")
    try FileManager.default.copyItem(at: logFile, to: otherLog)
    await #expect(throws: ReviewError.self) {
      try await ReviewSession(report: project.work.appendingPathComponent("other"), snapshots: project.refs, processEnvironment: project.reviewEnvironment)
    }
    let review = try await ReviewProgram(["other", "--snapshots", project.refs.path], in: project.work)
    defer { review.stopIfRunning() }
    // Nothing on stdout: it ended before serving (a server would print its address, and be
    // stopped here, failing the test rather than hanging it).
    #expect(review.firstLine.isEmpty, "\(review.firstLine)")
    let refused = review.firstLine.isEmpty ? await review.end() : await review.stop()
    #expect(refused.status == 2)
    #expect(refused.standardError.contains("other/review-log.json: the review log of another report"), "\(refused.standardError)")
    // Its own report still opens with it, the accept in force.
    let session = try await ReviewSession(report: project.report, snapshots: project.refs, processEnvironment: project.reviewEnvironment)
    #expect(session.currentLog.reviews == ["case-1": .accept])
  }

  /// A review log planted in the report folder (a pull request's CI run writes the folder,
  /// log included) that names files of the references as made or changed by an accept:
  /// undo would remove them, or write the bytes it names over them. Without this user's seal
  /// it is refused whole, by the session and by `rowkit review` (exit 2), and nothing is
  /// written; sealed with another user's key, too.
  @Test func aLogWithoutTheUsersSealIsRefusedAndNothingIsWritten() async throws {
    let project = try await project()
    defer { try? FileManager.default.removeItem(at: project.folder) }
    let notes = project.refs.appendingPathComponent("README.md")
    try Data("notes the project keeps beside its references\n".utf8).write(to: notes)
    let refs = contents(project.refs)
    func digest(_ name: String) -> String { SHA256.hex([UInt8](refs[name]!)) }
    let reportBytes = try [UInt8](Data(contentsOf: project.report.appendingPathComponent("report.json")))
    var planted = ReviewLog()
    planted.report = SHA256.hex(reportBytes)
    planted.entries = [
      ReviewLog.Entry(
        id: 1, time: "2026-01-01T00:00:00Z", action: .accept, cases: ["case-1"], group: nil, undoes: nil,
        files: [
          ReviewLog.FileChange(case: "case-1", path: "case-0.png", before: nil, after: digest("case-0.png"), saved: nil),
          ReviewLog.FileChange(case: "case-1", path: "README.md", before: nil, after: digest("README.md"), saved: nil),
        ])
    ]
    let logFile = project.report.appendingPathComponent("review-log.json")
    let otherUser = ["CI": "", "XDG_STATE_HOME": project.folder.appendingPathComponent("other-user").path]
    for seal in [nil, try ReviewLogSeal(environment: otherUser).seal(planted)] {
      var log = planted
      log.seal = seal
      try Data(try DeterministicJSON.bytes(log)).write(to: logFile)
      let report = contents(project.report)
      await #expect {
        try await ReviewSession(report: project.report, snapshots: project.refs, processEnvironment: project.reviewEnvironment)
      } throws: { error in
        "\(error)".contains("review-log.json: not a review log that your rowkit review wrote")
      }
      let review = try await ReviewProgram(["report", "--snapshots", project.refs.path], in: project.work)
      defer { review.stopIfRunning() }
      #expect(review.firstLine.isEmpty, "it ended before serving: \(review.firstLine)")
      let refused = review.firstLine.isEmpty ? await review.end() : await review.stop()
      #expect(refused.status == 2 && refused.standardError.contains("move it away"), "\(refused.standardError)")
      #expect(contents(project.refs) == refs, "no reference removed or written")
      #expect(contents(project.report) == report, "nothing written into the report")
    }
    // Moved away, the review starts over, and this user's own log opens again after a restart.
    try FileManager.default.removeItem(at: logFile)
    let session = try await ReviewSession(report: project.report, snapshots: project.refs, processEnvironment: project.reviewEnvironment)
    try session.reject(["case-3"])
    let reopened = try await ReviewSession(report: project.report, snapshots: project.refs, processEnvironment: project.reviewEnvironment)
    #expect(reopened.currentLog.reviews == ["case-3": .reject])
    let key = project.state.appendingPathComponent("rowkit/review-key")
    let attributes = try FileManager.default.attributesOfItem(atPath: key.path)
    #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600, "the key is readable by its owner alone")
    // A key others may read, or in a folder others may write: refused, never used.
    #expect(chmod(key.path, 0o644) == 0)
    await #expect {
      try await ReviewSession(report: project.report, snapshots: project.refs, processEnvironment: project.reviewEnvironment)
    } throws: { error in
      "\(error)".contains("review-key: another user's, or open to others (mode 644)")
    }
    #expect(chmod(key.path, 0o600) == 0)
    #expect(chmod(key.deletingLastPathComponent().path, 0o777) == 0)
    await #expect {
      try await ReviewSession(report: project.report, snapshots: project.refs, processEnvironment: project.reviewEnvironment)
    } throws: { error in
      "\(error)".contains("rowkit: not a folder of yours that only you can write")
    }
    #expect(chmod(key.deletingLastPathComponent().path, 0o700) == 0)
    // A key file that is not a key (not 64 hexadecimal digits): named, never used.
    for garbage in ["é" + String(repeating: "0", count: 62), String(repeating: "g", count: 64), "00"] {
      try Data(garbage.utf8).write(to: key)
      await #expect {
        try await ReviewSession(report: project.report, snapshots: project.refs, processEnvironment: project.reviewEnvironment)
      } throws: { error in
        "\(error)" == "\(key.path): not the key that seals review logs (a regular file of 64 hexadecimal digits); move it away"
      }
    }
  }

  /// Two reviews of one report (two servers, two terminals) act on one log, each reading it
  /// again under the report folder's lock: neither writes its copy over the other's entries,
  /// and undo takes back the latest action of either. A report replaced by another check
  /// while a review runs is refused: the page shows other cases.
  @Test func twoReviewsOfOneReportTakeTurnsOnOneLog() async throws {
    let project = try await project()
    defer { try? FileManager.default.removeItem(at: project.folder) }
    let before = contents(project.refs)
    let first = try await ReviewSession(report: project.report, snapshots: project.refs, processEnvironment: project.reviewEnvironment)
    let second = try await ReviewSession(report: project.report, snapshots: project.refs, processEnvironment: project.reviewEnvironment)
    let accepted = try first.accept(["case-4"])
    try second.accept(["case-5"])
    #expect(try log(project).map { $0["cases"] as? [String] } == [["case-4"], ["case-5"]])
    // A page of the first review that showed its own accept as the one to undo: refused,
    // nothing undone, since the second review's is the latest now.
    #expect {
      try first.undo(expecting: accepted.id)
    } throws: { error in
      "\(error)".contains("the latest action is now entry 2 (accept case-5), not entry 1 that the page showed")
    }
    #expect(try first.refreshedLog().nextUndo?.id == 2, "the page's state is read from the log on disk")
    // The first review's undo takes back the second's accept, the latest; then its own.
    #expect(try first.undo().cases == ["case-5"])
    #expect(try first.undo().cases == ["case-4"])
    #expect(contents(project.refs) == before, "every byte back, environment.json included")

    let check = try await CommandRunner.run(
      ["check", "tables", "--snapshots", project.refs.path, "--report", "report"], in: project.work,
      environment: ["CI": "true", "ROWKIT_SNAPSHOT_ARTIFACTS": project.folder.appendingPathComponent("artifacts").path])
    #expect(check.status == 1, "\(check.stderr)")
    #expect {
      try first.accept(["case-1"])
    } throws: { error in
      "\(error)".contains("report.json: replaced since this review began")
    }
    #expect(contents(project.refs) == before)
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

  /// The group the review server adds (the cases with no reference yet), which the report's
  /// page does not list, names its cases as links, as the report's own group lines do:
  /// Tests/Browser/review-groups.py in Chromium through Playwright.
  @Test func theAddedGroupLinesLinkTheirCases() async throws {
    let project = try await project()
    defer { try? FileManager.default.removeItem(at: project.folder) }
    let python = TestSupport.repositoryRoot.appendingPathComponent(".venv/bin/python")
    try #require(FileManager.default.isExecutableFile(atPath: python.path), "bash scripts/setup.sh --tests makes .venv, with Playwright")
    try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/chromium"), "bash scripts/setup.sh --tests installs Debian's chromium")
    let script = TestSupport.repositoryRoot.appendingPathComponent("Tests/Browser/review-groups.py")
    let browser = try await CommandRunner.runProgram(
      python, [script.path, CommandRunner.binary.path, project.work.path, project.refs.path], environment: project.reviewEnvironment)
    #expect(browser.status == 0, "\(browser.stdout)\(browser.stderr)")
    #expect(
      browser.stdout == "the group of the cases with no reference names them\nits link to case-5 makes case-5 current\n",
      "\(browser.stderr)")
  }

  /// The page in a real browser: Tests/Browser/review-page.py serves the report with the
  /// built `rowkit review` and drives Debian's Chromium through Playwright, with the page's
  /// own keys and buttons (a held down accepts case-1 once, u undoes it, twice, g g accepts
  /// case-1's group, case-5's Reject button, the focus and scrolling make a case current, a
  /// second tab's stale undo is refused, a reload keeps it all), then a page that holds 2 cases as HTML adds the
  /// others with their reviews; here the files it left are checked byte for byte.
  @Test func thePageReviewsWithItsKeysInChromiumThroughPlaywright() async throws {
    let project = try await project(.sixInTwoGroups)
    defer { try? FileManager.default.removeItem(at: project.folder) }
    let python = TestSupport.repositoryRoot.appendingPathComponent(".venv/bin/python")
    try #require(FileManager.default.isExecutableFile(atPath: python.path), "bash scripts/setup.sh --tests makes .venv, with Playwright")
    try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/chromium"), "bash scripts/setup.sh --tests installs Debian's chromium")
    let before = contents(project.refs)
    let script = TestSupport.repositoryRoot.appendingPathComponent("Tests/Browser/review-page.py")
    // CI is set when CI runs these tests, and rowkit review would refuse every accept.
    let browser = try await CommandRunner.runProgram(
      python, [script.path, CommandRunner.binary.path, project.work.path, project.refs.path], environment: project.reviewEnvironment)
    #expect(browser.status == 0, "\(browser.stdout)\(browser.stderr)")
    #expect(
      browser.stdout == """
        from disk: the static page
        opened: 0 of 6 reviewed, case-1 current, 2 groups of 3, u: nothing to undo
        a held down: case-1 accepted once, case-2 current
        u: case-1 undone, case-1 current, twice
        g g: the group of case-1 accepted
        Reject: case-5 rejected, its Reject button disabled
        click on case-4, a: case-4 accepted, u: undone
        focus in case-6 makes it current; out of sight, no key acts on it; scrolled to case-1, it is current
        a second tab's undo of what it showed is refused, and it shows the state again
        reload: 4 of 6 reviewed, each case as it was
        served with 2 cases as HTML, the others as text
        #case=case-6: every case added in the report's order, case-6 current
        added cases: their reviews shown, their buttons there, k to case-5
        go to case: case-2 by its name, then case-6 by a part of it

        """, "\(browser.stderr)")

    // The accepted cases' references are their actual images, byte for byte; every other file
    // of the references (the rejected case-5, the unreviewed case-4 and case-6, the passed
    // case-0, case-1's accept that was undone) has its bytes from before.
    let after = contents(project.refs)
    var accepted: [String: Data] = [:]
    for name in ["case-1", "case-2", "case-3"] {
      let actual = try Data(contentsOf: project.report.appendingPathComponent("cases/\(name)/actual.png"))
      #expect(after["\(name).png"] == actual, "\(name) is accepted")
      #expect(after["\(name).png"] != before["\(name).png"])
      accepted[name] = actual
    }
    let untouched = before.keys.filter { path in !["case-1.", "case-2.", "case-3.", "environment.json"].contains { path.hasPrefix($0) } }
    #expect(untouched.count >= 8, "\(before.keys.sorted())")
    for path in untouched { #expect(after[path] == before[path], "\(path) keeps its bytes") }
    #expect(Set(after.keys).subtracting(before.keys).isEmpty, "no new file in the references")

    // The log: each action in order, with the SHA-256 of every file before and after.
    let entries = try log(project)
    #expect(
      entries.map { $0["action"] as? String }
        == ["accept", "undo", "accept", "undo", "accept", "reject", "accept", "undo", "accept", "undo"])
    #expect(
      entries.map { $0["cases"] as? [String] ?? [] }
        == [
          ["case-1"], ["case-1"], ["case-1"], ["case-1"], ["case-1", "case-2", "case-3"], ["case-5"], ["case-4"], ["case-4"],
          ["case-6"], ["case-6"],
        ])
    #expect(entries[1]["undoes"] as? Int == 1 && entries[3]["undoes"] as? Int == 3)
    #expect(entries[4]["group"] as? String == #"subtitle text "Same" → "Other""#)
    #expect(entries[5]["files"] as? [Any] == nil || (entries[5]["files"] as? [Any])?.isEmpty == true, "a reject writes no file")
    let groupFiles = entries[4]["files"] as? [[String: Any]] ?? []
    for (name, actual) in accepted.sorted(by: { $0.key < $1.key }) {
      let image = try #require(groupFiles.first { $0["path"] as? String == "\(name).png" }, "\(groupFiles)")
      #expect(image["before"] as? String == SHA256.hex([UInt8](before["\(name).png"]!)))
      #expect(image["after"] as? String == SHA256.hex([UInt8](actual)))
    }
    let undone = entries[1]["files"] as? [[String: Any]] ?? []
    let image = try #require(undone.first { $0["path"] as? String == "case-1.png" })
    #expect(image["after"] as? String == SHA256.hex([UInt8](before["case-1.png"]!)), "the undo put case-1's reference back")
  }

  /// `rowkit review` run as a user runs it, in `folder`, and the first line it printed (its
  /// address, or what it printed before it ended). `stop()` sends it SIGTERM and returns its
  /// exit status; `standardError` is what it printed there by then. Its state (the key that
  /// seals review logs) is in `state/` beside `folder`, as in a ``Project``.
  final class ReviewProgram: Sendable {
    let process: Process
    let firstLine: String
    private let errors: Pipe

    init(_ arguments: [String], in folder: URL, environment: [String: String] = [:]) async throws {
      process = Process()
      process.executableURL = CommandRunner.binary
      process.arguments = ["review"] + arguments
      process.currentDirectoryURL = folder
      let state = folder.deletingLastPathComponent().appendingPathComponent("state")
      process.environment = ProcessInfo.processInfo.environment.merging(["XDG_STATE_HOME": state.path]) { $1 }
        .merging(environment) { $1 }
      let output = Pipe()
      errors = Pipe()
      process.standardOutput = output
      process.standardError = errors
      try process.run()
      // The first line, read on a thread of its own: the read blocks until the server prints.
      firstLine = await withCheckedContinuation { continuation in
        Thread {
          var bytes: [UInt8] = []
          while let byte = try? output.fileHandleForReading.read(upToCount: 1)?.first, byte != 10 { bytes.append(byte) }
          continuation.resume(returning: String(decoding: bytes, as: UTF8.self))
        }.start()
      }
    }

    /// The server the first line names.
    func server() throws -> Server {
      let address = try #require(firstLine.split(separator: " ").last.flatMap { URL(string: String($0)) }, "\(firstLine)")
      let token = try #require(address.query?.split(separator: "=").last.map(String.init))
      return Server(address: address, token: token)
    }

    /// Sends it SIGTERM when it still runs, without waiting: for a test that ended early.
    func stopIfRunning() {
      if process.isRunning { process.terminate() }
    }

    /// Stops it (when it still runs) and waits for its end.
    func stop() async -> (status: Int32, standardError: String) {
      if process.isRunning { process.terminate() }
      return await end()
    }

    /// Waits for its end, on a thread of its own: its exit status and what it printed on
    /// standard error.
    func end() async -> (status: Int32, standardError: String) {
      await withCheckedContinuation { continuation in
        Thread {
          let text = self.errors.fileHandleForReading.readDataToEndOfFile()
          self.process.waitUntilExit()
          continuation.resume(returning: (self.process.terminationStatus, String(decoding: text, as: UTF8.self)))
        }.start()
      }
    }
  }

  /// A port in use is said at once, by its number, and rowkit review ends with status 2.
  @Test func aPortInUseIsSaidAtOnce() async throws {
    let project = try await project()
    defer { try? FileManager.default.removeItem(at: project.folder) }
    try await serving(project) { server in
      let taken = try await CommandRunner.run(
        ["review", "report", "--snapshots", project.refs.path, "--port", String(server.port)], in: project.work,
        environment: project.reviewEnvironment)
      #expect(taken.status == 2, "\(taken.stderr)")
      #expect(taken.stderr.contains("cannot serve on 127.0.0.1:\(server.port): port \(server.port) is in use"), "\(taken.stderr)")
    }
  }

  @Test func rowkitReviewPrintsItsAddressAndServesTheReport() async throws {
    let project = try await project()
    defer { try? FileManager.default.removeItem(at: project.folder) }
    let review = try await ReviewProgram(["report", "--snapshots", project.refs.path], in: project.work)
    defer { review.stopIfRunning() }
    #expect(review.firstLine.hasPrefix("Reviewing 5 cases of report at http://127.0.0.1:"), "\(review.firstLine)")
    let server = try review.server()
    #expect(server.token.count == 64)
    #expect(try await server.state()["reviewable"] as? [String] == ["case-1", "case-2", "case-3", "case-4", "case-5"])
    let page = try await server.request("/?token=\(server.token)")
    #expect(page.status == 200 && page.body.contains("review-bar"))
    _ = await review.stop()
  }

  /// `rowkit review DOCS --snapshots DIR` checks the documents into a report folder of its
  /// own under the temporary folder, serves it, and removes it when it stops; with nothing to
  /// review, or bad input, it says so and leaves nothing either.
  @Test func rowkitReviewOfDocumentsChecksThemIntoAFolderItRemoves() async throws {
    let project = try await project()
    defer { try? FileManager.default.removeItem(at: project.folder) }
    let temporary = project.folder.appendingPathComponent("tmp")
    try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
    func left() -> [String] { (try? FileManager.default.contentsOfDirectory(atPath: temporary.path)) ?? [] }
    // Accepting is the point here: CI is not set, whatever runs these tests.
    let environment = ["TMPDIR": temporary.path, "CI": "", "ROWKIT_RECORD": "never"]

    let review = try await ReviewProgram(["tables", "--snapshots", project.refs.path], in: project.work, environment: environment)
    defer { review.stopIfRunning() }
    #expect(review.firstLine.hasPrefix("Reviewing 5 cases of \(temporary.path)/rowkit-review-"), "\(review.firstLine)")
    let made = left()
    #expect(made.count == 1 && made.first?.hasPrefix("rowkit-review-") == true, "\(made)")
    let report = temporary.appendingPathComponent(made.first ?? "none").appendingPathComponent("report")
    #expect(FileManager.default.fileExists(atPath: report.appendingPathComponent("report.json").path))
    let server = try review.server()
    #expect(try await server.state()["reviewable"] as? [String] == ["case-1", "case-2", "case-3", "case-4", "case-5"])
    let actual = try Data(contentsOf: report.appendingPathComponent("cases/case-1/actual.png"))
    #expect(try await server.post("/api/accept", #"{"cases": ["case-1"]}"#)["reviewed"] as? Int == 1)
    let stopped = await review.stop()
    #expect(stopped.status == 128 + SIGTERM, "\(stopped.standardError)")
    #expect(stopped.standardError.contains("3 failed"), "the check's summary: \(stopped.standardError)")
    #expect(left().isEmpty, "the report folder is removed when review stops: \(left())")
    #expect(try Data(contentsOf: project.refs.appendingPathComponent("case-1.png")) == actual, "the accept stays")

    // The check's own options after --: within the tolerance, the changed cases pass and
    // only the two with no reference are left to review.
    let tolerant = try await ReviewProgram(
      ["tables", "--snapshots", project.refs.path, "--", "--max-diff-pixels", "100000", "--jobs", "1"], in: project.work,
      environment: environment)
    defer { tolerant.stopIfRunning() }
    #expect(tolerant.firstLine.hasPrefix("Reviewing 2 cases of \(temporary.path)/rowkit-review-"), "\(tolerant.firstLine)")
    #expect(try await tolerant.server().state()["reviewable"] as? [String] == ["case-4", "case-5"])
    #expect(await tolerant.stop().status == 128 + SIGTERM)
    #expect(left().isEmpty, "\(left())")
    // A bad option is the check's error; options review sets itself, or options for a report
    // folder, are refused before anything runs.
    for (arguments, error) in [
      (["tables", "--snapshots", project.refs.path, "--", "--jobs", "0"], "--jobs"),
      (["tables", "--snapshots", project.refs.path, "--", "--report", "elsewhere"], "--report after --"),
      (["report", "--snapshots", project.refs.path, "--", "--jobs", "1"], "report is a report folder"),
    ] {
      let refused = try await ReviewProgram(arguments, in: project.work, environment: environment)
      defer { refused.stopIfRunning() }
      #expect(refused.firstLine.isEmpty, "\(refused.firstLine)")
      let ended = await refused.end()
      #expect(ended.status == 2 && ended.standardError.contains(error), "\(arguments): \(ended.standardError)")
    }
    #expect(left().isEmpty, "\(left())")
    #expect(!FileManager.default.fileExists(atPath: project.work.appendingPathComponent("elsewhere").path))

    // Every case passes: nothing to review.
    let passing = project.work.appendingPathComponent("passing")
    try FileManager.default.createDirectory(at: passing, withIntermediateDirectories: true)
    try FileManager.default.copyItem(at: project.work.appendingPathComponent("tables/case-0.yaml"), to: passing.appendingPathComponent("case-0.yaml"))
    let nothing = try await ReviewProgram(["passing", "--snapshots", project.refs.path], in: project.work, environment: environment)
    defer { nothing.stopIfRunning() }
    #expect(nothing.firstLine == "Every case of passing passed: nothing to review.")
    #expect(await nothing.end().status == 0)
    #expect(left().isEmpty, "\(left())")

    // A bad document: the check's error, exit 2, nothing left.
    try Data("items:\n  - { type: txt }\n".utf8).write(to: passing.appendingPathComponent("bad.yaml"))
    let bad = try await ReviewProgram(["passing", "--snapshots", project.refs.path], in: project.work, environment: environment)
    defer { bad.stopIfRunning() }
    #expect(bad.firstLine.isEmpty)
    let failed = await bad.end()
    #expect(failed.status == 2 && failed.standardError.contains("bad.yaml:2:") && failed.standardError.contains("no report to review"), "\(failed.standardError)")
    #expect(left().isEmpty, "\(left())")
  }

  @Test func casesWithTheSamePixelDifferenceAreOneGroupUnlessASharedChangeIsAlreadyIt() async throws {
    let project = try await project()
    defer { try? FileManager.default.removeItem(at: project.folder) }
    // case-1 and case-2 changed the same subtitle in the same place: the same differing
    // pixels and colors. case-3's change is its own.
    let session = try await ReviewSession(report: project.report, snapshots: project.refs, processEnvironment: project.reviewEnvironment)
    let identical = await IdenticalDifferences.groups(of: session.report, in: project.report)
    #expect(identical.map(\.names) == [["case-1", "case-2"]])
    #expect(identical.first?.kind == .identicalPixels)
    // The shared change "Same" → "Other" has the very same cases: it is not repeated.
    #expect(session.groups.map(\.kind) == [.sharedChange, .new])
  }
}
