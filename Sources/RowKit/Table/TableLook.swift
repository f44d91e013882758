import RowKitGraphics

/// The table-level colors, fonts and metrics, resolved once from the stylesheet.
public struct TableLook: Hashable, Sendable {
  public var background: Color
  public var stripe: Color?
  public var groupedCellBackground: Color
  public var groupedBorder: Color
  public var separator: Color
  public var headerText: Color
  public var headerShadow: Color
  public var groupedHeaderText: Color
  public var groupedHeaderShadow: Color
  public var footerText: Color
  public var disclosure: Color
  public var detailButton: Color
  public var checkmark: Color
  public var highlightedText: Color
  public var cornerRadius: Double
  /// The grouped side margin (UIKit's `tableCellMargin`, 10 points).
  public var groupedMargin: Double
  public var cellBackground: Style
  public var selectedBackground: Style
  /// The plain section header's background (Three20's `tableHeader` style).
  public var headerStyle: Style
  /// `none`, `singleLine`, or `singleLineEtched` (a white line under the separator).
  public var separatorStyle: String
  public var separatorEtch: Color
  public var separatorInsetLeft: Double
  public var separatorInsetRight: Double
  public var metrics: CellMetrics

  init(style: TableStyle, stylesheet: Stylesheet) throws {
    let grouped = style == .grouped
    background = try stylesheet.color(grouped ? "tableGroupedBackgroundColor" : "tablePlainBackgroundColor")
    stripe = grouped ? try stylesheet.color("tableGroupedStripeColor") : nil
    groupedCellBackground = try stylesheet.color("tableGroupedCellBackgroundColor")
    groupedBorder = try stylesheet.color("tableGroupedCellBorderColor")
    separator = try stylesheet.color(grouped ? "tableGroupedCellSeparatorColor" : "tablePlainCellSeparatorColor")
    headerText = try stylesheet.color("tableHeaderTextColor")
    headerShadow = try stylesheet.color("tableHeaderShadowColor")
    groupedHeaderText = try stylesheet.color("tableGroupedHeaderTextColor")
    groupedHeaderShadow = try stylesheet.color("tableGroupedHeaderShadowColor")
    footerText = try stylesheet.color("tableFooterTextColor")
    disclosure = try stylesheet.color("disclosureIndicatorColor")
    detailButton = try stylesheet.color("detailButtonColor")
    checkmark = try stylesheet.color("checkmarkColor")
    highlightedText = try stylesheet.color("highlightedTextColor")
    metrics = try CellMetrics(stylesheet)
    cornerRadius = metrics.groupedCornerRadius
    groupedMargin = grouped ? metrics.groupedMargin : 0
    cellBackground = try stylesheet.style("tableCell")
    selectedBackground = try stylesheet.style("tableCellSelected")
    headerStyle = try stylesheet.style("tableHeader")
    separatorStyle = try stylesheet.keyword(grouped ? "tableGroupedCellSeparatorStyle" : "tablePlainCellSeparatorStyle")
    separatorEtch = try stylesheet.color("tableSeparatorEtchColor")
    separatorInsetLeft = metrics.separatorInsetLeft
    separatorInsetRight = metrics.separatorInsetRight
  }
}
