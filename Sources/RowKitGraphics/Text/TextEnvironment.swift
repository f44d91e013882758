internal import CCairo
internal import CPango

/// Everything that decides how text is shaped and drawn: the font files, the font options and
/// the language. One value is used for measuring and painting alike, so both agree, and the
/// same value gives the same pixels on every machine with the same library versions.
///
/// The fonts are loaded into a private fontconfig configuration that holds exactly
/// ``fontFiles``: nothing the machine happens to have installed, and no user or system
/// fontconfig rule, can change a glyph.
public struct TextEnvironment: Hashable, Sendable {
  /// A font file and the Debian package that installs it.
  public struct FontFile: Hashable, Sendable {
    public var path: String
    public var debianPackage: String

    public init(path: String, debianPackage: String) {
      self.path = path
      self.debianPackage = debianPackage
    }
  }

  /// The font files, in priority order: a family listed first wins a fallback tie.
  public var fontFiles: [FontFile]
  /// The BCP 47 language that guides line breaking and font fallback.
  public var language: String
  /// The family used when a font description names none.
  public var defaultFamily: String

  public init(fontFiles: [FontFile], language: String = "en-us", defaultFamily: String = "Inter") {
    self.fontFiles = fontFiles
    self.language = language
    self.defaultFamily = defaultFamily
  }

  /// RowKit's fonts: Inter (the row text, close in metrics to the Helvetica that Three20's
  /// cells were designed for) and DejaVu Sans, which covers Arabic, Hebrew, Cyrillic, Greek
  /// and most symbols that Inter lacks. Both come from Debian packages.
  public static let standard: TextEnvironment = {
    let inter = "/usr/share/fonts/opentype/inter/"
    let dejavu = "/usr/share/fonts/truetype/dejavu/"
    let interFaces = [
      "Regular", "Italic", "Medium", "MediumItalic", "SemiBold", "SemiBoldItalic", "Bold",
      "BoldItalic",
    ]
    let dejavuFaces = ["DejaVuSans", "DejaVuSans-Bold", "DejaVuSansMono", "DejaVuSansMono-Bold"]
    return TextEnvironment(
      fontFiles: interFaces.map { FontFile(path: inter + "Inter-\($0).otf", debianPackage: "fonts-inter") }
        + dejavuFaces.map { FontFile(path: dejavu + "\($0).ttf", debianPackage: "fonts-dejavu-core") })
  }()

  /// The fixed Cairo font options: gray antialiasing, no hinting, no hinted metrics. Hinted
  /// metrics would make text widths depend on the drawing scale; with them off, a layout
  /// measured once can be painted at any scale and offset.
  public static let fontOptionsDescription = "antialias=gray hint-style=none hint-metrics=off"

  /// The Debian packages that hold ``fontFiles``.
  public var debianPackages: [String] {
    var seen = Set<String>()
    return fontFiles.map(\.debianPackage).filter { seen.insert($0).inserted }
  }

  /// Builds a shaper for the current thread. Shapers are not thread-safe: give each thread
  /// its own (building one takes a few milliseconds).
  public func makeShaper() throws -> TextShaper {
    try TextShaper(environment: self)
  }
}
