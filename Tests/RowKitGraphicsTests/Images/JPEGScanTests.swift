import Foundation
import RowKitTestSupport
import Testing

@testable import RowKitGraphics

/// A progressive JPEG may repeat its scans any number of times, and libjpeg-turbo decodes
/// every one (a file of 550 KB with 8,000 scans took 28 s): more than `JPEG.maximumScans`
/// is refused before decoding, and the scans are counted by walking the file's segments.
@Suite struct JPEGScanTests {
  /// A grayscale progressive JPEG of `width`×`height` pixels, all black: a DC scan, then
  /// `acScans` times the same AC scan, each one end-of-block run over every block.
  static func progressive(width: Int, height: Int, acScans: Int) -> [UInt8] {
    func segment(_ marker: UInt8, _ payload: [UInt8]) -> [UInt8] {
      [0xFF, marker, UInt8((payload.count + 2) >> 8), UInt8((payload.count + 2) & 0xFF)] + payload
    }
    let blocks = ((width + 7) / 8) * ((height + 7) / 8)
    let oneCode = [1] + [UInt8](repeating: 0, count: 15)
    var file: [UInt8] = [0xFF, 0xD8]
    file += segment(0xDB, [0] + [UInt8](repeating: 1, count: 64))
    file += segment(0xC2, [8, UInt8(height >> 8), UInt8(height & 0xFF), UInt8(width >> 8), UInt8(width & 0xFF), 1, 1, 0x11, 0])
    // One Huffman code each, of one bit: DC category 0, and AC end-of-block run EOB14.
    file += segment(0xC4, [0x00] + oneCode + [0x00])
    file += segment(0xC4, [0x10] + oneCode + [0xE0])
    // The DC scan: one 0 bit a block.
    file += segment(0xDA, [1, 1, 0x00, 0, 0, 0]) + [UInt8](repeating: 0, count: blocks / 8 + 1)
    // An AC scan: the code (0) and 14 bits of 1, an end-of-block run of 32,767 blocks,
    // padded with 1 bits: 0x7F 0xFF, the 0xFF stuffed with a 0x00.
    let acScan = segment(0xDA, [1, 1, 0x00, 1, 63, 0]) + [0x7F, 0xFF, 0x00]
    for _ in 0..<acScans { file += acScan }
    return file + [0xFF, 0xD9]
  }

  @Test func scansAreCountedByTheirMarkers() throws {
    #expect(JPEG.scanCount(Self.progressive(width: 64, height: 64, acScans: 3), upTo: 1000) == 4)
    #expect(JPEG.scanCount(Self.progressive(width: 64, height: 64, acScans: 3), upTo: 2) == 2, "counting stops at the limit")
    let baseline = try JPEG.encode(Bitmap(width: 40, height: 30, color: .black))
    #expect(JPEG.scanCount(baseline, upTo: 1000) == 1)
  }

  /// A segment whose length is below 2 skips only its length, and bytes between segments
  /// are skipped to the next marker, as libjpeg reads them: neither hides the scans after.
  @Test func oddSegmentsHideNoScans() throws {
    let file = Self.progressive(width: 64, height: 64, acScans: 3)
    let emptyComment = Array(file.prefix(2)) + [0xFF, 0xFE, 0x00, 0x00] + Array(file.dropFirst(2))
    #expect(JPEG.scanCount(emptyComment, upTo: 1000) == 4)
    let stray = Array(file.prefix(2)) + [0x00, 0x17, 0x2A] + Array(file.dropFirst(2))
    #expect(JPEG.scanCount(stray, upTo: 1000) == 4)
    let many = Self.progressive(width: 64, height: 64, acScans: JPEG.maximumScans)
    #expect(throws: GraphicsError.self) { try JPEG.decode(Array(many.prefix(2)) + [0xFF, 0xFE, 0x00, 0x01] + Array(many.dropFirst(2))) }
  }

  @Test func aJPEGOfMoreScansThanTheLimitIsNotDecoded() throws {
    let few = try JPEG.decode(Self.progressive(width: 64, height: 64, acScans: 20))
    #expect(few.width == 64 && few.height == 64)
    let many = Self.progressive(width: 64, height: 64, acScans: JPEG.maximumScans)
    #expect {
      try JPEG.decode(many)
    } throws: { error in
      "\(error)".contains("JPEG of more than 500 scans: each is another pass over the whole image, so it is not decoded")
    }
    #expect(throws: GraphicsError.self) { try JPEG.decodeRGBA(many) }
  }

  /// A JPEG with nothing between its start and end markers claims 0×0 pixels, and is not one
  /// that can be read; it was said to be larger than the limit.
  @Test func aJPEGThatClaimsNoPixelsSaysSo() throws {
    let empty: [UInt8] = [0xFF, 0xD8, 0xFF, 0xD9]
    for decode in [{ _ = try JPEG.decode(empty) }, { _ = try JPEG.header(empty) }] {
      #expect {
        try decode()
      } throws: { error in
        "\(error)".contains("not a readable JPEG: it claims 0×0 pixels")
      }
    }
  }
}

/// A four-channel JPEG (CMYK, as print workflows and Photoshop save them) was refused as
/// "damaged": libjpeg converts none to RGB. Its ink is converted here, inverted or not as
/// the Adobe marker says, as browsers read it.
@Suite struct CMYKJPEGTests {
  @Test func aCMYKJPEGDecodesToTheColorsOfItsRGBSource() throws {
    let corpus = TestSupport.repositoryRoot.appendingPathComponent("Fuzz/Corpus/jpeg")
    // Both made from one image by Fuzz/make-corpus.py: one saved as RGB, one as CMYK (with
    // Adobe's marker, inverted).
    let cmykFile = [UInt8](try Data(contentsOf: corpus.appendingPathComponent("cmyk.jpg")))
    #expect(JPEG.hasAdobeMarker(cmykFile))
    let cmyk = try JPEG.decodeRGBA(cmykFile)
    let rgb = try JPEG.decodeRGBA([UInt8](try Data(contentsOf: corpus.appendingPathComponent("baseline.jpg"))))
    #expect(cmyk.width == rgb.width && cmyk.height == rgb.height)
    var total = 0
    var channels = 0
    for index in 0..<cmyk.pixels.count where index % 4 != 3 {
      total += abs(Int(cmyk.pixels[index]) - Int(rgb.pixels[index]))
      channels += 1
    }
    // The two files' own compression differs, by a few levels on average; a color read the
    // wrong way round is off by over a hundred (white turns black).
    let mean = Double(total) / Double(channels)
    #expect(mean < 8, "mean channel difference \(mean)")
    #expect(stride(from: 3, to: cmyk.pixels.count, by: 4).allSatisfy { cmyk.pixels[$0] == 255 })
    // The same through the renderer's decoder, in its blue-first order.
    let bitmap = try JPEG.decode(cmykFile)
    #expect(bitmap.width == cmyk.width)
  }

  @Test func inkBecomesLightAsAdobeOrPlainCMYKSaysIt() {
    // Full magenta ink and nothing else: inverted (Adobe) it is stored as 255, 0, 255, 255.
    var inverted: [UInt8] = [255, 0, 255, 255, 0, 0, 0, 0]
    JPEG.convertCMYK(&inverted, inverted: true, blueFirst: false)
    #expect(inverted == [255, 0, 255, 255, 0, 0, 0, 255], "magenta, then black (all ink)")
    var plain: [UInt8] = [0, 255, 0, 0, 0, 0, 0, 128]
    JPEG.convertCMYK(&plain, inverted: false, blueFirst: true)
    #expect(plain == [255, 0, 255, 255, 127, 127, 127, 255], "magenta, then half black, blue first")
  }
}
