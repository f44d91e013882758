import RowKitGraphics

/// Every size a built-in cell or the table uses, read once from the stylesheet's number
/// variables so a theme can change them.
public struct CellMetrics: Hashable, Sendable {
  /// `tableCellPadding`: Three20's 10-point horizontal and vertical padding.
  public var padding: Double = 0
  /// `tableRowHeight`: the least row height (Three20's `TT_ROW_HEIGHT`).
  public var rowHeight: Double = 0
  public var captionWidth: Double = 0
  public var captionSpacing: Double = 0
  public var imageSize: Double = 0
  public var imageSpacing: Double = 0
  public var subtitleImageSpacing: Double = 0
  public var messageImageSize: Double = 0
  public var messageMargin: Double = 0
  public var moreButtonMargin: Double = 0
  public var moreButtonMinimumHeight: Double = 0
  public var styledTextPadding: Double = 0
  public var controlSpacing: Double = 0
  public var spinnerSize: Double = 0
  public var disclosureWidth: Double = 0
  public var detailButtonWidth: Double = 0
  public var checkmarkWidth: Double = 0
  public var plainHeaderHeight: Double = 0
  public var groupedHeaderHeight: Double = 0
  public var groupedFirstHeaderHeight: Double = 0
  public var sectionGap: Double = 0
  public var groupedMargin: Double = 0
  public var groupedCornerRadius: Double = 0
  public var separatorInsetLeft: Double = 0
  public var separatorInsetRight: Double = 0

  /// The number variables and their defaults (Three20's constants where it had them).
  // NB: key paths are not Sendable; the array is never mutated.
  nonisolated(unsafe) public static let variables: [(name: String, value: Double, keyPath: WritableKeyPath<CellMetrics, Double>)] = [
    ("tableCellPadding", 10, \.padding),
    ("tableRowHeight", 44, \.rowHeight),
    ("tableCaptionWidth", 75, \.captionWidth),
    ("tableCaptionSpacing", 12, \.captionSpacing),
    ("tableImageSize", 50, \.imageSize),
    ("tableImageSpacing", 12, \.imageSpacing),
    ("tableSubtitleImageSpacing", 6, \.subtitleImageSpacing),
    ("tableMessageImageSize", 34, \.messageImageSize),
    ("tableMessageMargin", 6, \.messageMargin),
    ("tableMoreButtonMargin", 40, \.moreButtonMargin),
    ("tableMoreButtonMinimumHeight", 66, \.moreButtonMinimumHeight),
    ("tableStyledTextPadding", 6, \.styledTextPadding),
    ("tableControlSpacing", 8, \.controlSpacing),
    ("tableSpinnerSize", 20, \.spinnerSize),
    ("tableDisclosureIndicatorWidth", 20, \.disclosureWidth),
    ("tableDetailDisclosureButtonWidth", 33, \.detailButtonWidth),
    ("tableCheckmarkWidth", 24, \.checkmarkWidth),
    ("tableHeaderPlainHeight", 22, \.plainHeaderHeight),
    ("tableHeaderGroupedHeight", 36, \.groupedHeaderHeight),
    ("tableHeaderGroupedFirstHeight", 46, \.groupedFirstHeaderHeight),
    ("tableSectionGap", 10, \.sectionGap),
    ("tableGroupedMargin", 10, \.groupedMargin),
    ("tableGroupedCornerRadius", 8, \.groupedCornerRadius),
    ("tableSeparatorInsetLeft", 0, \.separatorInsetLeft),
    ("tableSeparatorInsetRight", 0, \.separatorInsetRight),
  ]

  public static let `default`: CellMetrics = {
    var metrics = CellMetrics()
    for variable in variables { metrics[keyPath: variable.keyPath] = variable.value }
    return metrics
  }()

  private init() {}

  /// The metrics a stylesheet gives.
  public init(_ stylesheet: Stylesheet) throws {
    self = .default
    for variable in Self.variables {
      self[keyPath: variable.keyPath] = try stylesheet.number(variable.name)
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
