import Foundation
import RowKitGraphics

extension PlacedRow {
  /// The `contrast` findings of this row: each label's color against the pixels actually
  /// under its text in `background`, the row painted without its text (after the background
  /// style, the selection and the grouped card, images and decorations). The least ratio over
  /// the pixels of the text's ink is compared with WCAG 2.2 AA's threshold for the label's
  /// font, so a label over a gradient or a photo is judged where it is worst for it; the
  /// finding also gives the 5th percentile of the ratios, which tells a few dark pixels of a
  /// photo from text that is hard to read all along, and the background colors of both.
  func contrastFindings(background: Bitmap, scale: Double) -> [LintFinding] {
    var findings: [LintFinding] = []
    var luminances: [UInt32: Double] = [:]
    for label in layout.labels {
      guard label.color.alpha > 0 else { continue }
      let origin = label.drawingOrigin
      let ink = label.text.inkRect.offsetBy(dx: origin.x + cellFrame.x, dy: origin.y + cellFrame.y - frame.y)
      let x0 = max(0, Int((ink.minX * scale).rounded(.down)))
      let y0 = max(0, Int((ink.minY * scale).rounded(.down)))
      let x1 = min(background.width, Int((ink.maxX * scale).rounded(.up)))
      let y1 = min(background.height, Int((ink.maxY * scale).rounded(.up)))
      guard x0 < x1, y0 < y1 else { continue }
      let opaqueTextLuminance = label.color.alpha >= 1 ? WCAGContrast.luminance(label.color) : nil
      var ratios: [(ratio: Double, color: Color)] = []
      ratios.reserveCapacity((x1 - x0) * (y1 - y0))
      for y in y0..<y1 {
        for x in x0..<x1 {
          let index = (y * background.width + x) * 4
          let key = background.pixels.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: index, as: UInt32.self) }
          // A translucent table (a style with alpha) is judged over white, as a viewer shows it.
          let under = background.color(x: x, y: y).composited(over: .white)
          let backgroundLuminance: Double
          if let cached = luminances[key] {
            backgroundLuminance = cached
          } else {
            backgroundLuminance = WCAGContrast.luminance(under)
            luminances[key] = backgroundLuminance
          }
          let textLuminance = opaqueTextLuminance ?? WCAGContrast.luminance(label.color.composited(over: under))
          let ratio =
            (max(textLuminance, backgroundLuminance) + 0.05) / (min(textLuminance, backgroundLuminance) + 0.05)
          ratios.append((ratio, under))
        }
      }
      let font = label.text.style.font
      let required = WCAGContrast.requiredRatio(for: font)
      guard let worst = ratios.min(by: { $0.ratio < $1.ratio }), worst.ratio < required else { continue }
      var message = "text \(label.color.hexString) on \(worst.color.hexString) is \(WCAGContrast.format(worst.ratio, below: required))"
      // A background of one color needs no percentile: every pixel gives the same ratio.
      ratios.sort { $0.ratio < $1.ratio }
      let percentile = ratios[ratios.count * 5 / 100]
      if percentile.color != worst.color {
        message += " at worst, \(WCAGContrast.format(percentile.ratio, below: required)) on \(percentile.color.hexString) at the 5th percentile"
      }
      findings.append(
        LintFinding(
          rule: .contrast, label: label.name,
          message: message + ", below WCAG AA's \(Bounds.format(required)):1 for \(Bounds.format(font.size))-point "
            + (WCAGContrast.isLarge(font) ? "large " : "") + "text"))
    }
    return findings
  }
}

extension Color {
  /// This color drawn over `below` (source-over), opaque where `below` is.
  func composited(over below: Color) -> Color {
    let a = alpha + below.alpha * (1 - alpha)
    guard a > 0 else { return .clear }
    func mix(_ top: Double, _ bottom: Double) -> Double { (top * alpha + bottom * below.alpha * (1 - alpha)) / a }
    return Color(red: mix(red, below.red), green: mix(green, below.green), blue: mix(blue, below.blue), alpha: a)
  }
}
