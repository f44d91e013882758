import Testing
@testable import RowKitGraphics

@Suite struct PNGTests {
  @Test func opaqueBitmapsRoundTrip() throws {
    let canvas = try Canvas(pixelWidth: 64, pixelHeight: 32, scale: 2)
    canvas.clear(.white)
    canvas.fill(.circle(center: Point(x: 10, y: 8), radius: 6), color: Color(r: 5, g: 140, b: 245))
    let bitmap = canvas.bitmap()
    #expect(try PNG.decode(PNG.encode(bitmap)) == bitmap)
  }

  @Test func translucentBitmapsRoundTripWithinRounding() throws {
    let canvas = try Canvas(pixelWidth: 16, pixelHeight: 16, scale: 1)
    canvas.fill(Rect(x: 0, y: 0, width: 16, height: 8), color: Color(r: 255, g: 0, b: 0, a: 0.5))
    let bitmap = canvas.bitmap()
    let decoded = try PNG.decode(PNG.encode(bitmap))
    #expect(decoded.width == 16 && decoded.height == 16)
    for index in bitmap.pixels.indices {
      #expect(abs(Int(decoded.pixels[index]) - Int(bitmap.pixels[index])) <= 1)
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
