import Foundation
internal import CPNG

/// How hard PNG encoding works at making files small.
public enum PNGCompression: String, Sendable, CaseIterable {
  /// ISA-L's igzip at level 0: many times faster than libpng's fastest settings and than
  /// cairo's writer, files about a fifth larger than theirs. The default. (zlib at level 1 in
  /// a build without the package's `ISAL` trait.)
  case fast
  /// zlib at level 9: files about a third smaller than `fast`, some 40× slower. For
  /// images that are kept, not for big renders.
  case small
}

/// Whether PNG pixels carry alpha.
public enum PNGColor: Sendable {
  /// 8-bit RGB: for opaque images.
  case rgb
  /// 8-bit RGBA, straight alpha.
  case rgba

  var channels: Int { self == .rgb ? 3 : 4 }
  var colorType: UInt8 { self == .rgb ? 2 : 6 }

  /// The color type that keeps every pixel of `bitmap`.
  public init(for bitmap: Bitmap) {
    self = bitmap.isOpaque ? .rgb : .rgba
  }
}

/// A horizontal strip of an image's scanlines, compressed on its own: deflate blocks that
/// end with a full flush, so strips compressed separately (on different threads, in any
/// order) join into one valid PNG data stream. The same strip gives the same bytes however
/// the work is split, so output never depends on the number of workers.
public struct PNGStrip: Sendable {
  /// The strip's whole IDAT chunk (length, type, compressed scanlines, CRC), made where the
  /// strip was compressed: the thread that writes the file only copies it out.
  public var chunk: [UInt8]
  /// Adler-32 of the strip's uncompressed scanlines, and their length, for the stream's
  /// checksum.
  public var adler: UInt32
  /// The length of the strip's uncompressed scanlines, in bytes.
  public var rawLength: Int
  /// The image's width in pixels.
  public var width: Int
  /// The number of pixel rows in the strip.
  public var rows: Int
  /// The color type the scanlines were written in.
  public var color: PNGColor

  /// Compresses rows `rows` of `bitmap` as scanlines of `color` (filter type None: the flat
  /// colors of table rows compress better without filters, and faster).
  public init(_ bitmap: Bitmap, rows: Range<Int>? = nil, color: PNGColor, compression: PNGCompression = .fast) throws {
    let rows = rows ?? 0..<bitmap.height
    precondition(rows.lowerBound >= 0 && rows.upperBound <= bitmap.height, "rows outside the bitmap")
    try self.init(
      scanlines: bitmap.pngScanlines(rows: rows, color: color), width: bitmap.width, rows: rows.count, color: color,
      compression: compression)
  }

  /// The scanlines of `rows` rows of straight RGBA pixels `width` wide at `pixels`, as
  /// ``init(scanlines:width:rows:color:compression:)`` takes them (RGB drops the alpha).
  package static func scanlines(straightRGBA pixels: UnsafeRawPointer, width: Int, rows: Int, color: PNGColor) -> [UInt8] {
    let channels = color.channels
    let lineLength = 1 + width * channels
    return [UInt8](unsafeUninitializedCapacity: rows * lineLength) { target, initialized in
      let source = pixels.assumingMemoryBound(to: UInt8.self)
      for row in 0..<rows {
        let line = target.baseAddress! + row * lineLength
        line[0] = 0
        let from = source + row * width * 4
        if channels == 4 {
          (line + 1).update(from: from, count: width * 4)
        } else {
          for x in 0..<width {
            line[1 + x * 3] = from[x * 4]
            line[2 + x * 3] = from[x * 4 + 1]
            line[3 + x * 3] = from[x * 4 + 2]
          }
        }
      }
      initialized = rows * lineLength
    }
  }

  /// Compresses scanlines of `color` (each row filter type 0, then its samples), as
  /// ``Bitmap/pngScanlines(rows:color:)`` and
  /// `scanlines(straightRGBA:width:rows:color:)` make them: rows gathered from several
  /// bitmaps, or from straight RGBA, compress to the bytes of one bitmap of the same pixels.
  public init(scanlines raw: [UInt8], width: Int, rows: Int, color: PNGColor, compression: PNGCompression = .fast) throws {
    precondition(raw.count == rows * (1 + width * color.channels), "scanlines of another size")
    self.width = width
    self.rows = rows
    self.color = color
    self.rawLength = raw.count
    self.adler = Adler32.checksum(raw)
    // The chunk is made from the compressor's buffer: one copy of the compressed bytes, not
    // two (a big render's are some 200 MB).
    switch compression {
    case .fast: chunk = try Deflate.fastRawFlushed(raw) { PNGChunk.bytes(type: "IDAT", data: $0) }
    case .small: chunk = try Deflate.smallRawFlushed(raw) { PNGChunk.bytes(type: "IDAT", data: $0) }
    }
  }
}

/// Writes a PNG from strips, top to bottom, to memory or straight to a file, so that an
/// image of any height passes through in strips without ever being whole in memory. The
/// height need not be known at the start: a file's header is completed by ``finish()``.
package final class PNGStreamWriter {
  /// The image's width in pixels.
  public let width: Int
  /// The color type of every strip.
  public let color: PNGColor
  /// The number of pixel rows written so far.
  public private(set) var height = 0
  private var adler: UInt32 = 1
  private let file: FileHandle?
  private var memory: [UInt8] = []
  private var finished = false

  /// PNG's own limit on a side.
  public static let maximumSide = Int(Int32.max)

  /// A writer into memory; ``finish()`` returns the file.
  public init(width: Int, color: PNGColor) throws {
    self.width = width
    self.color = color
    self.file = nil
    try start()
  }

  /// A writer into `file`, which must be new and empty; ``finish()`` completes it.
  public init(width: Int, color: PNGColor, file: FileHandle) throws {
    self.width = width
    self.color = color
    self.file = file
    try start()
  }

  private func start() throws {
    guard width >= 1, width <= Self.maximumSide else {
      throw GraphicsError(.pngEncode, "a PNG must be 1 to \(Self.maximumSide) pixels wide, not \(width)")
    }
    try write([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
    // The height is filled in by `finish`.
    try writeChunk("IHDR", header(height: 0))
    // The zlib header (32 KiB window, no preset dictionary) in an IDAT chunk of its own, so
    // that every strip's chunk is complete when the strip is made. A decoder joins the data
    // of all IDAT chunks, wherever they are split.
    try writeChunk("IDAT", [0x78, 0x01])
  }

  private func header(height: Int) -> [UInt8] {
    Self.bigEndian(UInt32(width)) + Self.bigEndian(UInt32(height)) + [8, color.colorType, 0, 0, 0]
  }

  /// Appends a strip below what is written so far.
  public func append(_ strip: PNGStrip) throws {
    precondition(!finished, "the PNG is finished")
    guard strip.width == width, strip.color == color else {
      throw GraphicsError(.pngEncode, "a \(strip.width)-pixel strip does not fit a \(width)-pixel PNG of this color type")
    }
    guard height + strip.rows <= Self.maximumSide else {
      throw GraphicsError(.pngEncode, "a PNG may be at most \(Self.maximumSide) pixels tall")
    }
    guard strip.rows > 0 else { return }
    adler = Adler32.combine(adler, strip.adler, length: strip.rawLength)
    height += strip.rows
    try write(strip.chunk)
  }

  /// Ends the data stream and the file; returns the file when writing to memory.
  @discardableResult
  public func finish() throws -> [UInt8] {
    precondition(!finished, "the PNG is finished")
    finished = true
    guard height >= 1 else { throw GraphicsError(.pngEncode, "a PNG must be at least 1 pixel tall") }
    // An empty final block (fixed Huffman codes), then the zlib checksum.
    try writeChunk("IDAT", [0x03, 0x00] + Self.bigEndian(adler))
    try writeChunk("IEND", [])
    let ihdr = Array("IHDR".utf8) + header(height: height)
    if let file {
      // Seek back to the header's height and CRC.
      let end = try file.offset()
      try file.seek(toOffset: 20)
      try file.write(contentsOf: Self.bigEndian(UInt32(height)))
      try file.seek(toOffset: 29)
      try file.write(contentsOf: Self.bigEndian(CRC32.checksum(ihdr)))
      try file.seek(toOffset: end)
      return []
    }
    memory.replaceSubrange(20..<24, with: Self.bigEndian(UInt32(height)))
    memory.replaceSubrange(29..<33, with: Self.bigEndian(CRC32.checksum(ihdr)))
    return memory
  }

  private func writeChunk(_ type: String, _ data: [UInt8]) throws {
    try write(PNGChunk.bytes(type: type, data: data))
  }

  private func write(_ bytes: [UInt8]) throws {
    if let file {
      try file.write(contentsOf: bytes)
    } else {
      memory += bytes
    }
  }

  static func bigEndian(_ value: UInt32) -> [UInt8] {
    [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
  }
}

extension PNG {
  /// Encodes `bitmap`: opaque bitmaps as 8-bit RGB, others as 8-bit RGBA.
  public static func encode(_ bitmap: Bitmap, compression: PNGCompression = .fast) throws -> [UInt8] {
    let color = PNGColor(for: bitmap)
    let writer = try PNGStreamWriter(width: bitmap.width, color: color)
    try writer.append(PNGStrip(bitmap, color: color, compression: compression))
    return try writer.finish()
  }
}

/// Raw deflate that ends with a full flush, not a final block: pieces join into one stream.
enum Deflate {
  /// ISA-L's igzip at level 0 (zlib at level 1 in a build without the ISAL trait).
  ///
  /// NB: not level 1 of ISA-L. Inside RowKit's process, level 1 now and then chose other (equally
  /// valid) matches for the same scanlines, so one render in a few dozen wrote other PNG bytes
  /// than the render before it; a C program making the same calls never did, and no cause was
  /// found in RowKit's calls (see Benchmarks/README.md). Level 0 was byte-stable over
  /// hundreds of renders, is faster, and its files are about a fifth larger.
  static func fastRawFlushed(_ raw: [UInt8]) throws -> [UInt8] {
    try fastRawFlushed(raw) { Array($0) }
  }

  /// ``fastRawFlushed(_:)``, handing the compressed bytes to `use` without copying them.
  static func fastRawFlushed<T>(_ raw: [UInt8], _ use: (UnsafeBufferPointer<UInt8>) -> T) throws -> T {
    // Level 0 never falls back to stored blocks: its Huffman codes make noise some 23%
    // larger (a photo's grain, a random image). No deflate code is longer than 15 bits, so
    // twice the input always fits; pages never written are never touched.
    let capacity = max(raw.count * 2 + 1024, zlibBound(raw.count))
    return try compressing(raw, capacity: capacity, use) { input, output in try fastRawFlushed(input, into: output) }
  }

  /// zlib, level 9.
  static func smallRawFlushed(_ raw: [UInt8]) throws -> [UInt8] {
    try smallRawFlushed(raw) { Array($0) }
  }

  /// ``smallRawFlushed(_:)``, handing the compressed bytes to `use` without copying them.
  static func smallRawFlushed<T>(_ raw: [UInt8], _ use: (UnsafeBufferPointer<UInt8>) -> T) throws -> T {
    try compressing(raw, capacity: zlibBound(raw.count), use) { input, output in try zlibRawFlushed(input, into: output, level: 9) }
  }

  /// Runs `compress` into uninitialized memory and hands exactly the bytes it wrote to
  /// `use`, which must copy what it keeps: a strip's output is kept until it is written, and
  /// worst-case capacity would hold twenty times the memory.
  private static func compressing<T>(
    _ raw: [UInt8], capacity: Int, _ use: (UnsafeBufferPointer<UInt8>) -> T,
    _ compress: (UnsafeBufferPointer<UInt8>, UnsafeMutableBufferPointer<UInt8>) throws -> Int
  ) throws -> T {
    let output = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: capacity)
    defer { output.deallocate() }
    let written = try raw.withUnsafeBufferPointer { input in try compress(input, output) }
    return use(UnsafeBufferPointer(rebasing: output[..<written]))
  }
}

/// zlib's checksum.
enum Adler32 {
  static let modulus: UInt32 = 65521

  /// The checksum of two pieces joined, from each piece's checksum and the second's length
  /// (zlib's adler32_combine).
  static func combine(_ first: UInt32, _ second: UInt32, length: Int) -> UInt32 {
    let remainder = UInt32(length % Int(modulus))
    var sum1 = first & 0xFFFF
    var sum2 = (remainder * sum1) % modulus
    sum1 += (second & 0xFFFF) + modulus - 1
    sum2 += (first >> 16) + (second >> 16) + modulus - remainder
    if sum1 >= modulus { sum1 -= modulus }
    if sum1 >= modulus { sum1 -= modulus }
    if sum2 >= modulus << 1 { sum2 -= modulus << 1 }
    if sum2 >= modulus { sum2 -= modulus }
    return sum2 << 16 | sum1
  }
}

/// PNG's chunk checksum (zlib's crc32); see ``update(_:_:)``.
enum CRC32 {
  static func checksum<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> UInt32 {
    bytes.withContiguousStorageIfAvailable { update(0, $0) } ?? checksum(Array(bytes))
  }
}

extension Bitmap {
  /// Rows `rows` as PNG scanlines of `color` (filter type 0, then straight RGB or RGBA), for
  /// ``PNGStrip/init(scanlines:width:rows:color:compression:)``.
  public func pngScanlines(rows: Range<Int>, color: PNGColor) -> [UInt8] {
    straightRGB(rows: rows, alpha: color == .rgba, filterBytes: true)
  }
}
