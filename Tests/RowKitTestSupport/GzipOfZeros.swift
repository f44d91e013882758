/// A gzip stream of zero bytes, built by hand: one fixed-Huffman deflate block of a literal
/// zero and back-references of 258 bytes at distance 1, 13 bits for every 258 bytes. A body
/// that inflates to hundreds of megabytes is a few hundred kilobytes, made without zlib.
public enum GzipOfZeros {
  /// The gzip stream that inflates to `count` zero bytes (at least 1).
  public static func stream(inflatingTo count: Int) -> [UInt8] {
    precondition(count >= 1)
    var bits = BitWriter()
    bits.write(1, count: 1)  // the final block
    bits.write(1, count: 2)  // fixed Huffman codes
    bits.writeCode(0x30, length: 8)  // literal 0
    let (matches, literals) = (count - 1).quotientAndRemainder(dividingBy: 258)
    for _ in 0..<matches {
      bits.writeCode(0b1100_0101, length: 8)  // length 258 (symbol 285)
      bits.writeCode(0, length: 5)  // distance 1
    }
    for _ in 0..<literals { bits.writeCode(0x30, length: 8) }
    bits.writeCode(0, length: 7)  // end of block
    let header: [UInt8] = [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 0xFF]
    return header + bits.bytes + littleEndian(crc32OfZeros(count)) + littleEndian(UInt32(truncatingIfNeeded: count))
  }

  /// How many bytes at the start of ``stream(inflatingTo:)`` inflate to at least `count`
  /// bytes (at least 1).
  public static func prefixLength(inflatingTo count: Int) -> Int {
    let matches = (max(count, 1) - 1 + 257) / 258
    // The gzip header, then 11 bits of block header and literal, then 13 bits a match.
    return 10 + (11 + 13 * matches + 7) / 8
  }

  private static func crc32OfZeros(_ count: Int) -> UInt32 {
    let table = (0..<256).map { index -> UInt32 in
      var crc = UInt32(index)
      for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
      return crc
    }
    var crc: UInt32 = 0xFFFF_FFFF
    for _ in 0..<count { crc = table[Int(crc & 0xFF)] ^ (crc >> 8) }
    return ~crc
  }

  private static func littleEndian(_ value: UInt32) -> [UInt8] {
    (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
  }

  /// Deflate's bit order: bytes fill from their lowest bit; Huffman codes go in from their
  /// highest bit, other fields from their lowest.
  private struct BitWriter {
    var bytes: [UInt8] = []
    var used = 8

    mutating func write(_ value: Int, count: Int) {
      for index in 0..<count { append(value >> index & 1) }
    }

    mutating func writeCode(_ code: Int, length: Int) {
      for index in (0..<length).reversed() { append(code >> index & 1) }
    }

    private mutating func append(_ bit: Int) {
      if used == 8 {
        bytes.append(0)
        used = 0
      }
      bytes[bytes.count - 1] |= UInt8(bit) << used
      used += 1
    }
  }
}
