import Foundation
import Yams

/// Reading values that name things a document defines: stylesheet variables and styles,
/// image URLs.
extension YAMLValue {
  /// A number, or the name of one of `stylesheet`'s number variables, within `range`.
  func number(in range: ClosedRange<Double>, variables stylesheet: Stylesheet) throws -> Double {
    guard case .scalar(let scalar) = node, !isNull else { throw error("expected a number, found \(kindName)") }
    let value: Double
    do {
      value = try stylesheet.number(scalar.string)
    } catch {
      throw self.error("expected a number or a number variable, found '\(scalar.string)' (\(error.message))")
    }
    if let problem = Bounds.problem(value, in: range) { throw self.error(problem) }
    return value
  }

  /// An image URL, checked against `resolver` (a bundle:// path that escapes, an unknown
  /// scheme).
  func imageURL(_ resolver: ImageURLResolver) throws -> String {
    let url = try string()
    do {
      _ = try resolver.resolve(url)
    } catch {
      throw self.error(error.message)
    }
    return url
  }

  /// The name of a style the stylesheet has.
  func styleName(in stylesheet: Stylesheet) throws -> String {
    let name = try string()
    guard stylesheet.styles[name] != nil else {
      var message = "unknown style '\(name)'"
      if let suggestion = YAMLValue.closest(to: name, in: Set(stylesheet.styles.keys)) {
        message += " (did you mean '\(suggestion)'?)"
      } else {
        message += " (the stylesheet has: \(stylesheet.styles.keys.sorted().joined(separator: ", ")))"
      }
      throw self.error(message)
    }
    return name
  }
}
