import Foundation

/// Reads and writes one `tEXt` chunk of a PNG file: the reference PNG carries the environment
/// it was recorded in, since swift-snapshot-testing stores nothing beside it.
enum PNGTextChunk {
  private static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

  /// `png` with a `tEXt` chunk `keyword`/`text` before its `IEND`; `png` unchanged when it is
  /// not a well-formed PNG or the text is not Latin-1 (which `tEXt` requires).
  static func inserting(keyword: String, text: [UInt8], into png: [UInt8]) -> [UInt8] {
    guard text.allSatisfy({ $0 != 0 && $0 < 0x80 }), let end = chunks(of: png).last(where: { $0.type == "IEND" })
    else { return png }
    let data = Array(keyword.utf8) + [0] + text
    var chunk = bigEndian(UInt32(data.count))
    let typeAndData = Array("tEXt".utf8) + data
    chunk += typeAndData + bigEndian(crc32(typeAndData))
    return Array(png[..<end.start]) + chunk + Array(png[end.start...])
  }

  /// The text of the first `tEXt` chunk named `keyword`, or nil.
  static func text(keyword: String, in png: [UInt8]) -> [UInt8]? {
    let prefix = Array(keyword.utf8) + [0]
    for chunk in chunks(of: png) where chunk.type == "tEXt" {
      let data = png[chunk.data]
      if data.starts(with: prefix) { return Array(data.dropFirst(prefix.count)) }
    }
    return nil
  }

  private struct Chunk {
    var start: Int
    var type: String
    var data: Range<Int>
  }

  /// The file's chunks, up to the first one that does not fit in the file.
  private static func chunks(of png: [UInt8]) -> [Chunk] {
    guard png.starts(with: signature) else { return [] }
    var result: [Chunk] = []
    var offset = signature.count
    while offset + 12 <= png.count {
      let length = png[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
      let dataStart = offset + 8
      guard length <= png.count - dataStart - 4 else { break }
      let type = String(decoding: png[offset + 4..<offset + 8], as: UTF8.self)
      result.append(Chunk(start: offset, type: type, data: dataStart..<dataStart + length))
      offset = dataStart + length + 4
    }
    return result
  }

  private static func bigEndian(_ value: UInt32) -> [UInt8] {
    [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
  }

  /// The PNG specification's CRC-32 (ISO 3309), bit by bit: it runs over one small chunk.
  static func crc32(_ bytes: [UInt8]) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
      crc ^= UInt32(byte)
      for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
    }
    return ~crc
  }
}
