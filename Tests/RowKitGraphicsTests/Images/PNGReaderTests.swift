import Foundation
import RowKitTestSupport
import Testing

@testable import RowKitGraphics

/// RowKit's own PNG reader (`PNG.decodeRGBA`), against libpng and against hand-made files of
/// every color type, bit depth, filter and interlacing.
@Suite struct PNGReaderTests {
  /// Deterministic pseudo-random samples below `limit`.
  func samples(_ count: Int, below limit: Int, seed: UInt64 = 1) -> [Int] {
    var state = seed &* 0x9E37_79B9_7F4A_7C15
    return (0..<count).map { _ in
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((state >> 33) % UInt64(limit))
    }
  }

  /// What a sample of `depth` bits reads as in 8 bits.
  func eightBit(_ value: Int, depth: Int) -> UInt8 {
    depth == 16 ? UInt8((Double(value) / 257).rounded()) : UInt8(value * 255 / (1 << depth - 1))
  }

  @Test func rowKitsOwnPNGsReadAsTheirBitmaps() throws {
    let canvas = try Canvas(pixelWidth: 40, pixelHeight: 30, scale: 1)
    canvas.clear(.white)
    canvas.fill(.circle(center: Point(x: 12, y: 12), radius: 9), color: Color(r: 5, g: 140, b: 245))
    let opaque = try canvas.bitmap()
    #expect(try PNG.decodeRGBA(PNG.encode(opaque)) == RGBAImage(opaque))
    let translucent = try Canvas(pixelWidth: 17, pixelHeight: 9, scale: 1)
    translucent.fill(.circle(center: Point(x: 8, y: 4), radius: 6), color: Color(r: 200, g: 30, b: 60, a: 0.6))
    let bitmap = try translucent.bitmap()
    #expect(try PNG.decodeRGBA(PNG.encode(bitmap)) == RGBAImage(bitmap))
  }

  @Test func everyReferenceAndAssetReadsAsLibpngReadsIt() throws {
    let root = TestSupport.repositoryRoot
    var checked = 0
    for folder in ["Snapshots", "Assets"] {
      let files = FileManager.default.enumerator(at: root.appendingPathComponent(folder), includingPropertiesForKeys: nil)
      while let url = files?.nextObject() as? URL {
        guard url.pathExtension == "png" else { continue }
        let data = try [UInt8](Data(contentsOf: url))
        #expect(try PNG.decodeRGBA(data).bitmap == PNG.decodeThroughLibpng(data, maximumPixels: PNG.defaultMaximumPixels), "\(url.lastPathComponent)")
        let outcome = outcomes(data)
        #expect(outcome.checked == outcome.decoded, "\(url.lastPathComponent)")
        checked += 1
      }
    }
    #expect(checked >= 10)
  }

  @Test(arguments: [(0, 1), (0, 2), (0, 4), (0, 8), (3, 1), (3, 2), (3, 4), (3, 8), (2, 8), (4, 8), (6, 8)])
  func lowAndEightBitFormatsReadAsLibpngReadsThem(colorType: Int, depth: Int) throws {
    let channels = [0: 1, 2: 3, 3: 1, 4: 2, 6: 4][colorType]!
    let (width, height) = (13, 11)
    let limit = colorType == 3 ? min(1 << depth, 5) : 1 << depth
    let values = samples(width * height * channels, below: limit, seed: UInt64(colorType * 100 + depth))
    // A palette no longer than the depth allows, and a tRNS no longer than the palette.
    let palette = Array([10, 20, 30, 200, 100, 50, 0, 255, 128, 255, 255, 255, 7, 8, 9].prefix(limit * 3)) as [UInt8]
    for interlaced in [false, true] {
      let paletteAlpha = Array([255, 0, 128].prefix(limit)) as [UInt8]
      for transparency in [nil, colorType == 3 ? paletteAlpha : colorType == 0 ? [0, UInt8(limit - 1)] : nil] as [[UInt8]?] {
        let png = CraftedPNG.make(
          width: width, height: height, colorType: colorType, depth: depth, samples: values, interlaced: interlaced,
          palette: colorType == 3 ? palette : [], transparency: transparency)
        let label = "type \(colorType) depth \(depth) interlaced \(interlaced) tRNS \(transparency != nil)"
        #expect(try PNG.decodeRGBA(png).bitmap == PNG.decodeThroughLibpng(png, maximumPixels: PNG.defaultMaximumPixels), "\(label)")
      }
    }
  }

  /// `PNG.decode`, the images' decode, reads the stored values with RowKit's reader where
  /// libpng gives them too (the tests above), and leaves to libpng the files it converts: a
  /// gamma or color space chunk before the image data, or 16-bit samples.
  @Test func filesLibpngConvertsAreDecodedByLibpng() throws {
    let (width, height) = (5, 4)
    let values = samples(width * height * 4, below: 256, seed: 9)
    let plain = CraftedPNG.make(width: width, height: height, colorType: 6, depth: 8, samples: values)
    #expect(try PNGReader(plain, maximumPixels: PNG.defaultMaximumPixels).libpngGivesStoredValues)
    #expect(try PNG.decode(plain) == PNG.decodeRGBA(plain).bitmap)
    // A gamma of 1.0: libpng converts the samples from linear light to sRGB.
    let insertAt = 8 + 25
    let linear = Array(plain[0..<insertAt]) + CraftedPNG.chunk("gAMA", [0, 1, 0x86, 0xA0]) + Array(plain[insertAt...])
    #expect(try !PNGReader(linear, maximumPixels: PNG.defaultMaximumPixels).libpngGivesStoredValues)
    #expect(try PNG.decode(linear) == PNG.decodeThroughLibpng(linear, maximumPixels: PNG.defaultMaximumPixels))
    #expect(try PNG.decode(linear) != PNG.decodeRGBA(linear).bitmap, "libpng converted the linear samples")
    for chunk in ["cHRM", "iCCP", "sRGB"] {
      let tagged = Array(plain[0..<insertAt]) + CraftedPNG.chunk(chunk, [0]) + Array(plain[insertAt...])
      #expect(try !PNGReader(tagged, maximumPixels: PNG.defaultMaximumPixels).libpngGivesStoredValues, "\(chunk)")
    }
    let deep = CraftedPNG.make(
      width: width, height: height, colorType: 6, depth: 16, samples: samples(width * height * 4, below: 65536, seed: 10))
    #expect(try !PNGReader(deep, maximumPixels: PNG.defaultMaximumPixels).libpngGivesStoredValues)
    #expect(try PNG.decode(deep) == PNG.decodeThroughLibpng(deep, maximumPixels: PNG.defaultMaximumPixels))
  }

  @Test func sixteenBitSamplesRoundToNearest() throws {
    let (width, height) = (9, 7)
    for (colorType, channels) in [(0, 1), (2, 3), (4, 2), (6, 4)] {
      var values = samples(width * height * channels, below: 65536, seed: UInt64(colorType))
      // The rounding edges: 128 and 129 above a multiple of 257, and the extremes.
      values.replaceSubrange(0..<6, with: [257 * 3 + 128, 257 * 3 + 129, 257 * 200 - 128, 257 * 200 - 129, 0, 65535])
      for interlaced in [false, true] {
        let png = CraftedPNG.make(
          width: width, height: height, colorType: colorType, depth: 16, samples: values, interlaced: interlaced)
        let image = try PNG.decodeRGBA(png)
        var expected: [UInt8] = []
        for pixel in 0..<(width * height) {
          let v = values[(pixel * channels)..<((pixel + 1) * channels)].map { eightBit($0, depth: 16) }
          switch colorType {
          case 0: expected += [v[0], v[0], v[0], 255]
          case 2: expected += v + [255]
          case 4: expected += [v[0], v[0], v[0], v[1]]
          default: expected += v
          }
        }
        #expect(image.pixels == expected, "type \(colorType) interlaced \(interlaced)")
      }
    }
  }

  @Test func everyFilterIsUndoneForEveryPixelSize() throws {
    // Pixels of 1, 2, 3, 4, 6 and 8 bytes; each row with each filter in turn, and Paeth rows
    // in pairs (undone together) and alone, interlaced or not.
    for (colorType, depth) in [(0, 8), (4, 8), (2, 8), (6, 8), (2, 16), (6, 16)] {
      let channels = [0: 1, 2: 3, 4: 2, 6: 4][colorType]!
      let (width, height) = (23, 11)
      let values = samples(width * height * channels, below: 1 << depth, seed: UInt64(depth + colorType))
      let reference = try PNG.decodeRGBA(
        CraftedPNG.make(width: width, height: height, colorType: colorType, depth: depth, samples: values, filters: [0]))
      for interlaced in [false, true] {
        for filters in [[1], [2], [3], [4], [4, 3, 2, 1, 0], [4, 4, 1], [1, 4, 4]] as [[UInt8]] {
          let png = CraftedPNG.make(
            width: width, height: height, colorType: colorType, depth: depth, samples: values, interlaced: interlaced,
            filters: filters)
          #expect(try PNG.decodeRGBA(png) == reference, "type \(colorType) depth \(depth) filters \(filters) interlaced \(interlaced)")
        }
      }
    }
  }

  @Test func tRNSMakesTheKeyColorTransparent() throws {
    let png = CraftedPNG.make(
      width: 2, height: 1, colorType: 2, depth: 8, samples: [1, 2, 3, 1, 2, 4], transparency: [0, 1, 0, 2, 0, 3])
    #expect(try PNG.decodeRGBA(png).pixels == [1, 2, 3, 0, 1, 2, 4, 255])
  }

  @Test func damagedFilesAreRefusedWithTheirReason() throws {
    let good = CraftedPNG.make(width: 4, height: 3, colorType: 6, depth: 8, samples: samples(48, below: 256))
    #expect(try PNG.decodeRGBA(good).width == 4)
    func reason(_ bytes: [UInt8]) -> String {
      let (decoded, checked) = outcomes(bytes)
      #expect(checked == decoded, "PNG.check and PNG.decodeRGBA disagree")
      return decoded
    }
    #expect(reason(Array("not a png".utf8)) == "not a PNG file (no PNG signature)")
    #expect(reason(Array(good.prefix(good.count - 20))).contains("PNG data is damaged"))
    // Cut within its header, after the signature: damaged too, not "no PNG signature", and
    // the header alone (what a render reads first) says the same.
    #expect(reason(Array(good.prefix(20))) == "PNG data is damaged: a chunk runs past the end of the file")
    #expect(throws: GraphicsError(.pngDecode, "PNG data is damaged: a chunk runs past the end of the file")) { try PNG.header(Array(good.prefix(20))) }
    var badCRC = good
    badCRC[40] ^= 0x55  // inside the IDAT chunk's data
    #expect(reason(badCRC).contains("CRC does not match"))
    // A valid chunk around a corrupt stream: the Adler-32 at its end no longer matches.
    let idat = CraftedPNG.make(width: 4, height: 3, colorType: 6, depth: 8, samples: [Int](repeating: 7, count: 48))
    let start = 8 + 25  // signature, IHDR
    let length = Int(idat[start]) << 24 | Int(idat[start + 1]) << 16 | Int(idat[start + 2]) << 8 | Int(idat[start + 3])
    var stream = Array(idat[(start + 8)..<(start + 8 + length)])
    stream[10] ^= 1
    let corrupt = Array(idat[0..<start]) + CraftedPNG.chunk("IDAT", stream) + CraftedPNG.chunk("IEND", [])
    #expect(reason(corrupt).contains("checksum does not match"))
    let oneRow = CraftedPNG.make(width: 1, height: 1, colorType: 6, depth: 8, samples: [1, 2, 3, 4])
    let oneRowBad = Array(oneRow[0..<start]) + CraftedPNG.chunk("IDAT", CraftedPNG.zlibStored([9, 1, 2, 3, 4]))
      + CraftedPNG.chunk("IEND", [])
    #expect(reason(oneRowBad).contains("filter type 9"))
    let short = Array(oneRow[0..<start]) + CraftedPNG.chunk("IDAT", CraftedPNG.zlibStored([0, 1, 2]))
      + CraftedPNG.chunk("IEND", [])
    #expect(reason(short).contains("ends early"))
    let noEnd = Array(oneRow.prefix(oneRow.count - 12))
    #expect(reason(noEnd).contains("IEND"))
  }

  @Test func mutatedFilesDecodeOrFailButNeverCrash() throws {
    let originals = [
      CraftedPNG.make(width: 9, height: 7, colorType: 6, depth: 8, samples: samples(252, below: 256)),
      CraftedPNG.make(width: 9, height: 7, colorType: 2, depth: 16, samples: samples(189, below: 65536), interlaced: true),
      CraftedPNG.make(
        width: 11, height: 5, colorType: 3, depth: 2, samples: samples(55, below: 4), interlaced: true,
        palette: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12], transparency: [0, 255]),
    ]
    var random = samples(6000, below: 1 << 20, seed: 99)[...]
    var decoded = 0
    for round in 0..<500 {
      var bytes = originals[round % originals.count]
      for _ in 0...(random.popFirst()! % 3) {
        let at = 8 + random.popFirst()! % (bytes.count - 8)
        bytes[at] = UInt8(random.popFirst()! % 256)
      }
      // Fix every chunk's CRC, so that the damage reaches the header and the image data.
      var offset = 8
      while offset + 12 <= bytes.count {
        let length = Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
        guard length <= bytes.count - offset - 12 else { break }
        let crc = CraftedPNG.crc32(Array(bytes[(offset + 4)..<(offset + 8 + length)]))
        bytes.replaceSubrange((offset + 8 + length)..<(offset + 12 + length), with: [24, 16, 8, 0].map { UInt8((crc >> $0) & 0xFF) })
        offset += 12 + length
      }
      do {
        let image = try PNG.decodeRGBA(bytes, maximumPixels: 100_000)
        #expect(image.pixels.count == image.width * image.height * 4)
        decoded += 1
      } catch {
        #expect(error is GraphicsError, "\(error)")
      }
      let (decodedOutcome, checkedOutcome) = outcomes(bytes, maximumPixels: 100_000)
      #expect(checkedOutcome == decodedOutcome, "round \(round): PNG.check and PNG.decodeRGBA disagree")
    }
    #expect(decoded > 0 && decoded < 500)
  }

  /// What decoding `bytes` and checking them give: the size, or the error's text.
  func outcomes(_ bytes: [UInt8], maximumPixels: Int = PNG.defaultMaximumPixels) -> (decoded: String, checked: String) {
    let decoded: String
    do {
      let image = try PNG.decodeRGBA(bytes, maximumPixels: maximumPixels)
      decoded = "\(image.width)×\(image.height)"
    } catch {
      decoded = "\(error)"
    }
    let checked: String
    do {
      let size = try PNG.check(bytes, maximumPixels: maximumPixels)
      checked = "\(size.width)×\(size.height)"
    } catch {
      checked = "\(error)"
    }
    return (decoded, checked)
  }

  @Test func hugeImagesAreRefusedFromTheHeaderAlone() throws {
    var png = try PNG.encode(Bitmap(width: 2, height: 2, color: .white))
    let size: [UInt8] = [0x00, 0x01, 0x86, 0xA0]
    png.replaceSubrange(16..<20, with: size)
    png.replaceSubrange(20..<24, with: size)
    #expect(throws: GraphicsError(.imageTooLarge, "PNG of 100000×100000 pixels is larger than the limit of 1000000 pixels")) {
      try PNG.decodeRGBA(png, maximumPixels: 1_000_000)
    }
    #expect(throws: GraphicsError(.imageTooLarge, "PNG of 100000×100000 pixels is larger than the limit of 1000000 pixels")) {
      try PNG.decode(png, maximumPixels: 1_000_000)
    }
    // The largest sides a header can claim, whose product overflows an Int: the fuzzer's
    // find, which stopped the images' decode with an arithmetic overflow.
    png.replaceSubrange(16..<24, with: [UInt8](repeating: 0xFF, count: 8))
    for decode in [{ _ = try PNG.decode(png) }, { _ = try PNG.decodeRGBA(png) }, { _ = try ImageDecoder.size(of: png) }] {
      #expect(throws: GraphicsError.self) { try decode() }
    }
  }

  @Test func jpegAndWebPDecodeToRGBA() throws {
    let canvas = try Canvas(pixelWidth: 24, pixelHeight: 16, scale: 1)
    canvas.clear(Color(r: 250, g: 120, b: 10))
    let bitmap = try canvas.bitmap()
    let webp = try ImageDecoder.decodeRGBA(WebP.encodeLossless(bitmap))
    #expect(webp == RGBAImage(bitmap))
    let jpeg = try ImageDecoder.decodeRGBA(JPEG.encode(bitmap, quality: 95))
    #expect(jpeg.width == 24 && jpeg.height == 16)
    #expect(jpeg.bitmap == (try JPEG.decode(JPEG.encode(bitmap, quality: 95))))
    #expect(throws: GraphicsError.self) { try ImageDecoder.decodeRGBA(Array("GIF89a".utf8)) }
  }
}

/// The one-pass comparison of a rendered bitmap with decoded reference pixels agrees with
/// converting the bitmap first, for opaque, translucent and fully transparent pixels.
@Suite struct StraightPixelComparisonTests {
  @Test func agreesWithTheConversionPixelByPixel() {
    // Premultiplied BGRA: opaque red, half-transparent blue, fully transparent, a dark gray at 3/255.
    let pixels: [UInt8] = [0, 0, 255, 255, 128, 0, 0, 128, 0, 0, 0, 0, 1, 1, 1, 3]
    let bitmap = Bitmap(width: 2, height: 2, pixels: pixels)
    let straight = RGBAImage(bitmap)
    #expect(bitmap.hasStraightPixels(of: straight))
    for index in straight.pixels.indices {
      var changed = straight
      changed.pixels[index] ^= 1
      #expect(!bitmap.hasStraightPixels(of: changed), "byte \(index)")
    }
    #expect(!bitmap.hasStraightPixels(of: RGBAImage(width: 1, height: 4, pixels: straight.pixels)))
  }
}

/// A row of a render against the same row of an opaque reference as its PNG stores it (RGB,
/// three bytes a pixel), without converting either: what a check's identical case costs.
@Suite struct OpaqueRowComparisonTests {
  @Test func agreesWithTheConversionForEveryWidthAndByte() {
    for width in [1, 3, 4, 5, 8, 11] {
      var pixels: [UInt8] = []
      for index in 0..<(width * 2) { pixels += [UInt8(index * 7 % 256), UInt8(index * 31 % 256), UInt8(255 - index), 255] }
      let bitmap = Bitmap(width: width, height: 2, pixels: pixels)
      let straight = RGBAImage(bitmap).pixels
      for row in 0..<2 {
        // The row as an RGB PNG stores it: the straight pixels without their alpha.
        var rgb: [UInt8] = []
        for column in 0..<width {
          let start = (row * width + column) * 4
          rgb += straight[start..<(start + 3)]
        }
        #expect(bitmap.hasOpaquePixels(row: row, rgb: rgb), "width \(width) row \(row)")
        for index in rgb.indices {
          var changed = rgb
          changed[index] ^= 0x10
          #expect(!bitmap.hasOpaquePixels(row: row, rgb: changed), "width \(width) row \(row) byte \(index)")
        }
        // A translucent pixel is never an RGB reference's, whatever its colors.
        for column in 0..<width {
          var translucent = bitmap
          translucent.pixels[(row * width + column) * 4 + 3] = 254
          #expect(!translucent.hasOpaquePixels(row: row, rgb: rgb), "width \(width) row \(row) column \(column)")
        }
      }
    }
  }
}
