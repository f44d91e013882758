import Foundation

/// The lint findings of one document in one variant: the rows that have any.
public struct LintReport: Codable, Hashable, Sendable {
  /// One row's findings.
  public struct Row: Codable, Hashable, Sendable {
    /// The row's section, from 0.
    public var section: Int
    /// The row's index in its section, from 0.
    public var row: Int
    /// The item's type name.
    public var type: String
    /// The name of the cell that drew the row.
    public var cell: String
    /// What the lint rules found in the row.
    public var findings: [LintFinding]

    /// The row's name in messages: `s0-r3`.
    public var name: String { Manifest.rowFileName(section: section, row: row).replacingOccurrences(of: ".png", with: "") }
  }

  /// The document as it was named.
  public var file: String
  /// The variant's name, absent for a document without variants.
  public var variant: String?
  /// The rows with findings, in table order.
  public var rows: [Row]

  /// The number of findings in all rows.
  public var findingCount: Int { rows.reduce(0) { $0 + $1.findings.count } }

  /// One line per finding: `table.yaml@dark,AX5: s0-r3 (subtitle) contrast [subtitle]: …`.
  public var lines: [String] {
    let place = file + (variant.map { "@" + $0 } ?? "")
    return rows.flatMap { row in
      row.findings.map { finding in
        "\(place): \(row.name) (\(row.type)) \(finding.rule.rawValue)"
          + (finding.label.map { " [\($0)]" } ?? "") + ": \(finding.message)"
      }
    }
  }

  /// The report of a manifest rendered with lint on.
  public init(file: String, manifest: Manifest) {
    self.file = file
    variant = manifest.variant
    rows = manifest.rows.compactMap { row in
      guard let findings = row.findings, !findings.isEmpty else { return nil }
      return Row(section: row.section, row: row.row, type: row.type, cell: row.cell, findings: findings)
    }
  }
}

extension TableDocument {
  /// Lints the document in every variant of `axes` (the document's own when nil) with
  /// `renderer`'s settings, the document's switched-off rules and `options`' too. Rows are
  /// laid out and painted as a render paints them; nothing is written.
  public func lint(
    with renderer: TableRenderer, axes: VariantAxes? = nil, options: LintOptions = LintOptions(), name: String
  ) async throws -> [LintReport] {
    var renderer = renderer
    renderer.lint = lintOptions.adding(options)
    let axes = axes ?? variantAxes
    if let problem = axes.problem { throw StyleError("variants: \(problem)") }
    var reports: [LintReport] = []
    for variant in axes.variants {
      let rendered = try await render(with: renderer.rendering(variant), outputs: [])
      reports.append(LintReport(file: name, manifest: rendered.manifest))
    }
    return reports
  }
}
