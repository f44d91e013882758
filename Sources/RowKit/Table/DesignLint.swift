import Foundation
import RowKitGraphics

/// A design-lint rule, by its stable name: the problems a reviewer looks for by eye.
public enum LintRule: String, Hashable, Sendable, CaseIterable, Codable, Comparable {
  /// Text against the pixels under it below WCAG 2.2 AA (4.5:1, 3:1 for large text).
  case contrast
  /// A label whose text was ellipsized or cut at its line limit.
  case truncated
  /// Content outside its row (a fixed `rowHeight:` shorter than the content).
  case clipped
  /// A row with a URL or a control shorter than 44 points.
  case tapTarget
  /// Characters drawn as boxes because no loaded font has them.
  case missingGlyph
  /// Two labels, or a label and an image or accessory, overlapping.
  case overlap
  /// An image slot showing its default because its image failed.
  case imageFailed
  /// A text slot with less room to grow than required (`rowkit lint --headroom`): its text
  /// truncates, clips or overlaps before it is `--min-headroom` longer.
  case headroom

  /// Whether `lhs` comes before `rhs` in the order the rules are declared.
  public static func < (lhs: Self, rhs: Self) -> Bool {
    allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
  }
}

/// One problem the lint found in a row.
public struct LintFinding: Codable, Hashable, Sendable {
  /// The rule that found the problem.
  public var rule: LintRule
  /// The label (`text`, `subtitle`) or image slot the finding is about; nil for the row.
  public var label: String?
  /// What is wrong, in a phrase.
  public var message: String
  /// For an overlap of two labels, the other label (the finding is told once, of the
  /// first): a text's headroom ends at an overlap whichever of the two labels it is. Not
  /// part of the finding's JSON, whose message names it.
  public var otherLabel: String?

  enum CodingKeys: String, CodingKey {
    case rule, label, message
  }

  /// Whether two findings are the same as their JSON tells them: a finding read back from a
  /// manifest equals the one rendered (``otherLabel`` is not compared).
  public static func == (lhs: Self, rhs: Self) -> Bool {
    (lhs.rule, lhs.label, lhs.message) == (rhs.rule, rhs.label, rhs.message)
  }

  /// Hashes the rule, the label and the message: what `==` compares.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(rule)
    hasher.combine(label)
    hasher.combine(message)
  }

  /// A finding of `rule` about `label` (nil: the whole row), and `otherLabel` for an overlap
  /// of two labels.
  public init(rule: LintRule, label: String?, message: String, otherLabel: String? = nil) {
    self.rule = rule
    self.label = label
    self.message = message
    self.otherLabel = otherLabel
  }
}

/// Which lint rules run: every rule but those switched off (a document's `lint: { off: [...] }`,
/// `--lint-off`).
public struct LintOptions: Hashable, Sendable {
  /// The rules switched off.
  public var disabled: Set<LintRule>

  /// Options running every rule but `disabled`.
  public init(disabled: Set<LintRule> = []) {
    self.disabled = disabled
  }

  /// Whether `rule` runs.
  public func runs(_ rule: LintRule) -> Bool { !disabled.contains(rule) }

  /// These options with `other`'s rules switched off too.
  public func adding(_ other: LintOptions) -> LintOptions { LintOptions(disabled: disabled.union(other.disabled)) }
}

/// WCAG 2.2's contrast: relative luminance and contrast ratio, and its AA thresholds.
public enum WCAGContrast {
  /// The relative luminance of an opaque sRGB color (WCAG 2.2, "relative luminance"; the
  /// 0.04045 threshold of the sRGB standard, which gives the same result as WCAG's 0.03928
  /// for every 8-bit value).
  public static func luminance(_ color: Color) -> Double {
    func linear(_ channel: Double) -> Double {
      channel <= 0.04045 ? channel / 12.92 : pow((channel + 0.055) / 1.055, 2.4)
    }
    return 0.2126 * linear(color.red) + 0.7152 * linear(color.green) + 0.0722 * linear(color.blue)
  }

  /// (L1 + 0.05) / (L2 + 0.05), the lighter color's luminance over the darker's.
  public static func ratio(_ a: Color, _ b: Color) -> Double {
    let (la, lb) = (luminance(a), luminance(b))
    return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)
  }

  /// The least ratio AA asks of text in `font`: 3:1 for large text, else 4.5:1. WCAG's
  /// large text is 18 point, or 14 point bold, in CSS points; a CSS pixel is ¾ of a CSS
  /// point and a UIKit point is a CSS pixel, so large is 24 UIKit points, or 18.67 (14 × 4/3) bold.
  public static func requiredRatio(for font: Font) -> Double {
    isLarge(font) ? 3 : 4.5
  }

  /// Whether WCAG counts `font` as large text: at least 24 points, or bold (700) from 18⅔ points.
  public static func isLarge(_ font: Font) -> Bool {
    font.size >= 24 || (font.weight >= 700 && font.size >= 14 * 4 / 3)
  }

  /// A ratio as findings print it, to two decimals (4.48:1), rounded down where rounding
  /// to the nearest would reach `threshold`, so a failing ratio never prints as passing.
  public static func format(_ ratio: Double, below threshold: Double = .infinity) -> String {
    var hundredths = (ratio * 100).rounded() / 100
    if ratio < threshold, hundredths >= threshold { hundredths = (ratio * 100).rounded(.down) / 100 }
    return String(format: "%.2f:1", hundredths)
  }

}

extension PlacedRow {
  /// The findings the row's layout shows by itself (every rule but `contrast`, which needs
  /// the painted pixels, and `imageFailed`, which needs the loaded images).
  public func layoutFindings(options: LintOptions) -> [LintFinding] {
    var findings: [LintFinding] = []
    let layout = self.layout
    let bounds = Rect(origin: .zero, size: layout.size)
    let slack = 0.01
    for label in layout.labels {
      if options.runs(.truncated), label.text.isEllipsized || label.text.isClipped {
        findings.append(
          LintFinding(
            rule: .truncated, label: label.name,
            message: "'\(label.text.text)' is cut short (\(label.text.isEllipsized ? "ellipsized" : "cut at its line limit"))"))
      }
      if options.runs(.missingGlyph), label.text.unknownGlyphCount > 0 {
        let characters = label.text.missingCharacters.map { String(format: "U+%04X", $0.value) }.joined(separator: ", ")
        findings.append(LintFinding(rule: .missingGlyph, label: label.name, message: "no glyph for \(characters)"))
      }
      if options.runs(.clipped), !bounds.insetBy(dx: -slack, dy: -slack).contains(label.frame) {
        findings.append(
          LintFinding(
            rule: .clipped, label: label.name,
            message: "the label's frame \(label.frame) runs outside the row (\(Bounds.format(layout.size.width))×\(Bounds.format(layout.height)))"))
      }
    }
    if options.runs(.clipped) {
      for slot in layout.images where !bounds.insetBy(dx: -slack, dy: -slack).contains(slot.frame) {
        findings.append(
          LintFinding(rule: .clipped, label: slot.name, message: "the image slot \(slot.frame) runs outside the row"))
      }
    }
    if options.runs(.overlap) {
      findings += overlapFindings()
    }
    if options.runs(.tapTarget) {
      let hasControl = layout.decorations.contains {
        switch $0 {
        case .toggle, .slider, .textField: return true
        default: return false
        }
      }
      let target = LintFinding.minimumTapTarget
      if (item.options.url != nil || hasControl), layout.height < target {
        let what = item.options.url != nil ? "a URL" : "a control"
        findings.append(
          LintFinding(
            rule: .tapTarget, label: nil,
            message: "the row has \(what) and is \(Bounds.format(layout.height)) points tall, less than \(Bounds.format(target))"))
      }
    }
    return findings
  }

  private func overlapFindings() -> [LintFinding] {
    let layout = self.layout
    // Frames that touch or overlap by less than a hair are neighbours, not an overlap.
    let hair = 0.5
    func overlaps(_ a: Rect, _ b: Rect) -> Bool {
      min(a.maxX, b.maxX) - max(a.minX, b.minX) > hair && min(a.maxY, b.maxY) - max(a.minY, b.minY) > hair
    }
    var findings: [LintFinding] = []
    let labels = layout.labels.filter { !$0.isStyleContent }
    for (index, label) in labels.enumerated() {
      for other in labels[(index + 1)...] where overlaps(label.frame, other.frame) {
        findings.append(
          LintFinding(
            rule: .overlap, label: label.name, message: "the label overlaps the label '\(other.name)'", otherLabel: other.name))
      }
      for slot in layout.images where overlaps(label.frame, slot.frame) {
        findings.append(
          LintFinding(rule: .overlap, label: label.name, message: "the label overlaps the image slot '\(slot.name)'"))
      }
      if let accessory = layout.accessory, overlaps(label.frame, accessory.frame) {
        findings.append(
          LintFinding(
            rule: .overlap, label: label.name, message: "the label overlaps the \(accessory.kind.rawValue) accessory"))
      }
    }
    return findings
  }
}

extension LintFinding {
  /// The least height of a row a finger taps: UIKit's 44 points.
  public static let minimumTapTarget = 44.0

}
