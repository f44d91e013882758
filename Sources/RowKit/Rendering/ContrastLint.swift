import Foundation
import RowKitGraphics

extension PlacedRow {
  /// The `contrast` findings of this row: each glyph's color against the pixels actually
  /// under it in `background`, the row painted without its text (after the background
  /// style, the selection and the grouped card, images and decorations), and under a styled
  /// text's highlight where a run has one. A glyph's color, font and highlight are its run's
  /// (a `<span>` that makes a word faint or small is judged as it is drawn). Only pixels
  /// inside a glyph's ink box count: not the gaps between words and lines, where a photo or a
  /// shape under no letter would be judged against text that is not there.
  ///
  /// The least ratio over those pixels is compared with WCAG 2.2 AA's threshold for the
  /// glyph's font, so a label over a gradient or a photo is judged where it is worst for it;
  /// the finding also gives the 5th percentile of the ratios of that color and font, which
  /// tells a few dark pixels of a photo from text that is hard to read all along, and the
  /// background colors of both.
  func contrastFindings(background: Bitmap, scale: Double) -> [LintFinding] {
    LintFinding.contrastFindings(
      of: layout.labels, offset: Point(x: cellFrame.x, y: cellFrame.y - frame.y), background: background, scale: scale)
  }
}

extension SectionBand {
  /// The `contrast` findings of the band's title, judged as a row's labels are
  /// (``PlacedRow/contrastFindings(background:scale:)``) over `background`, the band painted
  /// without its text.
  func contrastFindings(background: Bitmap, scale: Double) -> [LintFinding] {
    LintFinding.contrastFindings(of: label.map { [$0] } ?? [], offset: .zero, background: background, scale: scale)
  }
}

extension LintFinding {
  /// The `contrast` findings of `labels`, placed `offset` from the top left of `background`,
  /// the strip they are in painted without its text.
  static func contrastFindings(of labels: [RowLabel], offset: Point, background: Bitmap, scale: Double) -> [LintFinding] {
    var findings: [LintFinding] = []
    var luminances: [UInt32: Double] = [:]
    for label in labels {
      let origin = label.drawingOrigin
      let dx = origin.x + offset.x
      let dy = origin.y + offset.y
      let looks = GlyphLooks(label)
      // Each judged pixel: its ratio, the color under it, and the look of its glyph.
      var samples: [(ratio: Double, under: Color, look: Int)] = []
      for glyph in label.text.glyphInks() {
        let lookIndex = looks.index(at: glyph.scalarOffset)
        let look = looks.all[lookIndex]
        guard look.color.alpha > 0 else { continue }
        let ink = glyph.rect.offsetBy(dx: dx, dy: dy)
        let x0 = max(0, Int((ink.minX * scale).rounded(.down)))
        let y0 = max(0, Int((ink.minY * scale).rounded(.down)))
        let x1 = min(background.width, Int((ink.maxX * scale).rounded(.up)))
        let y1 = min(background.height, Int((ink.maxY * scale).rounded(.up)))
        guard x0 < x1, y0 < y1 else { continue }
        let opaqueTextLuminance = look.color.alpha >= 1 ? WCAGContrast.luminance(look.color) : nil
        for y in y0..<y1 {
          for x in x0..<x1 {
            // A translucent table (a style with alpha) is judged over white, as a viewer shows it.
            var under = background.color(x: x, y: y).composited(over: .white)
            let backgroundLuminance: Double
            if let highlight = look.highlight {
              under = highlight.composited(over: under)
              backgroundLuminance = WCAGContrast.luminance(under)
            } else {
              let index = (y * background.width + x) * 4
              let key = background.pixels.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: index, as: UInt32.self) }
              if let cached = luminances[key] {
                backgroundLuminance = cached
              } else {
                backgroundLuminance = WCAGContrast.luminance(under)
                luminances[key] = backgroundLuminance
              }
            }
            let textLuminance = opaqueTextLuminance ?? WCAGContrast.luminance(look.color.composited(over: under))
            let ratio =
              (max(textLuminance, backgroundLuminance) + 0.05) / (min(textLuminance, backgroundLuminance) + 0.05)
            samples.append((ratio, under, lookIndex))
          }
        }
      }
      // The worst pixel among those below their glyph's threshold, measured against it.
      let worst = samples.filter { $0.ratio < looks.all[$0.look].requiredRatio }.min { a, b in
        a.ratio / looks.all[a.look].requiredRatio < b.ratio / looks.all[b.look].requiredRatio
      }
      guard let worst else { continue }
      let look = looks.all[worst.look]
      let required = look.requiredRatio
      var message = "text \(look.color.hexString) on \(worst.under.hexString) is \(WCAGContrast.format(worst.ratio, below: required))"
      // A background of one color needs no percentile: every pixel gives the same ratio.
      let ratios = samples.filter { looks.all[$0.look] == look }.sorted { $0.ratio < $1.ratio }
      let percentile = ratios[ratios.count * 5 / 100]
      if percentile.under != worst.under {
        message += " at worst, \(WCAGContrast.format(percentile.ratio, below: required)) on \(percentile.under.hexString) at the 5th percentile"
      }
      findings.append(
        LintFinding(
          rule: .contrast, label: label.name,
          message: message + ", below WCAG AA's \(Bounds.format(required)):1 for \(Bounds.format(look.font.size))-point "
            + (WCAGContrast.isLarge(look.font) ? "large " : "") + "text"))
    }
    return findings
  }
}

/// What each character of a label is drawn as: the label's color and font, as a styled
/// text's runs change them (a color, a highlight, a font, a weight, a size factor), as
/// Pango's attribute list decides between two runs over the same character: the one that
/// starts later wins (an inner span over its outer one, whichever closed first), and of two
/// that start together, the later in the list; a font sets the weight too.
struct GlyphLooks {
  struct Look: Hashable {
    var color: Color
    var highlight: Color?
    var font: Font

    var requiredRatio: Double { WCAGContrast.requiredRatio(for: font) }
  }

  /// The distinct looks of the label; the first is the label's own.
  private(set) var all: [Look]
  /// The index in ``all`` of each scalar's look; empty when the text has no runs.
  private var lookOfScalar: [Int] = []

  init(_ label: RowLabel) {
    let plain = Look(color: label.color, highlight: nil, font: label.text.style.font)
    all = [plain]
    let runs = label.text.runs.enumerated().filter {
      switch $0.element.attribute {
      case .color, .background, .font, .weight, .scale: return true
      default: return false
      }
    }.sorted { ($0.element.range.lowerBound, $0.offset) < ($1.element.range.lowerBound, $1.offset) }.map(\.element)
    guard !runs.isEmpty else { return }
    let count = label.text.text.unicodeScalars.count
    var looks = [Look](repeating: plain, count: count)
    var scales = [Double](repeating: 1, count: count)
    for run in runs {
      let range = max(0, run.range.lowerBound)..<min(count, max(0, run.range.upperBound))
      for index in range {
        switch run.attribute {
        case .color(let color): looks[index].color = color
        case .background(let color): looks[index].highlight = color
        case .font(let font): looks[index].font = font
        case .weight(let weight): looks[index].font.weight = weight
        case .scale(let factor): scales[index] = factor
        default: break
        }
      }
    }
    var indices: [Look: Int] = [plain: 0]
    lookOfScalar = (0..<count).map { index in
      var look = looks[index]
      look.font.size *= scales[index]
      if let known = indices[look] { return known }
      all.append(look)
      indices[look] = all.count - 1
      return all.count - 1
    }
  }

  /// The index in ``all`` of the look of the scalar at `offset`.
  func index(at offset: Int) -> Int {
    lookOfScalar.indices.contains(offset) ? lookOfScalar[offset] : 0
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
