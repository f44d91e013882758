import Foundation
import RowKitTestSupport
import Testing

/// Issue 24, item 17 (b): `lint`, `accept` and `merge-reports` printed a stray `\` at line
/// ends (`\\` in a Swift string where a line continuation was meant). No help text has one.
@Suite struct HelpTextTests {
  static let subcommands = ["render", "measure", "catalog", "diff", "check", "merge-reports", "accept", "review", "lint", "fonts", "schema", "shards"]

  @Test func noHelpLineEndsInABackslash() async throws {
    let root = try await CommandRunner.run(["--help"])
    #expect(root.status == 0)
    // Every subcommand the help lists is checked.
    for name in Self.subcommands { #expect(root.stdout.contains("  \(name) "), "\(name) is not in rowkit --help") }
    let runs = [["--help"]] + Self.subcommands.map({ [$0, "--help"] }) + Self.subcommands.map({ ["help", $0] })
    for arguments in runs {
      let result = try await CommandRunner.run(arguments)
      #expect(result.status == 0, "\(arguments): \(result.stderr)")
      #expect(!result.stdout.isEmpty)
      for line in result.stdout.split(separator: "\n") {
        #expect(!line.hasSuffix("\\"), "\(arguments): \(line)")
      }
    }
    // Every command shows an example (CommandLine.md says so), `shards plan` too.
    for arguments in Self.subcommands.map({ [$0, "--help"] }) + [["shards", "plan", "--help"]] {
      let result = try await CommandRunner.run(arguments)
      #expect(result.stdout.contains("Example:"), "\(arguments) shows no example")
    }
  }

  /// Every command gives its name: the argument parser makes a missing one from the type's
  /// name, which costs a lookup of conformances across the whole binary in every run.
  @Test func everyCommandNamesItself() throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    var configurations = 0
    for folder in ["Sources/rowkit", "Sources/rowkit-review"] {
      let files = FileManager.default.enumerator(atPath: root.appendingPathComponent(folder).path)?.compactMap { $0 as? String } ?? []
      for file in files where file.hasSuffix(".swift") {
        let text = try String(contentsOf: root.appendingPathComponent(folder).appendingPathComponent(file), encoding: .utf8)
        for piece in text.components(separatedBy: "CommandConfiguration(").dropFirst() {
          configurations += 1
          #expect(piece.drop(while: \.isWhitespace).hasPrefix("commandName:"), "\(folder)/\(file) has a command without commandName")
        }
      }
    }
    #expect(configurations >= Self.subcommands.count + 1)
  }
}
