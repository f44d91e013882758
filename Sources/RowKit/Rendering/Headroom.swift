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
}

extension TableRenderer {
  /// The growth between two layouts of measured headroom, in percent of a text's length.
  public static let headroomStep = 5
  /// The most growth measured headroom tries, in percent.
  public static let maximumGrowth = 100
  /// The headroom a text slot needs unless told otherwise, in percent: about what a
  /// translation from English into German or French adds.
  public static let defaultMinimumHeadroom = 30

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
