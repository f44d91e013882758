// The headroom types live with the lint's findings, which name them; measuring is the
// renderer's (Rendering/Headroom.swift).

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
  /// The growth between two layouts of measured headroom, in percent of a text's length.
  public static let step = 5
  /// The most growth measured headroom tries, in percent.
  public static let maximumGrowth = 100
  /// The rules that end a slot's headroom (its ``limit``), first found first.
  package static let limitRules: [LintRule] = [.truncated, .clipped, .overlap]

  /// The largest growth, in percent of the text's length, at which the text still fits
  /// (a multiple of ``step``, at most ``maximumGrowth``);
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
    guard let limit else { return "fits at +\(percent ?? Self.maximumGrowth)%" }
    let verb: String
    switch limit {
    case .clipped: verb = "runs outside its row"
    case .overlap: verb = "overlaps"
    default: verb = "truncates"
    }
    return verb + " " + (percent.map { "at +\($0 + Self.step)%" } ?? "as written")
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
