import RowKitGraphics

extension Stylesheet {
  /// Three20's `TTDefaultStyleSheet` values (fonts move from Helvetica to Inter), plus the
  /// UIKit looks that Three20 left to UIKit and RowKit must draw itself: grouped cells,
  /// separators, accessories and the selection gradient. Every name here may be overridden
  /// by a stylesheet that extends `default`.
  public static let `default`: Stylesheet = {
    let fonts: [String: String] = [
      "font": "Inter 14",
      "tableFont": "Inter Bold 17",
      "tableSmallFont": "Inter Bold 15",
      "tableTitleFont": "Inter Bold 13",
      "tableButtonFont": "Inter Bold 13",
      "tableSummaryFont": "Inter 17",
      "tableTimestampFont": "Inter 13",
      "tableHeaderPlainFont": "Inter Bold 16",
      "tableHeaderGroupedFont": "Inter Bold 17",
      "tableFooterFont": "Inter 15",
      "tableValueFont": "Inter 17",
      "activityLabelFont": "Inter 17",
      "tableControlFont": "Inter 15",
    ]
    let colors: [String: Color] = [
      "textColor": .black,
      "highlightedTextColor": .white,
      "backgroundTextColor": .clear,
      "backgroundColor": .white,
      "linkTextColor": Color(r: 87, g: 107, b: 149),
      "tableSubTextColor": Color(r: 79, g: 89, b: 105),
      "tableTitleTextColor": Color(r: 99, g: 109, b: 125),
      "tableActivityTextColor": Color(r: 99, g: 109, b: 125),
      "tableErrorTextColor": Color(r: 96, g: 103, b: 111),
      "timestampTextColor": Color(r: 36, g: 112, b: 216),
      "moreLinkTextColor": Color(r: 36, g: 112, b: 216),
      "tableValueTextColor": Color(r: 56, g: 84, b: 135),
      "placeholderTextColor": Color(r: 179, g: 179, b: 179),
      // Backgrounds and separators (UIKit's in Three20's day).
      "tablePlainBackgroundColor": .white,
      "tableGroupedBackgroundColor": Color(r: 197, g: 204, b: 212),
      "tableGroupedStripeColor": Color(r: 203, g: 210, b: 216),
      "tableGroupedCellBackgroundColor": .white,
      "tableGroupedCellBorderColor": Color(r: 171, g: 171, b: 171),
      "tablePlainCellSeparatorColor": Color(r: 224, g: 224, b: 224),
      "tableGroupedCellSeparatorColor": Color(r: 171, g: 171, b: 171),
      // Section headers and footers.
      "tableHeaderTintColor": Color(r: 152, g: 167, b: 181),
      "tableHeaderTextColor": .white,
      "tableHeaderShadowColor": Color(white: 0, alpha: 0.35),
      "tableHeaderBorderColor": Color(white: 0, alpha: 0.15),
      "tableGroupedHeaderTextColor": Color(r: 76, g: 86, b: 108),
      "tableGroupedHeaderShadowColor": .white,
      "tableFooterTextColor": Color(r: 76, g: 86, b: 108),
      // Selection: TTDefaultStyleSheet's selectionFillStyle gradient.
      "selectionTopColor": Color(r: 5, g: 140, b: 245),
      "selectionBottomColor": Color(r: 1, g: 93, b: 230),
      // Accessories and controls.
      "disclosureIndicatorColor": Color(r: 128, g: 128, b: 128),
      "detailButtonColor": Color(r: 36, g: 112, b: 216),
      "checkmarkColor": Color(r: 50, g: 79, b: 133),
      "activityIndicatorColor": Color(r: 99, g: 109, b: 125),
      "switchOnColor": Color(r: 0, g: 127, b: 234),
      "switchOffColor": Color(r: 238, g: 238, b: 238),
      "controlBorderColor": Color(r: 171, g: 171, b: 171),
      "sliderTrackColor": Color(r: 184, g: 184, b: 184),
      "fallbackCellColor": Color(r: 255, g: 236, b: 236),
      "fallbackTextColor": Color(r: 179, g: 18, b: 23),
    ]
    let numbers: [String: Double] = [
      "tableGroupedCornerRadius": 8,
      "tableGroupedMargin": 10,
    ]
    var variables: [String: Value] = [:]
    for (name, description) in fonts { variables[name] = .font(Font.parse(description)!) }
    for (name, color) in colors { variables[name] = .color(color) }
    for (name, number) in numbers { variables[name] = .number(number) }
    let styles: [String: Style] = [
      "tableCell": Style([.fill(.white)]),
      "tableCellSelected": Style([
        .linearGradient(Color(r: 5, g: 140, b: 245), Color(r: 1, g: 93, b: 230))
      ]),
      "rounded": Style([.shape(.roundedRect(CornerRadii(all: 8)))]),
      "circle": Style([.shape(.roundedRect(CornerRadii(all: -1)))]),
    ]
    return Stylesheet(variables: variables, styles: styles)
  }()
}
