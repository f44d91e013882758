import Foundation
internal import CPango

/// SHA-256 (FIPS 180-4), for fingerprints of font files and pixel buffers.
package struct SHA256 {
  private var state: [UInt32] = [
    0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19,
  ]
  private var buffer: [UInt8] = []
  private var length: UInt64 = 0

  private static let k: [UInt32] = [
    0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
    0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
    0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
    0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
    0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
    0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
    0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
    0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
  ]

  /// A hash of no bytes yet.
  package init() {}

  /// The hex digest of the file at `path`, or nil when it cannot be read. Font files run to
  /// tens of megabytes (Noto Sans CJK), so this maps the file rather than reading it into
  /// memory, and hashes it with OpenSSL.
  package static func hex(ofFileAt path: String) -> String? {
    guard let file = g_mapped_file_new(path, 0, nil) else { return nil }
    defer { g_mapped_file_unref(file) }
    let length = Int(g_mapped_file_get_length(file))
    // An empty file maps to no memory.
    guard length > 0, let contents = g_mapped_file_get_contents(file) else { return hex(ofBuffer: []) }
    return hex(of: UnsafeRawPointer(contents), count: length)
  }

  /// Whether `text` is a digest as ``hex(ofBuffer:)`` writes it: 64 lowercase hexadecimal
  /// digits.
  package static func isHexDigest(_ text: String) -> Bool {
    text.utf8.count == 64 && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
  }

  /// The hex digest of `bytes`, hashed by OpenSSL: for large buffers such as an image's pixels
  /// or a reference PNG, where ``hex(_:)`` (written in Swift, byte by byte) is slow.
  package static func hex(ofBuffer bytes: [UInt8]) -> String {
    bytes.withUnsafeBytes { buffer in
      buffer.baseAddress.map { hex(of: $0, count: buffer.count) } ?? hex(bytes)
    }
  }

  private static func hex(of data: UnsafeRawPointer, count: Int) -> String {
    guard let digest = OpenSSLDigest.loaded?.sha256(data, count: count) else {
      return hex(UnsafeRawBufferPointer(start: data, count: count))
    }
    return hexString(digest)
  }

  /// The hex digest of `bytes`: by OpenSSL when they are many and in one piece of memory
  /// (a PNG, a report), in Swift otherwise, so that a process that hashes only short text
  /// (cache keys) never loads libcrypto.
  package static func hex<Bytes: Collection>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
    if bytes.count >= openSSLMinimumCount, let openSSL = OpenSSLDigest.loaded,
      let digest = bytes.withContiguousStorageIfAvailable({ openSSL.sha256($0.baseAddress!, count: $0.count) }) ?? nil
    {
      return hexString(digest)
    }
    var hash = SHA256()
    hash.update(bytes)
    return hexString(hash.finalize())
  }

  /// The fewest bytes ``hex(_:)`` hands to OpenSSL: above the short text a render hashes
  /// (cache keys, the font scan's description of its files), below the images and reports
  /// that a check and a review hash.
  static let openSSLMinimumCount = 64 << 10

  /// The 32-byte digest of `bytes`, by OpenSSL when they are many (as ``hex(_:)``).
  package static func digest(_ bytes: [UInt8]) -> [UInt8] {
    if bytes.count >= openSSLMinimumCount, let openSSL = OpenSSLDigest.loaded,
      let digest = bytes.withUnsafeBytes({ openSSL.sha256($0.baseAddress!, count: $0.count) })
    {
      return digest
    }
    var hash = SHA256()
    hash.update(bytes)
    return hash.finalize()
  }

  /// HMAC-SHA256 (RFC 2104) of `message` under `key`: a seal only the holder of `key` can
  /// make, such as that of `rowkit review`'s log.
  package static func authenticationCode(of message: [UInt8], key: [UInt8]) -> [UInt8] {
    let blockSize = 64
    var block = key.count > blockSize ? digest(key) : key
    block += [UInt8](repeating: 0, count: blockSize - block.count)
    let inner = digest(block.map { $0 ^ 0x36 } + message)
    return digest(block.map { $0 ^ 0x5c } + inner)
  }

  /// `bytes` as lowercase hexadecimal.
  package static func hexString(_ digest: [UInt8]) -> String {
    digest.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
  }

  /// Adds `bytes` to the hashed message.
  package mutating func update<Bytes: Collection>(_ bytes: Bytes) where Bytes.Element == UInt8 {
    length += UInt64(bytes.count)
    buffer.append(contentsOf: bytes)
    var offset = 0
    while buffer.count - offset >= 64 {
      compress(buffer[offset..<offset + 64])
      offset += 64
    }
    buffer.removeFirst(offset)
  }

  /// The 32-byte digest of every byte added so far.
  package mutating func finalize() -> [UInt8] {
    let bitLength = length * 8
    var tail = buffer + [0x80]
    while tail.count % 64 != 56 { tail.append(0) }
    for shift in stride(from: 56, through: 0, by: -8) { tail.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift))) }
    for start in stride(from: 0, to: tail.count, by: 64) { compress(tail[start..<start + 64]) }
    buffer = []
    return state.flatMap { word in [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: word >> UInt32($0)) } }
  }

  private mutating func compress(_ block: ArraySlice<UInt8>) {
    var w = [UInt32](repeating: 0, count: 64)
    let base = block.startIndex
    for i in 0..<16 {
      w[i] = UInt32(block[base + 4 * i]) << 24 | UInt32(block[base + 4 * i + 1]) << 16
        | UInt32(block[base + 4 * i + 2]) << 8 | UInt32(block[base + 4 * i + 3])
    }
    func rotate(_ x: UInt32, _ n: UInt32) -> UInt32 { x >> n | x << (32 - n) }
    for i in 16..<64 {
      let s0 = rotate(w[i - 15], 7) ^ rotate(w[i - 15], 18) ^ (w[i - 15] >> 3)
      let s1 = rotate(w[i - 2], 17) ^ rotate(w[i - 2], 19) ^ (w[i - 2] >> 10)
      w[i] = w[i - 16] &+ s0 &+ w[i - 7] &+ s1
    }
    var (a, b, c, d, e, f, g, h) = (state[0], state[1], state[2], state[3], state[4], state[5], state[6], state[7])
    for i in 0..<64 {
      let s1 = rotate(e, 6) ^ rotate(e, 11) ^ rotate(e, 25)
      let choice = (e & f) ^ (~e & g)
      let t1 = h &+ s1 &+ choice &+ SHA256.k[i] &+ w[i]
      let s0 = rotate(a, 2) ^ rotate(a, 13) ^ rotate(a, 22)
      let majority = (a & b) ^ (a & c) ^ (b & c)
      let t2 = s0 &+ majority
      (h, g, f, e, d, c, b, a) = (g, f, e, d &+ t1, c, b, a, t1 &+ t2)
    }
    state[0] &+= a
    state[1] &+= b
    state[2] &+= c
    state[3] &+= d
    state[4] &+= e
    state[5] &+= f
    state[6] &+= g
    state[7] &+= h
  }
}

/// OpenSSL's one-shot SHA-256, from libcrypto loaded with `dlopen` at its first use. Its
/// SHA-256 uses the CPU's SHA instructions where it has them, about five times GLib's speed,
/// which matters when a check hashes every reference it passes; but linking libcrypto made
/// the dynamic loader map it, and look past it for every symbol, in every process, a render
/// of one row that never hashes a large buffer included. Without libcrypto (or with
/// `ROWKIT_LIBCRYPTO=off`), ``SHA256`` hashes in Swift: the same digests, more slowly.
package struct OpenSSLDigest: Sendable {
  private typealias Digest = @convention(c) (
    UnsafeRawPointer?, Int, UnsafeMutablePointer<UInt8>?, UnsafeMutablePointer<UInt32>?, OpaquePointer?, OpaquePointer?
  ) -> Int32
  private typealias Method = @convention(c) () -> OpaquePointer?

  /// The library names tried, in order: OpenSSL 3's and 1.1's sonames, then the development link.
  package static let libraryNames = ["libcrypto.so.3", "libcrypto.so.1.1", "libcrypto.so"]

  // The two functions are immutable addresses in a library that is never closed.
  nonisolated(unsafe) private let digest: Digest
  nonisolated(unsafe) private let sha256Method: Method

  /// The digest functions, loaded once; nil when no libcrypto is found or it is refused.
  package static let loaded: OpenSSLDigest? = {
    if ProcessInfo.processInfo.environment["ROWKIT_LIBCRYPTO"] == "off" { return nil }
    for name in libraryNames {
      guard let library = dlopen(name, RTLD_NOW | RTLD_LOCAL) else { continue }
      if let digest = dlsym(library, "EVP_Digest"), let method = dlsym(library, "EVP_sha256") {
        return OpenSSLDigest(digest: unsafeBitCast(digest, to: Digest.self), sha256Method: unsafeBitCast(method, to: Method.self))
      }
      dlclose(library)
    }
    return nil
  }()

  /// The 32-byte SHA-256 of `count` bytes at `data`, or nil when OpenSSL fails.
  package func sha256(_ data: UnsafeRawPointer, count: Int) -> [UInt8]? {
    var digest = [UInt8](repeating: 0, count: 32)
    var length: UInt32 = 0
    // OpenSSL asks for an address even for no bytes.
    let empty: UInt8 = 0
    let status = withUnsafePointer(to: empty) { emptyAddress in
      self.digest(count > 0 ? data : UnsafeRawPointer(emptyAddress), count, &digest, &length, sha256Method(), nil)
    }
    return status == 1 && length == 32 ? digest : nil
  }
}
