import RowKitGraphics

/// The tables of the format reference that the schemas' description gives too: the bounds of
/// every number (the "Table documents" article) and the stylesheet's number variables
/// (`docs/formats.md`). `rowkit schema --reference NAME` prints one; each document holds it
/// between `<!-- generated: rowkit schema --reference NAME -->` and `<!-- end generated -->`,
/// and a test checks that it is what rowkit prints.
package enum FormatReference {
  /// Each table's name and a function that writes it, in Markdown.
  package static let all: [(name: String, make: @Sendable () -> String)] = [
    ("bounds", boundsTable), ("number-variables", numberVariablesTable),
  ]

  /// The table named `name`, or nil for none.
  package static func text(named name: String) -> String? {
    all.first { $0.name == name }?.make()
  }

  /// The line before a table in its document.
  package static func startMarker(_ name: String) -> String { "<!-- generated: rowkit schema --reference \(name) -->" }

  /// The line after a table in its document.
  package static let endMarker = "<!-- end generated -->"

  /// A number as the reference writes it: whole numbers without a fraction, and a minus sign.
  static func number(_ value: Double) -> String {
    value < 0 ? "−" + Bounds.format(-value) : Bounds.format(value)
  }

  /// A range as the reference writes it: `−1000–1000`.
  static func span(_ range: ClosedRange<Double>, _ unit: String = "") -> String {
    "\(number(range.lowerBound))–\(number(range.upperBound))" + (unit.isEmpty ? "" : " \(unit)")
  }

  /// A whole number with thousands separated: `100,000`.
  static func grouped(_ value: Int) -> String {
    let digits = Array(String(value))
    var text = ""
    for (index, digit) in digits.enumerated() {
      if index > 0 && (digits.count - index) % 3 == 0 { text.append(",") }
      text.append(digit)
    }
    return text
  }

  /// The bounds of every number a document, a stylesheet or a cell design file gives.
  static func boundsTable() -> String {
    let lines = Bounds.lines
    let rows: [(what: String, bound: String)] = [
      (
        "table width (`table.width`, `--width`)",
        "\(span(Bounds.tableWidth, "points")), at most \(Bounds.maximumPixelWidth) pixels wide with the scale"
      ),
      ("scale (`table.scale`, `--scale`)", span(Bounds.scale)),
      ("rows", "at most \(grouped(Bounds.maximumRows))"),
      ("fixed row height (`table.rowHeight`, `tableRowHeight`)", span(Bounds.rowHeight, "points")),
      (
        "a laid-out row (what its cell's stacks and labels add up to)",
        "at most \(number(Bounds.maximumLaidOutRowHeight)) points"
      ),
      (
        "lengths: image slots, `minHeight`, `height`, header heights, spacer `minLength`, `style` item sizes",
        span(Bounds.length, "points")
      ),
      ("widths: caption and accessory widths, separator insets", span(Bounds.width, "points")),
      ("paddings, spacings, margins (design files, `tableCellPadding`…)", span(Bounds.padding, "points")),
      ("style `inset` and `box` insets", span(Bounds.inset, "points")),
      ("shadow, text-shadow and speech-bubble offsets and sizes", span(Bounds.offset, "points")),
      ("corner radii (`roundedRect`, arrows, speech bubbles; −1 = a pill)", span(Bounds.radius, "points")),
      ("shadow blur", span(Bounds.blur, "points")),
      ("border widths", span(Bounds.borderWidth, "points")),
      ("`grow`", span(Bounds.grow)),
      (
        "angles: `lightSource` / speech-bubble `pointLocation`, `pointAngle`",
        "\(span(Bounds.angle)) / \(span(Bounds.turn, "degrees"))"
      ),
      ("gradient locations, slider values", span(Bounds.fraction)),
      ("label `lines`", "\(lines.lowerBound)–\(lines.upperBound) (0 = no limit)"),
      ("font sizes", span(Bounds.fontSize, "points")),
      ("any other number variable of a stylesheet", "\(span(Bounds.number)) (and the bound of each use)"),
      ("a label's height", "\(number(Bounds.labelHeight)) points; lines below are cut off"),
      (
        "every numeric flag (`--timeout`, `--deadline`, `--jobs`, `--http-cache-size`…)",
        "the range its `--help` gives; out of it, exit 2 naming the flag"
      ),
    ]
    return (["| what | bound |", "|---|---|"] + rows.map { "| \($0.what) | \($0.bound) |" }).joined(separator: "\n") + "\n"
  }

  /// The stylesheet's number variables: default, bounds and what each sizes.
  static func numberVariablesTable() -> String {
    let rows = CellMetrics.variables.map { variable in
      let what = SchemaParts.metricDescriptions[variable.name] ?? variable.name
      return "| `\(variable.name)` | \(number(variable.value)) | \(span(variable.range)) | \(what) |"
    }
    return (["| variable | default | bounds | what |", "|---|---|---|---|"] + rows).joined(separator: "\n") + "\n"
  }
}
