import RowKitGraphics

extension Stylesheet {
  /// The default stylesheet's font variables and their fonts, in the order the format
  /// reference and the stylesheet schema list them.
  static let defaultFonts: [(name: String, font: String)] = [
    ("font", "Inter 14"),
    ("tableFont", "Inter Bold 17"),
    ("tableSmallFont", "Inter Bold 15"),
    ("tableTitleFont", "Inter Bold 13"),
    ("tableButtonFont", "Inter Bold 13"),
    ("tableSummaryFont", "Inter 17"),
    ("tableTimestampFont", "Inter 13"),
    ("tableHeaderPlainFont", "Inter Bold 16"),
    ("tableHeaderGroupedFont", "Inter Bold 18"),
    ("tableFooterFont", "Inter 15"),
    ("tableValueFont", "Inter 17"),
    ("activityLabelFont", "Inter 17"),
    ("tableControlFont", "Inter 15"),
  ]

  /// The default stylesheet's color variables and their colors, in the order the format
  /// reference and the stylesheet schema list them.
  static let defaultColors: [(name: String, color: Color)] = [
    ("textColor", .black),
    ("highlightedTextColor", .white),
    ("backgroundTextColor", .clear),
    ("backgroundColor", .white),
    ("linkTextColor", Color(r: 87, g: 107, b: 149)),
    ("tableSubTextColor", Color(r: 79, g: 89, b: 105)),
    ("tableTitleTextColor", Color(r: 99, g: 109, b: 125)),
    ("tableActivityTextColor", Color(r: 99, g: 109, b: 125)),
    ("tableErrorTextColor", Color(r: 96, g: 103, b: 111)),
    ("timestampTextColor", Color(r: 36, g: 112, b: 216)),
    ("moreLinkTextColor", Color(r: 36, g: 112, b: 216)),
    ("tableValueTextColor", Color(r: 56, g: 84, b: 135)),
    ("placeholderTextColor", Color(r: 179, g: 179, b: 179)),
    // Backgrounds and separators (UIKit's in Three20's day).
    ("tablePlainBackgroundColor", .white),
    ("tableGroupedBackgroundColor", Color(r: 197, g: 204, b: 212)),
    ("tableGroupedStripeColor", Color(r: 203, g: 210, b: 216)),
    ("tableGroupedCellBackgroundColor", .white),
    ("tableGroupedCellBorderColor", Color(r: 171, g: 171, b: 171)),
    ("tablePlainCellSeparatorColor", Color(r: 224, g: 224, b: 224)),
    ("tableGroupedCellSeparatorColor", Color(r: 171, g: 171, b: 171)),
    // Section headers and footers.
    ("tableHeaderTintColor", Color(r: 152, g: 167, b: 181)),
    ("tableSeparatorEtchColor", .white),
    ("tableHeaderTextColor", .white),
    ("tableHeaderShadowColor", Color(white: 0, alpha: 0.35)),
    ("tableHeaderBorderColor", Color(white: 0, alpha: 0.15)),
    ("tableGroupedHeaderTextColor", Color(r: 76, g: 86, b: 108)),
    ("tableGroupedHeaderShadowColor", .white),
    ("tableFooterTextColor", Color(r: 76, g: 86, b: 108)),
    // Selection: TTDefaultStyleSheet's selectionFillStyle gradient.
    ("selectionTopColor", Color(r: 5, g: 140, b: 245)),
    ("selectionBottomColor", Color(r: 1, g: 93, b: 230)),
    // Accessories and controls.
    ("disclosureIndicatorColor", Color(r: 128, g: 128, b: 128)),
    ("detailButtonColor", Color(r: 36, g: 112, b: 216)),
    ("checkmarkColor", Color(r: 50, g: 79, b: 133)),
    ("activityIndicatorColor", Color(r: 99, g: 109, b: 125)),
    ("switchOnColor", Color(r: 0, g: 127, b: 234)),
    ("switchOffColor", Color(r: 238, g: 238, b: 238)),
    ("controlBorderColor", Color(r: 171, g: 171, b: 171)),
    ("sliderTrackColor", Color(r: 184, g: 184, b: 184)),
    ("fallbackCellColor", Color(r: 255, g: 236, b: 236)),
    ("fallbackTextColor", Color(r: 179, g: 18, b: 23)),
  ]

  /// Three20's `TTDefaultStyleSheet` values (fonts move from Helvetica to Inter), plus the
  /// UIKit looks that Three20 left to UIKit and RowKit must draw itself: grouped cells,
  /// separators, accessories and the selection gradient. Every name here may be overridden
  /// by a stylesheet that extends `default`.
  public static let `default`: Stylesheet = {
    var variables: [String: Value] = [:]
    for (name, description) in defaultFonts { variables[name] = .font(Font.parse(description)!) }
    for (name, color) in defaultColors { variables[name] = .color(color) }
    for variable in CellMetrics.variables { variables[variable.name] = .number(variable.value) }
    variables["tablePlainCellSeparatorStyle"] = .keyword("singleLine")
    variables["tableGroupedCellSeparatorStyle"] = .keyword("singleLine")
    let white = Color.white
    let black = Color.black
    var styles: [String: Style] = [
      "rounded": Style([.shape(.roundedRect(CornerRadii(all: 8))), .content]),
      "circle": Style([.shape(.roundedRect(CornerRadii(all: -1))), .content]),
      "linkText": Style([.text(TextElement(color: Color(r: 87, g: 107, b: 149)))]),
      "blackBezel": Style([
        .shape(.roundedRect(CornerRadii(all: 10))), .fill(Color(white: 0, alpha: 0.7)),
        .text(TextElement(font: Font(family: "Inter", size: 15, weight: 700), color: white)),
      ]),
      "whiteBezel": Style([
        .shape(.roundedRect(CornerRadii(all: 10))), .fill(white),
        .border(color: Color(r: 178, g: 178, b: 178), width: 1),
      ]),
      "badge": Style([
        .shape(.roundedRect(CornerRadii(all: -1))), .inset(EdgeInsets(all: 1)),
        .shadow(color: Color(white: 0, alpha: 0.8), blur: 3, offset: Size(width: 0, height: 4)),
        .reflectiveFill(Color(r: 221, g: 17, b: 27), bottomHighlight: false), .inset(EdgeInsets(all: -1)),
        .border(color: white, width: 2), .box(margin: .zero, padding: EdgeInsets(top: 1, left: 7, bottom: 2, right: 7)),
        .text(TextElement(font: Font(family: "Inter", size: 15, weight: 700), color: white)),
      ]),
      "toolbarButton": toolbarButton(.roundedRect(CornerRadii(all: 4.5))),
      "toolbarBackButton": toolbarButton(.roundedLeftArrow(radius: 4.5)),
      "toolbarForwardButton": toolbarButton(.roundedRightArrow(radius: 4.5)),
      "speechBubble": Style([
        .shape(.speechBubble(radius: 8, pointLocation: 290, pointAngle: 270, pointSize: Size(width: 12, height: 8))),
        .fill(Color(r: 230, g: 240, b: 255)), .border(color: Color(r: 150, g: 170, b: 210), width: 1),
        .box(margin: .zero, padding: EdgeInsets(top: 6, left: 10, bottom: 14, right: 10)),
        .text(TextElement(font: Font(family: "Inter", size: 14), color: black, alignment: .left)),
      ]),
    ]
    var sheet = Stylesheet(variables: variables, styles: styles)
    sheet.styles.merge(sheet.derivedStyles) { $1 }
    return sheet
  }()

  /// The built-in styles made from variables: a theme that sets `selectionTopColor` or
  /// `tableHeaderTintColor` restyles the selected rows or the plain headers without
  /// redefining their styles (unless it defines them itself).
  var derivedStyles: [String: Style] {
    func color(_ name: String) -> Color { (try? self.color(.variable(name))) ?? .clear }
    let tint = color("tableHeaderTintColor")
    return [
      "tableCell": Style([.fill(color("backgroundColor"))]),
      "tableCellSelected": Style([.linearGradient(color("selectionTopColor"), color("selectionBottomColor"))]),
      // TTDefaultStyleSheet's tableHeader: a gradient from the tint brightened by a tenth to
      // the tint, then a bottom border.
      "tableHeader": Style([
        .linearGradient(tint.multiplyingValue(by: 1.1), tint),
        .inset(EdgeInsets(top: -1, left: 0, bottom: 0, right: 0)),
        .fourBorder(top: nil, right: nil, bottom: color("tableHeaderBorderColor"), left: nil, width: 1),
      ]),
    ]
  }

  /// TTDefaultStyleSheet's `toolbarButtonForState:shape:…` for the normal state with its
  /// default tint (109, 132, 162).
  private static func toolbarButton(_ shape: StyleShape) -> Style {
    let tint = Color(r: 109, g: 132, b: 162)
    return Style([
      .shape(shape), .inset(EdgeInsets(top: 2, left: 0, bottom: 1, right: 0)),
      .shadow(color: Color(white: 1, alpha: 0.18), blur: 0, offset: Size(width: 0, height: 1)),
      .reflectiveFill(tint, bottomHighlight: false),
      .bevelBorder(highlight: Color(r: 63, g: 82, b: 108), shadow: Color(r: 56, g: 70, b: 90), width: 1, lightSource: 270),
      .inset(EdgeInsets(top: 0, left: -1, bottom: 0, right: -1)),
      .bevelBorder(highlight: nil, shadow: Color(white: 0, alpha: 0.15), width: 1, lightSource: 270),
      .box(margin: .zero, padding: EdgeInsets(all: 8)),
      .text(TextElement(font: Font(family: "Inter", size: 12, weight: 700), color: .white, shadowColor: Color(white: 0, alpha: 0.4))),
    ])
  }
}
