import RowKitGraphics

/// Every size a built-in cell or the table uses, read once from the stylesheet's number
/// variables so a theme can change them.
public struct CellMetrics: Hashable, Sendable {
  /// `tableCellPadding`: Three20's 10-point horizontal and vertical padding.
  public var padding: Double = 0
  /// `tableRowHeight`: the least row height (Three20's `TT_ROW_HEIGHT`).
  public var rowHeight: Double = 0
  /// `tableCaptionWidth`: the caption column's width in caption rows (75).
  public var captionWidth: Double = 0
  /// `tableCaptionSpacing`: the space between a caption and its text (12).
  public var captionSpacing: Double = 0
  /// `tableImageSize`: the side of an image row's square slot (50).
  public var imageSize: Double = 0
  /// `tableImageSpacing`: the space between an image row's image and its text (12).
  public var imageSpacing: Double = 0
  /// `tableSubtitleImageSpacing`: the space between a subtitle row's image and its text (6).
  public var subtitleImageSpacing: Double = 0
  /// `tableMessageImageSize`: the side of a message row's avatar (34).
  public var messageImageSize: Double = 0
  /// `tableMessageMargin`: the margin around a message row's avatar (6).
  public var messageMargin: Double = 0
  /// `tableMoreButtonMargin`: where a more-button row's text starts (40).
  public var moreButtonMargin: Double = 0
  /// `tableMoreButtonMinimumHeight`: the least height of a more-button row (66).
  public var moreButtonMinimumHeight: Double = 0
  /// `tableStyledTextPadding`: the padding around styled text (6).
  public var styledTextPadding: Double = 0
  /// `tableControlSpacing`: the space between a control row's caption and its control (8).
  public var controlSpacing: Double = 0
  /// `tableSpinnerSize`: the side of an activity spinner (20).
  public var spinnerSize: Double = 0
  /// `tableDisclosureIndicatorWidth`: the width a chevron takes from the content (20).
  public var disclosureWidth: Double = 0
  /// `tableDetailDisclosureButtonWidth`: the width a detail button takes from the content (33).
  public var detailButtonWidth: Double = 0
  /// `tableCheckmarkWidth`: the width a checkmark takes from the content (24).
  public var checkmarkWidth: Double = 0
  /// `tableHeaderPlainHeight`: the height of a plain table's section header (22).
  public var plainHeaderHeight: Double = 0
  /// `tableHeaderGroupedHeight`: the height of a grouped table's section header (36).
  public var groupedHeaderHeight: Double = 0
  /// `tableHeaderGroupedFirstHeight`: the height of a grouped table's first section header (46).
  public var groupedFirstHeaderHeight: Double = 0
  /// `tableSectionGap`: the height of a grouped table's header or footer band that has no title (10).
  public var sectionGap: Double = 0
  /// `tableGroupedMargin`: a grouped table's side margin (10).
  public var groupedMargin: Double = 0
  /// `tableGroupedCornerRadius`: the corner radius of a grouped section (8).
  public var groupedCornerRadius: Double = 0
  /// `tableSeparatorInsetLeft`: how far separators start from the cell's left edge (0).
  public var separatorInsetLeft: Double = 0
  /// `tableSeparatorInsetRight`: how far separators stop from the cell's right edge (0).
  public var separatorInsetRight: Double = 0

  /// The number variables, their defaults (Three20's constants where it had them) and their
  /// bounds.
  // NB: key paths are not Sendable; the array is never mutated.
  nonisolated(unsafe) package static let variables: [(
    name: String, value: Double, keyPath: WritableKeyPath<CellMetrics, Double>, range: ClosedRange<Double>
  )] = [
    ("tableCellPadding", 10, \.padding, Bounds.padding),
    ("tableRowHeight", 44, \.rowHeight, Bounds.rowHeight),
    ("tableCaptionWidth", 75, \.captionWidth, Bounds.width),
    ("tableCaptionSpacing", 12, \.captionSpacing, Bounds.padding),
    ("tableImageSize", 50, \.imageSize, Bounds.length),
    ("tableImageSpacing", 12, \.imageSpacing, Bounds.padding),
    ("tableSubtitleImageSpacing", 6, \.subtitleImageSpacing, Bounds.padding),
    ("tableMessageImageSize", 34, \.messageImageSize, Bounds.length),
    ("tableMessageMargin", 6, \.messageMargin, Bounds.padding),
    ("tableMoreButtonMargin", 40, \.moreButtonMargin, Bounds.padding),
    ("tableMoreButtonMinimumHeight", 66, \.moreButtonMinimumHeight, Bounds.length),
    ("tableStyledTextPadding", 6, \.styledTextPadding, Bounds.padding),
    ("tableControlSpacing", 8, \.controlSpacing, Bounds.padding),
    ("tableSpinnerSize", 20, \.spinnerSize, Bounds.length),
    ("tableDisclosureIndicatorWidth", 20, \.disclosureWidth, Bounds.width),
    ("tableDetailDisclosureButtonWidth", 33, \.detailButtonWidth, Bounds.width),
    ("tableCheckmarkWidth", 24, \.checkmarkWidth, Bounds.width),
    ("tableHeaderPlainHeight", 22, \.plainHeaderHeight, Bounds.length),
    ("tableHeaderGroupedHeight", 36, \.groupedHeaderHeight, Bounds.length),
    ("tableHeaderGroupedFirstHeight", 46, \.groupedFirstHeaderHeight, Bounds.length),
    ("tableSectionGap", 10, \.sectionGap, Bounds.length),
    ("tableGroupedMargin", 10, \.groupedMargin, Bounds.padding),
    ("tableGroupedCornerRadius", 8, \.groupedCornerRadius, Bounds.radius),
    ("tableSeparatorInsetLeft", 0, \.separatorInsetLeft, Bounds.width),
    ("tableSeparatorInsetRight", 0, \.separatorInsetRight, Bounds.width),
  ]

  /// The bounds of the number variable `name`: its own for the variables above, else
  /// ``Bounds/number``.
  public static func range(of name: String) -> ClosedRange<Double> {
    variables.first { $0.name == name }?.range ?? Bounds.number
  }

  /// Every size at its default.
  public static let `default`: CellMetrics = {
    var metrics = CellMetrics()
    for variable in variables { metrics[keyPath: variable.keyPath] = variable.value }
    return metrics
  }()

  private init() {}

  /// The metrics a stylesheet gives; a number out of its bounds is an error (a stylesheet
  /// file's loader has already refused it, naming its place).
  public init(_ stylesheet: Stylesheet) throws {
    self = .default
    for variable in Self.variables {
      let number = try stylesheet.number(variable.name)
      if let problem = Bounds.problem(number, in: variable.range) {
        throw StyleError("variable '\(variable.name)': \(problem)")
      }
      self[keyPath: variable.keyPath] = number
    }
  }

  /// The width an accessory takes from the content.
  public func width(of accessory: Accessory) -> Double {
    switch accessory {
    case .disclosureIndicator: return disclosureWidth
    case .detailDisclosureButton: return detailButtonWidth
    case .checkmark: return checkmarkWidth
    }
  }
}
