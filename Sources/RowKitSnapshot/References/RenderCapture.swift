import Foundation
import RowKit
import RowKitGraphics

/// A render's image as a check takes it in, strip by strip: compared with a baseline (the
/// reference, or the render before) as the strips come, and kept only as far as it may be
/// needed. A small image stays in memory, as its strips; a larger one is dropped while it
/// equals its baseline (the baseline holds the same rows) and otherwise encoded into PNG
/// tiles in a folder, from the baseline's rows for the part dropped. So a check of any height
/// holds a few strips and a small image at most.
///
/// `@unchecked Sendable`: one task uses it at a time, the render that feeds it and then,
/// after the render has returned, the check's job that ends it on a pool worker; never two
/// at once.
final class RenderCapture: TableImageReceiver, @unchecked Sendable {
  /// The most pixels kept in memory: 8 megapixels, 32 MB.
  static let memoryPixels = 1 << 23

  private let openBaseline: (@Sendable () throws -> any RGBARowSource)?
  private let folder: URL
  private let memoryPixels: Int
  private let tilePixels: Int
  private var baseline: (any RGBARowSource)?
  /// Whether every row so far equals the baseline's.
  private var matches = false
  private var width = 0
  private var height = 0
  private var strips: [Bitmap] = []
  private var keptPixels = 0
  /// Whether the rows so far were let go, the baseline holding the same.
  private var dropped = false
  private var spill: TiledPNGWriter?
  /// Whether the folder cannot be made (an unwritable `TMPDIR`): the image is then kept in
  /// memory whatever its size, as a small one is, rather than the case failing for a folder.
  private var keepsAllInMemory = false

  /// A capture compared with the image `baseline` opens (nil: compared with nothing), that
  /// keeps up to `memoryPixels` pixels in memory and otherwise writes tiles of at most
  /// `tilePixels` pixels to `folder` (made when first needed).
  init(
    baseline: (@Sendable () throws -> any RGBARowSource)?, folder: URL, memoryPixels: Int = RenderCapture.memoryPixels,
    tilePixels: Int = PNG.defaultMaximumPixels
  ) {
    openBaseline = baseline
    self.folder = folder
    self.memoryPixels = memoryPixels
    self.tilePixels = tilePixels
  }

  func receive(_ strip: Bitmap) throws {
    if height == 0 {
      width = strip.width
      // A baseline that does not open is no baseline; the comparison afterwards says why.
      baseline = try? openBaseline?()
      matches = baseline?.width == width
    }
    precondition(strip.width == width, "a strip of another width")
    if matches { matches = equalsBaseline(strip) }
    try keep(strip)
    height += strip.height
  }

  private func equalsBaseline(_ strip: Bitmap) -> Bool {
    guard let baseline, height + strip.height <= baseline.height else { return false }
    return (try? baseline.readMatching(strip, rows: 0..<strip.height)) == true
  }

  private func keep(_ strip: Bitmap) throws {
    if let spill {
      try append(strip, to: spill)
    } else if dropped {
      guard !matches else { return }
      try recover()
      try append(strip, to: spill!)
    } else {
      strips.append(strip)
      keptPixels += strip.width * strip.height
      guard keptPixels > memoryPixels, !keepsAllInMemory else { return }
      guard (try? OutputWriter.createFolder(folder)) != nil else {
        keepsAllInMemory = true
        return
      }
      if matches {
        strips = []
        dropped = true
      } else {
        let kept = strips
        strips = []
        let spill = try makeSpill(color: kept.allSatisfy(\.isOpaque) ? .rgb : .rgba)
        for strip in kept { try append(strip, to: spill) }
      }
    }
  }

  /// What the capture's files are named after, in its folder.
  private var target: URL { folder.appendingPathComponent("actual.png") }

  private func makeSpill(color: PNGColor) throws -> TiledPNGWriter {
    try OutputWriter.createFolder(folder)
    let spill = TiledPNGWriter(
      for: target, width: width, color: color, tileHeight: TiledPNG.tileHeight(width: width, pixels: tilePixels))
    self.spill = spill
    return spill
  }

  private func append(_ strip: Bitmap, to spill: TiledPNGWriter) throws {
    if spill.color == .rgb, !strip.isOpaque { try upgradeSpill() }
    try self.spill!.append(strip)
  }

  /// Encodes the rows let go so far (the rows above the current strip) from the baseline.
  private func recover() throws {
    dropped = false
    let source = try openBaseline!()
    let spill = try makeSpill(color: .rgb)
    let chunk = max(1, 1 << 20 / width)
    var rows = [UInt8](repeating: 0, count: chunk * width * 4)
    var done = 0
    while done < height {
      let count = min(chunk, height - done)
      try rows.withUnsafeMutableBytes { buffer in
        try source.read(count, into: buffer.baseAddress!)
        let opaque = stride(from: 3, to: count * width * 4, by: 4).allSatisfy { buffer[$0] == 255 }
        if spill.color == .rgb, !opaque { try upgradeSpill() }
        try self.spill!.append(straightRGBA: buffer.baseAddress!, rows: count)
      }
      done += count
    }
  }

  /// Starts the PNG again with alpha, the rows so far copied over: a translucent strip came
  /// after opaque ones.
  private func upgradeSpill() throws {
    let old = spill!
    let spill = TiledPNGWriter(for: target, width: width, color: .rgba, tileHeight: old.tileHeight)
    if old.height > 0 {
      try old.finish()
      let source = try old.rows()
      let chunk = max(1, 1 << 20 / width)
      var rows = [UInt8](repeating: 0, count: chunk * width * 4)
      var done = 0
      while done < old.height {
        let count = min(chunk, old.height - done)
        try rows.withUnsafeMutableBytes { buffer in
          try source.read(count, into: buffer.baseAddress!)
          try spill.append(straightRGBA: buffer.baseAddress!, rows: count)
        }
        done += count
      }
    }
    old.discard()
    self.spill = spill
  }

  /// Ends the capture once the render has returned: whether the image equals its baseline,
  /// pixel for pixel and in size, and the image, unless it was let go for being the
  /// baseline's.
  func end() throws -> CapturedImage {
    guard height > 0 else { throw SnapshotError("the render gave no image") }
    var identical = matches && baseline?.height == height
    // Equal rows count only from a file that checks out to its end.
    if identical, (try? baseline?.finish()) == nil { identical = false }
    baseline = nil
    if !identical && dropped { try recover() }
    let pixels: CapturedImage.Pixels
    if let spill {
      try spill.finish()
      pixels = .files(spill.handOver())
      self.spill = nil
    } else {
      pixels = dropped ? .baseline : .memory(strips)
    }
    strips = []
    return CapturedImage(identical: identical, width: width, height: height, pixels: pixels, tilePixels: tilePixels)
  }
}
