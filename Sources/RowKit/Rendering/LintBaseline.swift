import Foundation

/// The findings a project has accepted for now: `rowkit lint --baseline FILE` (and `rowkit
/// check --lint --baseline FILE`) pass the findings it lists, fail new ones, and report those
/// that are gone, so that the file only ever shrinks.
///
/// A finding is matched by where it is, never by a line number or a row index: the document,
/// the variant, the row (its item's type, its ``LintReport/Row/title`` and which row of that
/// type and title it is, counting from the table's top), the element (the label or image
/// slot; none for the row) and the rule. Its message (a contrast ratio, a frame) is kept for
/// people to read and is not matched, so nudging a color does not turn an accepted finding
/// into a new one.
///
/// The file is deterministic JSON: `{"version": 1, "findings": [...]}`, the findings sorted,
/// so that rewriting an unchanged baseline changes no byte.
public struct LintBaseline: Codable, Hashable, Sendable {
  /// One accepted finding.
  public struct Entry: Codable, Hashable, Sendable, Comparable {
    /// The document, as the command names it (`rowkit lint`: as given on its command line;
    /// `rowkit check`: the case name, the document's path in the cases folder without its extension).
    public var document: String
    /// The variant's name; absent for a document without variants.
    public var variant: String?
    /// The row's item type.
    public var type: String
    /// The row's title (``LintReport/Row/title``).
    public var title: String
    /// Which row of this type and title it is, from 1 at the table's top.
    public var occurrence: Int
    /// The label or image slot; absent for a finding about the whole row.
    public var element: String?
    /// The rule.
    public var rule: LintRule
    /// What was wrong when the finding was accepted; for people, not matched.
    public var message: String

    /// An accepted finding at the place given.
    public init(
      document: String, variant: String?, type: String, title: String, occurrence: Int, element: String?,
      rule: LintRule, message: String
    ) {
      self.document = document
      self.variant = variant
      self.type = type
      self.title = title
      self.occurrence = occurrence
      self.element = element
      self.rule = rule
      self.message = message
    }

    /// What a baseline matches: every field but the message.
    var key: [String] {
      [document, variant ?? "", type, title, String(occurrence), element ?? "", rule.rawValue]
    }

    /// The table the finding is in: its document and variant.
    var table: String { document + (variant.map { "@" + $0 } ?? "") }

    /// The finding in a line: `settings.yaml@dark: subtitle "Video" [subtitle] truncated: …`.
    public var line: String {
      "\(table): \(type) \"\(title)\"" + (occurrence > 1 ? " (#\(occurrence))" : "")
        + (element.map { " [\($0)]" } ?? "") + " \(rule.rawValue): \(message)"
    }

    /// Entries in the order of their place, then of their message.
    public static func < (lhs: Self, rhs: Self) -> Bool {
      lhs.key != rhs.key ? lhs.key.lexicographicallyPrecedes(rhs.key) : lhs.message < rhs.message
    }
  }

  /// The version of the file's form.
  public var version: Int
  /// The accepted findings, sorted.
  public var findings: [Entry]

  /// The one version of the file's form there is.
  public static let currentVersion = 1

  /// A baseline of `findings`.
  public init(findings: [Entry] = []) {
    version = Self.currentVersion
    self.findings = findings.sorted()
  }

  /// A baseline accepting every finding of `reports`.
  public init(reports: [LintReport]) {
    self.init(findings: reports.flatMap(\.baselineEntries))
  }

  /// The baseline in the file at `file`; a file that is not one is a ``DocumentError``
  /// naming the file and the place in it.
  public static func load(_ file: String) throws -> LintBaseline {
    guard let data = FileManager.default.contents(atPath: file) else {
      throw DocumentError(file: file, message: "cannot read the lint baseline (rowkit lint --baseline FILE --update-baseline writes one)")
    }
    let baseline: LintBaseline
    do {
      baseline = try JSONDecoder().decode(LintBaseline.self, from: data)
    } catch let DecodingError.keyNotFound(key, context) {
      throw DocumentError(
        file: file, keyPath: DocumentError.keyPath(context.codingPath + [key]), message: "not a lint baseline: the key is missing")
    } catch let DecodingError.typeMismatch(_, context), let DecodingError.valueNotFound(_, context) {
      throw DocumentError(
        file: file, keyPath: DocumentError.keyPath(context.codingPath), message: "not a lint baseline: \(context.debugDescription)")
    } catch let DecodingError.dataCorrupted(context) {
      throw DocumentError(
        file: file, keyPath: DocumentError.keyPath(context.codingPath),
        message: context.codingPath.isEmpty
          ? DocumentError.decodingProblem(DecodingError.dataCorrupted(context), in: [UInt8](data))
          : "not a lint baseline: \(context.debugDescription)")
    } catch {
      throw DocumentError(file: file, message: "not a lint baseline: \(error)")
    }
    guard baseline.version == currentVersion else {
      throw DocumentError(
        file: file, keyPath: "version", message: "version \(baseline.version) is not \(currentVersion), the one RowKit reads")
    }
    for (index, entry) in baseline.findings.enumerated() where entry.occurrence < 1 {
      throw DocumentError(file: file, keyPath: "findings[\(index)].occurrence", message: "must be 1 or more")
    }
    return LintBaseline(findings: baseline.findings)
  }

  /// The file's bytes: deterministic JSON, the findings sorted.
  public func bytes() throws -> [UInt8] {
    try DeterministicJSON.bytes(LintBaseline(findings: findings))
  }

  /// What `reports` found, held against this baseline. Only the tables `reports` cover (a
  /// document in a variant) are compared: the baseline's findings in other documents or
  /// variants are neither fixed nor kept.
  public func compare(_ reports: [LintReport]) -> Comparison {
    let tables = Set(reports.map(\.table))
    var accepted: [[String]: Int] = [:]
    for entry in findings where tables.contains(entry.table) { accepted[entry.key, default: 0] += 1 }
    var comparison = Comparison()
    var unmatched: [(entry: Entry, former: Entry?)] = []
    for (entry, former) in reports.flatMap(\.baselineEntriesWithFormerKeys).sorted(by: { $0.entry < $1.entry }) {
      if let count = accepted[entry.key], count > 0 {
        accepted[entry.key] = count - 1
        comparison.known.append(entry)
      } else {
        unmatched.append((entry, former))
      }
    }
    // Then the rows an older RowKit knew by another title (see `LintReport.Row.formerTitle`):
    // a baseline written then passes its findings until it is updated.
    for (entry, former) in unmatched {
      if let former, let count = accepted[former.key], count > 0 {
        accepted[former.key] = count - 1
        comparison.known.append(entry)
      } else {
        comparison.new.append(entry)
      }
    }
    comparison.known.sort()
    // The baseline's entries left over, last first among equal keys, are the fixed ones.
    for entry in findings.reversed() where tables.contains(entry.table) {
      guard let count = accepted[entry.key], count > 0 else { continue }
      accepted[entry.key] = count - 1
      comparison.fixed.append(entry)
    }
    comparison.fixed.sort()
    return comparison
  }

  /// This baseline with the findings of the tables `reports` cover replaced by theirs: what
  /// `--update-baseline` writes.
  public func updated(with reports: [LintReport]) -> LintBaseline {
    let tables = Set(reports.map(\.table))
    return LintBaseline(findings: findings.filter { !tables.contains($0.table) } + reports.flatMap(\.baselineEntries))
  }

  /// Findings held against a baseline.
  public struct Comparison: Hashable, Sendable {
    /// Findings the baseline lists: they pass.
    public var known: [Entry] = []
    /// Findings the baseline does not list: they fail.
    public var new: [Entry] = []
    /// The baseline's findings that were not found: remove them with `--update-baseline`.
    public var fixed: [Entry] = []
  }
}

extension LintReport {
  /// The table the report is about: its document and variant.
  var table: String { file + (variant.map { "@" + $0 } ?? "") }

  /// The report's findings as baseline entries.
  public var baselineEntries: [LintBaseline.Entry] { baselineEntriesWithFormerKeys.map(\.entry) }

  /// The report's findings as baseline entries, each with the entry an older RowKit made of
  /// it where that differs (`Row.formerTitle`).
  var baselineEntriesWithFormerKeys: [(entry: LintBaseline.Entry, former: LintBaseline.Entry?)] {
    rows.flatMap { row in
      row.findings.map { finding in
        let entry = LintBaseline.Entry(
          document: file, variant: variant, type: row.type, title: row.title ?? row.name,
          occurrence: row.occurrence ?? 1, element: finding.label, rule: finding.rule, message: finding.message)
        var former: LintBaseline.Entry?
        if let title = row.formerTitle, let occurrence = row.formerOccurrence {
          former = entry
          former?.title = title
          former?.occurrence = occurrence
        }
        return (entry, former)
      }
    }
  }
}
