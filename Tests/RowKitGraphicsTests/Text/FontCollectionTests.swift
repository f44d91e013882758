import Foundation
import RowKitTestSupport
import Testing

@testable import RowKitGraphics

/// A font file may claim a face for every 32 bytes (a collection) and up to 32,511 named
/// styles in each variable face, and fontconfig reads every one (40,000 claimed faces in a
/// file of 1.28 MB took 61 s and 610 MB; 2,000 named styles, 12.9 s): more than
/// `FontSet.maximumFacesAndStyles` in all is refused before fontconfig reads the file.
@Suite struct FontCollectionTests {
  static let dejaVu = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"

  static func uint16(_ value: Int) -> [UInt8] { [UInt8(truncatingIfNeeded: value >> 8), UInt8(truncatingIfNeeded: value)] }
  static func uint32(_ value: Int) -> [UInt8] { uint16(value >> 16) + uint16(value) }

  /// A collection of `faces` faces, every one the same copy of DejaVu Sans.
  static func collection(faces: Int) throws -> Data {
    var font = try [UInt8](Data(contentsOf: URL(fileURLWithPath: dejaVu)))
    let start = 12 + 4 * faces
    let tables = Int(font[4]) << 8 | Int(font[5])
    for record in 0..<tables {
      let at = 12 + 16 * record + 8
      let offset = font[at..<at + 4].reduce(0) { $0 << 8 | Int($1) }
      font.replaceSubrange(at..<at + 4, with: uint32(offset + start))
    }
    var file = Array("ttcf".utf8) + uint16(1) + uint16(0) + uint32(faces)
    for _ in 0..<faces { file += uint32(start) }
    return Data(file + font)
  }

  /// DejaVu Sans as a variable font of one axis with `styles` named styles: an `fvar` and an
  /// empty `gvar` table added to its table directory.
  static func variable(styles: Int) throws -> Data {
    let font = try [UInt8](Data(contentsOf: URL(fileURLWithPath: dejaVu)))
    let tables = Int(font[4]) << 8 | Int(font[5])
    var records = (0..<tables).map { Array(font[12 + 16 * $0..<28 + 16 * $0]) }
    func field(_ record: [UInt8], _ at: Int) -> Int { record[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
    let maxp = try #require(records.first { Array($0.prefix(4)) == Array("maxp".utf8) })
    let glyphs = Int(font[field(maxp, 8) + 4]) << 8 | Int(font[field(maxp, 8) + 5])
    var fvar = uint16(1) + uint16(0) + uint16(16) + uint16(2) + uint16(1) + uint16(20) + uint16(styles) + uint16(8)
    fvar += Array("wght".utf8) + uint32(100 << 16) + uint32(400 << 16) + uint32(900 << 16) + uint16(0) + uint16(256)
    for style in 0..<styles { fvar += uint16(2) + uint16(0) + uint32((100 + style % 800) << 16 | style / 800) }
    let gvar = uint16(1) + uint16(0) + uint16(1) + uint16(0) + uint32(20) + uint16(glyphs) + uint16(0)
      + uint32(20 + 2 * (glyphs + 1)) + [UInt8](repeating: 0, count: 2 * (glyphs + 1))
    let header = 12 + 16 * (tables + 2)
    let shift = header - (12 + 16 * tables)
    records = records.map { record in Array(record.prefix(8)) + uint32(field(record, 8) + shift) + Array(record.suffix(4)) }
    var body = Array(font[(12 + 16 * tables)...])
    while body.count % 4 != 0 { body.append(0) }
    var added: [[UInt8]] = []
    for (tag, table) in [("fvar", fvar), ("gvar", gvar)] {
      added.append(Array(tag.utf8) + uint32(0) + uint32(header + body.count) + uint32(table.count))
      body += table
      while body.count % 4 != 0 { body.append(0) }
    }
    let directory = (records + added).sorted { $0.prefix(4).lexicographicallyPrecedes($1.prefix(4)) }
    return Data(Array(font[0..<4]) + uint16(tables + 2) + Array(font[6..<12]) + directory.flatMap { $0 } + body)
  }

  @Test func aFileOfTooManyFacesOrNamedStylesIsRefusedByName() throws {
    let folder = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let many = folder.appendingPathComponent("many.ttc")
    try Self.collection(faces: FontSet.maximumFacesAndStyles + 1).write(to: many)
    #expect {
      try FontSet.families(ofFontFile: many.path)
    } throws: { error in
      "\(error)" == "\(many.path) holds 257 faces, more than the 256 a font file may hold"
    }
    let styled = folder.appendingPathComponent("styled.ttf")
    try Self.variable(styles: 2000).write(to: styled)
    #expect {
      try FontSet.families(ofFontFile: styled.path)
    } throws: { error in
      "\(error)" == "\(styled.path) holds more than 256 faces and named styles, more than the 256 a font file may hold"
    }
    // Within the limit, fontconfig reads them.
    let few = folder.appendingPathComponent("few.ttc")
    try Self.collection(faces: 3).write(to: few)
    #expect(try FontSet.families(ofFontFile: few.path) == ["DejaVu Sans"])
    let someStyles = folder.appendingPathComponent("some.ttf")
    try Self.variable(styles: 20).write(to: someStyles)
    #expect(FontSet.facesAndStylesProblem(at: someStyles.path) == nil)
    #expect(FontSet.facesAndStylesProblem(at: Self.dejaVu) == nil)
  }
}
