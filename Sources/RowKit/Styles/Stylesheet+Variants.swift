import RowKitGraphics

extension Stylesheet {
  /// The default stylesheet's colors in the dark appearance: iOS's dark system colors
  /// (`systemBackground` #000000, `secondarySystemGroupedBackground` #1C1C1E, `separator`
  /// #38383A, `label` white, `secondaryLabel` #8D8D93 opaque on black, `systemBlue` #0A84FF)
  /// in place of Three20's light ones. Every color variable of ``default`` has a dark value
  /// here; a test checks that none is missing.
  public static let defaultDarkColors: [String: Color] = {
    let label = Color.white
    let secondaryLabel = Color(r: 141, g: 141, b: 147)
    let blue = Color(r: 10, g: 132, b: 255)
    let separator = Color(r: 56, g: 56, b: 58)
    return [
      "textColor": label,
      "highlightedTextColor": .white,
      "backgroundTextColor": .clear,
      "backgroundColor": .black,
      "linkTextColor": Color(r: 100, g: 170, b: 255),
      "tableSubTextColor": secondaryLabel,
      "tableTitleTextColor": secondaryLabel,
      "tableActivityTextColor": secondaryLabel,
      "tableErrorTextColor": secondaryLabel,
      "timestampTextColor": blue,
      "moreLinkTextColor": blue,
      "tableValueTextColor": Color(r: 152, g: 172, b: 214),
      "placeholderTextColor": Color(r: 99, g: 99, b: 102),
      "tablePlainBackgroundColor": .black,
      "tableGroupedBackgroundColor": .black,
      "tableGroupedStripeColor": .black,
      "tableGroupedCellBackgroundColor": Color(r: 28, g: 28, b: 30),
      "tableGroupedCellBorderColor": separator,
      "tablePlainCellSeparatorColor": separator,
      "tableGroupedCellSeparatorColor": separator,
      "tableHeaderTintColor": Color(r: 44, g: 44, b: 46),
      "tableSeparatorEtchColor": .black,
      "tableHeaderTextColor": .white,
      "tableHeaderShadowColor": Color(white: 0, alpha: 0.35),
      "tableHeaderBorderColor": Color(white: 1, alpha: 0.15),
      "tableGroupedHeaderTextColor": secondaryLabel,
      "tableGroupedHeaderShadowColor": .clear,
      "tableFooterTextColor": secondaryLabel,
      // UIKit's dark selection is gray, not blue.
      "selectionTopColor": Color(r: 58, g: 58, b: 60),
      "selectionBottomColor": Color(r: 44, g: 44, b: 46),
      "disclosureIndicatorColor": Color(r: 99, g: 99, b: 102),
      "detailButtonColor": blue,
      "checkmarkColor": blue,
      "activityIndicatorColor": secondaryLabel,
      "switchOnColor": Color(r: 48, g: 209, b: 88),
      "switchOffColor": Color(r: 57, g: 57, b: 61),
      "controlBorderColor": separator,
      "sliderTrackColor": Color(r: 72, g: 72, b: 74),
      "fallbackCellColor": Color(r: 60, g: 20, b: 22),
      "fallbackTextColor": Color(r: 255, g: 105, b: 97),
    ]
  }()

  /// The built-in `default-dark` stylesheet: ``default`` in the dark appearance
  /// (`extends: default-dark`).
  public static let defaultDark: Stylesheet = Stylesheet.default.inDarkAppearance()
  /// The name `extends:` gives ``defaultDark``.
  public static let defaultDarkName = "default-dark"

  /// This stylesheet in the dark appearance. A color variable that still holds the default
  /// stylesheet's light value takes its built-in dark value (``defaultDarkColors``); one the
  /// stylesheet set itself keeps it, as a fixed `UIColor` does in dark mode; then the
  /// stylesheet's own `darkVars:` apply. The styles made from variables (`tableCell`,
  /// `tableCellSelected`, `tableHeader`) and `linkText` follow unless the stylesheet defined
  /// them itself. Other styles keep the colors they were written with.
  public func inDarkAppearance() -> Stylesheet {
    var sheet = self
    let derivedBefore = derivedStyles
    for (name, dark) in Self.defaultDarkColors where variables[name] == Stylesheet.default.variables[name] {
      sheet.variables[name] = .color(dark)
    }
    for (name, value) in darkVariables { sheet.variables[name] = value }
    for (name, style) in sheet.derivedStyles where styles[name] == derivedBefore[name] { sheet.styles[name] = style }
    if styles["linkText"] == Stylesheet.default.styles["linkText"], let link = try? sheet.color("linkTextColor") {
      sheet.styles["linkText"] = Style([.text(TextElement(color: link))])
    }
    return sheet
  }

  /// This stylesheet at text size `category`: every font it names (variables, literals and
  /// the fonts of its styles' `text` elements) scaled as UIKit scales body text. Sizes that
  /// are not text (paddings, image slots, the 44-point minimum row) stay; rows grow because
  /// their text does.
  public func scalingFonts(to category: ContentSizeCategory) -> Stylesheet {
    var sheet = self
    sheet.textSize = category
    for (name, style) in styles {
      let elements = style.elements.map { element -> StyleElement in
        guard case .text(var text) = element, let font = text.font else { return element }
        // A style's own font scales from its size at the stylesheet's current category.
        var base = font
        base.size = category.scaledSize(font.size / textSize.fontScale)
        text.font = base
        return .text(text)
      }
      sheet.styles[name] = Style(elements)
    }
    return sheet
  }
}
