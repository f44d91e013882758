import Foundation
import RowKitTestSupport
import Testing
@testable import RowKitGraphics

/// The fast pixel conversion of PNG encoding against the plain one it replaced: any byte it
/// got wrong would change every PNG RowKit writes.
@Suite struct StraightRGBTests {
  /// The conversion written the obvious way, one channel at a time, with Cairo's rounding.
  static func reference(_ bitmap: Bitmap, rows: Range<Int>, alpha: Bool, filterBytes: Bool) -> [UInt8] {
    var result: [UInt8] = []
    for y in rows {
      if filterBytes { result.append(0) }
      for x in 0..<bitmap.width {
        let index = (y * bitmap.width + x) * 4
        let (b, g, r, a) = (
          Int(bitmap.pixels[index]), Int(bitmap.pixels[index + 1]), Int(bitmap.pixels[index + 2]),
          Int(bitmap.pixels[index + 3])
        )
        if !alpha {
          result += [UInt8(r), UInt8(g), UInt8(b)]
        } else if a == 0 {
          result += [0, 0, 0, 0]
        } else {
          result += [r, g, b].map { UInt8(($0 * 255 + a / 2) / a) } + [UInt8(a)]
        }
      }
    }
    return result
  }

  /// Random premultiplied pixels (every channel at most its alpha), with the alphas that
  /// take other paths or round at the edges: 0, 1, 254 and 255.
  static func randomBitmap(width: Int, height: Int, opaque: Bool, seed: UInt64) -> Bitmap {
    var generator = SeededGenerator(seed: seed)
    var pixels: [UInt8] = []
    for _ in 0..<(width * height) {
      let a: UInt8 = opaque ? 255 : [0, 1, 254, 255, UInt8.random(in: 0...255, using: &generator)].randomElement(using: &generator)!
      pixels += (0..<3).map { _ in UInt8.random(in: 0...a, using: &generator) } + [a]
    }
    return Bitmap(width: width, height: height, pixels: pixels)
  }

  @Test(arguments: [1, 2, 3, 4, 5, 7, 8, 9, 750])
  func opaqueRGBMatchesTheReference(width: Int) {
    let bitmap = Self.randomBitmap(width: width, height: 5, opaque: true, seed: UInt64(width))
    for (rows, filterBytes) in [(0..<5, true), (1..<4, true), (0..<5, false), (2..<2, true)] {
      #expect(bitmap.straightRGB(rows: rows, alpha: false, filterBytes: filterBytes)
        == Self.reference(bitmap, rows: rows, alpha: false, filterBytes: filterBytes))
    }
  }

  /// The one-pass opacity check: the scanlines of opaque rows, and nil as soon as one pixel
  /// of the rows asked for is not opaque, whether it falls in the vector loop (16 pixels at
  /// a time, where the processor has byte shuffles), the four-pixel loop or the pixels after
  /// them; the same bytes with the vector loop and without it.
  @Test(arguments: [1, 3, 4, 5, 15, 16, 17, 31, 32, 35, 750])
  func opaqueScanlinesCheckEveryPixelTheyConvert(width: Int) {
    let bitmap = Self.randomBitmap(width: width, height: 6, opaque: true, seed: 200 + UInt64(width))
    let reference = Self.reference(bitmap, rows: 0..<6, alpha: false, filterBytes: true)
    #expect(bitmap.opaquePNGScanlines(rows: 0..<6) == reference)
    #expect(bitmap.convert(rows: 0..<6, alpha: false, filterBytes: true, vectorized: false).bytes == reference)
    #expect(bitmap.convert(rows: 0..<6, alpha: false, filterBytes: false, vectorized: false).bytes
      == bitmap.convert(rows: 0..<6, alpha: false, filterBytes: false).bytes)
    #expect(bitmap.opaquePNGScanlines(rows: 2..<5) == bitmap.pngScanlines(rows: 2..<5, color: .rgb))
    #expect(bitmap.opaquePNGScanlines(rows: 3..<3) == [])
    for x in Set([0, width / 2, width - 1, min(width - 1, 17)]) {
      for alpha in [0, 1, 254] {
        var translucent = bitmap
        let index = (4 * width + x) * 4
        translucent.pixels[index + 3] = UInt8(alpha)
        for channel in 0..<3 { translucent.pixels[index + channel] = min(translucent.pixels[index + channel], UInt8(alpha)) }
        for vectorized in [true, false] {
          let converted = translucent.convert(rows: 0..<6, alpha: false, filterBytes: true, vectorized: vectorized)
          #expect(!converted.opaque, "pixel \(x) of row 4, alpha \(alpha), vectorized: \(vectorized)")
        }
        #expect(translucent.opaquePNGScanlines(rows: 0..<6) == nil)
        #expect(translucent.opaquePNGScanlines(rows: 4..<5) == nil)
        #expect(translucent.opaquePNGScanlines(rows: 0..<4) != nil, "row 4 not asked for")
        #expect(translucent.opaquePNGScanlines(rows: 5..<6) != nil)
      }
    }
  }

  @Test(arguments: [1, 3, 4, 33])
  func translucentRGBAMatchesTheReference(width: Int) {
    let bitmap = Self.randomBitmap(width: width, height: 40, opaque: false, seed: 100 + UInt64(width))
    for (rows, filterBytes) in [(0..<40, true), (5..<17, true), (0..<40, false)] {
      #expect(bitmap.straightRGB(rows: rows, alpha: true, filterBytes: filterBytes)
        == Self.reference(bitmap, rows: rows, alpha: true, filterBytes: filterBytes))
    }
  }

  /// Every premultiplied channel value under every alpha: the reciprocal must divide exactly.
  @Test func everyChannelUnderEveryAlphaUnpremultipliesAsCairoDoes() {
    var pixels: [UInt8] = []
    for a in 0...255 {
      for c in 0...255 {
        let channel = UInt8(min(c, a))
        pixels += [channel, UInt8(min(255 - c, a)), channel, UInt8(a)]
      }
    }
    let bitmap = Bitmap(width: 256, height: 256, pixels: pixels)
    #expect(bitmap.straightRGB(alpha: true) == Self.reference(bitmap, rows: 0..<256, alpha: true, filterBytes: false))
  }

  /// The bitwise CRC-32 of zlib and PNG, against ISA-L's.
  @Test func chunkChecksumsArePNGs() {
    var generator = SeededGenerator(seed: 7)
    for count in [0, 1, 15, 16, 17, 255, 4096, 100_003] {
      let bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
      #expect(CRC32.checksum(bytes) == CraftedPNG.crc32(bytes))
      #expect(CRC32.checksum(bytes[(count / 3)...]) == CRC32.checksum(Array(bytes[(count / 3)...])))
    }
  }
}

/// SplitMix64: the same pixels on every run.
private struct SeededGenerator: RandomNumberGenerator {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D4_9BA4_EB11_133F
    return z ^ (z >> 31)
  }
}
