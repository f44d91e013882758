#if ROWKIT_ISAL
internal import CISAL
#endif
internal import CPNG

// The one place where zlib streams are compressed, inflated and checksummed, and where the
// compression libraries' statuses become errors. ISA-L (igzip) does it by default; a build
// without the package's ISAL trait (`swift build --disable-default-traits`, for a system
// without libisal) uses zlib for all of it. The pixels are the same either way; the
// compressed bytes are not.

/// A zlib stream's inflater, fed piece by piece: the zlib header parsed and the Adler-32
/// checksum verified at the end. Its state lives on the heap, owned here, freed in `deinit`.
final class ZlibInflater {
  /// Why a stream does not inflate.
  enum Failure: Error {
    /// The data ends with an Adler-32 checksum other than its bytes'.
    case checksum
    /// The data is not a valid zlib stream.
    case damaged
  }

  #if ROWKIT_ISAL
  private let state: UnsafeMutableRawPointer

  init() throws {
    guard let state = cisal_inflater_new() else { throw GraphicsError(.pngDecode, "no memory to inflate a PNG") }
    self.state = state
  }

  deinit { cisal_inflater_free(state) }
  #else
  // zlib's stream points into its own state, which points back at the stream: it never moves.
  private let stream: UnsafeMutablePointer<z_stream>

  init() throws {
    stream = .allocate(capacity: 1)
    stream.initialize(to: z_stream())
    guard inflateInit_(stream, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
      stream.deinitialize(count: 1)
      stream.deallocate()
      throw GraphicsError(.pngDecode, "zlib could not start inflating a PNG")
    }
  }

  deinit {
    inflateEnd(stream)
    stream.deinitialize(count: 1)
    stream.deallocate()
  }
  #endif

  /// Inflates from `input` into `output` as far as either goes: the bytes consumed and
  /// produced, and whether the stream ended (its checksum verified).
  func inflate(
    _ input: UnsafePointer<UInt8>, count: Int, into output: UnsafeMutablePointer<UInt8>, capacity: Int
  ) throws(Failure) -> (consumed: Int, produced: Int, ended: Bool) {
    #if ROWKIT_ISAL
    var consumed: UInt32 = 0
    var produced: UInt32 = 0
    var ended: Int32 = 0
    let status = cisal_inflate(state, input, UInt32(count), &consumed, output, UInt32(capacity), &produced, &ended)
    guard status >= 0 else { throw status == ISAL_INCORRECT_CHECKSUM ? .checksum : .damaged }
    return (Int(consumed), Int(produced), ended != 0)
    #else
    stream.pointee.next_in = UnsafeMutablePointer(mutating: input)
    stream.pointee.avail_in = UInt32(count)
    stream.pointee.next_out = output
    stream.pointee.avail_out = UInt32(capacity)
    let status = CPNG.inflate(stream, Z_NO_FLUSH)
    let consumed = count - Int(stream.pointee.avail_in)
    let produced = capacity - Int(stream.pointee.avail_out)
    switch status {
    case Z_OK, Z_BUF_ERROR: return (consumed, produced, false)
    case Z_STREAM_END: return (consumed, produced, true)
    case Z_DATA_ERROR where stream.pointee.msg.map { String(cString: $0) } == "incorrect data check": throw .checksum
    default: throw .damaged
    }
    #endif
  }
}

extension Deflate {
  /// Raw deflate of `input` into `output`, ended by a full flush so that pieces compressed
  /// apart join into one stream: ISA-L's igzip at level 0, or zlib at level 1. Returns the
  /// bytes written.
  static func fastRawFlushed(_ input: UnsafeBufferPointer<UInt8>, into output: UnsafeMutableBufferPointer<UInt8>) throws -> Int {
    #if ROWKIT_ISAL
    let written = cisal_deflate_flushed(input.baseAddress, UInt32(input.count), output.baseAddress, UInt32(output.count))
    guard written >= 0 else { throw GraphicsError(.pngEncode, "ISA-L deflate failed") }
    return Int(written)
    #else
    return try zlibRawFlushed(input, into: output, level: 1)
    #endif
  }

  /// Raw deflate by zlib at `level`, ended by a full flush; returns the bytes written.
  static func zlibRawFlushed(
    _ input: UnsafeBufferPointer<UInt8>, into output: UnsafeMutableBufferPointer<UInt8>, level: Int32
  ) throws -> Int {
    var stream = z_stream()
    guard deflateInit2_(&stream, level, Z_DEFLATED, -15, 9, Z_DEFAULT_STRATEGY, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK
    else { throw GraphicsError(.pngEncode, "zlib could not start") }
    defer { deflateEnd(&stream) }
    stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
    stream.avail_in = UInt32(input.count)
    stream.next_out = output.baseAddress
    stream.avail_out = UInt32(output.count)
    let status = deflate(&stream, Z_FULL_FLUSH)
    guard status == Z_OK, stream.avail_in == 0 else { throw GraphicsError(.pngEncode, "zlib deflate failed (\(status))") }
    return Int(stream.total_out)
  }

  /// The most bytes zlib's deflate of `count` bytes can take.
  static func zlibBound(_ count: Int) -> Int { Int(compressBound(UInt(count))) + 64 }
}

extension Adler32 {
  /// The Adler-32 of `bytes`.
  static func checksum(_ bytes: [UInt8]) -> UInt32 {
    bytes.withUnsafeBufferPointer { bytes in
      #if ROWKIT_ISAL
      return UInt32(isal_adler32(1, bytes.baseAddress, UInt64(bytes.count)))
      #else
      return UInt32(adler32(1, bytes.baseAddress, UInt32(bytes.count)))
      #endif
    }
  }
}

extension CRC32 {
  /// The checksum of the bytes `crc` was the checksum of, followed by `bytes`; ISA-L's
  /// carry-less multiplication is many times faster than zlib's tables on a big render.
  static func update(_ crc: UInt32, _ bytes: UnsafeBufferPointer<UInt8>) -> UInt32 {
    #if ROWKIT_ISAL
    return UInt32(crc32_gzip_refl(crc, bytes.baseAddress, UInt64(bytes.count)))
    #else
    return UInt32(crc32(UInt(crc), bytes.baseAddress, UInt32(bytes.count)))
    #endif
  }
}
