import Foundation
import RowKitTestSupport
import Testing

/// Issue 24, item 6: every numeric flag has a documented range, shown in its help and
/// checked as the command line is parsed; a value out of it is an error naming the flag
/// (exit 2), never a crash (`--timeout 1e16` trapped converting seconds to an `Int`) nor a
/// silent wrap (`--http-cache-size 8796093022208` cached nothing).
@Suite struct NumericFlagTests {
  static let features = TestSupport.assets.appendingPathComponent("Samples/features.yaml").path

  /// Every numeric flag, the arguments of a subcommand that takes it, a value out of its
  /// range, and its range as its help gives it.
  static let flags: [(arguments: [String], flag: String, value: String, range: String)] = {
    let render = ["render", features, "-o", "never.png"]
    let check = ["check", "cases", "--snapshots", "refs"]
    let lint = ["lint", features]
    let diff = ["diff", "a.png", "b.png"]
    var flags: [(arguments: [String], flag: String, value: String, range: String)] = []
    for base in [render, ["measure", features], ["catalog", "-o", "never.png"]] {
      flags += [
        (base, "--width", "1e300", "64 to 4096 points"), (base, "--scale", "nan", "0.5 to 4"),
        (base, "--row-height", "-1", "1 to 2000 points"),
      ]
    }
    flags += [
      (render, "--jobs", "0", "1 to 256 threads"), (check, "--jobs", "100000", "1 to 256 threads"),
      (render, "--max-png-height", "9223372036854775807", "1 to 1000000 pixels"),
      (render, "--progress-after", "inf", "0 to 3600 seconds"),
    ]
    for base in [render, check, lint] {
      flags += [
        (base, "--timeout", "1e16", "0.001 to 3600 seconds"), (base, "--deadline", "1e19", "0.001 to 86400 seconds"),
        (base, "--downloads", "65", "1 to 64"), (base, "--http-cache-size", "8796093022208", "1 to 1048576 MB"),
        (base, "--http-cache-age", "-1", "0 to 31536000 seconds"), (base, "--variant-width", "375,1e300", "64 to 4096 points"),
      ]
    }
    for base in [diff, check] {
      flags += [
        (base, "--threshold", "1.5", "0 to 1"), (base, "--max-diff-ratio", "-0.1", "0 to 1"),
        (base, "--max-diff-pixels", "99999999999", "0 to 2147483647 pixels"),
        (base, "--max-cluster-pixels", "-5", "0 to 2147483647 pixels"),
      ]
    }
    return flags
  }()

  @Test func everyNumericFlagOutOfRangeIsAnErrorNamingIt() async throws {
    let folder = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    for (arguments, flag, value, range) in Self.flags {
      // `--flag=value`: a value that starts with `-` would read as another flag.
      let result = try await CommandRunner.run(arguments + ["\(flag)=\(value)"], in: folder)
      #expect(result.status == 2, "\(arguments) \(flag) \(value): \(result.stderr)")
      let lines = result.stderr.split(separator: "\n")
      #expect(lines.count == 1, "\(arguments) \(flag) \(value): \(result.stderr)")
      #expect(lines.first?.hasPrefix("rowkit: error: \(flag): ") == true, "\(flag) \(value): \(result.stderr)")
      #expect(result.stderr.contains("is out of range (\(range))"), "\(flag) \(value): \(result.stderr)")
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
  }

  @Test func everyNumericFlagsHelpGivesItsRange() async throws {
    var helps: [String: String] = [:]
    for (arguments, flag, _, range) in Self.flags {
      let subcommand = arguments[0]
      if helps[subcommand] == nil { helps[subcommand] = try await CommandRunner.run([subcommand, "--help"]).stdout }
      // The option's help, from its name to the next option, on one line.
      let help = helps[subcommand]!
      guard let start = help.range(of: "  \(flag) ") else {
        Issue.record("\(subcommand) --help does not list \(flag)")
        continue
      }
      let rest = help[start.upperBound...]
      let end = rest.range(of: "\n  -")?.lowerBound ?? rest.endIndex
      let text = rest[..<end].split(whereSeparator: \.isWhitespace).joined(separator: " ")
      #expect(text.contains(range), "\(subcommand) \(flag): \(text)")
    }
  }

  /// The issue's examples: each was a crash or a silent wrap.
  @Test func theIssuesExamplesFailCleanly() async throws {
    let folder = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let remote = folder.appendingPathComponent("remote.yaml")
    try "items: [{ type: image, text: Far, imageURL: \"http://127.0.0.1:9/far.png\" }]\n".write(
      to: remote, atomically: true, encoding: .utf8)
    let output = folder.appendingPathComponent("out.png").path
    for arguments in [
      ["render", remote.path, "-o", output, "--timeout", "1e16"],
      ["check", folder.path, "--snapshots", folder.appendingPathComponent("refs").path, "--timeout", "1e16"],
      ["lint", remote.path, "--timeout", "1e16"],
      ["render", remote.path, "-o", output, "--deadline", "1e19"],
      // Refused before the server starts: nothing listens.
      ["preview", remote.path, "--timeout", "1e16"],
      ["preview", remote.path, "--deadline", "0"],
      ["render", remote.path, "-o", output, "--http-cache", folder.path, "--http-cache-size", "8796093022208"],
    ] {
      let result = try await CommandRunner.run(arguments)
      #expect(result.status == 2, "\(arguments): \(result.stderr)")
      #expect(result.stderr.contains("is out of range"), "\(arguments): \(result.stderr)")
    }
    // A file where the cache's folder would be was passed over, and nothing was cached.
    let notFolder = try await CommandRunner.run(["render", remote.path, "-o", output, "--http-cache", remote.path])
    #expect(notFolder.status == 2 && notFolder.stderr.contains("a file is there, not a folder for the cache"), "\(notFolder.stderr)")
    let underFile = try await CommandRunner.run(["render", remote.path, "-o", output, "--http-cache", remote.path + "/cache"])
    #expect(underFile.status == 2 && underFile.stderr.contains("\(remote.path) is a file, so the cache's folder cannot be made"), "\(underFile.stderr)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["remote.yaml"])
  }
}
