import Foundation
import RowKitGraphics

/// PNG files written by hand, with stored (uncompressed) deflate blocks: any color type, bit
/// depth, row filter and interlacing a reader must handle, and straight-alpha RGBA that
/// RowKit's own encoder, which starts from premultiplied bitmaps, cannot express.
public enum CraftedPNG {
  /// A PNG of `samples`, row by row, each sample an integer at `depth` bits: gray (0), red,
  /// green, blue (2), a palette index (3), gray and alpha (4), or red, green, blue, alpha (6).
  /// Row `r` of each pass is filtered with `filters[r % filters.count]`.
  public static func make(
    width: Int, height: Int, colorType: Int, depth: Int, samples: [Int], interlaced: Bool = false,
    filters: [UInt8] = [0, 1, 2, 3, 4], palette: [UInt8] = [], transparency: [UInt8]? = nil
  ) -> [UInt8] {
    let channels = [0: 1, 2: 3, 3: 1, 4: 2, 6: 4][colorType]!
    precondition(samples.count == width * height * channels)
    let bitsPerPixel = channels * depth
    let bytesPerPixel = max(1, bitsPerPixel / 8)
    let passes = interlaced ? [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)] : [(0, 0, 1, 1)]
    var scanlines: [UInt8] = []
    for (startX, startY, stepX, stepY) in passes {
      let columns = Array(stride(from: startX, to: width, by: stepX))
      let rows = Array(stride(from: startY, to: height, by: stepY))
      guard !columns.isEmpty, !rows.isEmpty else { continue }
      var prior = [UInt8](repeating: 0, count: (columns.count * bitsPerPixel + 7) / 8)
      for (index, y) in rows.enumerated() {
        var line = [UInt8](repeating: 0, count: prior.count)
        var bit = 0
        for x in columns {
          for channel in 0..<channels {
            let value = samples[(y * width + x) * channels + channel]
            if depth == 16 {
              line[bit / 8] = UInt8(value >> 8)
              line[bit / 8 + 1] = UInt8(value & 0xFF)
            } else {
              line[bit / 8] |= UInt8(value << (8 - depth - bit % 8) & 0xFF)
            }
            bit += depth
          }
        }
        let filter = filters[index % filters.count]
        scanlines.append(filter)
        scanlines += Self.filter(filter, line, prior: prior, bytesPerPixel: bytesPerPixel)
        prior = line
      }
    }
    var header = bigEndian(UInt32(width)) + bigEndian(UInt32(height))
    header += [UInt8(depth), UInt8(colorType), 0, 0, interlaced ? 1 : 0]
    var file: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    file += chunk("IHDR", header)
    if !palette.isEmpty { file += chunk("PLTE", palette) }
    if let transparency { file += chunk("tRNS", transparency) }
    file += chunk("IDAT", zlibStored(scanlines))
    file += chunk("IEND", [])
    return file
  }

  /// 8-bit RGBA with straight alpha, exactly the image's bytes.
  public static func rgba(_ image: RGBAImage, filters: [UInt8] = [0]) -> [UInt8] {
    make(width: image.width, height: image.height, colorType: 6, depth: 8, samples: image.pixels.map(Int.init), filters: filters)
  }

  /// An 8-bit RGB PNG of any size written to `url` a strip at a time, whose row `y` is
  /// `row(y)` (`width × 3` bytes): images too large to be whole in a test's memory, and
  /// small as files when their rows repeat.
  public static func large(width: Int, height: Int, to url: URL, row: (Int) -> [UInt8]) throws {
    guard FileManager.default.createFile(atPath: url.path, contents: nil) else { throw CocoaError(.fileWriteUnknown) }
    let handle = try FileHandle(forWritingTo: url)
    defer { try? handle.close() }
    let writer = try PNGStreamWriter(width: width, color: .rgb, file: handle)
    let stripRows = max(1, (1 << 22) / width)
    for top in stride(from: 0, to: height, by: stripRows) {
      let rows = min(stripRows, height - top)
      var scanlines: [UInt8] = []
      scanlines.reserveCapacity(rows * (1 + width * 3))
      for y in top..<(top + rows) {
        scanlines.append(0)
        scanlines += row(y)
      }
      try writer.append(PNGStrip(scanlines: scanlines, width: width, rows: rows, color: .rgb))
    }
    try writer.finish()
  }

  /// A row filtered as a PNG encoder would.
  static func filter(_ type: UInt8, _ line: [UInt8], prior: [UInt8], bytesPerPixel bpp: Int) -> [UInt8] {
    var out = line
    for index in line.indices {
      let left = index >= bpp ? Int(line[index - bpp]) : 0
      let up = Int(prior[index])
      let upperLeft = index >= bpp ? Int(prior[index - bpp]) : 0
      let predictor: Int
      switch type {
      case 0: predictor = 0
      case 1: predictor = left
      case 2: predictor = up
      case 3: predictor = (left + up) / 2
      default:
        let estimate = left + up - upperLeft
        let (toLeft, toUp, toUpperLeft) = (abs(estimate - left), abs(estimate - up), abs(estimate - upperLeft))
        predictor = toLeft <= toUp && toLeft <= toUpperLeft ? left : toUp <= toUpperLeft ? up : upperLeft
      }
      out[index] = UInt8((Int(line[index]) - predictor) & 0xFF)
    }
    return out
  }

  /// A zlib stream of stored blocks.
  public static func zlibStored(_ data: [UInt8]) -> [UInt8] {
    var out: [UInt8] = [0x78, 0x01]
    var offset = 0
    repeat {
      let count = min(65535, data.count - offset)
      let final: UInt8 = offset + count == data.count ? 1 : 0
      out += [final, UInt8(count & 0xFF), UInt8(count >> 8), UInt8(~count & 0xFF), UInt8((~count >> 8) & 0xFF)]
      out += data[offset..<(offset + count)]
      offset += count
    } while offset < data.count
    var a: UInt32 = 1
    var b: UInt32 = 0
    for byte in data {
      a = (a + UInt32(byte)) % 65521
      b = (b + a) % 65521
    }
    return out + bigEndian(b << 16 | a)
  }

  /// A chunk: length, type, data, CRC of type and data.
  public static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
    let body = Array(type.utf8) + data
    return bigEndian(UInt32(data.count)) + body + bigEndian(crc32(body))
  }

  public static func crc32(_ bytes: [UInt8]) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
      crc ^= UInt32(byte)
      for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
    }
    return ~crc
  }

  static func bigEndian(_ value: UInt32) -> [UInt8] {
    [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
  }
}
