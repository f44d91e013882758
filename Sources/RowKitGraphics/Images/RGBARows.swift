import Foundation

/// An image's rows of straight 8-bit RGBA, read top to bottom a few at a time: a PNG being
/// decoded (`PNGRowReader`), an image in memory, tiles one below the other. What images of
/// any size are compared through, a strip at a time.
public protocol RGBARowSource: AnyObject {
  /// The width in pixels.
  var width: Int { get }
  /// The height in pixels.
  var height: Int { get }
  /// Writes the next `count` rows to `output`: `count × width × 4` bytes.
  func read(_ count: Int, into output: UnsafeMutableRawPointer) throws
  /// Reads the next `rows.count` rows and tells whether they are rows `rows` of `bitmap`
  /// un-premultiplied (what ``RGBAImage/init(_:)`` makes of them), without writing them
  /// anywhere: how a render is compared with its reference strip by strip. Stops at the
  /// first row that differs; after a false, read nothing more from the source.
  func readMatching(_ bitmap: Bitmap, rows: Range<Int>) throws -> Bool
  /// Once every row is read (or when no more are wanted): checks what follows them, such
  /// as a file's checksums.
  func finish() throws
}

extension RGBARowSource {
  /// ``readMatching(_:rows:)`` by reading the rows into memory and comparing them there,
  /// for sources that have no faster way.
  public func readMatching(_ bitmap: Bitmap, rows: Range<Int>) throws -> Bool {
    precondition(bitmap.width == width, "a bitmap of another width")
    guard !rows.isEmpty else { return true }
    var straight = [UInt8](repeating: 0, count: rows.count * width * 4)
    return try straight.withUnsafeMutableBytes { buffer in
      try read(rows.count, into: buffer.baseAddress!)
      return bitmap.hasStraightPixels(rows: rows, of: buffer.baseAddress!)
    }
  }
}

extension PNGRowReader: RGBARowSource {}

/// The rows of an image in memory.
public final class RGBAImageRows: RGBARowSource {
  /// The image whose rows are read.
  public let image: RGBAImage
  private var next = 0

  /// Reads `image`'s rows from the top.
  public init(_ image: RGBAImage) {
    self.image = image
  }

  /// The image's width in pixels.
  public var width: Int { image.width }
  /// The image's height in pixels.
  public var height: Int { image.height }

  /// Writes the next `count` rows to `output` as straight RGBA.
  public func read(_ count: Int, into output: UnsafeMutableRawPointer) throws {
    precondition(count >= 0 && next + count <= height, "rows past the image's end")
    let rowLength = width * 4
    image.pixels.withUnsafeBytes { pixels in
      if count > 0 { output.copyMemory(from: pixels.baseAddress! + next * rowLength, byteCount: count * rowLength) }
    }
    next += count
  }

  /// Compares the next rows where the image holds them.
  public func readMatching(_ bitmap: Bitmap, rows: Range<Int>) throws -> Bool {
    precondition(bitmap.width == width && next + rows.count <= height, "rows past the image's end")
    defer { next += rows.count }
    guard !rows.isEmpty else { return true }
    return image.pixels.withUnsafeBytes { pixels in
      bitmap.hasStraightPixels(rows: rows, of: pixels.baseAddress! + next * width * 4)
    }
  }

  /// Nothing follows the rows of an image in memory.
  public func finish() throws {}
}

/// The rows of bitmaps one below the other, all of one width (a render's strips), made
/// straight RGBA as they are read.
public final class BitmapRows: RGBARowSource {
  /// The bitmaps, top to bottom.
  public let strips: [Bitmap]
  /// The width in pixels of every part.
  public let width: Int
  /// The height in pixels of all the parts together.
  public let height: Int
  private var strip = 0
  private var rowInStrip = 0

  /// Reads the rows of `strips`, which must all be `width` pixels wide.
  public init(_ strips: [Bitmap], width: Int) {
    precondition(strips.allSatisfy { $0.width == width }, "strips of different widths")
    self.strips = strips
    self.width = width
    height = strips.reduce(0) { $0 + $1.height }
  }

  /// Writes the next `count` rows to `output` as straight RGBA.
  public func read(_ count: Int, into output: UnsafeMutableRawPointer) throws {
    var done = 0
    while done < count {
      precondition(strip < strips.count, "rows past the image's end")
      let bitmap = strips[strip]
      let take = min(count - done, bitmap.height - rowInStrip)
      bitmap.writeStraightRGBA(rows: rowInStrip..<(rowInStrip + take), into: output + done * width * 4)
      done += take
      rowInStrip += take
      if rowInStrip == bitmap.height {
        strip += 1
        rowInStrip = 0
      }
    }
  }

  /// Compares bitmap with bitmap: equal premultiplied bytes are equal straight pixels, and
  /// only rows whose bytes differ are un-premultiplied to be compared.
  public func readMatching(_ bitmap: Bitmap, rows: Range<Int>) throws -> Bool {
    precondition(bitmap.width == width, "a bitmap of another width")
    var done = 0
    while done < rows.count {
      precondition(strip < strips.count, "rows past the image's end")
      let own = strips[strip]
      let take = min(rows.count - done, own.height - rowInStrip)
      let first = rows.lowerBound + done
      guard own.hasSameStraightPixels(rows: rowInStrip..<(rowInStrip + take), as: bitmap, rows: first..<(first + take)) else {
        return false
      }
      done += take
      rowInStrip += take
      if rowInStrip == own.height {
        strip += 1
        rowInStrip = 0
      }
    }
    return true
  }

  /// Nothing follows the rows of an image in memory.
  public func finish() throws {}
}

/// Images of one width one below the other, read as one: the tiles of a tall image. Each is
/// opened when its first row is wanted and finished after its last, so one is open at a
/// time.
public final class StackedRows: RGBARowSource {
  /// The width in pixels of every part.
  public let width: Int
  /// The height in pixels of all the parts together.
  public let height: Int
  private let heights: [Int]
  private let open: (Int) throws -> any RGBARowSource
  private var current: (any RGBARowSource)?
  private var index = -1
  private var rowInPart = 0

  /// Parts of `width` × `heights[i]` pixels, opened by `open(i)`; a part that opens with
  /// another size is an error.
  public init(width: Int, heights: [Int], open: @escaping (Int) throws -> any RGBARowSource) {
    self.width = width
    self.heights = heights
    self.height = heights.reduce(0, +)
    self.open = open
  }

  /// Writes the next `count` rows to `output` as straight RGBA.
  public func read(_ count: Int, into output: UnsafeMutableRawPointer) throws {
    _ = try eachPart(count) { part, done, take in
      try part.read(take, into: output + done * width * 4)
      return true
    }
  }

  /// Compares the next rows part by part.
  public func readMatching(_ bitmap: Bitmap, rows: Range<Int>) throws -> Bool {
    try eachPart(rows.count) { part, done, take in
      try part.readMatching(bitmap, rows: (rows.lowerBound + done)..<(rows.lowerBound + done + take))
    }
  }

  /// Hands the next `count` rows to `body` a part at a time (the part, the rows done before,
  /// the rows to take from it), opening parts as they are reached; stops when `body` returns
  /// false, and returns whether it never did.
  private func eachPart(_ count: Int, _ body: (any RGBARowSource, Int, Int) throws -> Bool) throws -> Bool {
    var done = 0
    while done < count {
      if current == nil || rowInPart == heights[index] {
        try current?.finish()
        index += 1
        precondition(index < heights.count, "rows past the image's end")
        let part = try open(index)
        guard part.width == width, part.height == heights[index] else {
          throw GraphicsError(.pngDecode, "part \(index + 1) is \(part.width)×\(part.height) pixels, not \(width)×\(heights[index])")
        }
        current = part
        rowInPart = 0
      }
      let take = min(count - done, heights[index] - rowInPart)
      guard try body(current!, done, take) else { return false }
      done += take
      rowInPart += take
    }
    return true
  }

  /// Finishes the part being read, which checks what follows its rows.
  public func finish() throws {
    try current?.finish()
    current = nil
  }
}
