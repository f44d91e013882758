import Foundation

/// The switch for RowKit's hooks into Pango's private font class.
///
/// The hooks give workers FreeType faces of their own, and measure a font one thread at a
/// time (`FontMetricsHook`). When Pango is not the version whose private interface they
/// expect, RowKit does without them: every shaper shares the process's fonts, and draws the
/// same pixels. `ROWKIT_PANGO_HOOKS=off` takes that path on purpose, so that
/// the test suite runs it (scripts/test.sh runs the text and rendering tests once with it)
/// and a user can rule the hooks out when a render looks wrong.
package enum PangoHooks {
  /// The environment variable that refuses the hooks when it is `off`.
  package static let environmentVariable = "ROWKIT_PANGO_HOOKS"

  /// Whether this process refuses the hooks; read once.
  package static let refused = refused(in: ProcessInfo.processInfo.environment)

  /// Whether `environment` refuses the hooks.
  package static func refused(in environment: [String: String]) -> Bool {
    environment[environmentVariable]?.lowercased() == "off"
  }
}
