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
      let header = PNGChunkHeader(png[offset..<offset + 8])
      let dataStart = offset + 8
      guard header.length <= png.count - dataStart - 4 else { break }
      result.append(PNGChunk(offset: offset, type: header.name, data: dataStart..<dataStart + header.length))
      offset = dataStart + header.length + 4
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

/// The first 8 bytes of a chunk, its length and type, and what the type means to a decoder:
/// the one reading of a chunk header and the one set of chunk rules that every PNG reader
/// (the metadata walk above, the reader of a PNG in memory, the reader of a stream) follows.
struct PNGChunkHeader {
  /// What a decoder does with a chunk of a type.
  enum Kind {
    case header, palette, transparency, imageData, end
    /// An ancillary chunk a decoder may pass over.
    case ancillary
    /// A critical chunk of a type this decoder does not know: the image cannot be decoded.
    case unknownCritical
  }

  /// The length of the chunk's data (the length field, at most 2³¹ − 1 in a valid PNG).
  var length: Int
  /// The four type bytes.
  var type: [UInt8]
  var name: String { String(decoding: type, as: UTF8.self) }
  /// Bit 5 of a type's first letter: clear for chunks a decoder must understand.
  var critical: Bool { type[0] & 0x20 == 0 }

  var kind: Kind {
    switch name {
    case "IHDR": .header
    case "PLTE": .palette
    case "tRNS": .transparency
    case "IDAT": .imageData
    case "IEND": .end
    default: critical ? .unknownCritical : .ancillary
    }
  }

  init<Bytes: Collection<UInt8>>(_ bytes: Bytes) where Bytes.Index == Int {
    let start = bytes.startIndex
    length = Int(bytes[start]) << 24 | Int(bytes[start + 1]) << 16 | Int(bytes[start + 2]) << 8 | Int(bytes[start + 3])
    type = Array(bytes[(start + 4)..<(start + 8)])
  }

  /// Whether the chunk gives a gamma or a color space (`gAMA`, `cHRM`, `iCCP`, `sRGB`), from
  /// which libpng converts the samples it decodes.
  var givesAColorSpace: Bool { ["gAMA", "cHRM", "iCCP", "sRGB"].contains(name) }

  /// Refuses a file whose first chunk is not a 13-byte image header.
  func checkIsFirst() throws {
    guard kind == .header, length == 13 else { throw PNGReader.damaged("the first chunk is \(name), not a header") }
  }

  /// Refuses a chunk no decoder may pass over once the header is read: a second header, or
  /// a critical chunk of an unknown type. Call it after the chunk's CRC is checked, so that a
  /// damaged type is reported as damage.
  func checkMayFollowTheHeader() throws {
    switch kind {
    case .header: throw PNGReader.damaged("a second IHDR chunk")
    case .unknownCritical: throw PNGReader.damaged("an unknown critical chunk \(name)")
    default: return
    }
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
