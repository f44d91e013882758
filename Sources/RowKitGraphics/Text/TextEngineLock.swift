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
enum TextEngineLock {
  /// Recursive, since one public text call may make another.
  private static let lock = NSRecursiveLock()

  static func run<T>(_ body: () throws -> T) rethrows -> T {
    lock.lock()
    defer { lock.unlock() }
    return try body()
  }
}
