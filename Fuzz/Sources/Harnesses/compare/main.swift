import Foundation
import FuzzSupport
import RowKitGraphics
import RowKitSnapshot

/// Two images compared as `rowkit diff` compares them (pixelmatch 7.2's semantics), with
/// tolerances and ignored regions as the command line gives them, then the diff image and
/// the composite drawn and the result printed and encoded, as `diff -o … --composite … --json`
/// does. The layout of an input:
///
/// - byte 0, flags: 1 ignore antialiasing, 2 stop at the first deciding pixel (`diff -q`),
///   4 the images are encoded files (else raw pixels), 8 draw the diff images, 16 regions as
///   numbers anywhere in Int's range (else 16-bit), 32 a max-diff-pixels, 64 a max-diff-ratio, 128 a
///   max-cluster-pixels;
/// - byte 1, the threshold (÷ 255); byte 2, the number of ignored regions (0 to 3); byte 3,
///   the noise mask between raw images; then the regions (four numbers each), then 2 bytes
///   of max diff pixels, 1 of ratio, 1 of cluster pixels (each only with its flag);
/// - encoded: an 8-byte length (big-endian, its low 32 bits), then the first file, then the second; raw: four bytes of
///   sizes (1 to 32 each), then pixels, the second image the first with noise.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCompare(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  var input = Reader(Fuzz.bytes(data, size))
  let flags = input.byte()
  let threshold = Double(input.byte()) / 255
  let regionCount = Int(input.byte() % 4)
  let noise = input.byte()
  var regions: [String] = []
  for _ in 0..<regionCount {
    let numbers = (0..<4).map { _ in flags & 16 != 0 ? input.extreme() : Int(input.int16()) }
    regions.append(numbers.map(String.init).joined(separator: ","))
  }
  let maxDiffPixels = flags & 32 != 0 ? Int(UInt16(bitPattern: input.int16())) : nil
  let maxDiffRatio = flags & 64 != 0 ? Double(input.byte()) / 255 : nil
  let maxClusterPixels = flags & 128 != 0 ? Int(input.byte()) : nil

  // As ToleranceOptions.comparisonOptions(): a region that does not parse, or a knob out of
  // range, is refused before anything is compared.
  var parsed: [PixelRect] = []
  for text in regions {
    guard let region = PixelRect(parsing: text) else { return 0 }
    parsed.append(region)
  }
  let options = ComparisonOptions(
    threshold: threshold, ignoresAntialiasing: flags & 1 != 0, maxDiffPixels: maxDiffPixels,
    maxDiffRatio: maxDiffRatio, maxClusterPixels: maxClusterPixels, ignoredRegions: parsed)
  if options.problem != nil { return 0 }

  let first: RGBAImage
  let second: RGBAImage
  if flags & 4 != 0 {
    // As Diff.load: each file decoded whole; an error ends the command with status 2.
    let length = Int(UInt32(truncatingIfNeeded: input.int64() & 0xFFFF_FFFF))
    let rest = input.rest()
    guard length <= rest.count,
      let a = try? ImageDecoder.decodeRGBA(Array(rest[..<length])),
      let b = try? ImageDecoder.decodeRGBA(Array(rest[length...]))
    else { return 0 }
    // A large image is legitimate but slow; the fuzzer's time is better spent on small ones.
    guard a.width * a.height <= 1 << 16, b.width * b.height <= 1 << 16 else { return 0 }
    first = a
    second = b
  } else {
    let sizes = (0..<4).map { _ in 1 + Int(input.byte() % 32) }
    let pixels = input.rest()
    first = raw(width: sizes[0], height: sizes[1], pixels, noise: 0)
    second = raw(width: sizes[2], height: sizes[3], pixels, noise: noise, like: first)
  }

  if flags & 2 != 0 && flags & 8 == 0 {
    _ = ImageComparison.matches(first, second, options: options)
    return 0
  }
  let outcome = ImageComparison.compare(first, second, options: options)
  if flags & 8 != 0 {
    let diff = DiffImage.make(outcome, reference: first, actual: second)
    _ = DiffImage.composite([first.bitmap, diff, second.bitmap])
  }
  _ = outcome.result.summary
  _ = try? JSONEncoder().encode(outcome.result)
  return 0
}

/// An image of `width` × `height` whose bytes cycle through `bytes`; with `like`, each byte
/// is that image's byte at the same pixel (where it has one) XOR `noise` masked by the
/// input, so the two images mostly agree.
func raw(width: Int, height: Int, _ bytes: [UInt8], noise: UInt8, like: RGBAImage? = nil) -> RGBAImage {
  var pixels = [UInt8](repeating: 0, count: width * height * 4)
  for y in 0..<height {
    for x in 0..<width {
      for channel in 0..<4 {
        let index = (y * width + x) * 4 + channel
        let source = bytes.isEmpty ? 0 : bytes[index % bytes.count]
        if let like, x < like.width, y < like.height {
          pixels[index] = like.pixels[(y * like.width + x) * 4 + channel] ^ (source & noise)
        } else {
          pixels[index] = source
        }
      }
    }
  }
  return RGBAImage(width: width, height: height, pixels: pixels)
}

/// Reads an input front to back; past its end, zeros.
struct Reader {
  let bytes: [UInt8]
  var offset = 0

  init(_ bytes: [UInt8]) { self.bytes = bytes }

  mutating func byte() -> UInt8 {
    defer { offset += 1 }
    return offset < bytes.count ? bytes[offset] : 0
  }

  mutating func int16() -> Int16 {
    Int16(bitPattern: UInt16(byte()) << 8 | UInt16(byte()))
  }

  mutating func int64() -> Int {
    var value: UInt64 = 0
    for _ in 0..<8 { value = value << 8 | UInt64(byte()) }
    return Int(truncatingIfNeeded: value)
  }

  /// A number near the ends of Int's range as often as not, where arithmetic overflows: a
  /// selector byte, then 2 bytes (small, Int.max − n, Int.min + n) or 8 bytes (any).
  mutating func extreme() -> Int {
    switch byte() % 4 {
    case 0: return Int(int16())
    case 1: return Int.max - Int(UInt16(bitPattern: int16()))
    case 2: return Int.min + Int(UInt16(bitPattern: int16()))
    default: return int64()
    }
  }

  mutating func rest() -> [UInt8] {
    defer { offset = bytes.count }
    return offset < bytes.count ? Array(bytes[offset...]) : []
  }
}
