import RowKit

/// The JSON Schemas of RowKit's file formats, by file name, as `rowkit schema` writes them
/// into `Schemas/`.
package enum FormatSchemas {
  /// Each schema's file name and a function that builds it, in the order `rowkit schema` lists them.
  package static let all: [(fileName: String, make: @Sendable () -> OrderedJSON)] = [
    ("table-document.schema.json", SchemaParts.tableDocument),
    ("stylesheet.schema.json", SchemaParts.stylesheet),
    ("cell-design.schema.json", SchemaParts.cellDesign),
    ("check-report.schema.json", SnapshotCheck.Report.schema),
    ("layout-record.schema.json", LayoutRecord.schema),
  ]

  /// The schema named `name` (`table-document`, or its file name), as text; nil for none.
  package static func text(named name: String) -> String? {
    all.first { $0.fileName == name || $0.fileName == name + ".schema.json" }.map { $0.make().text }
  }

  /// The names `rowkit schema NAME` takes: `table-document`, `stylesheet`…
  package static var names: [String] {
    all.map { String($0.fileName.dropLast(".schema.json".count)) }
  }
}
