import Foundation
import RowKitTestSupport
import Testing

/// `rowkit check --jobs N` checks its cases in this process and N − 1 helper processes
/// (`SnapshotCheck.HelperProcesses`): the output, the report and its images are those of one
/// process, and a helper that does not start or stops early leaves its cases to the check.
@Suite struct HelperProcessCommandTests {
  /// Documents, a variant matrix and a design's previews, recorded, with one document changed
  /// since: a failing case with its images.
  private struct Suite {
    let folder: URL
    var docs: URL { folder.appendingPathComponent("docs") }
    var designs: URL { folder.appendingPathComponent("designs") }
    var refs: URL { folder.appendingPathComponent("refs") }

    init(_ name: String = #function) async throws {
      folder = try TestSupport.temporaryDirectory(name)
      var files: [String: String] = [
        "docs/varied.yaml": """
          variants: { appearance: [light, dark], textSize: [large, AX2] }
          items:
            - { type: subtitle, text: Varied, subtitle: Four ways }
            - { type: text, text: "Καλημέρα κόσμε · مرحبا بالعالم · 你好，世界" }

          """,
        "designs/card.yaml": """
          padding: [10, 12, 10, 12]
          preview: [{ title: First }, { title: Second }]
          body:
            label: { bind: title, font: "Inter 17", color: "#000000", name: title }

          """,
      ]
      for index in 1...10 {
        let rows = (1...12).map { "  - { type: subtitle, text: \"Row \($0) of \(index)\", subtitle: \"Detail \($0)\" }" }
        files["docs/list\(index).yaml"] = "items:\n" + rows.joined(separator: "\n") + "\n"
      }
      for (path, text) in files {
        let url = folder.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: url, atomically: true, encoding: .utf8)
      }
      let recorded = try await CommandRunner.run(
        arguments(["--record", "all", "--jobs", "1"]), in: folder, environment: ["CI": ""])
      #expect(recorded.status == 1, "\(recorded.stderr)")
      try "items: [{ type: text, text: Changed }]\n".write(
        to: docs.appendingPathComponent("list3.yaml"), atomically: true, encoding: .utf8)
    }

    func arguments(_ more: [String]) -> [String] {
      ["check", "docs", "--designs", "designs", "--snapshots", "refs"] + more
    }

    /// A program that logs what a helper reads and writes, and runs rowkit as the helper.
    func loggingHelper() throws -> URL {
      let script = folder.appendingPathComponent("logging-helper.sh")
      let logs = folder.path
      try """
        #!/bin/sh
        tee -a '\(logs)/helper-input.log' | '\(CommandRunner.binary.path)' "$@" | tee -a '\(logs)/helper-output.log'

        """.write(to: script, atomically: true, encoding: .utf8)
      try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
      return script
    }

    /// Every file under `folder`, by path relative to it.
    func files(under folder: URL) throws -> [String: Data] {
      var files: [String: Data] = [:]
      let root = folder.standardizedFileURL.path + "/"
      guard let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else { return [:] }
      for case let url as URL in enumerator {
        guard !url.hasDirectoryPath else { continue }
        files[String(url.standardizedFileURL.path.dropFirst(root.count))] = try Data(contentsOf: url)
      }
      return files
    }
  }

  /// A program that appends its own blocked-signal mask (the `SigBlk` line of its status,
  /// read with the shell's builtins: a command the shell forks would show the shell's mask
  /// while it forks) to `log`, then runs rowkit as the helper.
  private static func maskLoggingHelper(in folder: URL, log: URL) throws -> URL {
    let script = folder.appendingPathComponent("mask-helper.sh")
    try """
      #!/bin/sh
      while read -r line; do case $line in SigBlk*) echo "$line" >> '\(log.path)';; esac; done < /proc/$$/status
      exec '\(CommandRunner.binary.path)' "$@"

      """.write(to: script, atomically: true, encoding: .utf8)
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
    return script
  }

  /// report.json without the cases' times, which differ from run to run.
  private static func untimedReport(_ data: Data?) throws -> NSDictionary {
    let bytes = try #require(data)
    var report = try #require(JSONSerialization.jsonObject(with: bytes) as? [String: Any])
    report["cases"] = (report["cases"] as? [[String: Any]])?.map { $0.filter { $0.key != "seconds" } }
    return report as NSDictionary
  }

  @Test func helpersCheckASuiteAsOneProcessDoes() async throws {
    let suite = try await Suite()
    defer { try? FileManager.default.removeItem(at: suite.folder) }
    let one = try await CommandRunner.run(suite.arguments(["--jobs", "1", "--report", "report"]), in: suite.folder)
    let oneReport = try suite.files(under: suite.folder.appendingPathComponent("report"))
    try FileManager.default.removeItem(at: suite.folder.appendingPathComponent("report"))
    let three = try await CommandRunner.run(
      suite.arguments(["--jobs", "3", "--report", "report", "--helper-executable", try suite.loggingHelper().path]),
      in: suite.folder)
    let threeReport = try suite.files(under: suite.folder.appendingPathComponent("report"))

    #expect(one.status == 1 && three.status == 1, "\(one.stderr)\n\(three.stderr)")
    #expect(one.stdout.contains("FAILED list3"))
    #expect(three.stdout == one.stdout)
    #expect(three.stderr == one.stderr)
    #expect(try Self.untimedReport(threeReport["report.json"]) == Self.untimedReport(oneReport["report.json"]))
    #expect(Set(threeReport.keys) == Set(oneReport.keys))
    #expect(oneReport.keys.contains { $0.hasSuffix("diff.png") }, "the failing case has its images")
    for (path, bytes) in oneReport where path.hasSuffix(".png") || path.hasSuffix(".layout.json") {
      #expect(threeReport[path] == bytes, "\(path)")
    }
    // Both helpers started and were told the check's setup.
    let input = try String(contentsOf: suite.folder.appendingPathComponent("helper-input.log"), encoding: .utf8)
    #expect(input.components(separatedBy: "\n").filter { $0.contains("\"artifactsRoot\"") }.count == 2, "\(input)")
  }

  @Test(arguments: [
    ("/bin/false", "a helper process stopped before its cases were done; its cases are checked in this process"),
    ("/nonexistent/rowkit", "cannot start a helper process (/nonexistent/rowkit: No such file or directory); the cases are checked in this process"),
    ("garbage", "a helper process wrote a line that is not a case's result; its cases are checked in this process"),
  ])
  func aHelperThatFailsLeavesItsCasesToTheCheck(helper: String, note: String) async throws {
    let suite = try await Suite("aHelperThatFailsLeavesItsCasesToTheCheck-\(helper.split(separator: "/").last!)")
    defer { try? FileManager.default.removeItem(at: suite.folder) }
    var program = helper
    if helper == "garbage" {
      let script = suite.folder.appendingPathComponent("garbage.sh")
      try "#!/bin/sh\necho 'not a result'\nexec '\(CommandRunner.binary.path)' \"$@\"\n".write(to: script, atomically: true, encoding: .utf8)
      try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
      program = script.path
    }
    let one = try await CommandRunner.run(suite.arguments(["--jobs", "1"]), in: suite.folder)
    let two = try await CommandRunner.run(suite.arguments(["--jobs", "2", "--helper-executable", program]), in: suite.folder)
    #expect(one.status == 1 && two.status == 1)
    #expect(two.stdout == one.stdout)
    #expect(two.stderr == "rowkit: \(note)\n" + one.stderr, "\(two.stderr)")
  }

  /// A helper is started from one of Swift's cooperative threads, which block every
  /// asynchronous signal, and `Process` gives the child the starting thread's mask: the
  /// helper must start with none blocked, or SIGTERM and Ctrl-C wait for its start-up.
  @Test func helpersStartWithNoSignalBlocked() async throws {
    let suite = try await Suite()
    defer { try? FileManager.default.removeItem(at: suite.folder) }
    let log = suite.folder.appendingPathComponent("masks.log")
    let helper = try Self.maskLoggingHelper(in: suite.folder, log: log)
    let three = try await CommandRunner.run(
      suite.arguments(["--jobs", "3", "--helper-executable", helper.path]), in: suite.folder)
    #expect(three.status == 1, "\(three.stderr)")
    // Two helpers; one not yet ready when the last case is handed out is stopped, and may
    // be stopped before its shell has logged anything.
    let masks = try String(contentsOf: log, encoding: .utf8).split(separator: "\n")
    #expect((1...2).contains(masks.count), "\(masks)")
    for mask in masks { #expect(mask.hasSuffix("0000000000000000"), "\(mask)") }
  }

  /// A check of one case has nothing to share: it starts no helper, whose start-up and exit
  /// would only compete with the case.
  @Test func aCheckOfOneCaseStartsNoHelper() async throws {
    let folder = try TestSupport.temporaryDirectory("aCheckOfOneCaseStartsNoHelper")
    defer { try? FileManager.default.removeItem(at: folder) }
    let docs = folder.appendingPathComponent("docs")
    try FileManager.default.createDirectory(at: docs, withIntermediateDirectories: true)
    try "items: [{ type: subtitle, text: Alone, subtitle: One case }]\n".write(
      to: docs.appendingPathComponent("alone.yaml"), atomically: true, encoding: .utf8)
    let log = folder.appendingPathComponent("masks.log")
    let helper = try Self.maskLoggingHelper(in: folder, log: log)
    let arguments = ["check", "docs", "--snapshots", "refs", "--jobs", "2", "--helper-executable", helper.path]
    let recorded = try await CommandRunner.run(arguments + ["--record", "all"], in: folder, environment: ["CI": ""])
    let checked = try await CommandRunner.run(arguments, in: folder)
    #expect(recorded.status == 1 && checked.status == 0, "\(recorded.stderr)\(checked.stderr)")
    #expect(checked.stdout.contains("alone"), "\(checked.stdout)")
    #expect(!FileManager.default.fileExists(atPath: log.path), "a helper started")
  }
}
