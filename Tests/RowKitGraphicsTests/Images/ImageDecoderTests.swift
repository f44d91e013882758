import CWebP
import Testing

@testable import RowKitGraphics

/// A photo-like test picture: gradients and a disc, no flat areas, opaque.
func photo(width: Int, height: Int) throws -> Bitmap {
  let canvas = try Canvas(pixelWidth: width, pixelHeight: height, scale: 1)
  let all = Rect(x: 0, y: 0, width: Double(width), height: Double(height))
  canvas.fill(.rect(all), gradient: .vertical(all, from: Color(r: 30, g: 90, b: 200), to: Color(r: 240, g: 200, b: 120)))
  canvas.fill(
    .circle(center: Point(x: Double(width) * 0.6, y: Double(height) * 0.4), radius: Double(height) * 0.25),
    color: Color(r: 200, g: 40, b: 60))
  return try canvas.bitmap()
}

@Suite struct ImageDecoderTests {
  @Test func jpegRoundTripsCloseToTheOriginal() throws {
    let original = try photo(width: 64, height: 48)
    let decoded = try JPEG.decode(JPEG.encode(original, quality: 95))
    #expect(decoded.width == 64 && decoded.height == 48)
    #expect(decoded.isOpaque)
    // 4:2:0 chroma subsampling blurs color at the disc's edge; on average the picture holds.
    let errors = zip(decoded.pixels, original.pixels).map { abs(Int($0) - Int($1)) }
    let mean = Double(errors.reduce(0, +)) / Double(errors.count)
    #expect(mean < 2, "mean channel error \(mean)")
  }

  @Test func jpegDecodesAtTheSmallestDCTScaleThatCoversTheTarget() throws {
    let jpeg = try JPEG.encode(photo(width: 1024, height: 768))
    #expect(try JPEG.header(jpeg) == (1024, 768))
    // 1/8 gives 128×96, 1/4 gives 256×192, 1/2 gives 512×384.
    let eighth = try JPEG.decode(jpeg, atLeast: (100, 90))
    #expect(eighth.width == 128 && eighth.height == 96)
    let quarter = try JPEG.decode(jpeg, atLeast: (100, 100))
    #expect(quarter.width == 256 && quarter.height == 192)
    let half = try JPEG.decode(jpeg, atLeast: (300, 300))
    #expect(half.width == 512 && half.height == 384)
    let full = try JPEG.decode(jpeg, atLeast: (1000, 700))
    #expect(full.width == 1024 && full.height == 768)
  }

  @Test func aTruncatedJPEGFailsInsteadOfPassingForAGoodOne() throws {
    let jpeg = try JPEG.encode(photo(width: 200, height: 150))
    #expect(throws: GraphicsError.self) { try JPEG.decode(Array(jpeg.prefix(jpeg.count / 2))) }
  }

  @Test func webpRoundTripsExactly() throws {
    let original = try photo(width: 40, height: 30)
    let webp = try WebP.encodeLossless(original)
    #expect(ImageDecoder.format(of: webp) == .webp)
    #expect(try WebP.header(webp) == (40, 30))
    #expect(try ImageDecoder.decode(webp) == original)
  }

  @Test func theDecoderTellsFormatsApartByTheirFirstBytes() throws {
    let bitmap = try photo(width: 8, height: 8)
    #expect(ImageDecoder.format(of: try PNG.encode(bitmap)) == .png)
    #expect(ImageDecoder.format(of: try JPEG.encode(bitmap)) == .jpeg)
    #expect(ImageDecoder.format(of: Array("<html>not an image</html>".utf8)) == nil)
    let error = #expect(throws: GraphicsError.self) { try ImageDecoder.decode(Array("<html></html>".utf8)) }
    #expect(error?.kind == .unknownImageFormat)
  }

  @Test func sizesOverTheLimitAreRefusedFromTheHeader() throws {
    var png = try PNG.encode(Bitmap(width: 2, height: 2, color: .white))
    let side: [UInt8] = [0x00, 0x01, 0x86, 0xA0]  // 100000
    png.replaceSubrange(16..<20, with: side)
    png.replaceSubrange(20..<24, with: side)
    let error = #expect(throws: GraphicsError.self) { try ImageDecoder.size(of: png) }
    #expect(error?.kind == .imageTooLarge)
    #expect(error?.description.contains("100000×100000") == true)
    let jpeg = try JPEG.encode(photo(width: 300, height: 200))
    #expect(try ImageDecoder.size(of: jpeg, maximumPixels: 60_000) == (300, 200))
    #expect(throws: GraphicsError.self) { try ImageDecoder.size(of: jpeg, maximumPixels: 59_999) }
    #expect(throws: GraphicsError.self) { try JPEG.decode(jpeg, maximumPixels: 59_999) }
  }
}

/// The libraries' statuses become errors in one place each, in the library's own words: a
/// failing status given to each funnel, and a damaged file through each decoder.
@Suite struct ImageLibraryStatusTests {
  @Test func eachWebPStatusIsWordedAndOnlyOKPasses() throws {
    try WebPStatus.check(VP8_STATUS_OK, .webpDecode, "unused")
    #expect(throws: GraphicsError(.webpDecode, "decoding a.webp: the data ends early")) {
      try WebPStatus.check(VP8_STATUS_NOT_ENOUGH_DATA, .webpDecode, "decoding a.webp")
    }
    let statuses = [
      VP8_STATUS_OUT_OF_MEMORY, VP8_STATUS_INVALID_PARAM, VP8_STATUS_BITSTREAM_ERROR, VP8_STATUS_UNSUPPORTED_FEATURE,
      VP8_STATUS_SUSPENDED, VP8_STATUS_USER_ABORT, VP8_STATUS_NOT_ENOUGH_DATA,
    ]
    let messages = Set(statuses.map(WebPStatus.message))
    #expect(messages.count == statuses.count && !messages.contains { $0.hasPrefix("libwebp status") })
  }

  @Test func aDamagedImageFailsInItsLibrarysWords() throws {
    let bitmap = Bitmap(width: 40, height: 30, pixels: [UInt8](repeating: 200, count: 40 * 30 * 4))
    let webp = try WebP.encodeLossless(bitmap)
    #expect(throws: GraphicsError(.webpDecode, "WebP data is damaged: the data ends early")) {
      try WebP.decode(Array(webp.prefix(webp.count - 8)))
    }
    #expect(throws: GraphicsError(.webpDecode, "not a readable WebP image: the bitstream is not valid WebP")) {
      try WebP.header(Array("RIFF\u{0}\u{0}\u{0}\u{0}WEBPVP8 nonsense, not a bitstream".utf8))
    }
    let jpeg = try JPEG.encode(photo(width: 200, height: 150))
    let jpegError = #expect(throws: GraphicsError.self) { try JPEG.decode(Array(jpeg.prefix(jpeg.count / 2))) }
    // libjpeg-turbo's own sentence follows RowKit's, never "unknown error".
    #expect(
      jpegError?.message.hasPrefix("JPEG data is damaged: ") == true && jpegError?.message.contains("unknown error") == false,
      "\(jpegError?.message ?? "")")
    var png = try PNG.encode(bitmap)
    png[png.count - 20] ^= 0xFF
    let pngError = #expect(throws: GraphicsError.self) { try PNG.decode(png) }
    #expect(pngError?.message.hasPrefix("PNG data is damaged: ") == true, "\(pngError?.message ?? "")")
  }
}
