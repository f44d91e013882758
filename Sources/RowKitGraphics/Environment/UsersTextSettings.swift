import Foundation

/// The variables the text libraries read when they start, which would make the same
/// document draw other glyphs on another user's machine:
///
/// - Pango takes the languages a text of a script it cannot place is drawn for (Han:
///   Chinese, Japanese or Korean forms) from `PANGO_LANGUAGE` and `LANGUAGE`, read once at
///   its first shaping: `LANGUAGE=ja` drew other glyphs. An empty `PANGO_LANGUAGE` names
///   none, whatever `LANGUAGE` says; a document picks its forms with `language:`.
/// - FreeType reads `FREETYPE_PROPERTIES` when a library of it starts:
///   `cff:no-stem-darkening=0`, which font-tuning guides put in `/etc/environment`, drew
///   Noto Sans CJK's small text darker. HarfBuzz reads `HB_SHAPER_LIST`, whose `fallback`
///   shaper drops every font's own shaping. Both are emptied, and name nothing.
package enum UsersTextSettings {
  /// The variables' values before they were set aside, for a program RowKit starts for the
  /// user (a browser), which should see the user's own.
  private static let before = Locked<[String: String]?>(nil)
  /// The variables emptied when set; with `PANGO_LANGUAGE`, every one set aside.
  private static let emptied = ["FREETYPE_PROPERTIES", "HB_SHAPER_LIST"]
  private static let names = emptied + ["PANGO_LANGUAGE"]

  /// Sets the variables aside: a set one is emptied in its place (glibc swaps the pointer,
  /// and never frees the old text), and `PANGO_LANGUAGE` is added only when `LANGUAGE` names
  /// languages and it is not set.
  static func setAside() {
    func value(_ name: String) -> String? { getenv(name).map { String(cString: $0) } }
    before.withLock { before in
      if before == nil { before = Dictionary(uniqueKeysWithValues: names.compactMap { name in value(name).map { (name, $0) } }) }
    }
    for name in emptied where value(name)?.isEmpty == false { setenv(name, "", 1) }
    switch value("PANGO_LANGUAGE") {
    case ""?: return
    case _?: setenv("PANGO_LANGUAGE", "", 1)
    case nil: if let languages = value("LANGUAGE"), !languages.isEmpty { setenv("PANGO_LANGUAGE", "", 1) }
    }
  }

  /// ``setAside()``, done once: before the first shaper and the first FreeType library, and
  /// so before Pango, HarfBuzz or FreeType read their settings.
  static let setAsideOnce: Void = setAside()

  /// Puts the variables back as the user had set them, for a program run in this one's
  /// place (`execv`), which sets them aside itself and gives a program it starts the user's
  /// own. Only while this process has one thread: it changes the environment.
  package static func restore() {
    guard let before = before.withLock({ $0 }) else { return }
    for name in names {
      if let value = before[name] { setenv(name, value, 1) } else { unsetenv(name) }
    }
  }

  /// `environment` with the variables as the user had set them, or without them where the
  /// user had not: what a program started for the user (a browser) should see.
  package static func usersOwn(_ environment: [String: String]) -> [String: String] {
    guard let before = before.withLock({ $0 }) else { return environment }
    var restored = environment
    for name in names { restored[name] = before[name] }
    return restored
  }
}
