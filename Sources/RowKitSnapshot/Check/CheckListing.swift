import Foundation

extension SnapshotCheck {
  /// Where a check writes its failure images: the report's `cases` folder, the folder given,
  /// `ROWKIT_SNAPSHOT_ARTIFACTS` (nil: the store reads it), or else the references' own
  /// folder in the temporary folder, emptied first as a report's is.
  public static func artifactsRoot(
    report: URL?, explicit: URL?, snapshots: URL, environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> URL? {
    if let report { return report.appendingPathComponent("cases") }
    if let explicit { return explicit }
    guard environment["ROWKIT_SNAPSHOT_ARTIFACTS"] == nil else { return nil }
    let own = ReferenceStore.defaultArtifactsRoot(for: snapshots)
    try? FileManager.default.removeItem(at: own)
    return own
  }

  /// One line `rowkit check` prints, to standard output or standard error.
  public enum ListingLine: Hashable, Sendable {
    /// A line of the listing, for standard output.
    case output(String)
    /// A warning, an error or a note, for standard error (with its `rowkit: ` prefix).
    case diagnostic(String)
  }
}

extension SnapshotCheck.Report {
  /// What `rowkit check` prints of the cases and orphans, in order: each case's line with its
  /// warnings, whether it passed from the render cache or why it was rendered, its layout
  /// sentences and whether it differs in rasterization only; the note
  /// about references without layout records; and each orphan of `referencesRoot`.
  public func caseListing(referencesRoot: URL) -> [SnapshotCheck.ListingLine] {
    var lines: [SnapshotCheck.ListingLine] = []
    // The cases were compared anyway, to tell rasterization-only differences from real ones.
    if let environmentMismatch { lines.append(.diagnostic("rowkit: \(environmentMismatch)")) }
    for item in cases {
      let label = item.status.rawValue.uppercased()
      for warning in item.warnings ?? [] where item.status != .error {
        lines.append(.diagnostic("rowkit: warning: \(warning)"))
      }
      if item.status == .error {
        // A bad document is bad input: its reason goes to stderr, as every command's does,
        // and only there; the listing names the case.
        lines.append(.diagnostic("rowkit: error: \(item.message ?? item.name)"))
        lines.append(.output("\(label) \(item.name)"))
      } else {
        let cached = item.cached == true ? " (cached)" : ""
        lines.append(.output(item.message.map { "\(label) \($0)" } ?? "\(label) \(item.name)\(cached)"))
        // Why the render cache could not pass the case (`--explain-cache`).
        if let reasons = item.renderedBecause { lines.append(.output("  rendered: " + reasons.joined(separator: "; "))) }
        // What changed, told in sentences under the failure line.
        for sentence in item.layoutSentences { lines.append(.output("  \(sentence)")) }
        if item.rasterizationOnly == true { lines.append(.output("  rasterization only")) }
      }
    }
    if let line = missingLayoutRecordsLine { lines.append(.diagnostic("rowkit: note: \(line)")) }
    for orphan in orphans {
      lines.append(.output("ORPHAN \(referencesRoot.appendingPathComponent(orphan).path): no case checks it"))
    }
    return lines
  }

  /// What `rowkit check` prints last: the pruned orphans (when `pruned`), the summary line
  /// with where the report or the failure images are, and the command that accepts the
  /// rasterization-only cases of a report.
  public func closingListing(
    referencesRoot: URL, artifactsRoot: URL, reportFolder: URL?, reportPath: String?, pruned: Bool
  ) -> [SnapshotCheck.ListingLine] {
    var lines: [SnapshotCheck.ListingLine] = []
    if pruned {
      for orphan in orphans { lines.append(.output("PRUNED \(referencesRoot.appendingPathComponent(orphan).path)")) }
    }
    var location = reportFolder.map { "; report in \($0.path)" } ?? ""
    // Only where some were written: a folder that could not be made holds none.
    if reportFolder == nil, cases.contains(where: { ($0.status == .failed || $0.status == .missing) && $0.actual != nil }) {
      location = "; failure images in \(artifactsRoot.path)"
    }
    lines.append(.output(summaryLine + location))
    if let count = summary.rasterizationOnly, let reportPath {
      lines.append(.output(
        "\(ReportFolder.acceptRasterizationOnlyCommand(reportPath: reportPath)) accepts the \(count) "
          + "\(count == 1 ? "case" : "cases") whose layout is unchanged"))
    }
    return lines
  }
}
