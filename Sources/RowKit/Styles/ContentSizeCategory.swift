import RowKitGraphics

/// UIKit's content size categories (`UIContentSizeCategory`), the user's text size setting.
/// Each scales every font as UIKit scales its body text style.
public enum ContentSizeCategory: String, Hashable, Sendable, CaseIterable, Comparable {
  /// The standard sizes, smallest to largest; `large` is the default.
  case xSmall, small, medium, large, xLarge, xxLarge, xxxLarge
  /// The accessibility sizes, AX1 to AX5, larger still.
  case AX1, AX2, AX3, AX4, AX5

  /// The body text style's size in points at this category: Apple's Human Interface
  /// Guidelines, "Typography", Dynamic Type sizes for iOS (Body: 14, 15, 16, 17, 19, 21, 23,
  /// then 28, 33, 40, 47, 53 for the accessibility sizes).
  public var bodySize: Double {
    switch self {
    case .xSmall: return 14
    case .small: return 15
    case .medium: return 16
    case .large: return 17
    case .xLarge: return 19
    case .xxLarge: return 21
    case .xxxLarge: return 23
    case .AX1: return 28
    case .AX2: return 33
    case .AX3: return 40
    case .AX4: return 47
    case .AX5: return 53
    }
  }

  /// UIKit's default category, at which fonts keep the sizes the stylesheet gives.
  public static let `default` = ContentSizeCategory.large

  /// How much this category scales a font: its body size over the body size at `large`.
  public var fontScale: Double { bodySize / Self.default.bodySize }

  /// A font's size at this category: the size the stylesheet gives (meant for `large`)
  /// scaled as body text scales, rounded to a whole point as UIKit's text styles are, and
  /// kept within RowKit's font-size bounds. At `large` every size stays as it is.
  public func scaledSize(_ size: Double) -> Double {
    guard self != .default else { return size }
    return min(max((size * fontScale).rounded(), Bounds.fontSize.lowerBound), Bounds.fontSize.upperBound)
  }

  /// Whether `lhs` is a smaller size than `rhs`.
  public static func < (lhs: Self, rhs: Self) -> Bool {
    allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
  }
}

/// Light or dark, as `UIUserInterfaceStyle`.
public enum Appearance: String, Hashable, Sendable, CaseIterable {
  /// The light or the dark appearance.
  /// Light backgrounds, dark text.
  case light
  /// Dark backgrounds, light text: the stylesheet's dark values.
  case dark
}
