import RowKit

extension SnapshotCheck.Report {
  /// `check-report.schema.json`: report.json of `rowkit check --report` and
  /// `rowkit merge-reports`, written by RowKit and read by merge-reports, accept and other
  /// tools.
  package static func schema() -> OrderedJSON {
    let closed = SchemaParts.closed
    let count: OrderedJSON = ["type": "integer", "minimum": 0]
    // A report comes from outside (a pull request's CI run): readers refuse any image path
    // but a plain one inside the report folder (ReportFolder.isContainedPath).
    // The character class ends with `-`, where it stands for itself.
    let punctuation = ReportFolder.pathPunctuation.filter { $0 != "-" } + "-"
    let part = "[A-Za-z0-9\(punctuation)]+"
    let relative: OrderedJSON = [
      "type": "string", "pattern": .string(#"^(?!(.*/)?\.\.?(/|$))"# + part + "(/\(part))*$"),
      "description": "an image: a plain path inside the report folder (no absolute path, no .., no address); any other makes the report unreadable",
    ]
    let percent: ClosedRange<Int> = 0...TextHeadroom.maximumGrowth
    let headroom = closed(
      [
        "minimum": [
          "type": "integer", "minimum": .number(Double(percent.lowerBound)), "maximum": .number(Double(percent.upperBound)),
          "description": "the headroom every text slot needs, in percent (--min-headroom)",
        ],
        "slots": [
          "type": "array", "description": "every label of every row, in table order",
          "items": closed(
            [
              "section": count, "row": count,
              "type": ["type": "string", "description": "the item's type"],
              "cell": ["type": "string", "description": "the cell that drew the row"],
              "label": ["type": "string", "description": "the label's name in its row"],
              "percent": [
                "type": "integer", "minimum": .number(Double(percent.lowerBound)),
                "maximum": .number(Double(percent.upperBound)), "multipleOf": .number(Double(TextHeadroom.step)),
                "description": "the largest growth of the text, in percent of its length, at which it still fits; absent when it does not fit as written",
              ],
              "limit": [
                "enum": .strings(TextHeadroom.limitRules.map(\.rawValue)),
                "description": .string(
                  "what happens one \(TextHeadroom.step)% step further; absent when the text still fits at +\(TextHeadroom.maximumGrowth)%"),
              ],
            ], ["section", "row", "type", "cell", "label"], nil),
        ],
      ], ["minimum", "slots"],
      "with --headroom: every text slot's headroom in the case's render, and the headroom each needs")
    let nullableString: OrderedJSON = ["type": ["string", "null"]]
    let box: OrderedJSON = ["type": ["array", "null"], "items": ["type": "integer"], "minItems": 4, "maxItems": 4]
    let layoutChange = closed(
      [
        "row": [
          "type": "string",
          "description": "s0-r3, `section 0 header`, `section 1` (where a section starts, or one added or removed), `table`, or the rows of a change made in several, compactly: `s0-r0…s0-r59 (60 rows)`",
        ],
        "element": nullableString.merging([
          "description": "the element's name in its row (title, image, accessory…); null for the row itself"
        ]),
        "property": [
          "type": "string", "description": "what changed: position, size, color, text, fontSize, height, state…",
        ],
        "from": nullableString.merging(["description": "the reference's value"]),
        "to": nullableString.merging(["description": "the render's value"]),
        "sentence": [
          "type": "string", "description": "the change in one sentence: `s0-r3 title moved down 2 pt (y 12 → 14)`",
        ],
        "referenceBox": box.merging([
          "description": "where the changed element (or row) is in the reference image, in pixels: [x, y, width, height]; null where it is not there or the change is of the whole table"
        ]),
        "actualBox": box.merging([
          "description": "where the changed element (or row) is in the actual image, in pixels; null where it is not there"
        ]),
        "rows": [
          "type": ["array", "null"], "items": ["type": "string"],
          "description": "every row a change made in several rows is in (its boxes are the first row's); null for one",
        ],
      ], ["row", "element", "property", "from", "to", "sentence", "referenceBox", "actualBox"], nil)
    let strings: OrderedJSON = ["type": "array", "items": ["type": "string"]]
    let testCase = closed(
      [
        "name": [
          "type": "string",
          "description": "the case: the document's path without its extension, or <design>/preview-<n>[-selected]",
        ],
        "document": ["type": "string", "description": "the document or design file, absolute"],
        "status": ["enum": SchemaParts.cases(of: SnapshotCheck.Status.self)],
        "message": ["type": "string", "description": "one line: what happened, with the numbers and image paths"],
        "result": ["type": "object", "description": "the comparison's numbers, as `rowkit diff --json` prints them"],
        "reference": relative, "actual": relative, "diff": relative, "composite": relative,
        "warnings": strings.merging(["description": "one line per row with characters no loaded font can draw"]),
        "findings": strings.merging(["description": "with --lint, one line per design-lint finding"]),
        "headroom": headroom,
        "layoutChanges": [
          "type": "array",
          "description": "what changed in the layout, when the case failed and both the reference and the render have a layout record",
          "items": layoutChange,
        ],
        "pixelOnly": ["type": "boolean", "description": "true when the layout records are the same and only pixels differ"],
        "pixelOnlyElements": strings.merging([
          "description": "with pixelOnly: the elements whose boxes hold the differing pixels"
        ]),
        "pixelOnlySummary": [
          "type": "string",
          "description": "with pixelOnly: `layout unchanged; 412 pixels differ, all inside s0-r3 title's glyphs`",
        ],
        "rasterizationOnly": [
          "type": "boolean",
          "description": "true when the references were recorded in another environment, the layout records are the same but for ink boxes and font files' digests, and every differing pixel lies inside glyphs of unchanged text: `rowkit accept REPORT --rasterization-only` accepts these",
        ],
        "actualLayout": relative, "referenceLayout": relative,
        "cached": [
          "type": "boolean",
          "description": "true when the case passed without rendering: every input its render read is as it was when a render matched its reference pixel for pixel (Suite/name.inputs.json beside the reference)",
        ],
        "seconds": [
          "type": "number", "minimum": 0,
          "description": "the time the render workers spent on the case, in seconds to the millisecond, not counting its wait behind other cases: what `--shard-by cost --timings REPORT` plans shards from",
        ],
        "renderedBecause": strings.merging([
          "description": "with --explain-cache: why the render cache could not pass the case, one phrase each (`stylesheet ../Styles/app.yaml changed`, `no stored inputs`)"
        ]),
      ], ["name", "document", "status"], nil)
    let counted = ["total", "passed", "failed", "new", "missing", "errors", "orphans"]
    let summary = closed(
      .object(counted.map { .init($0, count) }).merging([
        "rasterizationOnly": count.merging([
          "description": "failed cases that differ in rasterization only (cases[].rasterizationOnly); absent for none"
        ]),
        "cached": count.merging([
          "description": "passed cases that passed without rendering (cases[].cached); absent for none"
        ]),
      ]), counted, nil)
    let schema = SchemaParts.header(
      "check-report.schema.json", title: "RowKit check report",
      description: "report.json of `rowkit check --report DIR` and `rowkit merge-reports -o DIR`.")
    return schema.merging(
      closed(
        [
          "summary": summary,
          "shard": ["type": "string", "pattern": "^[0-9]+/[0-9]+$", "description": "i/n for a shard's report"],
          "suite": strings.merging([
            "description": "for a shard: every case of the whole suite, in order; rowkit merge-reports puts the shards' cases back in this order and names the cases no shard or two shards checked"
          ]),
          "run": ["type": "string", "description": "the run's identity, shared by its shards"],
          "snapshots": [
            "type": "string",
            "description": "the references folder: relative to the folder the check ran in when inside it (Snapshots/Check), else absolute; rowkit accept writes into no other",
          ],
          "recordMode": ["enum": SchemaParts.cases(of: RecordMode.self)],
          "options": ["type": "object", "description": "the comparison tolerances"],
          "environment": ["type": "object", "description": "the environment fingerprint (environment.json)"],
          "environmentMismatch": ["type": "string"],
          "cases": ["type": "array", "items": testCase],
          "orphans": strings.merging(["description": "reference files, relative to snapshots, that no case checks"]),
          "failsOnOrphans": ["type": "boolean"],
          "referencesWithoutLayoutRecord": count.merging([
            "description": "references checked that have no layout record beside them (`--record missing` adds them)"
          ]),
        ],
        ["summary", "run", "snapshots", "recordMode", "options", "environment", "cases", "orphans", "failsOnOrphans"],
        nil))
  }
}
