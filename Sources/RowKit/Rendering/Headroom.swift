import RowKitGraphics

extension TableRenderer {
  /// The growth between two layouts of measured headroom, in percent of a text's length.
  public static let headroomStep = TextHeadroom.step
  /// The most growth measured headroom tries, in percent.
  public static let maximumGrowth = TextHeadroom.maximumGrowth
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
    let rules = LintOptions(disabled: Set(LintRule.allCases).subtracting(TextHeadroom.limitRules))
    var slots: [TextHeadroom] = []
    var indexOfLabel: [String: Int] = [:]
    for percent in stride(from: 0, through: Self.maximumGrowth, by: Self.headroomStep) {
      var grown = self
      grown.configuration.textGrowth = Double(percent) / 100
      let table = try TableLayoutEngine(configuration: grown.configuration, stylesheet: stylesheet, shaper: shaper)
        .layout(dataSource)
      for placed in table.rows {
        // The first finding of each label: truncated before clipped before overlap. Two
        // labels that overlap both reach their limit, though the finding names the first.
        var failures: [String: LintRule] = [:]
        for finding in placed.layoutFindings(options: rules) {
          for label in [finding.label, finding.otherLabel].compactMap({ $0 }) where failures[label] == nil {
            failures[label] = finding.rule
          }
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
