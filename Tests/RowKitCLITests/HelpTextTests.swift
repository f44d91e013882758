import Foundation
import RowKitTestSupport
import Testing

/// Issue 24, item 17 (b): `lint`, `accept` and `merge-reports` printed a stray `\` at line
/// ends (`\\` in a Swift string where a line continuation was meant). No help text has one.
@Suite struct HelpTextTests {
  static let subcommands = ["render", "measure", "catalog", "diff", "check", "merge-reports", "accept", "review", "lint", "fonts", "schema"]

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
  }
}
