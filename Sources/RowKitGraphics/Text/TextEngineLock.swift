import Foundation

/// The one lock of all Pango and Cairo text work in the process: shaping, measuring, drawing
/// and freeing layouts, and making and freeing shapers.
///
/// Every worker has its own shaper, but shapers of one font set share what Cairo and
/// FreeType keep per font file (Cairo's scaled fonts and their glyph caches, FreeType
/// faces). Cairo 1.16, Debian 12's, corrupts those caches when two threads use them at once:
/// rendering the world sample on two workers crashed in `cairo_show_glyphs` or
/// `cairo_scaled_font_glyph_extents` in about one run in eight, and drew a glyph wrong in
/// about one in fifteen, until every text call went through this lock. Painting
/// backgrounds, images and separators, and encoding PNGs, stay parallel.
///
/// Giving each shaper scaled fonts of its own (distinct font options) did not help: two
/// threads still crashed in `cairo_show_glyphs`, so the state they corrupt is Cairo's global.
///
/// Callers that make many text calls in a row (a worker laying out a batch of rows) hold the
/// lock once around all of them: taking it per call handed it between two workers for every
/// label, and each hand-over costs a futex wake-up (2-worker render 2,330 rows/s with a lock
/// per call, 2,700–2,900 with one per batch).
public enum TextEngineLock {
  /// Recursive, since one public text call may make another.
  private static let lock = NSRecursiveLock()

  /// Runs `body` holding the lock; text calls inside it take the lock again at no cost.
  public static func run<T>(_ body: () throws -> T) rethrows -> T {
    lock.lock()
    defer { lock.unlock() }
    return try body()
  }
}
