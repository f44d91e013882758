import ArgumentParser
import Foundation
import RowKitSnapshot

extension RowKitCommand {
  struct Review: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "review",
      abstract: "Serve a check's report folder on 127.0.0.1 to accept, reject and undo its cases from the page.",
      discussion: """
        Prints the page's address, with a random token that every request must carry, and \
        serves until interrupted. Accept makes the actual image and its layout record the \
        reference, through the same code as rowkit accept (refused under CI); Reject keeps \
        the reference and marks the case reviewed; Undo takes back the latest one, any \
        number of steps, putting back the exact bytes. Groups of cases (a shared layout \
        change, rasterization-only differences, the same pixel difference, cases with no \
        reference) are accepted or rejected in one action.

        Every action is appended to REPORT/review-log.json, with the SHA-256 of each file \
        before and after; the bytes undo needs are kept in REPORT/review-undo/. The review's \
        state and its undo survive a reload of the page and a restart of the server. The log \
        is sealed with a key of your own ($XDG_STATE_HOME/rowkit/review-key, by default \
        ~/.local/state/rowkit/review-key); a log without your seal is refused (exit 2).

        Keys on the page: a accept, r reject, u undo, g accept the group, j/k next/previous.

        The references are --snapshots, as for rowkit accept: the folder the report was \
        checked against, named as the check named it (run review in the same folder of your \
        checkout).

        Given documents instead of a report folder (a folder without report.json, or a \
        document; a folder laid out as a report, with index.html and cases, but without \
        report.json is refused) and --snapshots, review runs rowkit check DOCS --snapshots DIR first, into \
        a report folder of its own under the temporary folder, and serves that; the folder, \
        its review log with it, is removed when review stops. When every case passes there \
        is nothing to review, and it exits 0. Options after -- are the check's own \
        (variants, tolerance, fonts, lint, jobs…), but for --snapshots and --report, which \
        review sets.

        Example:
          rowkit review report
          rowkit review ci-report --snapshots Snapshots/Check --open
          rowkit review Assets/Samples --snapshots Snapshots/Check
          rowkit review Assets/Samples --snapshots Snapshots/Check -- --variant-width 320,414 --threshold 0.2
        """)

    @Argument(help: "The report folder (rowkit check --report, or rowkit merge-reports -o), or the documents to check first (with --snapshots).")
    var report = "report"

    @Option(help: "The references folder; it must be the one the report was checked against (default: that folder, when it is inside the working folder).")
    var snapshots: String?

    @Option(help: "The port on 127.0.0.1; 0 takes a free one.")
    var port: UInt16 = 0

    @Flag(help: "Open the page in the browser ($BROWSER, else xdg-open), when there is one.")
    var open = false

    @Argument(
      parsing: .postTerminator,
      help: "After --: options of the check that review runs on documents (rowkit check --help), but --snapshots and --report.")
    var checkOptions: [String] = []

    func validate() throws {
      for option in checkOptions {
        let name = option.split(separator: "=", maxSplits: 1).first.map(String.init) ?? option
        if ["--snapshots", "--report"].contains(name) {
          throw ValidationError("\(name) after --: review sets the check's \(name) itself (give --snapshots before --)")
        }
      }
    }

    func run() throws {
      var arguments: [String] = []
      var checksFirst = false
      if let snapshots {
        arguments += ["--snapshots", snapshots]
        // Documents, not a report folder: the server checks them first.
        if FileManager.default.fileExists(atPath: report), try !ReportFolder.isReport(report) {
          arguments.append("--check")
          checksFirst = true
        }
      }
      if !checkOptions.isEmpty && !checksFirst {
        throw ValidationError(
          "options after -- are for the check review runs on documents with --snapshots; \(report) is a report folder, checked already")
      }
      for option in checkOptions { arguments += ["--check-option", option] }
      arguments += ["--port", String(port)]
      if open { arguments.append("--open") }
      try runReviewProgram(arguments + ["--", report])
    }
  }
}
