import Foundation
internal import CPango

/// The fonts of one ``TextEnvironment``, loaded once per process into a private fontconfig
/// configuration: every file's families, the fixed fallback order, and which scripts each
/// file covers. Every ``TextShaper`` of the environment shares it.
///
/// `@unchecked Sendable` is safe: the configuration is fully built in `init` and never
/// changed after; fontconfig (2.11 and later) reads a finished configuration from any
/// thread, taking its own locks for its reference count and caches. Everything else here is
/// immutable.
public final class FontSet: @unchecked Sendable {
  /// One loaded font file.
  public struct File: Hashable, Sendable {
    /// The file's path.
    public var path: String
    /// The Debian package that installs it; nil for a brand font.
    public var debianPackage: String?
    /// The families its faces declare, in the file's order.
    public var families: [String]
    /// The scripts (of ``Script/all``) it has glyphs for.
    public var scripts: [String]
  }

  /// The environment the set was loaded from.
  public let environment: TextEnvironment
  /// The loaded font files, in the environment's order.
  public let files: [File]
  /// The order in which families lend glyphs to text their own family cannot draw.
  public let fallbackFamilies: [String]
  /// Every family a font description may name, sorted.
  public let families: [String]
  /// ``families``, lowercased: most of what ``hasFamily(_:)`` is asked.
  private let lowercasedFamilies: Set<String>

  let config: OpaquePointer

  /// The sets loaded so far, by environment. Under a `Locked` rather than a `Mutex`, so that
  /// ThreadSanitizer sees sets pass from the thread that loads them to every other.
  private static let loaded = Locked<[TextEnvironment.LoadKey: FontSet]>([:])

  /// An empty configuration made fontconfig's default before any font map exists.
  ///
  /// Pango starts a thread that initializes fontconfig's default configuration (the
  /// machine's `/etc/fonts` rules and every system font folder, scanned if its cache is
  /// stale) and makes a font map's first use wait for it, although RowKit's font maps use
  /// private configurations. With a default already set, that thread has nothing to do: a
  /// one-row render no longer pays for loading the machine's fonts, and anything that asks
  /// fontconfig for its default configuration finds no fonts rather than the machine's.
  ///
  /// Fontconfig takes a reference of its own to the configuration it makes the default from
  /// 2.11.91 (2.12) on; in 2.11 the default is the caller's, and freeing it would leave
  /// Pango's thread with freed memory. There the empty configuration is kept for the process.
  private static let emptyDefaultConfiguration: Bool = {
    guard let empty = FcConfigCreate() else { return false }
    let madeDefault = FcConfigSetCurrent(empty) != 0
    if !madeDefault || FcGetVersion() >= 2_11_91 { FcConfigDestroy(empty) }
    return madeDefault
  }()

  /// The font set of `environment`, loaded on first use and kept for the process.
  static func shared(for environment: TextEnvironment) throws -> FontSet {
    let key = environment.loadKey
    if let set = loaded.withLock({ $0[key] }) { return set }
    _ = emptyDefaultConfiguration
    // Loading takes tens of milliseconds: do it outside the lock. Two threads may both load
    // the same environment once; the first one stored wins and both sets are equivalent.
    let set = try FontSet(environment: environment, cacheRoot: FontScanCache.root)
    return loaded.withLock { cache in
      if let existing = cache[key] { return existing }
      cache[key] = set
      return set
    }
  }

  /// Loads the fonts of `environment`, through the scan cache in `cacheRoot` when there is
  /// one (see ``FontScanCache``).
  init(environment: TextEnvironment, cacheRoot: String?) throws {
    self.environment = environment
    for file in environment.fontFiles {
      // `access` itself: FileManager's check costs a file-system path conversion per file,
      // for the hundred-odd files every process loads before its first row.
      guard access(file.path, R_OK) == 0 else {
        if let package = file.debianPackage {
          throw GraphicsError(
            .missingFont, "font file \(file.path) is missing: install the Debian package \(package) (scripts/setup.sh does)")
        }
        throw GraphicsError(.missingFont, "font file \(file.path) is missing or unreadable")
      }
    }
    guard let config = FcConfigCreate() else {
      throw GraphicsError(.fontConfiguration, "fontconfig could not create a configuration")
    }
    let faces: [[OpaquePointer]]
    do {
      faces = try FontSet.addFonts(of: environment, to: config, cacheRoot: cacheRoot)
    } catch {
      FcConfigDestroy(config)
      throw error
    }
    var files: [File] = []
    for (file, patterns) in zip(environment.fontFiles, faces) {
      var families: [String] = []
      var charsets: [OpaquePointer] = []
      for pattern in patterns {
        if let family = FontSet.string(pattern, FC_FAMILY), !families.contains(family) { families.append(family) }
        var charset: OpaquePointer?
        if FcPatternGetCharSet(pattern, FC_CHARSET, 0, &charset) == FcResultMatch, let charset {
          charsets.append(charset)
        }
      }
      let scripts = Script.all.filter { script in
        charsets.contains { charset in script.samples.allSatisfy { FcCharSetHasChar(charset, $0.value) != 0 } }
      }.map(\.name)
      files.append(File(path: file.path, debianPackage: file.debianPackage, families: families, scripts: scripts))
    }
    let fallback = environment.fallbackFamilies(fileFamilies: files.map(\.families))
    // Pango sets emoji presentation sequences (👍🏽, ❤️, flags) in the generic family
    // `emoji`: the emoji fonts go first there, so an emoji is drawn in color and in one piece
    // rather than by the first text font with a monochrome glyph for its first character.
    // Not `localizedCaseInsensitiveContains`: it loads ICU's locale data, milliseconds of
    // every process's start, to compare ASCII family names.
    let emojiFamilies = fallback.filter { $0.lowercased().contains("emoji") }
    let emojiRule =
      emojiFamilies.isEmpty
      ? ""
      : "<match target=\"pattern\"><test name=\"family\"><string>emoji</string></test>"
        + "<edit name=\"family\" mode=\"prepend\" binding=\"strong\">"
        + emojiFamilies.map { "<string>\(FontSet.xmlEscaped($0))</string>" }.joined() + "</edit></match>"
    // A color bitmap font (Noto Color Emoji) has one strike, 109 pixels tall; without a
    // scale it would be drawn at that size whatever the text's size. Scale its glyphs by the
    // requested pixel size over the strike's, as desktop fontconfig set-ups do, so emoji
    // follow the font size and sit in the line like text.
    let bitmapScale =
      "<divide><name target=\"pattern\">pixelsize</name><name target=\"font\">pixelsize</name></divide>"
    let bitmapRule =
      "<match target=\"font\"><test name=\"outline\" compare=\"eq\"><bool>false</bool></test>"
      + "<edit name=\"pixelsizefixupfactor\" mode=\"assign\">\(bitmapScale)</edit></match>"
      + "<match target=\"font\"><test name=\"outline\" compare=\"eq\"><bool>false</bool></test>"
      + "<edit name=\"matrix\" mode=\"assign\"><times><name>matrix</name><matrix>"
      + "<name>pixelsizefixupfactor</name><double>0</double><double>0</double><name>pixelsizefixupfactor</name>"
      + "</matrix></times></edit>"
      + "<edit name=\"size\" mode=\"assign\"><divide><name>size</name><name>pixelsizefixupfactor</name></divide></edit>"
      + "</match>"
    // Strongly bound families outrank fontconfig's language and style matching, so the
    // fallback is exactly this list, in this order, for every font a style names.
    let rules =
      "<?xml version=\"1.0\"?><fontconfig>" + emojiRule + bitmapRule + "<match target=\"pattern\">"
      + "<edit name=\"family\" mode=\"append_last\" binding=\"strong\">"
      + fallback.map { "<string>\(FontSet.xmlEscaped($0))</string>" }.joined()
      + "</edit></match></fontconfig>"
    let parsed = FontSet.withFcString(rules) { FcConfigParseAndLoadFromMemory(config, $0, 1) }
    guard parsed != 0 else {
      FcConfigDestroy(config)
      throw GraphicsError(.fontConfiguration, "fontconfig refused RowKit's fallback rules")
    }
    self.config = config
    self.files = files
    self.fallbackFamilies = fallback
    self.families = Array(Set(files.flatMap(\.families))).sorted()
    self.lowercasedFamilies = Set(families.map { $0.lowercased() })
  }

  deinit {
    FcConfigDestroy(config)
  }

  /// Adds every file of `environment` to `config`'s application fonts, in the environment's
  /// order; returns each file's faces (their patterns, owned by `config`).
  ///
  /// Scanning a font file means opening it with FreeType and reading its character map:
  /// for the hundred-odd built-in files that is most of a short render's time. So the
  /// built-in files (those the environment lists first) are added through a folder of links
  /// to them, named for their paths, sizes and modification times, which fontconfig scans
  /// once and then reads from its own cache (see ``FontScanCache``). Brand fonts, a few files
  /// often in temporary folders, are scanned each time: caching them would leave a folder
  /// behind for every path they were ever loaded from. Where no cache folder can be written,
  /// every file is scanned.
  private static func addFonts(
    of environment: TextEnvironment, to config: OpaquePointer, cacheRoot: String?
  ) throws -> [[OpaquePointer]] {
    let cachedFiles = environment.fontFiles.prefix { $0.isBuiltIn }
    var faces: [[OpaquePointer]] = []
    if !cachedFiles.isEmpty, let cacheRoot, let folder = FontScanCache.linkFolder(for: cachedFiles.map(\.path), in: cacheRoot) {
      let settings = "<?xml version=\"1.0\"?><fontconfig><cachedir>\(xmlEscaped(folder.fontconfigCache))</cachedir></fontconfig>"
      let parsed = withFcString(settings) { FcConfigParseAndLoadFromMemory(config, $0, 1) }
      let added = parsed != 0 && withFcString(folder.path) { FcConfigAppFontAddDir(config, $0) } != 0
      if added, let fonts = FcConfigGetFonts(config, FcSetApplication) {
        faces = [[OpaquePointer]](repeating: [], count: cachedFiles.count)
        for index in 0..<Int(fonts.pointee.nfont) {
          guard let pattern = fonts.pointee.fonts[index], let path = string(pattern, FC_FILE),
            let file = folder.fileIndex(ofLink: path), file < faces.count
          else { continue }
          faces[file].append(pattern)
        }
        if faces.contains(where: \.isEmpty) {
          // A file fontconfig found nothing in through the folder: a link lost since the
          // folder was made (a cache restored in part), or a folder fontconfig looks for
          // elsewhere (FONTCONFIG_SYSROOT). Its fonts are taken away again and every file is
          // scanned below, as without a cache, which names a file that is not a font. A lost
          // link is made again for the next process; nothing is taken away, since other
          // processes may be drawing through the folder's links.
          FcConfigAppFontClear(config)
          faces = []
          FontScanCache.restoreLinks(in: folder, to: cachedFiles.map(\.path))
        }
      } else if (FcConfigGetFonts(config, FcSetApplication)?.pointee.nfont ?? 0) != 0 {
        throw GraphicsError(.fontConfiguration, "fontconfig could not read the font folder \(folder.path)")
      }
      // Otherwise fontconfig added nothing from the folder: the files are scanned below.
    }
    for file in environment.fontFiles.dropFirst(faces.count) {
      // fontconfig would wait forever to read a FIFO: the file is checked again, as it may
      // have changed since it was named.
      if let problem = InputFile.problem(at: file.path) {
        throw GraphicsError(.missingFont, "font file \(file.path) \(problem.predicate)")
      }
      if let problem = facesAndStylesProblem(at: file.path) { throw GraphicsError(.fontConfiguration, problem) }
      // A brand font is drawn from a copy of its bytes that never changes (see
      // FontScanCache.snapshot): FreeType maps the file it reads, and one written over in
      // place while mapped crashed the process.
      let loaded = file.isBuiltIn ? file.path : cacheRoot.flatMap { FontScanCache.snapshot(ofFontFile: file.path, in: $0) } ?? file.path
      let before = Int(FcConfigGetFonts(config, FcSetApplication)?.pointee.nfont ?? 0)
      let added = withFcString(loaded) { FcConfigAppFontAddFile(config, $0) }
      let fonts = FcConfigGetFonts(config, FcSetApplication)
      let after = Int(fonts?.pointee.nfont ?? 0)
      if added == 0 || after == before {
        throw GraphicsError(.fontConfiguration, "\(file.path) is not a font file fontconfig can read")
      }
      faces.append((before..<after).compactMap { fonts?.pointee.fonts[$0] })
    }
    return faces
  }

  /// Whether a font description may name `family` (case-insensitively, as fontconfig
  /// matches).
  public func hasFamily(_ family: String) -> Bool {
    // Cells ask for every label's font: the lowercased names answer almost every question
    // at once, and Foundation's comparison (which also folds what lowercasing does not)
    // only the rest.
    lowercasedFamilies.contains(family.lowercased())
      || families.contains { $0.caseInsensitiveCompare(family) == .orderedSame }
  }

  /// The families of every face in the font file at `path`, without loading it into any
  /// configuration: how a document's `fonts:` are checked as they are read.
  public static func families(ofFontFile path: String) throws -> [String] {
    if let problem = InputFile.problem(at: path) { throw GraphicsError(.missingFont, "font file \(path) \(problem.predicate)") }
    guard FileManager.default.isReadableFile(atPath: path) else {
      throw GraphicsError(.missingFont, "font file \(path) cannot be read")
    }
    if let problem = facesAndStylesProblem(at: path) { throw GraphicsError(.fontConfiguration, problem) }
    guard let set = FcFontSetCreate() else {
      throw GraphicsError(.fontConfiguration, "fontconfig could not create a font set")
    }
    defer { FcFontSetDestroy(set) }
    var count: Int32 = 0
    let faces = withFcString(path) { FcFreeTypeQueryAll($0, UInt32.max, nil, &count, set) }
    var families: [String] = []
    for index in 0..<Int(set.pointee.nfont) {
      if let pattern = set.pointee.fonts[index], let family = string(pattern, FC_FAMILY), !families.contains(family) {
        families.append(family)
      }
    }
    guard faces > 0, !families.isEmpty else {
      throw GraphicsError(.fontConfiguration, "\(path) is not a font file (TrueType, OpenType or a collection of them)")
    }
    return families
  }

  /// The most faces and named styles one font file may hold in all: a collection's faces
  /// (Noto Sans CJK's holds 10) and each variable face's named instances (Inter's has 18).
  /// fontconfig reads every one of them, about 1.5 ms and 15 KB for a face and 6 ms for a
  /// named style, and a file may claim a face for every 32 bytes and 32,511 named styles.
  public static let maximumFacesAndStyles = 256

  /// Why the font file at `path` is refused before fontconfig reads it: more faces and named
  /// styles than ``maximumFacesAndStyles``, counted by FreeType. Nil for any other file,
  /// fontconfig judging it (a file FreeType cannot open is not counted here).
  static func facesAndStylesProblem(at path: String) -> String? {
    guard let library = try? FreeTypeLibrary() else { return nil }
    var count = 0
    var faces = 1
    var index = 0
    while index < faces {
      var face: FT_Face?
      guard FT_New_Face(library.handle, path, FT_Long(index), &face) == 0, let face else { return nil }
      if index == 0 { faces = Int(face.pointee.num_faces) }
      // Bits 16 to 30 of a variable face's style flags count its named instances.
      count += 1 + Int((face.pointee.style_flags >> 16) & 0x7FFF)
      FT_Done_Face(face)
      guard count <= maximumFacesAndStyles, faces <= maximumFacesAndStyles else {
        return "\(path) holds \(faces > maximumFacesAndStyles ? "\(faces) faces" : "more than \(maximumFacesAndStyles) faces and named styles"), "
          + "more than the \(maximumFacesAndStyles) a font file may hold"
      }
      index += 1
    }
    return nil
  }

  private static func string(_ pattern: OpaquePointer, _ key: String) -> String? {
    var value: UnsafeMutablePointer<FcChar8>?
    guard FcPatternGetString(pattern, key, 0, &value) == FcResultMatch, let value else { return nil }
    return String(cString: UnsafeRawPointer(value).assumingMemoryBound(to: CChar.self))
  }

  /// Calls `body` with `text` as the NUL-terminated UTF-8 that fontconfig's `FcChar8`
  /// parameters take.
  private static func withFcString<T>(_ text: String, _ body: (UnsafePointer<FcChar8>) -> T) -> T {
    text.withCString { cText in
      cText.withMemoryRebound(to: FcChar8.self, capacity: text.utf8.count + 1) { body($0) }
    }
  }

  /// `text` with `&`, `<` and `>` escaped, in one pass: Foundation's `replacingOccurrences`
  /// bridges every family name through `NSString`, three times, at every process's start.
  static func xmlEscaped(_ text: String) -> String {
    var escaped = ""
    escaped.reserveCapacity(text.utf8.count + 8)
    for character in text.unicodeScalars {
      switch character {
      case "&": escaped += "&amp;"
      case "<": escaped += "&lt;"
      case ">": escaped += "&gt;"
      default: escaped.unicodeScalars.append(character)
      }
    }
    return escaped
  }
}

/// A writing system and characters every font that claims it must have, for telling which
/// scripts a font covers (`rowkit fonts`).
public struct Script: Hashable, Sendable {
  /// The script's name (`Latin`, `Arabic`, `Han`…).
  public var name: String
  /// Characters of the script that a font covering it must have glyphs for.
  public var samples: [Unicode.Scalar]

  init(_ name: String, _ samples: String) {
    self.name = name
    self.samples = Array(samples.unicodeScalars)
  }

  /// Living scripts, most-used first.
  public static let all: [Script] = [
    Script("Latin", "AZaz"), Script("Greek", "ΑΩαω"), Script("Cyrillic", "АЯая"), Script("Arabic", "ابپی"),
    Script("Hebrew", "אבת"), Script("Devanagari", "अकह"), Script("Bengali", "অকহ"), Script("Gurmukhi", "ਅਕਹ"),
    Script("Gujarati", "અકહ"), Script("Oriya", "ଅକହ"), Script("Tamil", "அகஹ"), Script("Telugu", "అకహ"),
    Script("Kannada", "ಅಕಹ"), Script("Malayalam", "അകഹ"), Script("Sinhala", "අකහ"), Script("Thai", "กขฮ"),
    Script("Lao", "ກຂຮ"), Script("Khmer", "កខអ"), Script("Myanmar", "ကခအ"), Script("Tibetan", "ཀཁཨ"),
    Script("Georgian", "აბჰ"), Script("Armenian", "ԱԲաբ"), Script("Ethiopic", "ሀለአ"), Script("Thaana", "ހށޱ"),
    Script("Syriac", "ܐܒܬ"), Script("Mongolian", "ᠠᠡᠢ"), Script("Cherokee", "ᎠᎡᎢ"),
    Script("Canadian Aboriginal", "ᐁᐃᐅ"), Script("Tifinagh", "ⴰⴱⵜ"), Script("N'Ko", "ߊߋߌ"), Script("Vai", "ꔀꔁꔂ"),
    Script("Yi", "ꀀꀁꀂ"), Script("Javanese", "ꦄꦏꦲ"), Script("Balinese", "ᬅᬓᬳ"), Script("Sundanese", "ᮃᮊᮠ"),
    Script("Han", "中国字"), Script("Hiragana", "あいう"), Script("Katakana", "アイウ"), Script("Hangul", "가나한"),
    Script("Bopomofo", "ㄅㄆㄇ"), Script("Emoji", "😀👍🌍"), Script("Symbols", "★☂♞"), Script("Math", "∀∑∫"),
  ]
}
