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

        A report may come from someone else's CI run, so it never chooses where anything is \
        written: the references are --snapshots, which must be the folder the report was \
        checked against (as the check named it: relative to the folder it ran in, so run \
        accept in the same folder of your checkout). Without --snapshots, the report's folder \
        is used only when it lies inside the working folder and already holds references (an \
        environment.json). Every image is read from inside the report folder, never through a \
        symbolic link, and no reference is written through a link that leads out of the \
        references folder. An image must end where its PNG ends. The reference replaced must \
        be the one the report shows (its copy in the report), or none for a case the report \
        says had none: a reference changed since the check is refused, and so is what the \
        report claims and cannot show.

        Put the case names after --: a name that starts with - is then a name, never a flag.

        Example:
          rowkit accept report -- people settings/wifi
          rowkit accept ci-report --snapshots Snapshots/Check -- settings/wifi
          rowkit accept merged-report --all
          rowkit accept report --rasterization-only

        After a Pango, FreeType, font package or font option upgrade, rowkit check compares \
        anyway and classifies each failing case; --rasterization-only accepts exactly the cases \
        whose layout record is unchanged and whose differing pixels all lie inside glyphs \
        (their layout records with them), and makes the report's environment the references' \
        one. The report's word for it is not taken: each case is compared again, the report's \
        actual layout record with the reference's and its actual image with the reference \
        (every differing pixel must lie inside the glyphs that record places), and one that \
        fails refuses the accept. What the report's images show inside those glyphs is still \
        theirs: review them. The cases that changed otherwise keep failing, with their sentences.
        """)

    @Argument(help: "The report folder (rowkit check --report, or rowkit merge-reports -o).")
    var report: String

    @Argument(help: "The cases to accept, by name (as in the report: settings/wifi), after --.")
    var cases: [String] = []

    @Flag(help: "Accept every failed, new and missing case of the report.")
    var all = false

    @Flag(help: "Accept exactly the cases that differ in rasterization only (layout unchanged, every differing pixel inside glyphs), also from a report of another environment, whose fingerprint then becomes the references'.")
    var rasterizationOnly = false

    @Option(help: "The references folder; it must be the one the report was checked against (default: that folder, when it is inside the working folder).")
    var snapshots: String?

    func run() throws {
      let accepted = try ReferenceAcceptance.accept(
        report: URL(fileURLWithPath: report), names: cases, all: all, rasterizationOnly: rasterizationOnly, snapshots: snapshots.map { URL(fileURLWithPath: $0) })
      for item in accepted { StandardStreams.print("ACCEPTED \(item.name) → \(item.reference.path)") }
      StandardStreams.print("\(accepted.count) \(accepted.count == 1 ? "reference" : "references") accepted")
    }
  }
}
