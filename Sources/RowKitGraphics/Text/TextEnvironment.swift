import Foundation
internal import CCairo
internal import CPango

/// Everything that decides how text is shaped and drawn: the font files, their fallback
/// order, the font options and the language. One value is used for measuring and painting
/// alike, so both agree, and the same value gives the same pixels on every machine with the
/// same library and font package versions.
///
/// The fonts are loaded into a private fontconfig configuration that holds exactly
/// ``fontFiles``: nothing the machine happens to have installed, and no user or system
/// fontconfig rule, can change a glyph. A character the requested family lacks is drawn by
/// the first family of ``fallbackFamilies(fileFamilies:)`` that has it; that order is fixed (see
/// ``standard``), so the same text picks the same font everywhere.
public struct TextEnvironment: Hashable, Sendable {
  /// A font file and the Debian package that installs it; a brand font (a user's own file)
  /// has no package.
  public struct FontFile: Hashable, Sendable {
    /// The file's path.
    public var path: String
    /// The Debian package that installs the file; nil for a brand font.
    public var debianPackage: String?

    /// A font file at `path`, installed by `debianPackage` or a brand font when that is nil.
    public init(path: String, debianPackage: String? = nil) {
      self.path = path
      self.debianPackage = debianPackage
    }

    /// Whether the file is one of RowKit's own fonts rather than a user's brand font.
    public var isBuiltIn: Bool { debianPackage != nil }
  }

  /// The font files, in priority order: RowKit's fonts, then brand fonts.
  public var fontFiles: [FontFile]
  /// The BCP 47 language of the text (`en`, `ja`, `zh-Hant`, `ar`…). It guides line breaking
  /// and picks the regional glyph forms of Han characters: Japanese, Korean, Traditional or
  /// Simplified Chinese (see ``fallbackFamilies(fileFamilies:)``).
  public var language: String
  /// The family used when a font description names none.
  public var defaultFamily: String
  /// How glyphs are rasterized; ``GlyphAntialiasing/gray`` unless a test changes it.
  public var antialiasing: GlyphAntialiasing = .gray

  /// How glyph outlines become pixels. The choice changes glyph pixels and nothing else:
  /// metrics stay unhinted, so every frame and line break is the same in both.
  public enum GlyphAntialiasing: String, Hashable, Sendable {
    /// Grayscale coverage: RowKit's rendering.
    case gray
    /// One bit per pixel: for tests that need a change of rasterization alone, as a new
    /// FreeType or font package makes.
    case none
  }

  /// An environment of `fontFiles` for text in `language`, naming `defaultFamily` when a font description names none.
  public init(fontFiles: [FontFile], language: String = "en-us", defaultFamily: String = "Inter") {
    self.fontFiles = fontFiles
    self.language = language
    self.defaultFamily = defaultFamily
  }

  /// RowKit's fonts, all from Debian packages:
  ///
  /// 1. Inter (`fonts-inter`): every row's Latin, Greek and Cyrillic text, close in metrics to
  ///    the Helvetica that Three20's cells were designed for;
  /// 2. DejaVu Sans (`fonts-dejavu-core`): Arabic, Hebrew and the symbols Inter lacks;
  /// 3. Noto Sans and the Noto Sans family of every living script (`fonts-noto-core`):
  ///    Devanagari, Bengali, Tamil, Thai, Ethiopic, Georgian, Armenian, Khmer, Myanmar…, and
///    Noto Serif Tibetan;
  /// 4. Noto Sans CJK (`fonts-noto-cjk`): Chinese, Japanese and Korean;
  /// 5. Noto Sans Symbols, Symbols 2 and Math (`fonts-noto-core`);
  /// 6. Noto Color Emoji (`fonts-noto-color-emoji`), drawn in color.
  public static let standard = TextEnvironment(fontFiles: standardFontFiles)

  /// Keeps the user's settings of the text libraries from changing glyphs: empties
  /// `FREETYPE_PROPERTIES` and `HB_SHAPER_LIST`, and makes `PANGO_LANGUAGE` name no language
  /// (see `UsersTextSettings`). The first shaper and the first FreeType library call this.
  /// The environment changes only where a variable names something: a set one is emptied in
  /// its place, and `PANGO_LANGUAGE` is added only when `LANGUAGE` names languages and it is
  /// not set. With none of them (as in CI), nothing changes. A program calls it first thing,
  /// while it has one thread, when it can: adding a variable while other threads read the
  /// environment is not safe.
  public static func setAsideUsersTextSettings() {
    UsersTextSettings.setAside()
  }

  /// The former name of ``setAsideUsersTextSettings()``, which sets aside more than
  /// languages.
  @available(*, deprecated, renamed: "setAsideUsersTextSettings()")
  public static func setAsideUsersLanguages() { setAsideUsersTextSettings() }

  /// What font sets and shapers made for an environment are kept by: the environment, and
  /// the state of its brand font files (each one's device, inode, size and times), so that a
  /// brand font saved since is loaded again rather than drawn as it was.
  package struct LoadKey: Hashable, Sendable {
    var environment: TextEnvironment
    var brandFonts: [String?]
  }

  /// This environment's ``LoadKey`` as its files are now.
  package var loadKey: LoadKey {
    LoadKey(environment: self, brandFonts: fontFiles.filter { !$0.isBuiltIn }.map { FileDigestCache.key(for: [$0.path]) })
  }

  /// The same fonts as ``standard`` for text in `language`.
  public static func standard(language: String) -> TextEnvironment {
    var environment = standard
    environment.language = language
    return environment
  }

  static let standardFontFiles: [FontFile] = {
    let inter = "/usr/share/fonts/opentype/inter/"
    let dejavu = "/usr/share/fonts/truetype/dejavu/"
    let noto = "/usr/share/fonts/truetype/noto/"
    let cjk = "/usr/share/fonts/opentype/noto/"
    let interFaces = [
      "Regular", "Italic", "Medium", "MediumItalic", "SemiBold", "SemiBoldItalic", "Bold", "BoldItalic",
    ]
    let dejavuFaces = ["DejaVuSans", "DejaVuSans-Bold", "DejaVuSansMono", "DejaVuSansMono-Bold"]
    func notoFiles(_ stems: [String], faces: [String]) -> [FontFile] {
      stems.flatMap { stem in
        faces.map { FontFile(path: noto + "NotoSans\(stem)-\($0).ttf", debianPackage: "fonts-noto-core") }
      }
    }
    return interFaces.map { FontFile(path: inter + "Inter-\($0).otf", debianPackage: "fonts-inter") }
      + dejavuFaces.map { FontFile(path: dejavu + "\($0).ttf", debianPackage: "fonts-dejavu-core") }
      + notoFiles([""], faces: ["Regular", "Bold", "Italic", "BoldItalic"])
      + notoFiles(scriptsWithBold, faces: ["Regular", "Bold"])
      + notoFiles(scriptsRegularOnly, faces: ["Regular"])
      // Tibetan has no Noto Sans family; Noto Serif Tibetan is the one Debian ships.
      + ["Regular", "Bold"].map { FontFile(path: noto + "NotoSerifTibetan-\($0).ttf", debianPackage: "fonts-noto-core") }
      + ["Regular", "Bold"].map { FontFile(path: cjk + "NotoSansCJK-\($0).ttc", debianPackage: "fonts-noto-cjk") }
      + notoFiles(["Symbols"], faces: ["Regular", "Bold"])
      + notoFiles(["Symbols2", "Math"], faces: ["Regular"])
      + [FontFile(path: noto + "NotoColorEmoji.ttf", debianPackage: "fonts-noto-color-emoji")]
  }()

  /// The Noto Sans families of living scripts that Debian ships with a bold face.
  static let scriptsWithBold = [
    "Adlam", "Arabic", "Armenian", "Balinese", "Bamum", "Bengali", "CanadianAboriginal", "Cham", "Cherokee",
    "Devanagari", "Ethiopic", "Georgian", "Gujarati", "Gurmukhi", "HanifiRohingya", "Hebrew", "Javanese", "Kannada",
    "KayahLi", "Khmer", "Lao", "Lisu", "Malayalam", "Medefaidrin", "MeeteiMayek", "Myanmar", "OlChiki", "Oriya",
    "Sinhala", "Sundanese", "TaiTham", "Tamil", "Telugu", "Thaana", "Thai",
  ]
  /// The Noto Sans families of living scripts that Debian ships in one weight.
  static let scriptsRegularOnly = [
    "Batak", "Buginese", "Chakma", "Lepcha", "Limbu", "Mandaic", "Miao", "Mongolian", "NKo", "NewTaiLue", "Newa",
    "Osage", "PahawhHmong", "Rejang", "Saurashtra", "SylotiNagri", "Syriac", "TaiLe", "TaiViet", "Tifinagh", "Vai",
    "Wancho", "Yi",
  ]

  /// The fixed order in which families lend glyphs to text that its own family cannot draw:
  /// the families of ``fontFiles`` in file order, except that the Noto Sans CJK families go
  /// in the order that ``language`` prefers (Japanese `ja`: JP first; Korean `ko`: KR;
  /// `zh-Hant`, `zh-TW`: TC; `zh-HK`, `zh-MO`: HK; anything else, including no CJK
  /// language at all: SC, then TC, HK, JP and KR). Brand fonts come last here; they are
  /// used where a style names their family, and their own missing characters then fall
  /// back along this list.
  public func fallbackFamilies(fileFamilies: [[String]]) -> [String] {
    var ordered: [String] = []
    var seen = Set<String>()
    for (file, families) in zip(fontFiles, fileFamilies) where file.isBuiltIn {
      for family in families where !family.contains(" Mono CJK") && seen.insert(family).inserted {
        ordered.append(family)
      }
    }
    let cjk = ordered.filter { $0.hasPrefix("Noto Sans CJK ") }
    guard let first = ordered.firstIndex(where: { $0.hasPrefix("Noto Sans CJK ") }) else { return ordered }
    let preferred = Self.cjkRegions(for: language).map { "Noto Sans CJK \($0)" }
    let sortedCJK = cjk.sorted { (preferred.firstIndex(of: $0) ?? 99) < (preferred.firstIndex(of: $1) ?? 99) }
    ordered.removeAll { $0.hasPrefix("Noto Sans CJK ") }
    ordered.insert(contentsOf: sortedCJK, at: first)
    return ordered
  }

  /// The regional CJK fonts in the order a BCP 47 language prefers them.
  static func cjkRegions(for language: String) -> [String] {
    let subtags = language.lowercased().replacingOccurrences(of: "_", with: "-").split(separator: "-").map(String.init)
    let primary = subtags.first ?? ""
    switch primary {
    case "ja": return ["JP", "SC", "TC", "HK", "KR"]
    case "ko": return ["KR", "SC", "TC", "HK", "JP"]
    case "zh", "yue", "cmn":
      if subtags.contains("hk") || subtags.contains("mo") { return ["HK", "TC", "SC", "JP", "KR"] }
      if subtags.contains("hant") || subtags.contains("tw") || primary == "yue" { return ["TC", "HK", "SC", "JP", "KR"] }
      return ["SC", "TC", "HK", "JP", "KR"]
    default: return ["SC", "TC", "HK", "JP", "KR"]
    }
  }

  /// This environment with the user's font files (`.ttf`, `.otf`, `.ttc`) added after
  /// RowKit's own. Their families can be named in stylesheets and design files.
  public func adding(brandFonts files: [URL]) -> TextEnvironment {
    var environment = self
    for file in files {
      let path = file.standardizedFileURL.path
      if !environment.fontFiles.contains(where: { $0.path == path }) {
        environment.fontFiles.append(FontFile(path: path))
      }
    }
    return environment
  }

  /// The user's font files in this environment.
  public var brandFontFiles: [FontFile] { fontFiles.filter { !$0.isBuiltIn } }

  /// The fixed Cairo font options: gray antialiasing, no hinting, no hinted metrics. Hinted
  /// metrics would make text widths depend on the drawing scale; with them off, a layout
  /// measured once can be painted at any scale and offset.
  public static let fontOptionsDescription = "antialias=gray hint-style=none hint-metrics=off"

  /// This environment's font options, as the environment fingerprint names them.
  public var fontOptions: String {
    antialiasing == .gray ? Self.fontOptionsDescription : "antialias=\(antialiasing.rawValue) hint-style=none hint-metrics=off"
  }

  /// The Debian packages that hold the built-in ``fontFiles``.
  public var debianPackages: [String] {
    var seen = Set<String>()
    return fontFiles.compactMap(\.debianPackage).filter { seen.insert($0).inserted }
  }

  /// Builds a shaper for the current thread. Shapers are not thread-safe: give each thread
  /// its own. The fonts are loaded once per process and environment and shared by every
  /// shaper, so after the first a shaper costs well under a millisecond.
  ///
  /// With `ownFaces`, the shaper draws from FreeType faces of its own, which no other shaper
  /// opens, closes or shares (its text calls still take the text lock, as Cairo's caches of
  /// scaled fonts and glyphs are the whole process's). It opens each face the first time its
  /// text uses the font (well under a millisecond for most fonts, a few for a CJK one), and
  /// keeps the faces for the process: a freed shaper's faces serve the next one. Where Pango
  /// cannot take the faces (a Pango other than the one RowKit checks for), the shaper shares
  /// fonts like any other; ``TextShaper/hasOwnFaces`` says which.
  public func makeShaper(ownFaces: Bool = false) throws -> TextShaper {
    try TextShaper(environment: self, ownFaces: ownFaces)
  }

  /// The loaded fonts: each file's families, the fallback order, and coverage queries.
  public func fontSet() throws -> FontSet {
    try FontSet.shared(for: self)
  }
}
