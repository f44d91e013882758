/// A straight (not premultiplied) sRGB color with components from 0 to 1.
public struct Color: Hashable, Sendable, Codable, CustomStringConvertible {
  /// The red component, from 0 to 1.
  public var red: Double
  /// The green component, from 0 to 1.
  public var green: Double
  /// The blue component, from 0 to 1.
  public var blue: Double
  /// The opacity, from 0 (transparent) to 1 (opaque).
  public var alpha: Double

  /// A color from its components, each from 0 to 1; opaque unless `alpha` says otherwise.
  public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
    self.red = red
    self.green = green
    self.blue = blue
    self.alpha = alpha
  }

  /// A color from 0–255 components, the way Three20's `RGBCOLOR` wrote them.
  public init(r: Int, g: Int, b: Int, a: Double = 1) {
    self.init(red: Double(r) / 255, green: Double(g) / 255, blue: Double(b) / 255, alpha: a)
  }

  /// A gray of the given white level, like `UIColor(white:alpha:)`.
  public init(white: Double, alpha: Double = 1) {
    self.init(red: white, green: white, blue: white, alpha: alpha)
  }

  /// Parses `#RGB`, `#RRGGBB` or `#RRGGBBAA`; returns nil for anything else.
  public init?(hex: String) {
    guard hex.first == "#" else { return nil }
    let digits = Array(hex.dropFirst())
    guard digits.allSatisfy(\.isHexDigit) else { return nil }
    func component(_ start: Int, _ length: Int) -> Double {
      let text = String(digits[start..<start + length])
      let value = Double(Int(text, radix: 16) ?? 0)
      return length == 1 ? value * 17 / 255 : value / 255
    }
    switch digits.count {
    case 3: self.init(red: component(0, 1), green: component(1, 1), blue: component(2, 1))
    case 6: self.init(red: component(0, 2), green: component(2, 2), blue: component(4, 2))
    case 8:
      self.init(
        red: component(0, 2), green: component(2, 2), blue: component(4, 2),
        alpha: component(6, 2))
    default: return nil
    }
  }

  /// Opaque black.
  public static let black = Color(red: 0, green: 0, blue: 0)
  /// Opaque white.
  public static let white = Color(red: 1, green: 1, blue: 1)
  /// Fully transparent black: drawing with it leaves nothing.
  public static let clear = Color(red: 0, green: 0, blue: 0, alpha: 0)

  /// This color with its opacity replaced by `alpha`.
  public func withAlpha(_ alpha: Double) -> Color {
    Color(red: red, green: green, blue: blue, alpha: alpha)
  }

  /// This color with its HSV value multiplied by `factor` (up to full brightness), hue and
  /// saturation kept, rounded to whole 8-bit components: how Three20 derived the top of a
  /// gradient from a tint (`multiplyHue:1 saturation:1 value:1.1`).
  public func multiplyingValue(by factor: Double) -> Color {
    let value = max(red, green, blue)
    guard value > 0 else { return self }
    let scale = min(value * factor, 1) / value
    func byte(_ component: Double) -> Double { (min(component * scale, 1) * 255).rounded() / 255 }
    return Color(red: byte(red), green: byte(green), blue: byte(blue), alpha: alpha)
  }

  /// `#RRGGBB`, or `#RRGGBBAA` when the color is not opaque.
  public var hexString: String {
    func byte(_ value: Double) -> String {
      let text = String(Int((min(max(value, 0), 1) * 255).rounded()), radix: 16, uppercase: true)
      return text.count == 1 ? "0" + text : text
    }
    let rgb = "#" + byte(red) + byte(green) + byte(blue)
    return alpha >= 1 ? rgb : rgb + byte(alpha)
  }

  /// The color as ``hexString`` writes it (`#RRGGBB` or `#RRGGBBAA`).
  public var description: String { hexString }
}
