import Foundation
import Testing

@testable import RowKitGraphics

/// FreeType's failures in RowKit's words, from the one place that starts FreeType and reads
/// its error codes.
@Suite struct FreeTypeStatusTests {
  @Test func errorCodesBecomeWordsAndZeroPasses() throws {
    #expect(FreeTypeStatus.message(0x01) == "the file cannot be opened")
    #expect(FreeTypeStatus.message(0x02) == "not a font file FreeType knows")
    #expect(FreeTypeStatus.message(0x7FFF) == "FreeType error 32767")
    try FreeTypeStatus.check(0, .fontConfiguration, "never said")
    let error = try #require(throws: GraphicsError.self) { try FreeTypeStatus.check(0x03, .fontConfiguration, "opening x.ttf") }
    #expect(error.kind == .fontConfiguration)
    #expect(error.message == "opening x.ttf: the font file is damaged")
  }

  /// A font file FreeType cannot open gives no face, and the set keeps FreeType's reason;
  /// the file opens once it is a font again.
  @Test func aFontFileThatCannotBeOpenedIsKeptWithItsReason() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rowkit-freetype-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let missing = folder.appendingPathComponent("gone.ttf").path
    let damaged = folder.appendingPathComponent("damaged.ttf").path
    try Data("not a font".utf8).write(to: URL(fileURLWithPath: damaged))
    let faces = try FontFaces()
    #expect(faces.face(path: missing, index: 0) == nil)
    #expect(faces.face(path: damaged, index: 0) == nil)
    #expect(faces.unopenedFiles == [missing, damaged])
    #expect(faces.unopenedFileReasons[missing] == "the file cannot be opened")
    #expect(faces.unopenedFileReasons[damaged] == "not a font file FreeType knows")
    #expect(faces.openCount == 0)
  }

  @Test func theLibraryReportsTheVersionTheFingerprintKeeps() throws {
    let version = try FreeTypeLibrary().version
    #expect(version.split(separator: ".").count == 3 && version != "0.0.0")
    #expect(LibraryVersions.current.freetype == version)
  }
}
