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
    /// The row's title, what a lint baseline knows the row by (with its ``type`` and
    /// ``occurrence``): the item's `text`, else its `title`, `name` or `caption`, else its
    /// first text, at most 80 characters; a key–value row's (caption, right caption and
    /// settings items) is its caption, the key, not the value that changes with the data. Not the row's index, so that a row moved up or
    /// down, or rows added above it, keep its accepted findings; the text a reader sees
    /// first, so that the baseline reads as the table does. Editing that text makes the row
    /// another row: its old findings are reported fixed and its findings are new.
    public var title: String?
    /// Which row of its type and title this is, from 1 at the table's top: two rows that
    /// read the same are told apart by their order.
    public var occurrence: Int?
    /// Set when the findings are of the section's header or footer band rather than a row:
    /// ``type`` is then `section header` or `section footer` (not `header`, a name a custom
    /// item type may well have, so that a baseline does not take a band for such a row),
    /// ``title`` the band's text, and ``row`` -1 for a
    /// header and the section's row count for a footer, so that bands sort where they are.
    public var band: SectionBand.Kind?
    /// The title and occurrence an older RowKit knew the row by, where they differ from
    /// ``title`` and ``occurrence`` (a design file's row was known by the field whose name
    /// sorts first): a baseline written then still matches, until `--update-baseline`
    /// rewrites it. Not part of the report's JSON.
    public var formerTitle: String?
    /// See ``formerTitle``.
    public var formerOccurrence: Int?

    enum CodingKeys: String, CodingKey {
      case section, row, type, cell, findings, title, occurrence, band
    }

    /// The row's name in messages: `s0-r3`, or `s0-header` for a band.
    public var name: String {
      if let band { return "s\(section)-\(band.rawValue)" }
      return Manifest.rowFileName(section: section, row: row).replacingOccurrences(of: ".png", with: "")
    }
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

  /// The report of a manifest rendered with lint on; with the `dataSource` rendered, each
  /// row carries its ``Row/title`` and ``Row/occurrence``.
  public init(file: String, manifest: Manifest, dataSource: (any TableDataSource)? = nil) {
    self.file = file
    variant = manifest.variant
    rows = manifest.rows.compactMap { row in
      guard let findings = row.findings, !findings.isEmpty else { return nil }
      return Row(section: row.section, row: row.row, type: row.type, cell: row.cell, findings: findings)
    }
    if let dataSource { identifyRows(in: dataSource) }
    // Bands are known by their text, as rows by their title.
    var seen: [String: Int] = [:]
    for section in manifest.sections {
      for (kind, text, findings) in [
        (SectionBand.Kind.header, section.header, section.headerFindings), (.footer, section.footer, section.footerFindings),
      ] {
        guard let findings, !findings.isEmpty else { continue }
        let title = String((text ?? "").prefix(Self.maximumTitleLength))
        let occurrence = Self.count(kind.rawValue, titled: title, in: &seen)
        rows.append(
          Row(
            section: section.section, row: kind == .header ? -1 : section.rows, type: "section \(kind.rawValue)",
            cell: "SectionBand",
            findings: findings, title: title, occurrence: occurrence, band: kind))
      }
    }
    rows.sort { ($0.section, $0.row) < ($1.section, $1.row) }
  }

  /// Counts one more row of `type` and `title` in `seen`: which of them it is, from 1.
  private static func count(_ type: String, titled title: String, in seen: inout [String: Int]) -> Int {
    seen[type + "\u{0}" + title, default: 0] += 1
    return seen[type + "\u{0}" + title]!
  }

  /// Gives each row its ``Row/title`` and ``Row/occurrence`` in `dataSource`.
  mutating func identifyRows(in dataSource: any TableDataSource) {
    guard !rows.isEmpty else { return }
    var seen: [String: Int] = [:]
    var formerlySeen: [String: Int] = [:]
    var places: [[Int]: (title: String, occurrence: Int, former: (title: String, occurrence: Int)?)] = [:]
    for (sectionIndex, section) in dataSource.sections.enumerated() {
      for (rowIndex, item) in section.items.enumerated() {
        let title = Self.title(of: item)
        let occurrence = Self.count(item.typeName, titled: title, in: &seen)
        let formerTitle = Self.formerTitle(of: item) ?? title
        let formerOccurrence = Self.count(item.typeName, titled: formerTitle, in: &formerlySeen)
        let former = (formerTitle, formerOccurrence) == (title, occurrence) ? nil : (formerTitle, formerOccurrence)
        places[[sectionIndex, rowIndex]] = (title, occurrence, former)
      }
    }
    for index in rows.indices {
      guard let place = places[[rows[index].section, rows[index].row]] else { continue }
      rows[index].title = place.title
      rows[index].occurrence = place.occurrence
      rows[index].formerTitle = place.former?.title
      rows[index].formerOccurrence = place.former?.occurrence
    }
  }

  /// The title RowKit gave a design file's row before it read the design's order: the field
  /// whose name sorts first, where no field is named `text`, `title`, `name` or `caption`;
  /// nil for any other row, whose title is as it was.
  static func formerTitle(of item: any TableItem) -> String? {
    guard let item = item as? DocumentItem else { return nil }
    let texts = item.fields.sorted { $0.key < $1.key }.map { (label: $0.key, text: $0.value) }
    return title(among: texts, preferring: ["text", "title", "name", "caption"])
  }

  /// Adds a `headroom` finding for each of `slots` (this report's table, measured by
  /// ``TableRenderer/headroom(_:shaper:)``) with less than `minimum` percent of headroom:
  /// `truncates at +20% (AX3, 320 pt)`, where `place` is the parenthesis.
  public mutating func addHeadroomFindings(
    _ slots: [TextHeadroom], minimum: Int, place: String, dataSource: any TableDataSource
  ) {
    for slot in slots {
      guard let finding = LintFinding.headroom(slot, minimum: minimum, place: place) else { continue }
      if let index = rows.firstIndex(where: { $0.section == slot.section && $0.row == slot.row }) {
        rows[index].findings.append(finding)
      } else {
        rows.append(Row(section: slot.section, row: slot.row, type: slot.type, cell: slot.cell, findings: [finding]))
      }
    }
    rows.sort { ($0.section, $0.row) < ($1.section, $1.row) }
    identifyRows(in: dataSource)
  }

  /// The most characters of a row's title.
  static let maximumTitleLength = 80

  /// The title of `item` (see ``Row/title``).
  static func title(of item: any TableItem) -> String {
    // A key–value row is known by its key, not by a value that changes with the data.
    let isKeyValue = item is CaptionItem || item is RightCaptionItem || item is SettingsItem
    let preferred = isKeyValue ? ["caption", "text"] : ["text", "title", "name", "caption"]
    var texts: [(label: String, text: String)] = []
    if let item = item as? DocumentItem {
      // The fields in the order its design shows them, then any others by name: a row is
      // known by what it shows first (a stock by its symbol), not by whichever field's name
      // sorts first (its change, which moves every day).
      let shown = item.shownFields.filter { item.fields[$0] != nil }
      let others = item.fields.keys.filter { !shown.contains($0) }.sorted()
      texts = (shown + others).compactMap { key in item.fields[key].flatMap { $0.isEmpty ? nil : (key, $0) } }
    } else {
      for child in Mirror(reflecting: item).children {
        if let text = child.value as? String, !text.isEmpty { texts.append((child.label ?? "", text)) }
      }
    }
    return title(among: texts, preferring: preferred)
  }

  /// The text of the first of `names` among `texts`, else the first text (empty when there is
  /// none), at most ``maximumTitleLength`` characters.
  private static func title(among texts: [(label: String, text: String)], preferring names: [String]) -> String {
    let title = names.lazy.compactMap { name in texts.first { $0.label == name }?.text }.first ?? texts.first?.text ?? ""
    return String(title.prefix(maximumTitleLength))
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
      reports.append(LintReport(file: name, manifest: rendered.manifest, dataSource: dataSource))
    }
    return reports
  }
}
