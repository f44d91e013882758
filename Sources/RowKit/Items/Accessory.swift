import RowKitGraphics

/// The glyph at a row's right edge, as UIKit drew them for Three20.
public enum Accessory: String, Hashable, Sendable, CaseIterable {
  /// A gray chevron: the row leads somewhere.
  case disclosureIndicator = "disclosure"
  /// A blue round button with a chevron: the row and its button lead to different places.
  case detailDisclosureButton = "detailDisclosure"
  /// A checkmark: the row is the chosen one.
  case checkmark

  /// Three20's rule: `url` and `accessoryURL` give a detail button, `url` alone a chevron.
  public static func standard(for options: ItemOptions) -> Accessory? {
    guard options.url != nil else { return nil }
    return options.accessoryURL != nil ? .detailDisclosureButton : .disclosureIndicator
  }

  /// The glyph's size in points.
  public var glyphSize: Size {
    switch self {
    case .disclosureIndicator: return Size(width: 8, height: 13)
    case .detailDisclosureButton: return Size(width: 23, height: 23)
    case .checkmark: return Size(width: 14, height: 12)
    }
  }

  /// The space between the glyph and the cell's right edge.
  public var rightMargin: Double {
    switch self {
    case .disclosureIndicator: return 10
    case .detailDisclosureButton: return 7
    case .checkmark: return 10
    }
  }

  /// Where the glyph sits in a cell of `size`: at the right, vertically centered.
  func glyphFrame(in size: Size, grid: PixelGrid) -> Rect {
    let glyph = glyphSize
    return Rect(
      x: size.width - rightMargin - glyph.width, y: grid.round((size.height - glyph.height) / 2),
      width: glyph.width, height: glyph.height)
  }
}
