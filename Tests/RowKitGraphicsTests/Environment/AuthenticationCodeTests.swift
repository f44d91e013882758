import Foundation
import Testing

@testable import RowKitGraphics

/// HMAC-SHA256, the seal of `rowkit review`'s log: RFC 4231's test cases, a key longer than
/// a block among them, and a message long enough that its digests go through OpenSSL.
@Suite struct AuthenticationCodeTests {
  static func bytes(_ hex: String) -> [UInt8] {
    stride(from: 0, to: hex.count, by: 2).map { offset in
      let start = hex.index(hex.startIndex, offsetBy: offset)
      return UInt8(hex[start..<hex.index(start, offsetBy: 2)], radix: 16)!
    }
  }

  @Test func rfc4231TestCases() {
    let cases: [(key: [UInt8], message: [UInt8], code: String)] = [
      // Test case 1.
      ([UInt8](repeating: 0x0b, count: 20), Array("Hi There".utf8), "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"),
      // Test case 2: a key shorter than the digest.
      (Array("Jefe".utf8), Array("what do ya want for nothing?".utf8), "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"),
      // Test case 3: 50 bytes of 0xdd under 20 of 0xaa.
      ([UInt8](repeating: 0xaa, count: 20), [UInt8](repeating: 0xdd, count: 50), "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"),
      // Test case 4.
      (Self.bytes("0102030405060708090a0b0c0d0e0f10111213141516171819"), [UInt8](repeating: 0xcd, count: 50),
       "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b"),
      // Test case 6: a key longer than a block, hashed first.
      ([UInt8](repeating: 0xaa, count: 131), Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8),
       "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"),
      // Test case 7: a key and a message longer than a block.
      ([UInt8](repeating: 0xaa, count: 131),
       Array(("This is a test using a larger than block-size key and a larger than block-size data. The key needs to be "
         + "hashed before being used by the HMAC algorithm.").utf8),
       "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2"),
    ]
    for (number, test) in cases.enumerated() {
      #expect(SHA256.hexString(SHA256.authenticationCode(of: test.message, key: test.key)) == test.code, "case \(number + 1)")
    }
  }

  /// A message of 100 KB: its inner digest goes through OpenSSL when libcrypto is loaded,
  /// and equals RFC 2104's construction hashed by the Swift digest alone.
  @Test func aLongMessageGivesTheCodeOfTheSwiftDigest() {
    let key = Array("a key of the review's".utf8)
    let message = (0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ 17) }
    let block = key + [UInt8](repeating: 0, count: 64 - key.count)
    var inner = SHA256()
    inner.update(block.map { $0 ^ 0x36 } + message)
    var outer = SHA256()
    outer.update(block.map { $0 ^ 0x5c } + inner.finalize())
    #expect(SHA256.authenticationCode(of: message, key: key) == outer.finalize())
  }
}
