internal import CCairo
internal import CPNG
internal import CPango
internal import CTurboJPEG
internal import CWebP

/// The versions of the C libraries that decide RowKit's pixels, as the running process
/// loaded them.
public struct LibraryVersions: Hashable, Sendable, Codable {
  /// The version of Cairo, which draws the pixels.
  public var cairo: String
  /// The version of pixman, Cairo's rasterizer and compositor.
  public var pixman: String
  /// The version of Pango, which lays text out.
  public var pango: String
  /// The version of HarfBuzz, which shapes text into glyphs.
  public var harfbuzz: String
  /// The version of FreeType, which rasterizes glyphs.
  public var freetype: String
  /// The version of fontconfig, which matches font descriptions to font files.
  public var fontconfig: String
  /// The version of libpng.
  public var libpng: String
  /// The version of libjpeg-turbo, which decodes JPEG images drawn into rows (the headers'
  /// version: the library reports none); nil in a fingerprint written before it was kept.
  public var libjpegTurbo: String?
  /// The version of libwebp, which decodes WebP images drawn into rows; nil in a fingerprint
  /// written before it was kept.
  public var libwebp: String?

  /// The versions loaded into this process, read once.
  public static let current: LibraryVersions = {
    let freetype = (try? FreeTypeLibrary())?.version ?? "unknown"
    let fc = Int(FcGetVersion())
    return LibraryVersions(
      cairo: String(cString: cairo_version_string()), pixman: String(cString: pixman_version_string()),
      pango: String(cString: pango_version_string()), harfbuzz: String(cString: hb_version_string()),
      freetype: freetype, fontconfig: "\(fc / 10000).\(fc / 100 % 100).\(fc % 100)",
      libpng: String(cString: png_get_libpng_ver(nil)),
      libjpegTurbo: dotted(Int(cturbojpeg_version_number()), base: 1000),
      libwebp: dotted(Int(WebPGetDecoderVersion()), base: 256))
  }()

  /// A version packed as major, minor and patch digits in `base` (`2001005` → `2.1.5`).
  private static func dotted(_ packed: Int, base: Int) -> String {
    "\(packed / (base * base)).\(packed / base % base).\(packed % base)"
  }
}
