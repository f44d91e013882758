import Foundation
internal import CPango

/// Frees the font maps of freed shapers, once Pango's own threads have let go of them.
///
/// Pango 1.50 starts two threads (`[pango] FcFontSetMatch` and `[pango] FcFontSetSort`) for
/// each font pattern a font map matches for the first time. Each thread holds a reference to
/// the font map and, as it ends, lets go of the pattern's entry; when it holds the last
/// reference to the entry, it removes the entry from the font map's table of patterns. A
/// shaper freed right after its first text cleared its font map's tables (to release the
/// fontconfig configuration, which Pango 1.50 keeps) while those threads still ran, and the
/// thread then looked the entry up in a freed table: the process died of a division by zero
/// in `g_hash_table_lookup` in about one test run in nine. Had the thread held the last
/// reference to the font map instead, the map and its fonts would have been freed on
/// Pango's thread, outside the text lock that Cairo's font caches need.
///
/// So a font map still held elsewhere is retired rather than freed, and freed by whichever
/// shaper is made or freed next after Pango's threads let go of it. Nothing waits for them.
enum FontMapRetirement {
  /// A freed shaper's font map (its context already freed), with the FreeType faces its
  /// fonts draw from, which go back to the pool only with the map.
  private struct Retired: @unchecked Sendable {
    // `@unchecked Sendable` is safe: no shaper uses the font map any more, and the only
    // other holders, Pango's threads, only let go of it.
    let fontMap: UnsafeMutablePointer<PangoFontMap>
    let faces: FontFaces?
  }

  private static let retired = Locked<[Retired]>([])

  /// Frees `fontMap`, whose shaper is gone and whose context is freed: now if only the
  /// caller holds it, or else once Pango's threads have let go of it.
  static func free(_ fontMap: UnsafeMutablePointer<PangoFontMap>, faces: FontFaces?) {
    sweep()
    let map = Retired(fontMap: fontMap, faces: faces)
    if cpango_object_is_held_elsewhere(UnsafeMutableRawPointer(fontMap)) != 0 {
      retired.withLock { $0.append(map) }
    } else {
      release(map)
    }
  }

  /// Frees the retired font maps that only RowKit holds now; returns how many are still held
  /// by Pango's threads.
  @discardableResult
  static func sweep() -> Int {
    let (released, stillHeld) = retired.withLock { maps -> ([Retired], Int) in
      let free = maps.filter { cpango_object_is_held_elsewhere(UnsafeMutableRawPointer($0.fontMap)) == 0 }
      maps.removeAll { map in free.contains { $0.fontMap == map.fontMap } }
      return (free, maps.count)
    }
    released.forEach(release)
    return stillHeld
  }

  private static func release(_ map: Retired) {
    // Freeing a map's fonts releases Cairo scaled fonts, which may retire others from
    // Cairo's process-wide caches: under the text lock, as every text call (see
    // TextEngineLock).
    let free = {
      // Pango 1.50 does not release a font map's fontconfig configuration when the map is
      // finalized (about 57 KB per shaper, seen with LeakSanitizer); clearing it first does.
      pango_fc_font_map_set_config(cpango_fc_font_map(map.fontMap), nil)
      cpango_object_unref(UnsafeMutableRawPointer(map.fontMap))
    }
    TextEngineLock.run(free)
    map.faces?.giveBack()
  }
}
