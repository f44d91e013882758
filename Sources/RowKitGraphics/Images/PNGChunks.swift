import Foundation

/// One chunk of a PNG file: where it starts, its four-letter type and where its data is.
public struct PNGChunk: Hashable, Sendable {
  /// The offset of the chunk's length field in the file.
  public var offset: Int
  /// The chunk's type (`IHDR`, `IDAT`, `tEXt`, `IEND`…).
  public var type: String
  /// Where the chunk's data is in the file.
  public var data: Range<Int>

  /// The chunks of `png`, in order, up to the first that does not fit in the file; none when
  /// `png` has no PNG signature. CRCs are not checked: this reads a file's layout, as
  /// metadata tools do, and ``PNG`` checks them when it decodes.
  public static func chunks(of png: [UInt8]) -> [PNGChunk] {
    guard png.count >= 8, png[0..<8].elementsEqual(PNGFormat.signature) else { return [] }
    var result: [PNGChunk] = []
    var offset = 8
    while png.count - offset >= 12 {
      let length = png[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
      let dataStart = offset + 8
      guard length <= png.count - dataStart - 4 else { break }
      let type = String(decoding: png[offset + 4..<dataStart], as: UTF8.self)
      result.append(PNGChunk(offset: offset, type: type, data: dataStart..<dataStart + length))
      offset = dataStart + length + 4
    }
    return result
  }

  /// The bytes of a chunk of `type` holding `data`: its length, type, data and the CRC of
  /// type and data.
  public static func bytes<Data: Collection<UInt8>>(type: String, data: Data) -> [UInt8] {
    var chunk: [UInt8] = []
    chunk.reserveCapacity(data.count + 12)
    chunk += PNGStreamWriter.bigEndian(UInt32(data.count))
    chunk += Array(type.utf8)
    chunk += data
    chunk += PNGStreamWriter.bigEndian(CRC32.checksum(chunk[4...]))
    return chunk
  }
}

extension PNG {
  /// `png` with a `tEXt` chunk of `keyword` and `text` before its `IEND`; `png` unchanged
  /// when it is not a well-formed PNG, or the keyword or text is not printable ASCII without
  /// NUL (`tEXt` holds Latin-1; RowKit writes ASCII).
  public static func inserting(text: [UInt8], keyword: String, into png: [UInt8]) -> [UInt8] {
    let keywordBytes = Array(keyword.utf8)
    guard !keywordBytes.isEmpty, keywordBytes.count <= 79, (keywordBytes + text).allSatisfy({ $0 != 0 && $0 < 0x80 }),
      let end = PNGChunk.chunks(of: png).last(where: { $0.type == "IEND" })
    else { return png }
    let chunk = PNGChunk.bytes(type: "tEXt", data: keywordBytes + [0] + text)
    return Array(png[..<end.offset]) + chunk + Array(png[end.offset...])
  }

  /// The text of the first `tEXt` chunk of `png` named `keyword`, or nil.
  public static func text(keyword: String, in png: [UInt8]) -> [UInt8]? {
    let prefix = Array(keyword.utf8) + [0]
    for chunk in PNGChunk.chunks(of: png) where chunk.type == "tEXt" {
      let data = png[chunk.data]
      if data.starts(with: prefix) { return Array(data.dropFirst(prefix.count)) }
    }
    return nil
  }
}
