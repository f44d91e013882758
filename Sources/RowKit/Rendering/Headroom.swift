import RowKitGraphics

/// How much longer one text slot's text can grow before it no longer fits: the room a
/// translation has.
public struct TextHeadroom: Codable, Hashable, Sendable {
  /// The row's section, from 0.
  public var section: Int
  /// The row's index in its section, from 0.
  public var row: Int
  /// The item's type name.
  public var type: String
  /// The name of the cell that drew the row.
  public var cell: String
  /// The label.
  public var label: String
  /// The largest growth, in percent of the text's length, at which the text still fits
  /// (a multiple of ``TableRenderer/headroomStep``, at most ``TableRenderer/maximumGrowth``);
  /// nil when it does not fit as written.
  public var percent: Int?
  /// What happens one step further (`truncated`, `clipped` or `overlap`); nil when the text
  /// still fits at the maximum growth.
  public var limit: LintRule?

  /// The headroom of the label `label` in row `row` of section `section`.
  public init(section: Int, row: Int, type: String, cell: String, label: String, percent: Int?, limit: LintRule?) {
    self.section = section
    self.row = row
    self.type = type
    self.cell = cell
    self.label = label
    self.percent = percent
    self.limit = limit
  }

  /// The slot's name in messages: `s0-r3 title`.
  public var name: String { "s\(section)-r\(row) \(label)" }

  /// What the text does when it grows past its headroom: `truncates at +25%`,
  /// `runs outside its row at +25%`, `overlaps at +25%` or `truncates as written`; or
  /// `fits at +100%` when it never stops fitting.
  public var limitPhrase: String {
    guard let limit else { return "fits at +\(percent ?? TableRenderer.maximumGrowth)%" }
    let verb: String
    switch limit {
    case .clipped: verb = "runs outside its row"
    case .overlap: verb = "overlaps"
    default: verb = "truncates"
    }
    return verb + " " + (percent.map { "at +\($0 + TableRenderer.headroomStep)%" } ?? "as written")
  }

  /// Whether the slot stops fitting before its text is `minimum` percent longer.
  public func isBelow(_ minimum: Int) -> Bool {
    limit != nil && (percent ?? -1) < minimum
  }
}

/// Every text slot's headroom in one table, with the headroom each slot needs: what a
/// render's manifest and a check case carry when asked to measure it.
public struct TableHeadroom: Codable, Hashable, Sendable {
  /// The headroom every slot needs, in percent: a slot below it is a `headroom` finding when
  /// the lint runs.
  public var minimum: Int
  /// Every label of every row, in table order.
  public var slots: [TextHeadroom]

  /// The headroom of `slots`, each needing `minimum` percent.
  public init(minimum: Int, slots: [TextHeadroom]) {
    self.minimum = minimum
    self.slots = slots
  }

  /// The slots that stop fitting before +100%, the least headroom first (those that do not
  /// fit as written before all), at most `count`; ties keep the table's order.
  public func tightest(_ count: Int) -> [TextHeadroom] {
    let limited = slots.enumerated().filter { $0.element.limit != nil }
    return limited.sorted { (($0.element.percent ?? -1), $0.offset) < (($1.element.percent ?? -1), $1.offset) }
      .prefix(count).map(\.element)
  }

  /// The slots with less than ``minimum`` percent of headroom, in table order.
  public var belowMinimum: [TextHeadroom] { slots.filter { $0.isBelow(minimum) } }
}

extension LintFinding {
  /// The `headroom` finding of `slot` when it has less than `minimum` percent of headroom:
  /// `truncates at +20% (AX3, 320 pt); needs +30%`, where `place` is the parenthesis.
  public static func headroom(_ slot: TextHeadroom, minimum: Int, place: String) -> LintFinding? {
    guard slot.isBelow(minimum) else { return nil }
    return LintFinding(rule: .headroom, label: slot.label, message: "\(slot.limitPhrase) (\(place)); needs +\(minimum)%")
  }
}

extension TableRenderer {
  /// The growth between two layouts of measured headroom, in percent of a text's length.
  public static let headroomStep = 5
  /// The most growth measured headroom tries, in percent.
  public static let maximumGrowth = 100
  /// The headroom a text slot needs unless told otherwise, in percent: about what a
  /// translation from English into German or French adds.
  public static let defaultMinimumHeadroom = 30

  /// Where this renderer measures headroom, as a headroom finding names it: the variant's
  /// text size (`large` without one) and the table's width, `AX3, 320 pt`.
  public var headroomPlace: String {
    "\(variant?.textSize?.rawValue ?? "large"), \(Bounds.format(configuration.width)) pt"
  }

  /// Every text slot's headroom (``headroom(_:shaper:)``), measured on one of the pool's
  /// workers, with ``minimumHeadroom``: what a render that ``measuresHeadroom`` puts in its
  /// manifest.
  public func measureHeadroom(_ dataSource: any TableDataSource) async throws -> TableHeadroom {
    let renderer = self
    return TableHeadroom(minimum: minimumHeadroom, slots: try await pool.run { try renderer.headroom(dataSource) })
  }

  /// Every text slot's headroom in this renderer's configuration: the rows are laid out
  /// again with every text grown by 5%, 10%, … up to 100% of its length (en-XA's padding
  /// words, ``PseudoLocale/grown(_:by:)``), all texts of a row together as a translation
  /// grows them, and each label's headroom is the last growth at which it is neither
  /// truncated, nor outside its row, nor overlapping another element. Lays out on the
  /// calling thread, as ``layout(_:shaper:)`` does.
  public func headroom(_ dataSource: any TableDataSource, shaper: TextShaper? = nil) throws -> [TextHeadroom] {
    let shaper = try shaper ?? environment.makeShaper()
    let rules = LintOptions(disabled: Set(LintRule.allCases).subtracting([.truncated, .clipped, .overlap]))
    var slots: [TextHeadroom] = []
    var indexOfLabel: [String: Int] = [:]
    for percent in stride(from: 0, through: Self.maximumGrowth, by: Self.headroomStep) {
      var grown = self
      grown.configuration.textGrowth = Double(percent) / 100
      let table = try TableLayoutEngine(configuration: grown.configuration, stylesheet: stylesheet, shaper: shaper)
        .layout(dataSource)
      for placed in table.rows {
        // The first finding of each label: truncated before clipped before overlap.
        var failures: [String: LintRule] = [:]
        for finding in placed.layoutFindings(options: rules) {
          guard let label = finding.label, failures[label] == nil else { continue }
          failures[label] = finding.rule
        }
        for label in placed.layout.labels {
          let key = "\(placed.section)/\(placed.row)/\(label.name)"
          if percent == 0 {
            indexOfLabel[key] = slots.count
            slots.append(
              TextHeadroom(
                section: placed.section, row: placed.row, type: placed.item.typeName, cell: placed.layout.cellName,
                label: label.name, percent: nil, limit: nil))
          }
          guard let index = indexOfLabel[key], slots[index].limit == nil else { continue }
          if let failure = failures[label.name] {
            slots[index].limit = failure
          } else {
            slots[index].percent = percent
          }
        }
      }
    }
    return slots
  }
}
