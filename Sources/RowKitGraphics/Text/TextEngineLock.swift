import Foundation

/// The lock of all Pango and Cairo text work: shaping, measuring, drawing and freeing
/// layouts, and making and freeing shapers, of every shaper, with FreeType faces of its own
/// or not.
///
/// Shapers of one font set share what Cairo and FreeType keep per font file (Cairo's
/// unscaled fonts, font faces and scaled fonts with their glyph caches, FreeType faces in
/// one FreeType library). Cairo 1.16, Debian 12's, does not lock enough around them:
/// `_cairo_ft_unscaled_font_lock_face` opens faces in the shared library outside its lock,
/// and past ten open faces closes other fonts' faces judging them unused without their
/// locks; font faces are added to and removed from a font's list without a lock. Rendering
/// the world sample on two workers crashed in `cairo_show_glyphs` or
/// `cairo_scaled_font_glyph_extents` in about one run in eight, and drew a glyph wrong in
/// about one in fifteen, until every text call went through this lock.
///
/// The render pool's workers draw from faces of their own (see `FontFaces`), and for a while
/// took no lock. But Cairo 1.16 also keeps two process-wide caches of scaled fonts, whatever
/// their faces, and takes their locks in opposite orders: the font map retires the oldest
/// of 256 released scaled fonts on the thread that releases one more, locking that font and
/// then the glyph page cache (`_cairo_scaled_font_reset_cache`), while a thread adding a
/// glyph page to the full cache locks the cache and then, to evict a page, the page's font
/// (`_cairo_scaled_glyph_page_pluck`). Two workers drawing text that way deadlocked in the
/// test suite, each waiting for the other's lock inside `cairo_show_glyphs` and
/// `cairo_restore`, once the process had used more than 256 scaled fonts (every size, scale
/// and face is one, and each worker's faces make fonts of their own). So every text call
/// takes this lock again; the faces of its own still keep each worker's FreeType faces away
/// from the others.
///
/// Keeping every scaled font alive while workers draw (so that none is retired) would not
/// be enough: the glyph page cache evicts a page after checking, without the font's lock,
/// that the font's glyphs are not in use, and then waits for that lock
/// (`_cairo_scaled_glyph_page_can_remove` and `_cairo_scaled_glyph_page_pluck`). A thread
/// that has just taken the font's lock to look up glyphs, and not yet marked them in use,
/// waits in turn for the page cache when its glyphs need a new page: each thread holds what
/// the other waits for. So text stays under this lock, with Debian 12's Cairo 1.16.
///
/// Callers that make many text calls in a row (a worker laying out a batch of rows) hold the
/// lock once around all of them: taking it per call handed it between two workers for every
/// label, and each hand-over costs a futex wake-up (2-worker render 2,330 rows/s with a lock
/// per call, 2,700–2,900 with one per batch).
package enum TextEngineLock {
  /// Recursive, since one public text call may make another.
  private static let lock = NSRecursiveLock()

  /// Runs `body` holding the lock; text calls inside it take the lock again at no cost.
  package static func run<T>(_ body: () throws -> T) rethrows -> T {
    lock.lock()
    defer { lock.unlock() }
    return try body()
  }
}
