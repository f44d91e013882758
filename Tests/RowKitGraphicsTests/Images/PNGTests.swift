import Foundation
import Testing
@testable import RowKitGraphics

@Suite struct PNGTests {
  @Test func opaqueBitmapsRoundTrip() throws {
    let canvas = try Canvas(pixelWidth: 64, pixelHeight: 32, scale: 2)
    canvas.clear(.white)
    canvas.fill(.circle(center: Point(x: 10, y: 8), radius: 6), color: Color(r: 5, g: 140, b: 245))
    let bitmap = try canvas.bitmap()
    #expect(try PNG.decode(PNG.encode(bitmap)) == bitmap)
  }

  @Test func translucentBitmapsRoundTripWithinRounding() throws {
    let canvas = try Canvas(pixelWidth: 16, pixelHeight: 16, scale: 1)
    canvas.fill(Rect(x: 0, y: 0, width: 16, height: 8), color: Color(r: 255, g: 0, b: 0, a: 0.5))
    let bitmap = try canvas.bitmap()
    let decoded = try PNG.decode(PNG.encode(bitmap))
    #expect(decoded.width == 16 && decoded.height == 16)
    for index in bitmap.pixels.indices {
      #expect(abs(Int(decoded.pixels[index]) - Int(bitmap.pixels[index])) <= 1)
    }
  }

  /// The fast level makes noise larger than it was (a photo's grain): it encoded into a
  /// buffer sized for stored blocks and failed ("ISA-L deflate failed").
  @Test func noiseEncodesAtEitherLevel() throws {
    var state: UInt64 = 42
    let pixels = (0..<(300 * 200 * 4)).map { index -> UInt8 in
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return index % 4 == 3 ? 255 : UInt8(truncatingIfNeeded: state >> 40)
    }
    let noise = Bitmap(width: 300, height: 200, pixels: pixels)
    for compression in PNGCompression.allCases {
      #expect(try PNG.decode(PNG.encode(noise, compression: compression)) == noise, "\(compression)")
    }
  }

  @Test func encodingIsDeterministic() throws {
    let bitmap = Bitmap(width: 40, height: 40, color: Color(r: 10, g: 20, b: 30))
    #expect(try PNG.encode(bitmap) == PNG.encode(bitmap))
  }

  @Test func refusesDataThatIsNotAPNG() {
    #expect(throws: GraphicsError.self) { try PNG.decode(Array("not a png at all, just text".utf8)) }
  }

  @Test func refusesTruncatedData() throws {
    let png = try PNG.encode(Bitmap(width: 50, height: 50, color: .white))
    #expect(throws: GraphicsError.self) { try PNG.decode(Array(png.prefix(png.count / 2))) }
  }

  @Test func refusesHugeImagesFromTheHeaderAlone() throws {
    var png = try PNG.encode(Bitmap(width: 2, height: 2, color: .white))
    // Claim 100000 × 100000 pixels in the header; the CRC no longer matches, but the size
    // check must come first.
    let size: [UInt8] = [0x00, 0x01, 0x86, 0xA0]
    png.replaceSubrange(16..<20, with: size)
    png.replaceSubrange(20..<24, with: size)
    #expect(try PNG.header(png) == (100_000, 100_000))
    #expect(throws: GraphicsError.self) { try PNG.decode(png, maximumPixels: 1_000_000) }
  }
}

@Suite struct PNGEncoderTests {
  func picture(width: Int = 120, height: Int = 90) throws -> Bitmap {
    let canvas = try Canvas(pixelWidth: width, pixelHeight: height, scale: 1)
    canvas.clear(.white)
    canvas.fill(.circle(center: Point(x: 40, y: 30), radius: 25), color: Color(r: 5, g: 140, b: 245))
    canvas.fill(Rect(x: 70, y: 50, width: 40, height: 30), color: Color(r: 230, g: 60, b: 60))
    return try canvas.bitmap()
  }

  @Test(arguments: PNGCompression.allCases)
  func stripsCompressedApartJoinIntoOneImage(compression: PNGCompression) throws {
    let bitmap = try picture()
    let writer = try PNGStreamWriter(width: bitmap.width, color: .rgb)
    for rows in [0..<1, 1..<40, 40..<41, 41..<90] {
      try writer.append(PNGStrip(bitmap, rows: rows, color: .rgb, compression: compression))
    }
    let png = try writer.finish()
    #expect(try PNG.header(png) == (120, 90))
    #expect(try PNG.decode(png) == bitmap)
  }

  @Test func theSameStripsGiveTheSameBytesWhateverThreadCompressesThem() async throws {
    let bitmap = try picture(width: 300, height: 400)
    let ranges = stride(from: 0, to: 400, by: 50).map { $0..<($0 + 50) }
    func serial() throws -> [UInt8] {
      let writer = try PNGStreamWriter(width: 300, color: .rgb)
      for rows in ranges { try writer.append(PNGStrip(bitmap, rows: rows, color: .rgb)) }
      return try writer.finish()
    }
    let strips = try await withThrowingTaskGroup(of: (Int, PNGStrip).self) { group in
      for (index, rows) in ranges.enumerated() {
        group.addTask { (index, try PNGStrip(bitmap, rows: rows, color: .rgb)) }
      }
      return try await group.reduce(into: [:]) { $0[$1.0] = $1.1 }
    }
    let writer = try PNGStreamWriter(width: 300, color: .rgb)
    for index in ranges.indices { try writer.append(strips[index]!) }
    #expect(try writer.finish() == serial())
  }

  /// The deflate bytes of a strip depend on its scanlines alone: not on what the calling
  /// thread's stack held before (a worker that painted rows has a stack full of old values, a
  /// new thread a clean one). `rowkit-bench` checks the same over hundreds of whole renders.
  @Test func compressionIgnoresWhatTheStackHeldBefore() throws {
    // Raw scanlines with long flat runs and repeats, like table rows, and a few distinct bytes.
    let raw = (0..<240_000).map { index -> UInt8 in
      let column = index % 2251
      return column == 0 ? 0 : (column / 3) % 97 < 80 ? 255 : UInt8(truncatingIfNeeded: (index / 2251) &* 7 &+ column / 50)
    }
    let clean = try onFreshThread { try Deflate.fastRawFlushed(raw) }
    for seed in UInt8(1)...UInt8(24) {
      let dirty = try onFreshThread { () throws -> [UInt8] in
        Self.scribbleOnTheStack(seed)
        return try Deflate.fastRawFlushed(raw)
      }
      #expect(dirty == clean, "a stack scribbled with \(seed) changed the deflate bytes")
    }
  }

  /// Fills a few hundred kilobytes of the stack below the caller with `seed`-made bytes.
  @inline(never) static func scribbleOnTheStack(_ seed: UInt8) {
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 600_000) { buffer in
      for index in buffer.indices { buffer[index] = seed &* UInt8(truncatingIfNeeded: index | 1) }
      withExtendedLifetime(buffer[buffer.count / 2]) {}
    }
  }

  /// Runs `body` on a new thread with an 8 MB stack, as RowKit's workers have.
  func onFreshThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) throws -> T {
    nonisolated(unsafe) var result: Result<T, any Error>?
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
      result = Result { try body() }
      done.signal()
    }
    thread.stackSize = 8 << 20
    thread.start()
    done.wait()
    return try result!.get()
  }

  @Test func aFileGetsItsHeightWhenItIsFinished() throws {
    let bitmap = try picture()
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("rowkit-stream-\(UUID().uuidString).png")
    defer { try? FileManager.default.removeItem(at: url) }
    _ = FileManager.default.createFile(atPath: url.path, contents: nil)
    let handle = try FileHandle(forWritingTo: url)
    let writer = try PNGStreamWriter(width: bitmap.width, color: .rgb, file: handle)
    try writer.append(PNGStrip(bitmap, rows: 0..<45, color: .rgb))
    try writer.append(PNGStrip(bitmap, rows: 45..<90, color: .rgb))
    try writer.finish()
    try handle.close()
    let data = try [UInt8](Data(contentsOf: url))
    #expect(try PNG.decode(data) == bitmap)
    let memory = try PNGStreamWriter(width: bitmap.width, color: .rgb)
    try memory.append(PNGStrip(bitmap, rows: 0..<45, color: .rgb))
    try memory.append(PNGStrip(bitmap, rows: 45..<90, color: .rgb))
    #expect(data == (try memory.finish()), "the file and the in-memory writer give the same bytes")
  }

  @Test func translucentPixelsAreWrittenWithStraightAlpha() throws {
    let canvas = try Canvas(pixelWidth: 8, pixelHeight: 8, scale: 1)
    canvas.fill(Rect(x: 0, y: 0, width: 8, height: 4), color: Color(r: 200, g: 100, b: 0, a: 0.5))
    let bitmap = try canvas.bitmap()
    #expect(PNGColor(for: bitmap) == .rgba)
    let png = try PNG.encode(bitmap)
    #expect(png[25] == 6, "color type RGBA")
    let decoded = try PNG.decode(png)
    #expect(zip(decoded.pixels, bitmap.pixels).allSatisfy { abs(Int($0) - Int($1)) <= 1 })
  }

  @Test func adlerChecksumsCombineAsZlibsDo() {
    let first = Array("Three20 drew table rows".utf8)
    let second = [UInt8](repeating: 0xAB, count: 100_000)
    #expect(Adler32.combine(Adler32.checksum(first), Adler32.checksum(second), length: second.count) == Adler32.checksum(first + second))
  }

  @Test func strangeSizesAreRefused() throws {
    #expect(throws: GraphicsError.self) { try PNGStreamWriter(width: 0, color: .rgb) }
    let writer = try PNGStreamWriter(width: 10, color: .rgb)
    #expect(throws: GraphicsError.self) { try writer.finish() }
    let other = try PNGStreamWriter(width: 10, color: .rgb)
    #expect(throws: GraphicsError.self) { try other.append(PNGStrip(Bitmap(width: 11, height: 2, color: .white), color: .rgb)) }
  }
}
