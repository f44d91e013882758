import Foundation
internal import CPango

/// FreeType's error codes turned into words in one place. FreeType's own table of messages
/// (`FT_Error_String`) exists only in builds with `FT_CONFIG_OPTION_ERROR_STRINGS`, which
/// Debian's is not; the codes are stable across versions (`fterrdef.h`), so the ones a font
/// file or a start-up can meet are named here.
enum FreeTypeStatus {
  /// Throws an error of `kind` saying that `what` failed and why, unless `error` is 0.
  static func check(_ error: FT_Error, _ kind: GraphicsError.Kind, _ what: @autoclosure () -> String) throws(GraphicsError) {
    guard error != 0 else { return }
    throw GraphicsError(kind, "\(what()): \(message(error))")
  }

  /// What `error` means, in words.
  static func message(_ error: FT_Error) -> String {
    if let text = FT_Error_String(error) { return String(cString: text) }
    return switch error {
    case 0x00: "no error"
    case 0x01: "the file cannot be opened"
    case 0x02: "not a font file FreeType knows"
    case 0x03: "the font file is damaged"
    case 0x04: "the font file's version is not supported"
    case 0x06: "invalid argument"
    case 0x07: "not implemented"
    case 0x08, 0x09, 0x0B: "the font file holds no glyph or face of that number"
    case 0x40: "out of memory"
    case 0x51: "the font file ends early"
    case 0x55: "the font file is damaged (bad stream operation)"
    default: "FreeType error \(error)"
    }
  }
}

/// Owns a FreeType library instance: the one place RowKit starts FreeType, and frees it.
final class FreeTypeLibrary {
  let handle: FT_Library

  init() throws(GraphicsError) {
    _ = UsersTextSettings.setAsideOnce
    var library: FT_Library?
    try FreeTypeStatus.check(FT_Init_FreeType(&library), .fontConfiguration, "FreeType could not start a library")
    guard let library else { throw GraphicsError(.fontConfiguration, "FreeType could not start a library: it gave none") }
    handle = library
  }

  deinit {
    FT_Done_FreeType(handle)
  }

  /// The version of FreeType loaded into the process, as `major.minor.patch`.
  var version: String {
    var major: FT_Int = 0
    var minor: FT_Int = 0
    var patch: FT_Int = 0
    FT_Library_Version(handle, &major, &minor, &patch)
    return "\(major).\(minor).\(patch)"
  }
}
