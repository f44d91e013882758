import Foundation
internal import CCairo
internal import CPango

/// FreeType faces of a shaper's own, opened in a FreeType library of their own as the
/// shaper's fonts are first used, so that no other shaper opens, closes or shares them.
///
/// Cairo opens the faces of fonts itself, in one FreeType library for the whole process, and
/// shares them between threads with too little locking (see `TextEngineLock`). A font
/// whose pattern carries its FreeType face (`FC_FT_FACE`) is drawn from that face instead:
/// Cairo never opens, closes or shares it, and every object Cairo keeps for the font is
/// reached only through it. A hook in Pango (`cpango_install_face_hook`) gives the fonts of a
/// shaper with faces of its own their face from here, when Pango makes the font's Cairo font
/// face; only the fonts a shaper uses are opened.
///
/// Cairo may keep fonts made from these faces in its process-wide caches after the shaper
/// that drew them is gone, and would find them again by the face's address. So faces are
/// never closed while the process may still draw: a shaper's faces go back to a pool when
/// it is freed, and the next shaper with faces of its own takes them.
///
/// For the same reason the set keeps a reference to every Cairo font face made of its
/// faces. Cairo unlinks a font face from its face's list, without a lock, when the last
/// reference goes; that may happen on any thread, as Cairo retires scaled fonts from its
/// cache of recently freed ones, while the shaper holding the faces walks the same list to
/// make a font face. Kept, a font face is never freed, so its list only grows, and only on
/// the thread that holds the set.
///
/// `@unchecked Sendable` is safe: a set of faces belongs to one shaper, and so to one
/// thread, at a time; the pool hands it from one to the next under its lock.
final class FontFaces: @unchecked Sendable {
  private struct Key: Hashable {
    var path: String
    var index: Int
  }

  private let library: FreeTypeLibrary
  private var faces: [Key: FT_Face] = [:]
  /// The Cairo font faces made of ``faces``, one reference each.
  private var fontFaces: Set<OpaquePointer> = []

  /// How many faces are open.
  var openCount: Int { faces.count }
  /// The font files FreeType could not open (removed or damaged since fontconfig read
  /// them), each with FreeType's reason. Pango draws nothing for their fonts, so their
  /// characters count as missing.
  private(set) var unopenedFileReasons: [String: String] = [:]
  var unopenedFiles: Set<String> { Set(unopenedFileReasons.keys) }

  init() throws {
    library = try FreeTypeLibrary()
  }

  deinit {
    for fontFace in fontFaces { cairo_font_face_destroy(fontFace) }
    // The faces before their library, which the stored property frees after this.
    for face in faces.values { FT_Done_Face(face) }
  }

  /// Face `index` of the font file at `path`, opened the first time it is asked for; nil if
  /// FreeType cannot open it.
  func face(path: String, index: Int) -> FT_Face? {
    let key = Key(path: path, index: index)
    if let face = faces[key] { return face }
    var face: FT_Face?
    let error = FT_New_Face(library.handle, path, FT_Long(index), &face)
    guard error == 0, let face else {
      unopenedFileReasons[path] = FreeTypeStatus.message(error)
      return nil
    }
    unopenedFileReasons[path] = nil
    faces[key] = face
    return face
  }

  /// Keeps one reference to `fontFace`, a Cairo font face made of these faces; a second
  /// reference to one already kept is let go.
  func keep(_ fontFace: OpaquePointer) {
    if !fontFaces.insert(fontFace).inserted { cairo_font_face_destroy(fontFace) }
  }

  /// How many Cairo font faces are kept.
  var keptFontFaceCount: Int { fontFaces.count }

  // MARK: - Lending, and the hook in Pango

  /// What all shapers with faces of their own share: the sets no shaper holds now, and
  /// whether the hook is installed (nil until a shaper first asks for faces of its own).
  /// Under a `Locked` so that ThreadSanitizer sees sets of faces pass between threads.
  private static let registry = Locked<(idle: [FontFaces], hookInstalled: Bool?)>(([], nil))

  /// A set of faces for one shaper: one a freed shaper gave back, or a new one.
  static func lend() throws -> FontFaces {
    if let faces = registry.withLock({ $0.idle.popLast() }) { return faces }
    return try FontFaces()
  }

  /// Takes back the faces of a shaper that is gone, for the next one.
  func giveBack() {
    FontFaces.registry.withLock { $0.idle.append(self) }
  }

  /// Whether the hook is installed: nil until a shaper with faces of its own has tried.
  static var isHookInstalled: Bool? {
    registry.withLock { $0.hookInstalled }
  }

  /// Installs the hook in Pango once per process, checking the shape of Pango's interface
  /// on `sample`, a font of a Cairo FreeType font map; returns whether it is installed. If
  /// Pango is not the version it expects, or the hooks are refused
  /// (``PangoHooks/refused``), shapers fall back to the lock.
  static func installHook(sample: UnsafeMutablePointer<PangoFont>?) -> Bool {
    // Under the text lock: the check makes a Cairo font face of a shared font file.
    TextEngineLock.run {
      registry.withLock { state in
        if let installed = state.hookInstalled { return installed }
        if PangoHooks.refused {
          state.hookInstalled = false
          return false
        }
        let source: cpango_face_source = { owner, path, index in
          guard let owner, let path else { return nil }
          let faces = Unmanaged<FontFaces>.fromOpaque(owner).takeUnretainedValue()
          return faces.face(path: String(cString: path), index: Int(index))
        }
        let keeper: cpango_font_face_keeper = { owner, fontFace in
          guard let owner, let fontFace else { return }
          Unmanaged<FontFaces>.fromOpaque(owner).takeUnretainedValue().keep(fontFace)
        }
        let installed = cpango_install_face_hook(sample, source, keeper) != 0
        state.hookInstalled = installed
        return installed
      }
    }
  }
}
