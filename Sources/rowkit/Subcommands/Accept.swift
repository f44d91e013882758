import ArgumentParser
import Foundation
import RowKitSnapshot

extension RowKitCommand {
  struct Accept: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "accept",
      abstract: "Make the actual images of reviewed cases their references, from a check's report folder.",
      discussion: """
        Copies REPORT/cases/<case>/actual.png over the case's reference for each named failed, \
        new or missing case (every one with --all). Everything is checked first (the names, \
        the images, and that they were rendered in the environment the references were \
        recorded in), then the references change together. Refused under CI (exit 2, nothing \
        written). The review page shows each failed case's command.

        Example:
          rowkit accept report people settings/wifi
          rowkit accept merged-report --all
        """)

    @Argument(help: "The report folder (rowkit check --report, or rowkit merge-reports -o).")
    var report: String

    @Argument(help: "The cases to accept, by name (as in the report: settings/wifi).")
    var cases: [String] = []

    @Flag(help: "Accept every failed, new and missing case of the report.")
    var all = false

    @Option(help: "The references folder (default: the one the report was checked against).")
    var snapshots: String?

    func run() throws {
      let accepted = try ReferenceAcceptance.accept(
        report: URL(fileURLWithPath: report), names: cases, all: all, snapshots: snapshots.map { URL(fileURLWithPath: $0) })
      for item in accepted { StandardStreams.print("ACCEPTED \(item.name) → \(item.reference.path)") }
      StandardStreams.print("\(accepted.count) \(accepted.count == 1 ? "reference" : "references") accepted")
    }
  }
}
