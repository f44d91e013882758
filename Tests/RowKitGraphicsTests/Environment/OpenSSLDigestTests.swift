import Foundation
import Testing

@testable import RowKitGraphics

/// SHA-256 both ways: OpenSSL's, loaded at its first use, and the Swift one that serves when
/// no libcrypto can be loaded. Both give FIPS 180-4's digests, for every length around a
/// block's end.
@Suite struct OpenSSLDigestTests {
  static let vectors: [(String, String)] = [
    ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
    ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
    ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
  ]

  @Test func openSSLIsLoadedAtFirstUseAndGivesTheStandardsDigests() throws {
    // The test environment has libcrypto (scripts/setup.sh installs it), unless refused.
    if ProcessInfo.processInfo.environment["ROWKIT_LIBCRYPTO"] == "off" {
      #expect(OpenSSLDigest.loaded == nil)
      return
    }
    let openSSL = try #require(OpenSSLDigest.loaded, "no libcrypto among \(OpenSSLDigest.libraryNames)")
    for (text, digest) in Self.vectors {
      let bytes = Array(text.utf8)
      let hashed = bytes.withUnsafeBytes { openSSL.sha256($0.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!, count: $0.count) }
      #expect(hashed.map { $0.map { String(format: "%02x", $0) }.joined() } == digest, "\(text)")
      #expect(SHA256.hex(ofBuffer: bytes) == digest, "\(text)")
    }
  }

  /// The Swift digest is the fallback: equal to OpenSSL's (or the vectors') for lengths on
  /// both sides of each padding boundary.
  @Test func theSwiftFallbackGivesTheSameDigests() {
    for (text, digest) in Self.vectors { #expect(SHA256.hex(Array(text.utf8)) == digest, "\(text)") }
    for count in [55, 56, 57, 63, 64, 65, 119, 120, 1000] {
      let bytes = (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
      #expect(SHA256.hex(bytes) == SHA256.hex(ofBuffer: bytes), "\(count) bytes")
    }
  }
}
