import ArgumentParser
import Foundation
import RowKit

/// The flags that override a document's `table:` block.
struct TableOptions: ParsableArguments {
  @Option(help: "Table width in points, \(FlagRange.width.text) (default: the document's, or 375).")
  var width: Double?

  @Option(help: "Device pixels per point, \(FlagRange.scale.text) (default: the document's, or 2).")
  var scale: Double?

  @Option(help: "plain or grouped (default: the document's, or plain).")
  var style: TableStyle?

  @Option(help: "Give every row this height in points, \(FlagRange.rowHeight.text), instead of its content's height.")
  var rowHeight: Double?

  func validate() throws {
    try FlagRange.width.check(width)
    try FlagRange.scale.check(scale)
    try FlagRange.rowHeight.check(rowHeight)
  }

  /// `base` with these flags laid over it, checked against RowKit's bounds (width × scale
  /// against the widest PNG, which the document's values take part in).
  func apply(to base: TableConfiguration) throws -> TableConfiguration {
    var configuration = base
    if let width { configuration.width = width }
    if let scale { configuration.scale = scale }
    if let style { configuration.style = style }
    if let rowHeight { configuration.rowHeight = rowHeight }
    if let problem = configuration.problem {
      throw ValidationError("command line: \(problem) (check --width, --scale and --row-height)")
    }
    return configuration
  }
}

extension TableStyle: ExpressibleByArgument {}

