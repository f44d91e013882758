import Foundation
import RowKitTestSupport
import Testing

@testable import RowKitGraphics

/// The one PNG chunk walker and writer (issue 25): the encoder's chunks, the `tEXt` chunk the
/// swift-snapshot-testing integration keeps its environment in, and a file's layout.
@Suite struct PNGChunksTests {
  @Test func aChunkHasItsLengthTypeDataAndTheSpecificationsCRC() {
    let data = Array("Comment\0a text".utf8)
    // The tests' own bit-by-bit CRC-32 of ISO 3309 checks the library's.
    #expect(PNGChunk.bytes(type: "tEXt", data: data) == CraftedPNG.chunk("tEXt", data))
    #expect(PNGChunk.bytes(type: "IEND", data: []) == [0, 0, 0, 0, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82])
  }

  @Test func anEncodedImageIsWalkedChunkByChunk() throws {
    let png = try PNG.encode(Bitmap(width: 3, height: 2, color: .white))
    let chunks = PNGChunk.chunks(of: png)
    #expect(chunks.first?.type == "IHDR" && chunks.first?.offset == 8 && chunks.first?.data.count == 13)
    #expect(chunks.last?.type == "IEND" && chunks.last?.data.upperBound == png.count - 4)
    #expect(chunks.contains { $0.type == "IDAT" })
    #expect(PNGChunk.chunks(of: Array(png.dropFirst())) == [], "no signature, no chunks")
    #expect(PNGChunk.chunks(of: Array(png.prefix(40))).map(\.type) == ["IHDR"], "a cut file: the chunks that fit")
  }

  @Test func aTextChunkGoesBeforeTheEndAndIsReadBack() throws {
    let png = try PNG.encode(Bitmap(width: 3, height: 2, color: .black))
    let tagged = PNG.inserting(text: Array(#"{"pango":"1.50"}"#.utf8), keyword: "rowkit-environment", into: png)
    #expect(PNGChunk.chunks(of: tagged).map(\.type).suffix(2) == ["tEXt", "IEND"])
    #expect(PNG.text(keyword: "rowkit-environment", in: tagged) == Array(#"{"pango":"1.50"}"#.utf8))
    #expect(PNG.text(keyword: "rowkit", in: tagged) == nil, "a keyword is matched whole")
    #expect(try PNG.decode(tagged) == PNG.decode(png), "the pixels are the same")
    #expect(PNG.inserting(text: [0xE9], keyword: "k", into: png) == png, "not ASCII: unchanged")
    #expect(PNG.inserting(text: [1], keyword: "k", into: [1, 2, 3]) == [1, 2, 3], "not a PNG: unchanged")
  }
}
