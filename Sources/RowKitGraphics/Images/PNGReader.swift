import Foundation

extension PNG {
  /// Decodes a PNG to the RGBA values it stores, alpha straight: every color type, bit depth
  /// and interlacing, palettes and tRNS expanded, 16-bit samples rounded to 8 bits and lower
  /// depths scaled up. Gamma, color profiles and background colors are not applied: the
  /// stored values are what a comparison sees (as in pixelmatch). Every critical chunk's CRC
  /// and the image data's Adler-32 are checked, and an image larger than `maximumPixels` is
  /// refused from its header.
  ///
  /// RowKit's own reader, not libpng: the data is inflated by ISA-L and each row unfiltered
  /// and converted as it comes out, while it is still in the cache, which makes a large PNG
  /// decode several times faster. `PNGRowReader` decodes the same way a few rows at a time.
  public static func decodeRGBA(_ data: [UInt8], maximumPixels: Int = defaultMaximumPixels) throws -> RGBAImage {
    try PNGReader(data, maximumPixels: maximumPixels).decode()
  }

  /// Checks that `data` decodes (the chunks and their CRCs, every row's filter, the image
  /// data's length and Adler-32) without unfiltering or converting a pixel, and returns its
  /// size: what a comparison of two byte-identical files needs to know.
  public static func check(_ data: [UInt8], maximumPixels: Int = defaultMaximumPixels) throws -> (width: Int, height: Int) {
    let reader = try PNGReader(data, maximumPixels: maximumPixels)
    try reader.checkRows()
    return (reader.format.width, reader.format.height)
  }
}

/// What a PNG's chunks before its image data say: the size, the samples' format, the
/// palette and the transparent color.
struct PNGFormat {
  var width = 0
  var height = 0
  var depth = 0
  var colorType = 0
  var interlaced = false
  /// 256 RGBA entries: the palette with tRNS alphas; entries past the palette opaque black.
  var palette = [UInt8](repeating: 0, count: 1024)
  var paletteEntries = -1
  /// tRNS of a gray or RGB image: the raw sample values drawn transparent.
  var transparentKey: [Int]?

  static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

  mutating func readHeader(_ header: ArraySlice<UInt8>, maximumPixels: Int) throws {
    let bytes = Array(header)
    func word(_ at: Int) -> Int {
      Int(bytes[at]) << 24 | Int(bytes[at + 1]) << 16 | Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
    }
    width = word(0)
    height = word(4)
    depth = Int(bytes[8])
    colorType = Int(bytes[9])
    let depths: [Int: [Int]] = [0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16]]
    guard depths[colorType]?.contains(depth) == true else {
      throw PNGReader.damaged("color type \(colorType) with bit depth \(depth) is not a PNG format")
    }
    guard bytes[10] == 0, bytes[11] == 0, bytes[12] <= 1 else { throw PNGReader.damaged("an unknown compression, filter or interlace method") }
    interlaced = bytes[12] == 1
    guard width > 0, height > 0 else { throw PNGReader.damaged("a size of \(width)×\(height) pixels") }
    let pixels = width.multipliedReportingOverflow(by: height)
    guard width <= maximumPixels, height <= maximumPixels, !pixels.overflow, pixels.partialValue <= maximumPixels else {
      throw GraphicsError(
        .imageTooLarge, "PNG of \(width)×\(height) pixels is larger than the limit of \(maximumPixels) pixels")
    }
  }

  mutating func readPalette(_ body: ArraySlice<UInt8>) throws {
    guard body.count % 3 == 0, body.count / 3 <= 256 else { throw PNGReader.damaged("a PLTE chunk of \(body.count) bytes") }
    paletteEntries = body.count / 3
    for entry in 0..<paletteEntries {
      for channel in 0..<3 { palette[entry * 4 + channel] = body[body.startIndex + entry * 3 + channel] }
    }
  }

  /// Completes the palette's alphas or the transparent color, once every chunk before the
  /// image data is read, from the tRNS chunk's bytes if there was one.
  mutating func applyTransparency(_ transparency: ArraySlice<UInt8>?) throws {
    for entry in 0..<256 { palette[entry * 4 + 3] = 255 }
    if colorType == 3 {
      guard paletteEntries > 0 else { throw PNGReader.damaged("a palette image without a PLTE chunk") }
      if let transparency {
        for (entry, alpha) in transparency.prefix(paletteEntries).enumerated() { palette[entry * 4 + 3] = alpha }
      }
    } else if let transparency, colorType == 0 || colorType == 2 {
      let samples = colorType == 0 ? 1 : 3
      guard transparency.count >= samples * 2 else { throw PNGReader.damaged("a tRNS chunk of \(transparency.count) bytes") }
      let start = transparency.startIndex
      transparentKey = (0..<samples).map { Int(transparency[start + $0 * 2]) << 8 | Int(transparency[start + $0 * 2 + 1]) }
    }
  }

  /// Adam7's passes: where each starts and how far apart its pixels are.
  static let adam7: [(startX: Int, startY: Int, stepX: Int, stepY: Int)] = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]

  /// The passes of the image: each one's first column and row, and the steps between them.
  var passes: [(startX: Int, startY: Int, stepX: Int, stepY: Int)] {
    interlaced ? Self.adam7 : [(0, 0, 1, 1)]
  }

  var bitsPerPixel: Int { [0: 1, 2: 3, 3: 1, 4: 2, 6: 4][colorType]! * depth }

  /// The bytes of one row of a pass `passWidth` pixels wide, without its filter byte.
  func rowBytes(passWidth: Int) -> Int { (passWidth * bitsPerPixel + 7) / 8 }

  /// The width and height of a pass, zero when the image is too small to have it.
  func size(of pass: (startX: Int, startY: Int, stepX: Int, stepY: Int)) -> (width: Int, height: Int) {
    let passWidth = pass.startX < width ? (width - pass.startX + pass.stepX - 1) / pass.stepX : 0
    let passHeight = pass.startY < height ? (height - pass.startY + pass.stepY - 1) / pass.stepY : 0
    return (passWidth, passHeight)
  }

  var converter: PNGSampleConverter {
    PNGSampleConverter(colorType: colorType, depth: depth, palette: palette, key: transparentKey)
  }
}

/// A PNG in memory, its chunks read and checked: the header, palette, transparency and where
/// the image data lies.
struct PNGReader {
  let data: [UInt8]
  var format = PNGFormat()
  var imageData: [Range<Int>] = []
  /// Whether a chunk before the image data gives a gamma or a color space.
  private(set) var givesAColorSpace = false

  /// Whether libpng's simplified API decodes this PNG to the values it stores, as
  /// ``decode()`` does: samples of 8 bits or fewer, and no gamma or color space for libpng to
  /// convert from (a 16-bit image is taken as linear and converted to sRGB).
  /// `PNGReaderTests` compares the two decodes for every such format.
  var libpngGivesStoredValues: Bool { format.depth <= 8 && !givesAColorSpace }

  static func damaged(_ reason: String) -> GraphicsError { GraphicsError(.pngDecode, "PNG data is damaged: \(reason)") }
  static func filterError(_ type: UInt8) -> GraphicsError { damaged("a row has filter type \(type), which PNG does not define") }

  init(_ data: [UInt8], maximumPixels: Int) throws {
    self.data = data
    guard data.count >= 8, data[0..<8].elementsEqual(PNGFormat.signature) else {
      throw GraphicsError(.pngDecode, "not a PNG file (no PNG signature)")
    }
    func word(_ at: Int) -> Int {
      Int(data[at]) << 24 | Int(data[at + 1]) << 16 | Int(data[at + 2]) << 8 | Int(data[at + 3])
    }
    var offset = 8
    var transparency: Range<Int>?
    var ended = false
    while !ended {
      guard data.count - offset >= 12 else { throw Self.damaged("the file ends before its IEND chunk") }
      let chunk = PNGChunkHeader(data[offset..<(offset + 8)])
      guard chunk.length <= data.count - offset - 12 else { throw Self.damaged("a chunk runs past the end of the file") }
      let body = (offset + 8)..<(offset + 8 + chunk.length)
      if offset == 8 {
        // The header first, even before its CRC: a claim of a huge image is refused as such.
        try chunk.checkIsFirst()
        try format.readHeader(data[body], maximumPixels: maximumPixels)
      }
      let crc = UInt32(data[body.upperBound]) << 24 | UInt32(data[body.upperBound + 1]) << 16
        | UInt32(data[body.upperBound + 2]) << 8 | UInt32(data[body.upperBound + 3])
      if chunk.critical, CRC32.checksum(data[(offset + 4)..<body.upperBound]) != crc {
        throw Self.damaged("the \(chunk.name) chunk's CRC does not match")
      }
      if offset != 8 { try chunk.checkMayFollowTheHeader() }
      switch chunk.kind {
      case .palette: try format.readPalette(data[body])
      case .transparency: transparency = body
      case .imageData: imageData.append(body)
      case .end: ended = true
      case .ancillary: if imageData.isEmpty && chunk.givesAColorSpace { givesAColorSpace = true }
      case .header, .unknownCritical: break
      }
      offset = body.upperBound + 4
    }
    try format.applyTransparency(transparency.map { data[$0] })
    guard !imageData.isEmpty else { throw Self.damaged("no IDAT chunk") }
  }

  /// Inflates every row and checks its filter type, as ``decode()`` would, and the stream's
  /// end and checksum.
  func checkRows() throws {
    let longestRow = format.rowBytes(passWidth: format.width)
    try data.withUnsafeBufferPointer { input in
      let rows = try PNGRowInflater(PNGMemoryFeed(input, chunks: imageData), longestRow: longestRow + 1)
      for pass in format.passes {
        let (passWidth, passHeight) = format.size(of: pass)
        guard passWidth > 0, passHeight > 0 else { continue }
        let rowBytes = format.rowBytes(passWidth: passWidth)
        for _ in 0..<passHeight {
          let type = try rows.next(rowBytes + 1, keeping: 0)[0]
          guard type <= 4 else { throw Self.filterError(type) }
        }
      }
      try rows.finish()
    }
  }

  func decode() throws -> RGBAImage {
    let format = self.format
    let (width, height) = (format.width, format.height)
    let converter = format.converter
    let pixels = try [UInt8](unsafeUninitializedCapacity: width * height * 4) { output, initialized in
      try data.withUnsafeBufferPointer { input in
        let rows = try PNGRowInflater(PNGMemoryFeed(input, chunks: imageData), longestRow: format.rowBytes(passWidth: width) + 1)
        let spread = UnsafeMutablePointer<UInt8>.allocate(capacity: width * 4)
        defer { spread.deallocate() }
        for pass in format.passes {
          let (startX, startY, stepX, stepY) = pass
          let (passWidth, passHeight) = format.size(of: pass)
          guard passWidth > 0, passHeight > 0 else { continue }
          let unfilter = PNGPassRows(rows, format: format, passWidth: passWidth)
          var passRow = 0
          while passRow < passHeight {
            func emit(_ row: UnsafePointer<UInt8>, _ passRow: Int) {
              let target = output.baseAddress! + (startY + passRow * stepY) * width * 4
              if stepX == 1 {
                converter.convert(row, count: passWidth, into: target)
              } else {
                converter.convert(row, count: passWidth, into: spread)
                for column in 0..<passWidth {
                  (target + (startX + column * stepX) * 4).update(from: spread + column * 4, count: 4)
                }
              }
            }
            let rowCount = min(2, passHeight - passRow)
            let (first, second) = try unfilter.next(rowCount)
            emit(first, passRow)
            if let second { emit(second, passRow + 1) }
            passRow += rowCount
          }
        }
        try rows.finish()
      }
      initialized = width * height * 4
    }
    return RGBAImage(width: width, height: height, pixels: pixels)
  }
}

/// One pass's rows as they come out of the inflater, unfiltered in place, two at a time
/// where it can: two Paeth rows in a row are undone together.
final class PNGPassRows {
  private let inflater: PNGRowInflater
  private let rowBytes: Int
  private let bytesPerPixel: Int
  /// The prior row of the pass's first row.
  private let zeros: UnsafeMutablePointer<UInt8>
  private var kept = 0

  init(_ inflater: PNGRowInflater, format: PNGFormat, passWidth: Int) {
    self.inflater = inflater
    rowBytes = format.rowBytes(passWidth: passWidth)
    bytesPerPixel = max(1, format.bitsPerPixel / 8)
    zeros = .allocate(capacity: rowBytes)
    zeros.initialize(repeating: 0, count: rowBytes)
  }

  deinit { zeros.deallocate() }

  /// The next `count` (1 or 2) rows of samples, unfiltered; valid until the next call.
  func next(_ count: Int) throws -> (UnsafePointer<UInt8>, UnsafePointer<UInt8>?) {
    let lines = try inflater.next((rowBytes + 1) * count, keeping: kept)
    let prior = kept == 0 ? UnsafePointer(zeros) : UnsafePointer(lines - kept + 1)
    let second = lines + rowBytes + 1
    if count == 2, lines[0] == 4, second[0] == 4, bytesPerPixel == 4 || bytesPerPixel == 8 {
      PNGFilters.paethPair(lines + 1, second + 1, prior: prior, count: rowBytes, bytesPerPixel: bytesPerPixel)
    } else {
      try PNGFilters.unfilter(lines[0], lines + 1, prior: prior, count: rowBytes, bytesPerPixel: bytesPerPixel)
      if count == 2 {
        try PNGFilters.unfilter(second[0], second + 1, prior: lines + 1, count: rowBytes, bytesPerPixel: bytesPerPixel)
      }
    }
    kept = rowBytes + 1
    return (UnsafePointer(lines + 1), count == 2 ? UnsafePointer(second + 1) : nil)
  }
}

/// Where the zlib stream of a PNG's image data comes from, a piece at a time: the bodies of
/// its IDAT chunks, joined.
protocol PNGDataFeed: AnyObject {
  /// The next piece of the stream; empty at its end. Valid until the next call.
  func nextPiece() throws -> UnsafeBufferPointer<UInt8>
}

/// The IDAT chunks of a PNG in memory, whole, in place.
final class PNGMemoryFeed: PNGDataFeed {
  private let input: UnsafeBufferPointer<UInt8>
  private var chunks: ArraySlice<Range<Int>>

  init(_ input: UnsafeBufferPointer<UInt8>, chunks: [Range<Int>]) {
    self.input = input
    self.chunks = chunks[...]
  }

  func nextPiece() throws -> UnsafeBufferPointer<UInt8> {
    while let chunk = chunks.popFirst() {
      if !chunk.isEmpty { return UnsafeBufferPointer(rebasing: input[chunk]) }
    }
    return UnsafeBufferPointer(start: nil, count: 0)
  }
}

/// The image data's zlib stream inflated into a buffer, handed out one scanline at a time;
/// the scanline before the current one stays in place as the filters' prior row.
final class PNGRowInflater {
  private let feed: PNGDataFeed
  private var piece = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
  private var position = 0
  private var fed = false
  private let inflater: ZlibInflater
  private let buffer: UnsafeMutablePointer<UInt8>
  private let capacity: Int
  private var start = 0
  private var end = 0
  private var finished = false

  init(_ feed: PNGDataFeed, longestRow: Int) throws {
    inflater = try ZlibInflater()
    self.feed = feed
    // Room for the previous and the current row, and enough beyond for ISA-L to work in
    // large pieces.
    capacity = max(1 << 18, 4 * longestRow)
    buffer = .allocate(capacity: capacity)
  }

  deinit {
    buffer.deallocate()
  }

  /// The next `count` bytes of the stream; the `kept` bytes just before them, the row the
  /// previous call handed out, are still there.
  func next(_ count: Int, keeping kept: Int) throws -> UnsafeMutablePointer<UInt8> {
    if end - start < count {
      let from = start - kept
      if from > 0 {
        buffer.update(from: buffer + from, count: end - from)
        start -= from
        end -= from
      }
      while end - start < count { end += try inflate(into: buffer + end, capacity: capacity - end) }
    }
    defer { start += count }
    return buffer + start
  }

  /// The most bytes the image data may inflate to past the last row. libpng ignores such
  /// data, but inflates all of it first: 20 MB of deflate after the rows inflated for 9
  /// seconds in `rowkit diff` before this bound.
  static let maximumTrailingBytes = 1 << 20

  /// Inflates whatever is left, checking that the stream ends and that its checksum holds;
  /// data past the last row is ignored, as libpng does, up to ``maximumTrailingBytes``.
  func finish() throws {
    var trailing = end - start
    while !finished {
      trailing += try inflate(into: buffer, capacity: capacity)
      if trailing > Self.maximumTrailingBytes {
        throw PNGReader.damaged("the image data goes on for more than 1 MB past the last row")
      }
    }
  }

  /// Inflates into `output` as much as there is room and input for; returns the bytes
  /// written.
  private func inflate(into output: UnsafeMutablePointer<UInt8>, capacity room: Int) throws -> Int {
    if finished { throw PNGReader.damaged("the image data ends early") }
    // An empty piece is the stream's end: the feed is not asked again.
    while position == piece.count, !fed || piece.count > 0 {
      piece = try feed.nextPiece()
      position = 0
      fed = true
    }
    let available = piece.count - position
    let input = piece.baseAddress.map { UnsafePointer($0 + position) } ?? UnsafePointer(buffer)
    let step: (consumed: Int, produced: Int, ended: Bool)
    do throws(ZlibInflater.Failure) {
      step = try inflater.inflate(input, count: available, into: output, capacity: room)
    } catch {
      throw PNGReader.damaged(error == .checksum ? "the image data's checksum does not match" : "the image data does not inflate")
    }
    position += step.consumed
    finished = step.ended
    if step.consumed == 0, step.produced == 0, !finished { throw PNGReader.damaged("the image data ends early") }
    return step.produced
  }
}

/// PNG's five row filters, undone in place.
enum PNGFilters {
  static func unfilter(
    _ type: UInt8, _ row: UnsafeMutablePointer<UInt8>, prior: UnsafePointer<UInt8>, count: Int, bytesPerPixel bpp: Int
  ) throws {
    guard type <= 4 else { throw PNGReader.filterError(type) }
    switch type {
    case 0:
      return
    case 2:
      for index in 0..<count { row[index] &+= prior[index] }
    case _ where bpp == 4 || bpp == 8:
      byPixel(type, row, prior, count: count, bytesPerPixel: bpp)
    default:
      for index in 0..<count {
        let left = Int16(index >= bpp ? row[index - bpp] : 0)
        let upperLeft = Int16(index >= bpp ? prior[index - bpp] : 0)
        let up = Int16(prior[index])
        let predictor: Int16
        switch type {
        case 1: predictor = left
        case 3: predictor = (left + up) >> 1
        default: predictor = paeth(SIMD8(repeating: left), SIMD8(repeating: up), SIMD8(repeating: upperLeft))[0]
        }
        row[index] &+= UInt8(truncatingIfNeeded: predictor)
      }
    }
  }

  /// Undoes Sub, Average or Paeth a whole pixel of 4 or 8 bytes at a time: the channels of
  /// a pixel are independent, only pixels follow one another.
  static func byPixel(
    _ type: UInt8, _ row: UnsafeMutablePointer<UInt8>, _ prior: UnsafePointer<UInt8>, count: Int, bytesPerPixel bpp: Int
  ) {
    switch type {
    case 1:
      var sub = Sub()
      eachPixel(row, prior, count: count, bytesPerPixel: bpp, &sub)
    case 3:
      var average = Average()
      eachPixel(row, prior, count: count, bytesPerPixel: bpp, &average)
    default:
      var paeth = Paeth()
      eachPixel(row, prior, count: count, bytesPerPixel: bpp, &paeth)
    }
  }

  /// A filter undone pixel by pixel, left to right, remembering what it needs of the
  /// previous pixel.
  protocol PixelFilter {
    mutating func pixel(_ filtered: SIMD8<UInt8>, up: SIMD8<UInt8>) -> SIMD8<UInt8>
  }

  struct Sub: PixelFilter {
    var left = SIMD8<UInt8>()
    @inline(__always) mutating func pixel(_ filtered: SIMD8<UInt8>, up: SIMD8<UInt8>) -> SIMD8<UInt8> {
      left = filtered &+ left
      return left
    }
  }

  struct Average: PixelFilter {
    var left = SIMD8<UInt8>()
    @inline(__always) mutating func pixel(_ filtered: SIMD8<UInt8>, up: SIMD8<UInt8>) -> SIMD8<UInt8> {
      // (left + up) / 2 without leaving 8 bits.
      left = filtered &+ ((left & up) &+ ((left ^ up) &>> 1))
      return left
    }
  }

  /// Paeth needs 16-bit lanes.
  struct Paeth: PixelFilter {
    var left = SIMD8<Int16>()
    var upperLeft = SIMD8<Int16>()
    @inline(__always) mutating func pixel(_ filtered: SIMD8<UInt8>, up above: SIMD8<UInt8>) -> SIMD8<UInt8> {
      let up = SIMD8<Int16>(truncatingIfNeeded: above)
      left = (SIMD8<Int16>(truncatingIfNeeded: filtered) &+ PNGFilters.paeth(left, up, upperLeft)) & 0xFF
      upperLeft = up
      return SIMD8<UInt8>(truncatingIfNeeded: left)
    }
  }

  /// How a pixel of 4 or 8 bytes rides in eight byte lanes (4 bytes in the low half).
  protocol PixelSize {
    static var bytes: Int { get }
    static func load(_ pointer: UnsafeRawPointer, _ offset: Int) -> SIMD8<UInt8>
    static func store(_ value: SIMD8<UInt8>, _ pointer: UnsafeMutableRawPointer, _ offset: Int)
  }

  enum FourBytes: PixelSize {
    static var bytes: Int { 4 }
    @inline(__always) static func load(_ pointer: UnsafeRawPointer, _ offset: Int) -> SIMD8<UInt8> {
      SIMD8(lowHalf: pointer.loadUnaligned(fromByteOffset: offset, as: SIMD4<UInt8>.self), highHalf: .zero)
    }
    @inline(__always) static func store(_ value: SIMD8<UInt8>, _ pointer: UnsafeMutableRawPointer, _ offset: Int) {
      pointer.storeBytes(of: value.lowHalf, toByteOffset: offset, as: SIMD4<UInt8>.self)
    }
  }

  enum EightBytes: PixelSize {
    static var bytes: Int { 8 }
    @inline(__always) static func load(_ pointer: UnsafeRawPointer, _ offset: Int) -> SIMD8<UInt8> {
      pointer.loadUnaligned(fromByteOffset: offset, as: SIMD8<UInt8>.self)
    }
    @inline(__always) static func store(_ value: SIMD8<UInt8>, _ pointer: UnsafeMutableRawPointer, _ offset: Int) {
      pointer.storeBytes(of: value, toByteOffset: offset, as: SIMD8<UInt8>.self)
    }
  }

  /// Runs `filter` over each pixel of `row`.
  @inline(__always) static func eachPixel<Filter: PixelFilter>(
    _ row: UnsafeMutablePointer<UInt8>, _ prior: UnsafePointer<UInt8>, count: Int, bytesPerPixel bpp: Int,
    _ filter: inout Filter
  ) {
    @inline(__always) func run<Size: PixelSize>(_: Size.Type) {
      var offset = 0
      while offset < count {
        let value = filter.pixel(Size.load(row, offset), up: Size.load(prior, offset))
        Size.store(value, row, offset)
        offset &+= Size.bytes
      }
    }
    if bpp == 8 { run(EightBytes.self) } else { run(FourBytes.self) }
  }

  /// Undoes Paeth on two consecutive rows of 4- or 8-byte pixels at once, the second a pixel
  /// behind the first: each pixel of the second row needs the pixel above it, and the one
  /// before that, done by then. Paeth is bound by the length of its chain of dependent steps
  /// from one pixel to the next; two rows' chains side by side take little longer than one.
  static func paethPair(
    _ first: UnsafeMutablePointer<UInt8>, _ second: UnsafeMutablePointer<UInt8>, prior: UnsafePointer<UInt8>, count: Int,
    bytesPerPixel bpp: Int
  ) {
    func run<Size: PixelSize>(_: Size.Type) {
      var upper = Paeth()
      var lower = Paeth()
      var previous = upper.pixel(Size.load(first, 0), up: Size.load(prior, 0))
      Size.store(previous, first, 0)
      var offset = Size.bytes
      while offset < count {
        let value = upper.pixel(Size.load(first, offset), up: Size.load(prior, offset))
        Size.store(value, first, offset)
        Size.store(lower.pixel(Size.load(second, offset &- Size.bytes), up: previous), second, offset &- Size.bytes)
        previous = value
        offset &+= Size.bytes
      }
      Size.store(lower.pixel(Size.load(second, count &- Size.bytes), up: previous), second, count &- Size.bytes)
    }
    if bpp == 8 { run(EightBytes.self) } else { run(FourBytes.self) }
  }

  /// Paeth's predictor in every lane: whichever of left, up and upper left is closest to
  /// left + up − upper left, preferring them in that order (libpng's SIMD formulation: the
  /// smallest distance, then which one it was). Branch-free: a lane's sign, shifted across
  /// it, is the mask of a comparison.
  @inline(__always) static func paeth(_ left: SIMD8<Int16>, _ up: SIMD8<Int16>, _ upperLeft: SIMD8<Int16>) -> SIMD8<Int16> {
    @inline(__always) func magnitude(_ value: SIMD8<Int16>) -> SIMD8<Int16> {
      pointwiseMax(value, 0 &- value)
    }
    let fromUp = up &- upperLeft
    let fromLeft = left &- upperLeft
    let toLeft = magnitude(fromUp)
    let toUp = magnitude(fromLeft)
    let toUpperLeft = magnitude(fromUp &+ fromLeft)
    let smallest = pointwiseMin(toUpperLeft, pointwiseMin(toLeft, toUp))
    var predictor = upperLeft.replacing(with: up, where: toUp .== smallest)
    predictor.replace(with: left, where: toLeft .== smallest)
    return predictor
  }
}

/// Turns one unfiltered row into 8-bit RGBA with straight alpha.
struct PNGSampleConverter {
  let colorType: Int
  let depth: Int
  let palette: [UInt8]
  let key: [Int]?

  /// The `index`-th sample of a row, at the image's depth.
  @inline(__always) func sample(_ row: UnsafePointer<UInt8>, _ index: Int) -> Int {
    switch depth {
    case 8: return Int(row[index])
    case 16: return Int(row[index * 2]) << 8 | Int(row[index * 2 + 1])
    default:
      let bit = index * depth
      return Int(row[bit >> 3] >> UInt8(8 - depth - bit & 7)) & (1 << depth - 1)
    }
  }

  /// A sample scaled to 8 bits; 16-bit samples rounded to nearest, as libpng's
  /// png_set_scale_16 and pngjs do.
  @inline(__always) func eightBit(_ value: Int) -> UInt8 {
    switch depth {
    case 16: return UInt8((value * 255 + 32895) >> 16)
    case 8: return UInt8(value)
    default: return UInt8(value * (255 / (1 << depth - 1)))
    }
  }

  func convert(_ row: UnsafePointer<UInt8>, count: Int, into output: UnsafeMutablePointer<UInt8>) {
    switch (colorType, depth) {
    case (6, 8):
      output.update(from: row, count: count * 4)
    case (6, 16):
      // Sixteen big-endian samples at a time, then the rest. Rounding v / 257 is the high
      // byte h plus one where the low byte l exceeds h by more than 128, minus one where it
      // falls short by more than 128; a lane's sign, shifted across it, makes the ±1.
      let samples = count * 4
      var index = 0
      while index + 16 <= samples {
        let words = SIMD16<Int16>(
          truncatingIfNeeded: UnsafeRawPointer(row).loadUnaligned(fromByteOffset: index * 2, as: SIMD16<UInt16>.self))
        let high = words & 0xFF
        let low = (words &>> 8) & 0xFF
        let excess = low &- high
        let rounded = high &- ((128 &- excess) &>> 15) &+ ((excess &+ 128) &>> 15)
        UnsafeMutableRawPointer(output).storeBytes(
          of: SIMD16<UInt8>(truncatingIfNeeded: rounded), toByteOffset: index, as: SIMD16<UInt8>.self)
        index &+= 16
      }
      while index < samples {
        output[index] = eightBit(Int(row[index * 2]) << 8 | Int(row[index * 2 + 1]))
        index += 1
      }
    case (2, 8) where key == nil:
      // RGB to RGBA, opaque: a four-byte load takes the pixel and the next one's first byte,
      // which the alpha replaces; the last pixel is copied bytewise so nothing is read past
      // the row.
      let from = UnsafeRawPointer(row)
      let to = UnsafeMutableRawPointer(output)
      for index in 0..<max(0, count - 1) {
        let rgbx = from.loadUnaligned(fromByteOffset: index * 3, as: UInt32.self)
        to.storeBytes(of: rgbx | 0xFF00_0000, toByteOffset: index * 4, as: UInt32.self)
      }
      if count > 0 {
        let last = count - 1
        output[last * 4] = row[last * 3]
        output[last * 4 + 1] = row[last * 3 + 1]
        output[last * 4 + 2] = row[last * 3 + 2]
        output[last * 4 + 3] = 255
      }
    case (3, _):
      palette.withUnsafeBufferPointer { table in
        for index in 0..<count {
          (output + index * 4).update(from: table.baseAddress! + sample(row, index) * 4, count: 4)
        }
      }
    default:
      // Gray (0), RGB (2) and gray with alpha (4): one or three color samples, then alpha.
      let colors = colorType == 2 ? 3 : 1
      let samples = colorType == 4 ? 2 : colors
      for index in 0..<count {
        let first = index * samples
        var transparent = key != nil
        for channel in 0..<colors {
          let value = sample(row, first + channel)
          if let key, value != key[channel] { transparent = false }
          output[index * 4 + channel] = eightBit(value)
        }
        if colors == 1 {
          output[index * 4 + 1] = output[index * 4]
          output[index * 4 + 2] = output[index * 4]
        }
        output[index * 4 + 3] = colorType == 4 ? eightBit(sample(row, first + 1)) : transparent ? 0 : 255
      }
    }
  }
}
