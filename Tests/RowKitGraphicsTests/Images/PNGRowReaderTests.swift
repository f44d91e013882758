import Foundation
import RowKitTestSupport
import Testing

@testable import RowKitGraphics

/// The PNG reader that decodes a few rows at a time (`PNGRowReader`), what `rowkit check`
/// and `rowkit diff` compare through: row for row the whole decode's pixels, the same
/// refusals, and files of any height in a few rows of memory.
@Suite struct PNGRowReaderTests {
  func samples(_ count: Int, below limit: Int, seed: UInt64 = 1) -> [Int] {
    var state = seed &* 0x9E37_79B9_7F4A_7C15
    return (0..<count).map { _ in
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((state >> 33) % UInt64(limit))
    }
  }

  /// `reader`'s rows, read `step` at a time, and checked to the end.
  func streamed(_ reader: PNGRowReader, step: Int) throws -> RGBAImage {
    var pixels = [UInt8](repeating: 0, count: reader.width * reader.height * 4)
    try pixels.withUnsafeMutableBytes { buffer in
      while reader.rowsRead < reader.height {
        let count = min(step, reader.height - reader.rowsRead)
        try reader.read(count, into: buffer.baseAddress! + reader.rowsRead * reader.width * 4)
      }
    }
    try reader.finish()
    return RGBAImage(width: reader.width, height: reader.height, pixels: pixels)
  }

  @Test func everyFormatReadsRowByRowAsTheWholeDecodeReadsIt() throws {
    let formats = [(0, 1), (0, 4), (0, 16), (2, 8), (2, 16), (3, 2), (3, 8), (4, 8), (4, 16), (6, 8), (6, 16)]
    for (colorType, depth) in formats {
      let channels = [0: 1, 2: 3, 3: 1, 4: 2, 6: 4][colorType]!
      let (width, height) = (13, 11)
      let limit = colorType == 3 ? min(1 << depth, 4) : 1 << depth
      let values = samples(width * height * channels, below: limit, seed: UInt64(colorType * 100 + depth))
      for interlaced in [false, true] {
        for filters in [[0], [4, 3, 2, 1, 0], [4, 4, 1]] as [[UInt8]] {
          let png = CraftedPNG.make(
            width: width, height: height, colorType: colorType, depth: depth, samples: values, interlaced: interlaced,
            filters: filters, palette: colorType == 3 ? [9, 8, 7, 200, 100, 50, 0, 255, 128, 1, 2, 3] : [],
            transparency: colorType == 3 ? [255, 0, 128] : nil)
          let whole = try PNG.decodeRGBA(png)
          for step in [1, 2, 3, 7, height] {
            #expect(
              try streamed(PNGRowReader(png), step: step) == whole,
              "type \(colorType) depth \(depth) interlaced \(interlaced) filters \(filters) step \(step)")
          }
        }
      }
    }
  }

  /// Comparing rows where they are decoded (`readMatching`, how a check compares a render
  /// with its reference) says what decoding them and comparing them with the bitmap
  /// un-premultiplied says, in every format, strip by strip, up to the first strip that
  /// differs.
  @Test func everyFormatComparesWithABitmapAsItsDecodedRowsDo() throws {
    let formats = [(0, 4), (0, 16), (2, 8), (2, 16), (3, 8), (4, 8), (6, 8), (6, 16)]
    let (width, height) = (13, 11)
    for (colorType, depth) in formats {
      let channels = [0: 1, 2: 3, 3: 1, 4: 2, 6: 4][colorType]!
      let limit = colorType == 3 ? 4 : 1 << depth
      let values = samples(width * height * channels, below: limit, seed: UInt64(colorType * 10 + depth))
      for interlaced in [false, true] {
        let png = CraftedPNG.make(
          width: width, height: height, colorType: colorType, depth: depth, samples: values, interlaced: interlaced,
          filters: [4, 3, 2, 1, 0], palette: colorType == 3 ? [9, 8, 7, 200, 100, 50, 0, 255, 128, 1, 2, 3] : [],
          transparency: colorType == 3 ? [255, 255, 128] : nil)
        let decoded = try PNG.decodeRGBA(png)
        for changedRow in [nil, 0, 6, 10] as [Int?] {
          var bitmap = decoded.bitmap
          if let changedRow {
            let index = (changedRow * width + 5) * 4
            bitmap.pixels[index] ^= 0x40
            bitmap.pixels[index + 3] = 255
          }
          let label = "type \(colorType) depth \(depth) interlaced \(interlaced) changed row \(changedRow.map(String.init) ?? "none")"
          let reader = try PNGRowReader(png)
          var top = 0
          var step = 0
          while top < height {
            let rows = top..<min(height, top + [1, 2, 3, 5][step % 4])
            let expected = RGBAImage(bitmap.cropping(rows: rows)).pixels
              == Array(decoded.pixels[(rows.lowerBound * width * 4)..<(rows.upperBound * width * 4)])
            let matched = try reader.readMatching(bitmap, rows: rows)
            #expect(matched == expected, "\(label) rows \(rows)")
            guard matched else { break }
            top = rows.upperBound
            step += 1
          }
          if top == height { try reader.finish() }
          // Opaque formats premultiply without loss: only a changed pixel tells them apart.
          if colorType == 0 || colorType == 2 { #expect((top == height) == (changedRow == nil), "\(label)") }
        }
      }
    }
  }

  /// Parts one below the other, and a render's strips, compare across the ends of their
  /// parts; two premultiplied forms of one straight pixel are the same pixel.
  @Test func stackedPartsAndStripsCompareAcrossTheirEnds() throws {
    let (width, height) = (9, 10)
    let bitmap = RGBAImage(width: width, height: height, pixels: samples(width * height * 4, below: 256, seed: 3).map(UInt8.init)).bitmap
    let straight = RGBAImage(bitmap)
    func stacked() -> StackedRows {
      let tops = [0, 3, 7, 10]
      return StackedRows(width: width, heights: [3, 4, 3]) { part in
        RGBAImageRows(RGBAImage(bitmap.cropping(rows: tops[part]..<tops[part + 1])))
      }
    }
    let strips = BitmapRows([bitmap.cropping(rows: 0..<4), bitmap.cropping(rows: 4..<10)], width: width)
    for source in [stacked(), strips, RGBAImageRows(straight)] as [any RGBARowSource] {
      #expect(try source.readMatching(bitmap, rows: 0..<2))
      #expect(try source.readMatching(bitmap, rows: 2..<7))
      #expect(try source.readMatching(bitmap, rows: 7..<10))
      try source.finish()
    }
    var changed = bitmap
    changed.pixels[(5 * width + 2) * 4 + 1] ^= 1
    changed.pixels[(5 * width + 2) * 4 + 3] = 255
    for source in [stacked(), BitmapRows([bitmap], width: width), RGBAImageRows(straight)] as [any RGBARowSource] {
      #expect(try source.readMatching(changed, rows: 0..<4))
      #expect(try !source.readMatching(changed, rows: 4..<7))
    }
    // A transparent pixel with color bytes left in it is transparent black, as Cairo's zeros are.
    let clear = Bitmap(width: 2, height: 1, pixels: [0, 0, 0, 0, 9, 9, 9, 255])
    let tinted = Bitmap(width: 2, height: 1, pixels: [7, 1, 3, 0, 9, 9, 9, 255])
    #expect(try BitmapRows([clear], width: 2).readMatching(tinted, rows: 0..<1))
    #expect(try !BitmapRows([clear], width: 2).readMatching(Bitmap(width: 2, height: 1, pixels: [0, 0, 0, 0, 9, 9, 8, 255]), rows: 0..<1))
  }

  /// RowKit's own PNGs are one IDAT chunk per strip; others split the data anywhere, with
  /// other chunks between. A file is read a block at a time, and chunks cross the blocks.
  @Test func imageDataInManyChunksReadFromAFileABlockAtATime() throws {
    let (width, height) = (700, 300)
    let pixels = samples(width * height * 4, below: 256, seed: 7).map(UInt8.init)
    let image = RGBAImage(width: width, height: height, pixels: pixels)
    let writer = try PNGStreamWriter(width: width, color: .rgba)
    try pixels.withUnsafeBytes { raw in
      for top in stride(from: 0, to: height, by: 37) {
        let rows = min(37, height - top)
        let scanlines = PNGStrip.scanlines(straightRGBA: raw.baseAddress! + top * width * 4, width: width, rows: rows, color: .rgba)
        try writer.append(PNGStrip(scanlines: scanlines, width: width, rows: rows, color: .rgba))
      }
    }
    let file = try writer.finish()
    #expect(file.count > 2 * PNGByteStream.capacity, "the file spans several blocks")
    let folder = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let url = folder.appendingPathComponent("strips.png")
    try Data(file).write(to: url)
    #expect(try streamed(PNGRowReader(contentsOf: url), step: 5) == image)
    #expect(try PNG.decodeRGBA(file) == image)

    // The crafted file's one IDAT chunk cut into pieces of 100 bytes, a text chunk between
    // two of them.
    let crafted = CraftedPNG.rgba(RGBAImage(width: 40, height: 30, pixels: Array(pixels.prefix(40 * 30 * 4))), filters: [1, 4])
    let start = 8 + 25
    let length = Int(crafted[start]) << 24 | Int(crafted[start + 1]) << 16 | Int(crafted[start + 2]) << 8 | Int(crafted[start + 3])
    let data = Array(crafted[(start + 8)..<(start + 8 + length)])
    var split = Array(crafted[0..<start])
    for (index, piece) in stride(from: 0, to: data.count, by: 100).enumerated() {
      split += CraftedPNG.chunk("IDAT", Array(data[piece..<min(data.count, piece + 100)]))
      if index == 3 { split += CraftedPNG.chunk("tEXt", Array("Comment\0between".utf8)) }
    }
    split += CraftedPNG.chunk("IEND", [])
    #expect(try streamed(PNGRowReader(split), step: 4) == PNG.decodeRGBA(crafted))
  }

  /// What the whole decode refuses, the row reader refuses, by the end of the file at the
  /// latest, for the same reason.
  @Test func damagedFilesFailForTheReasonTheWholeDecodeGives() throws {
    let good = CraftedPNG.make(width: 4, height: 3, colorType: 6, depth: 8, samples: samples(48, below: 256))
    let start = 8 + 25
    var badCRC = good
    badCRC[40] ^= 0x55
    let oneRow = CraftedPNG.make(width: 1, height: 1, colorType: 6, depth: 8, samples: [1, 2, 3, 4])
    let badFilter = Array(oneRow[0..<start]) + CraftedPNG.chunk("IDAT", CraftedPNG.zlibStored([9, 1, 2, 3, 4]))
      + CraftedPNG.chunk("IEND", [])
    let short = Array(oneRow[0..<start]) + CraftedPNG.chunk("IDAT", CraftedPNG.zlibStored([0, 1, 2])) + CraftedPNG.chunk("IEND", [])
    let idat = CraftedPNG.make(width: 4, height: 3, colorType: 6, depth: 8, samples: [Int](repeating: 7, count: 48))
    let length = Int(idat[start]) << 24 | Int(idat[start + 1]) << 16 | Int(idat[start + 2]) << 8 | Int(idat[start + 3])
    var stream = Array(idat[(start + 8)..<(start + 8 + length)])
    stream[10] ^= 1
    let badChecksum = Array(idat[0..<start]) + CraftedPNG.chunk("IDAT", stream) + CraftedPNG.chunk("IEND", [])
    let cases: [(String, [UInt8])] = [
      ("no PNG signature", Array("not a png".utf8)), ("CRC does not match", badCRC), ("filter type 9", badFilter),
      ("ends early", short), ("checksum does not match", badChecksum), ("IEND", Array(oneRow.prefix(oneRow.count - 12))),
      ("PNG data is damaged", Array(good.prefix(good.count - 20))),
    ]
    for (reason, bytes) in cases {
      #expect(throws: GraphicsError.self) { try PNG.decodeRGBA(bytes) }
      do {
        _ = try streamed(PNGRowReader(bytes), step: 1)
        Issue.record("\(reason): read without an error")
      } catch {
        #expect("\(error)".contains(reason), "\(reason): \(error)")
      }
    }
  }

  /// Image data that goes on past the last row is ignored, as libpng ignores it, but only up
  /// to a bound: libpng inflates all of it, and 20 MB of deflate that inflates to 20 GB past
  /// the rows kept `rowkit diff` and `accept` of a pull request's file busy for 9 seconds,
  /// and a render of a document showing it as an image for 28.
  @Test func imageDataPastTheLastRowIsBounded() throws {
    let start = 8 + 25
    let header = Array(CraftedPNG.make(width: 1, height: 1, colorType: 6, depth: 8, samples: [1, 2, 3, 4])[0..<start])
    func withTrailing(_ count: Int) -> [UInt8] {
      header + CraftedPNG.chunk("IDAT", CraftedPNG.zlibStored([0, 1, 2, 3, 4] + [UInt8](repeating: 0, count: count)))
        + CraftedPNG.chunk("IEND", [])
    }
    for (count, reads) in [(0, true), (1_000, true), (PNGRowInflater.maximumTrailingBytes, true), (PNGRowInflater.maximumTrailingBytes + 1, false)] {
      let bytes = withTrailing(count)
      if reads {
        #expect(try PNG.decodeRGBA(bytes).pixels == [1, 2, 3, 4], "\(count) bytes past the row")
        #expect(try streamed(PNGRowReader(bytes), step: 1).pixels == [1, 2, 3, 4], "\(count) bytes past the row")
        #expect(try PNG.check(bytes) == (1, 1))
        let bitmap = try PNG.decode(bytes)
        #expect(bitmap.width == 1 && bitmap.height == 1, "libpng's decode, for images")
      } else {
        for read in [
          { _ = try PNG.decodeRGBA(bytes) }, { _ = try streamed(PNGRowReader(bytes), step: 1) }, { _ = try PNG.check(bytes) },
          { _ = try PNG.decode(bytes) },
        ] {
          #expect {
            try read()
          } throws: { error in
            "\(error)" == "PNG data is damaged: the image data goes on for more than 1 MB past the last row"
          }
        }
      }
    }
  }

  /// No more than a few rows are held, so the pixel limit of a whole decode does not apply;
  /// an interlaced image, decoded whole, keeps it, and the width has a limit of its own.
  @Test func anImageOverThePixelLimitIsReadRowByRow() throws {
    let (width, height) = (3, 5000)
    let values = (0..<(width * height * 3)).map { ($0 / 9) % 256 }
    let png = CraftedPNG.make(width: width, height: height, colorType: 2, depth: 8, samples: values, filters: [2])
    #expect(throws: GraphicsError.self) { try PNG.decodeRGBA(png, maximumPixels: 10_000) }
    let reader = try PNGRowReader(png, maximumPixels: 10_000)
    #expect(try streamed(reader, step: 64) == PNG.decodeRGBA(png))
    let interlaced = CraftedPNG.make(width: width, height: height, colorType: 2, depth: 8, samples: values, interlaced: true)
    #expect(throws: GraphicsError.self) { try PNGRowReader(interlaced, maximumPixels: 10_000) }
    #expect(throws: GraphicsError.self) { try PNGRowReader(png, maximumWidth: 2) }
  }

  /// A FIFO under a reference's name would block a reader forever: it is refused before
  /// anything is read.
  @Test func aFIFOIsRefusedWithoutWaitingForAWriter() throws {
    let folder = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let fifo = folder.appendingPathComponent("fifo.png")
    #expect(mkfifo(fifo.path, 0o644) == 0)
    #expect(throws: GraphicsError(.pngDecode, "not a regular file")) { try PNGRowReader(contentsOf: fifo) }
    #expect(throws: GraphicsError.self) { try PNG.header(contentsOf: fifo) }
  }
}
