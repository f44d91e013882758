import RowKitGraphics

/// The table-level colors, fonts and metrics, resolved once from the stylesheet.
public struct TableLook: Hashable, Sendable {
  /// The table's background: `tablePlainBackgroundColor` or `tableGroupedBackgroundColor`.
  public var background: Color
  /// The grouped background's vertical pinstripes (`tableGroupedStripeColor`); nil for a plain table.
  public var stripe: Color?
  /// A grouped cell's fill (`tableGroupedCellBackgroundColor`).
  public var groupedCellBackground: Color
  /// A grouped section's border (`tableGroupedCellBorderColor`).
  public var groupedBorder: Color
  /// The line between rows, for the table's style.
  public var separator: Color
  /// A plain header's text color (`tableHeaderTextColor`).
  public var headerText: Color
  /// A plain header's text shadow (`tableHeaderShadowColor`).
  public var headerShadow: Color
  /// A grouped header's text color (`tableGroupedHeaderTextColor`).
  public var groupedHeaderText: Color
  /// A grouped header's text shadow (`tableGroupedHeaderShadowColor`).
  public var groupedHeaderShadow: Color
  /// A footer's text color (`tableFooterTextColor`).
  public var footerText: Color
  /// The chevron's color (`disclosureIndicatorColor`).
  public var disclosure: Color
  /// The detail button's color (`detailButtonColor`).
  public var detailButton: Color
  /// The checkmark's color (`checkmarkColor`).
  public var checkmark: Color
  /// The color of text and accessories in a selected row (`highlightedTextColor`).
  public var highlightedText: Color
  /// A grouped section's corner radius (`tableGroupedCornerRadius`).
  public var cornerRadius: Double
  /// The grouped side margin (UIKit's `tableCellMargin`, 10 points).
  public var groupedMargin: Double
  /// The style behind every row (`tableCell`).
  public var cellBackground: Style
  /// The style behind a selected row (`tableCellSelected`).
  public var selectedBackground: Style
  /// The plain section header's background (Three20's `tableHeader` style).
  public var headerStyle: Style
  /// `none`, `singleLine`, or `singleLineEtched` (a white line under the separator).
  public var separatorStyle: String
  /// The etched line's color under a `singleLineEtched` separator (`tableSeparatorEtchColor`).
  public var separatorEtch: Color
  /// How far separators start from the cell's left edge.
  public var separatorInsetLeft: Double
  /// How far separators stop from the cell's right edge.
  public var separatorInsetRight: Double
  /// The stylesheet's sizes.
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
