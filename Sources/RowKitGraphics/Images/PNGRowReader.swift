import Foundation

/// A PNG decoded a few rows at a time, top to bottom, from a file read a block at a time or
/// from bytes in memory: memory holds a few rows and one block of the file whatever the
/// image's height, so images of any size can be compared.
///
/// Rows come out as ``PNG/decodeRGBA(_:maximumPixels:)`` gives them: 8-bit RGBA, alpha
/// straight. The same checks are made (every critical chunk's CRC, every row's filter, the
/// image data's Adler-32, an IEND chunk at the end), but as they are reached: a damaged file
/// may be found out after some of its rows were handed out, by ``read(_:into:)`` or by
/// ``finish()``. An interlaced PNG, whose rows come in seven passes over the whole image, is
/// decoded whole at the start, within `maximumPixels`.
package final class PNGRowReader {
  /// The widest image read by default: libpng's default limit, a row of 4 MB.
  public static let defaultMaximumWidth = 1_000_000

  /// The image's width in pixels.
  public var width: Int { format.width }
  /// The image's height in pixels.
  public var height: Int { format.height }
  /// How many rows were handed out so far.
  public private(set) var rowsRead = 0

  private var format = PNGFormat()
  private let converter: PNGSampleConverter
  private let feed: PNGStreamFeed
  private let rows: PNGPassRows?
  private let inflater: PNGRowInflater?
  /// An interlaced image, decoded whole.
  private let whole: RGBAImage?
  /// One row of RGBA for ``readMatching(_:rows:)`` to convert formats into.
  private var convertedRow: UnsafeMutablePointer<UInt8>?

  /// Reads the PNG file at `url`. A file that is not a regular file (a FIFO, a device) is
  /// refused before anything is read from it.
  public convenience init(
    contentsOf url: URL, maximumWidth: Int = defaultMaximumWidth, maximumPixels: Int = PNG.defaultMaximumPixels
  ) throws {
    try self.init(PNGByteStream(file: url), maximumWidth: maximumWidth, maximumPixels: maximumPixels) {
      [UInt8](try Data(contentsOf: url))
    }
  }

  /// Reads the PNG `data`.
  public convenience init(
    _ data: [UInt8], maximumWidth: Int = defaultMaximumWidth, maximumPixels: Int = PNG.defaultMaximumPixels
  ) throws {
    try self.init(PNGByteStream(memory: data), maximumWidth: maximumWidth, maximumPixels: maximumPixels) { data }
  }

  private init(
    _ bytes: PNGByteStream, maximumWidth: Int, maximumPixels: Int, wholeFile: () throws -> [UInt8]
  ) throws {
    feed = PNGStreamFeed(bytes)
    guard try bytes.fill(8), try bytes.take(8) == PNGFormat.signature else {
      throw GraphicsError(.pngDecode, "not a PNG file (no PNG signature)")
    }
    let header = try feed.chunkHeader()
    try header.checkIsFirst()
    let body = try feed.body(of: header)
    // The header first, even before its CRC: a claim of a huge image is refused as such.
    try format.readHeader(body[...], maximumPixels: .max)
    guard format.width <= maximumWidth else {
      throw GraphicsError(
        .imageTooLarge, "PNG of \(format.width)×\(format.height) pixels is wider than the limit of \(maximumWidth) pixels")
    }
    try feed.checkCRC(of: header, body)
    var transparency: [UInt8]?
    while true {
      let chunk = try feed.chunkHeader()
      if chunk.kind == .imageData {
        feed.startImageData(chunk)
        break
      }
      switch chunk.kind {
      case .end: throw PNGReader.damaged("no IDAT chunk")
      case .header: try chunk.checkMayFollowTheHeader()
      case .palette:
        guard chunk.length % 3 == 0, chunk.length / 3 <= 256 else { throw PNGReader.damaged("a PLTE chunk of \(chunk.length) bytes") }
        let palette = try feed.body(of: chunk)
        try feed.checkCRC(of: chunk, palette)
        try format.readPalette(palette[...])
      case .transparency:
        // No image uses more than a palette's 256 alphas of it.
        transparency = try bytes.take(min(chunk.length, 256))
        try bytes.skip(chunk.length - transparency!.count + 4)
      case .imageData, .ancillary, .unknownCritical:
        try feed.skip(chunk)
      }
    }
    try format.applyTransparency(transparency?[...])
    converter = format.converter
    if format.interlaced {
      let pixels = format.width.multipliedReportingOverflow(by: format.height)
      guard !pixels.overflow, pixels.partialValue <= maximumPixels else {
        throw GraphicsError(
          .imageTooLarge,
          "PNG of \(format.width)×\(format.height) pixels is interlaced and larger than the limit of \(maximumPixels) pixels")
      }
      whole = try PNG.decodeRGBA(wholeFile(), maximumPixels: maximumPixels)
      inflater = nil
      rows = nil
    } else {
      whole = nil
      let inflater = try PNGRowInflater(feed, longestRow: format.rowBytes(passWidth: format.width) + 1)
      self.inflater = inflater
      rows = PNGPassRows(inflater, format: format, passWidth: format.width)
    }
  }

  deinit {
    convertedRow?.deallocate()
  }

  /// Decodes the next `count` rows into `output`, `count × width × 4` bytes of straight RGBA.
  public func read(_ count: Int, into output: UnsafeMutableRawPointer) throws {
    precondition(count >= 0 && rowsRead + count <= height, "rows past the image's end")
    let rowLength = width * 4
    let target = output.assumingMemoryBound(to: UInt8.self)
    if let whole {
      whole.pixels.withUnsafeBufferPointer { pixels in
        target.update(from: pixels.baseAddress! + rowsRead * rowLength, count: count * rowLength)
      }
    } else if let rows {
      var row = 0
      while row < count {
        let pair = min(2, count - row)
        let (first, second) = try rows.next(pair)
        converter.convert(first, count: width, into: target + row * rowLength)
        if let second { converter.convert(second, count: width, into: target + (row + 1) * rowLength) }
        row += pair
      }
    }
    rowsRead += count
  }

  /// Compares the next rows with `bitmap`'s as they come out of the inflater: an opaque
  /// RGB row with its premultiplied pixels as they are, an RGBA row straight from the
  /// inflater's buffer, and other formats converted one row at a time.
  public func readMatching(_ bitmap: Bitmap, rows: Range<Int>) throws -> Bool {
    precondition(rowsRead + rows.count <= height && bitmap.width == width, "rows past the image's end")
    let rowLength = width * 4
    if let whole {
      defer { rowsRead += rows.count }
      guard !rows.isEmpty else { return true }
      return whole.pixels.withUnsafeBytes { bitmap.hasStraightPixels(rows: rows, of: $0.baseAddress! + rowsRead * rowLength) }
    }
    guard let passRows = self.rows else { return rows.isEmpty }
    var row = 0
    let count = rows.count
    while row < count {
      let pair = min(2, count - row)
      let (first, second) = try passRows.next(pair)
      rowsRead += pair
      guard matches(bitmap, row: rows.lowerBound + row, first) else { return false }
      if let second, !matches(bitmap, row: rows.lowerBound + row + 1, second) { return false }
      row += pair
    }
    return true
  }

  /// Whether row `row` of `bitmap` is the unfiltered row `samples` decodes to.
  private func matches(_ bitmap: Bitmap, row: Int, _ samples: UnsafePointer<UInt8>) -> Bool {
    switch (converter.colorType, converter.depth) {
    case (2, 8) where converter.key == nil:
      return bitmap.hasOpaquePixels(row: row, rgb: samples)
    case (6, 8):
      return bitmap.hasStraightPixels(rows: row..<(row + 1), of: samples)
    default:
      if convertedRow == nil { convertedRow = .allocate(capacity: width * 4) }
      converter.convert(samples, count: width, into: convertedRow!)
      return bitmap.hasStraightPixels(rows: row..<(row + 1), of: convertedRow!)
    }
  }

  /// Reads what is left and checks it: the rows not asked for (inflated, and their filter
  /// types checked, as ``PNG/check(_:maximumPixels:)`` checks them, without decoding), the
  /// image data's end and checksum, the CRC of every chunk left and the IEND chunk.
  public func finish() throws {
    guard let inflater else { return }
    let rowBytes = format.rowBytes(passWidth: width)
    while rowsRead < height {
      let type = try inflater.next(rowBytes + 1, keeping: 0)[0]
      guard type <= 4 else { throw PNGReader.filterError(type) }
      rowsRead += 1
    }
    try inflater.finish()
    try feed.drain()
  }

  /// Whether the input goes on after the IEND chunk; asked after ``finish()``. Decoders pass
  /// over such bytes, but a PNG file ends with its IEND chunk: a file from outside that has
  /// more is refused where it would be copied as it is (`rowkit accept`).
  public func hasBytesAfterEnd() throws -> Bool {
    try feed.hasBytesAfterEnd()
  }
}

/// A PNG's bytes in order, from a file or from memory, through a buffer of a fixed size.
final class PNGByteStream {
  private let descriptor: Int32
  private let memory: [UInt8]
  private var memoryOffset = 0
  private let buffer: UnsafeMutablePointer<UInt8>
  static let capacity = 1 << 18
  private var start = 0
  private var end = 0

  init(memory: [UInt8]) {
    descriptor = -1
    self.memory = memory
    buffer = .allocate(capacity: Self.capacity)
  }

  init(file url: URL) throws {
    // Non-blocking, so that opening a FIFO does not wait for a writer; refused just after.
    let descriptor = open(url.path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
    guard descriptor >= 0 else { throw GraphicsError(.pngDecode, String(cString: strerror(errno))) }
    var info = stat()
    guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
      close(descriptor)
      throw GraphicsError(.pngDecode, "not a regular file")
    }
    _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
    self.descriptor = descriptor
    memory = []
    buffer = .allocate(capacity: Self.capacity)
  }

  deinit {
    buffer.deallocate()
    if descriptor >= 0 { close(descriptor) }
  }

  /// Makes at least `count` bytes (at most the buffer's capacity) ready; false when the
  /// input ends first.
  func fill(_ count: Int) throws -> Bool {
    if end - start >= count { return true }
    if start > 0 {
      buffer.update(from: buffer + start, count: end - start)
      end -= start
      start = 0
    }
    while end < count {
      let added = try readInput(into: buffer + end, capacity: Self.capacity - end)
      if added == 0 { return false }
      end += added
    }
    return true
  }

  private func readInput(into target: UnsafeMutablePointer<UInt8>, capacity: Int) throws -> Int {
    guard descriptor >= 0 else {
      let count = min(capacity, memory.count - memoryOffset)
      memory.withUnsafeBufferPointer { target.update(from: $0.baseAddress! + memoryOffset, count: count) }
      memoryOffset += count
      return count
    }
    while true {
      let count = Glibc.read(descriptor, target, capacity)
      if count >= 0 { return count }
      if errno != EINTR { throw GraphicsError(.pngDecode, "cannot be read: \(String(cString: strerror(errno)))") }
    }
  }

  /// Up to `count` of the next bytes, fewer when the input ends first, left unread.
  func peek(_ count: Int) throws -> [UInt8] {
    _ = try fill(count)
    return Array(UnsafeBufferPointer(start: buffer + start, count: min(count, end - start)))
  }

  /// The next `count` bytes (at most the buffer's capacity); the file must hold them.
  func take(_ count: Int) throws -> [UInt8] {
    guard try fill(count) else { throw PNGReader.damaged("a chunk runs past the end of the file") }
    defer { start += count }
    return Array(UnsafeBufferPointer(start: buffer + start, count: count))
  }

  /// Passes over `count` bytes; the file must hold them.
  func skip(_ count: Int) throws {
    var left = count
    while left > 0 { left -= try piece(upTo: left).count }
  }

  /// Between one and `count` of the next bytes, in place until the next call.
  func piece(upTo count: Int) throws -> UnsafeBufferPointer<UInt8> {
    guard try fill(1) else { throw PNGReader.damaged("a chunk runs past the end of the file") }
    let size = min(count, end - start)
    defer { start += size }
    return UnsafeBufferPointer(start: buffer + start, count: size)
  }
}

/// A PNG's chunks read in order from a ``PNGByteStream``, and the bodies of its IDAT
/// chunks handed to the inflater as they are read, each chunk's CRC checked at its end.
final class PNGStreamFeed: PNGDataFeed {
  private let bytes: PNGByteStream
  /// The IDAT chunk being read, and how much of its body is left.
  private var imageData: PNGChunkHeader?
  private var left = 0
  private var crc: UInt32 = 0
  /// Whether the IEND chunk was read.
  private var ended = false

  init(_ bytes: PNGByteStream) {
    self.bytes = bytes
  }

  func chunkHeader() throws -> PNGChunkHeader {
    guard try bytes.fill(8) else { throw PNGReader.damaged("the file ends before its IEND chunk") }
    let header = PNGChunkHeader(try bytes.take(8))
    guard header.length <= Int(Int32.max) else { throw PNGReader.damaged("a chunk runs past the end of the file") }
    return header
  }

  /// The body of a small chunk.
  func body(of chunk: PNGChunkHeader) throws -> [UInt8] {
    try bytes.take(chunk.length)
  }

  func checkCRC(of chunk: PNGChunkHeader, _ body: [UInt8]) throws {
    try checkCRC(of: chunk, computed: body.withUnsafeBufferPointer { CRC32.update(typeCRC(chunk), $0) })
  }

  private func typeCRC(_ chunk: PNGChunkHeader) -> UInt32 {
    chunk.type.withUnsafeBufferPointer { CRC32.update(0, $0) }
  }

  private func checkCRC(of chunk: PNGChunkHeader, computed: UInt32) throws {
    let stored = try bytes.take(4)
    let value = UInt32(stored[0]) << 24 | UInt32(stored[1]) << 16 | UInt32(stored[2]) << 8 | UInt32(stored[3])
    guard value == computed else { throw PNGReader.damaged("the \(chunk.name) chunk's CRC does not match") }
  }

  /// Passes over a chunk that is not used; a critical one's CRC is checked (a damaged type
  /// is reported as such), and then one of an unknown type is an error.
  func skip(_ chunk: PNGChunkHeader) throws {
    guard chunk.critical else { return try bytes.skip(chunk.length + 4) }
    var crc = typeCRC(chunk)
    var left = chunk.length
    while left > 0 {
      let piece = try bytes.piece(upTo: left)
      crc = CRC32.update(crc, piece)
      left -= piece.count
    }
    try checkCRC(of: chunk, computed: crc)
    // A PLTE chunk after the image data comes too late to apply, but is no error.
    if chunk.kind != .palette { try chunk.checkMayFollowTheHeader() }
  }

  func startImageData(_ chunk: PNGChunkHeader) {
    imageData = chunk
    left = chunk.length
    crc = typeCRC(chunk)
  }

  func nextPiece() throws -> UnsafeBufferPointer<UInt8> {
    while left == 0 {
      if let chunk = imageData {
        try checkCRC(of: chunk, computed: crc)
        imageData = nil
      }
      if ended { return UnsafeBufferPointer(start: nil, count: 0) }
      let chunk = try chunkHeader()
      switch chunk.kind {
      case .imageData:
        startImageData(chunk)
      case .end:
        try checkCRC(of: chunk, try body(of: chunk))
        ended = true
      case .header:
        try chunk.checkMayFollowTheHeader()
      case .palette, .transparency, .ancillary, .unknownCritical:
        // A PLTE chunk here comes too late to apply; its CRC is still checked.
        try skip(chunk)
      }
    }
    let piece = try bytes.piece(upTo: left)
    left -= piece.count
    crc = CRC32.update(crc, piece)
    return piece
  }

  /// Reads every chunk left, up to and with the IEND chunk, checking their CRCs.
  func drain() throws {
    while try !nextPiece().isEmpty {}
  }

  /// Whether any byte follows the IEND chunk; reads the chunks left first.
  func hasBytesAfterEnd() throws -> Bool {
    try drain()
    return try !bytes.peek(1).isEmpty
  }
}

extension PNG {
  /// The width and height the header of the PNG file at `url` claims, from its first bytes
  /// only; a file that is not a regular file is refused before anything is read.
  public static func header(contentsOf url: URL) throws -> (width: Int, height: Int) {
    let stream = try PNGByteStream(file: url)
    guard try stream.fill(24) else {
      // A file cut short after its signature is a damaged PNG, as the whole decoder says.
      let start = try stream.fill(8) ? try stream.peek(8) : []
      guard start == PNGFormat.signature else { throw GraphicsError(.pngDecode, "not a PNG file (no PNG signature)") }
      throw PNGReader.damaged("a chunk runs past the end of the file")
    }
    return try header(stream.take(24))
  }
}

extension ImageDecoder {
  /// The format the signature of the file at `url` names, or nil, from its first bytes
  /// only; a file that is not a regular file is refused before anything is read.
  public static func format(contentsOf url: URL) throws -> Format? {
    format(of: try PNGByteStream(file: url).peek(12))
  }
}
