import ArgumentParser
import Foundation
import RowKit

/// The flags that set the variant matrix, axis by axis, over a document's `variants:`.
struct VariantOptions: ParsableArguments {
  @Option(help: ArgumentHelp(
    "Widths to render, in points (\(FlagRange.variantWidth.text)), comma-separated (e.g. 320,375,430).", valueName: "w,…"))
  var variantWidth: String?

  @Option(help: ArgumentHelp(
    "Text sizes to render: xSmall, small, medium, large, xLarge, xxLarge, xxxLarge, AX1…AX5, comma-separated.",
    valueName: "size,…"))
  var variantTextSize: String?

  @Option(help: ArgumentHelp("Appearances to render: light, dark, comma-separated.", valueName: "a,…"))
  var variantAppearance: String?

  @Option(help: ArgumentHelp("Directions to render: ltr, rtl (rows mirrored), comma-separated.", valueName: "d,…"))
  var variantDirection: String?

  @Option(help: ArgumentHelp(
    "Pseudo-locales to render: en (the texts as written), en-XA (accented, bracketed, longer), ar-XB (right to left, rows mirrored), comma-separated.",
    valueName: "l,…"))
  var variantLocale: String?

  func validate() throws {
    _ = try axes()
  }

  /// The axes these flags give; an axis without its flag is empty.
  func axes() throws -> VariantAxes {
    var axes = VariantAxes()
    if let variantWidth {
      axes.widths = try Self.words(variantWidth, option: "--variant-width").map { word in
        guard let width = Double(word), width.isFinite else {
          throw ValidationError("--variant-width: '\(word)' is not a number of points")
        }
        try FlagRange.variantWidth.check(width)
        return width
      }
    }
    if let variantTextSize { axes.textSizes = try Self.cases(variantTextSize, option: "--variant-text-size") }
    if let variantAppearance { axes.appearances = try Self.cases(variantAppearance, option: "--variant-appearance") }
    if let variantDirection { axes.directions = try Self.cases(variantDirection, option: "--variant-direction") }
    if let variantLocale { axes.locales = try Self.cases(variantLocale, option: "--variant-locale") }
    if let problem = axes.problem { throw ValidationError("variant flags: \(problem)") }
    return axes
  }

  /// The document's axes with these flags laid over them, checked against the table's
  /// configuration (width × scale).
  func axes(over document: VariantAxes, configuration: TableConfiguration) throws -> VariantAxes {
    let axes = document.overriding(with: try axes())
    for variant in axes.variants {
      if let problem = variant.apply(to: configuration).problem {
        throw ValidationError("variant \(variant.name): \(problem)")
      }
    }
    return axes
  }

  private static func words(_ list: String, option: String) throws -> [String] {
    let words = list.split(separator: ",", omittingEmptySubsequences: false).map {
      $0.trimmingCharacters(in: .whitespaces)
    }
    guard !words.contains(where: \.isEmpty) else { throw ValidationError("\(option): an empty value in '\(list)'") }
    return words
  }

  private static func cases<T: RawRepresentable & CaseIterable>(_ list: String, option: String) throws -> [T]
  where T.RawValue == String {
    try words(list, option: option).map { word in
      guard let value = T(rawValue: word) else {
        throw ValidationError("\(option): '\(word)' is not one of \(T.allCases.map(\.rawValue).joined(separator: ", "))")
      }
      return value
    }
  }
}

/// The flags that switch lint rules off, over a document's `lint: { off: [...] }`.
struct LintRuleOptions: ParsableArguments {
  @Option(help: ArgumentHelp(
    "Lint rules to switch off, comma-separated: contrast, truncated, clipped, tapTarget, missingGlyph, overlap, imageFailed, headroom.",
    valueName: "rule,…"))
  var lintOff: String?

  /// A misspelled rule is refused whether or not the command lints: `render --lint-off`
  /// without `--lint` took any word.
  func validate() throws {
    _ = try options()
  }

  func options() throws -> LintOptions {
    guard let lintOff else { return LintOptions() }
    let rules = try lintOff.split(separator: ",").map { word -> LintRule in
      let name = word.trimmingCharacters(in: .whitespaces)
      guard let rule = LintRule(rawValue: name) else {
        throw ValidationError(
          "--lint-off: '\(name)' is not a lint rule (\(LintRule.allCases.map(\.rawValue).joined(separator: ", ")))")
      }
      return rule
    }
    return LintOptions(disabled: Set(rules))
  }
}
