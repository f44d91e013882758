import Foundation
import RowKitTestSupport
import Testing

@testable import RowKitGraphics

/// A font collection's header claims its number of faces, and fontconfig reads every one
/// (40,000 claimed faces in a file of 1.28 MB took 61 s and 610 MB): more than
/// `FontSet.maximumCollectionFaces` is refused before fontconfig reads the file, by name.
@Suite struct FontCollectionTests {
  /// A collection header claiming `faces` faces, each at an offset past the header.
  static func collection(faces: Int) -> Data {
    var bytes = Array("ttcf".utf8) + [0, 1, 0, 0]
    for shift in [24, 16, 8, 0] { bytes.append(UInt8(truncatingIfNeeded: faces >> shift)) }
    for _ in 0..<faces { bytes += [0, 0, 0x10, 0] }
    return Data(bytes + [UInt8](repeating: 0, count: 64))
  }

  @Test func aCollectionOfTooManyFacesIsRefusedByName() throws {
    let folder = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let many = folder.appendingPathComponent("many.ttc")
    try Self.collection(faces: FontSet.maximumCollectionFaces + 1).write(to: many)
    #expect {
      try FontSet.families(ofFontFile: many.path)
    } throws: { error in
      "\(error)" == "\(many.path) is a font collection of 257 faces, more than the 256 a font file may hold"
    }
    // Within the limit, fontconfig judges the file (these faces are no fonts).
    let few = folder.appendingPathComponent("few.ttc")
    try Self.collection(faces: 2).write(to: few)
    #expect(FontSet.collectionProblem(at: few.path) == nil)
    #expect {
      try FontSet.families(ofFontFile: few.path)
    } throws: { error in
      "\(error)".contains("is not a font file")
    }
    #expect(FontSet.collectionProblem(at: "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf") == nil)
  }
}
