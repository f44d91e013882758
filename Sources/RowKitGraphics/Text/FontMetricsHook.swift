import Foundation
internal import CPango

/// Lets one thread at a time measure fonts in Pango, so that text breaks into the same lines
/// on any worker, whatever the other workers lay out meanwhile.
///
/// Pango 1.50 measures a font in a language (`_pango_cairo_font_get_metrics`) the first time
/// its metrics are asked for, and keeps the figures on the font: ascent and descent from the
/// font, and an approximate character width from laying out the language's sample sentence
/// in it. Laying that out asks for metrics again, so Pango guards against recursion with a
/// flag that is one for the whole process (`static int in_get_metrics`) and set by whichever
/// thread is measuring: a font measured for the first time while another thread measures
/// keeps an approximate width of 0, for good. Pango's line breaker looks three approximate
/// widths ahead of the end of the line (`safe_distance` in `process_item`), so with 0 it
/// breaks a word that does not fit at another character: on two workers, a word of a long
/// Devanagari and Latin row ran one letter past the line's end in about one render in five,
/// when the other worker happened to be measuring a font of its own at that moment.
///
/// The hook takes the place of Pango's step in the font class and runs it under a lock of its
/// own, so a thread finds the flag set only by its own measuring, exactly as when it is the
/// only one; the recursion the flag guards against stays on one thread, so the lock is
/// recursive. On its own thread the flag never reaches a font the shaper lays text out in: a
/// sample sentence is laid out at the font map's resolution (96 dpi), not the shaper's (72),
/// so the fonts measured inside it are other font objects (`Inter Bold 12.75`, not `Inter
/// Bold 17`). A font's figures thus depend on nothing that other rows or threads did.
enum FontMetricsHook {
  /// `@unchecked Sendable` is safe: every field is read and changed only under `lock`.
  private final class State: @unchecked Sendable {
    /// Recursive: laying out a sample sentence measures again on the same thread.
    let lock = NSRecursiveLock()
    /// Pango's own step, once the hook replaced it.
    var pangoStep: cpango_get_metrics_function?
    /// Whether the hook is installed; nil until a shaper first asks for it.
    var installed: Bool?
  }

  private static let state = State()

  /// Whether the hook is installed; nil until a shaper first asks for it.
  static var isInstalled: Bool? {
    state.lock.lock()
    defer { state.lock.unlock() }
    return state.installed
  }

  /// Installs the hook in the class of `sample`, a font of a Cairo FreeType font map, once
  /// per process and before any font is measured; returns whether it is installed. If Pango
  /// is not the version it expects, fonts are measured as Pango does, and shapers share fonts
  /// instead, under the text lock, where one thread measures at a time anyway.
  static func install(sample: UnsafeMutablePointer<PangoFont>?) -> Bool {
    state.lock.lock()
    defer { state.lock.unlock() }
    if let installed = state.installed { return installed }
    // Refused, shapers share fonts under the text lock, where one thread measures at a time.
    if PangoHooks.refused {
      state.installed = false
      return false
    }
    let hook: cpango_get_metrics_function = { font, language in
      FontMetricsHook.metrics(of: font, in: language)
    }
    state.pangoStep = cpango_install_metrics_hook(sample, hook)
    state.installed = state.pangoStep != nil
    return state.pangoStep != nil
  }

  private static func metrics(
    of font: UnsafeMutablePointer<PangoFont>?, in language: OpaquePointer?
  ) -> UnsafeMutablePointer<PangoFontMetrics>? {
    state.lock.lock()
    defer { state.lock.unlock() }
    return state.pangoStep?(font, language)
  }
}
