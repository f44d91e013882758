import Foundation
import RowKit
import RowKitGraphics

/// The image of a render, as a `RenderCapture` ended with it.
struct CapturedImage: Sendable {
  enum Pixels: Sendable {
    /// The render's strips.
    case memory([Bitmap])
    /// PNG tiles, temporary files that the check removes (``discard()``) unless moved into
    /// place.
    case files([URL])
    /// Let go: the baseline's.
    case baseline
  }

  /// Whether the image equals the capture's baseline.
  var identical: Bool
  var width: Int
  var height: Int
  var pixels: Pixels
  /// The most pixels of a tile when the image is saved.
  var tilePixels: Int

  /// The image's rows, read from the top.
  func rows() throws -> any RGBARowSource {
    switch pixels {
    case .memory(let strips): return BitmapRows(strips, width: width)
    case .files(let files): return try TiledPNG.rows(ofFiles: files)
    case .baseline: preconditionFailure("the image was let go as its baseline's")
    }
  }

  /// Hands the image to `body` as bitmaps of a few rows each, top to bottom.
  func eachStrip(_ body: (Bitmap) throws -> Void) throws {
    if case .memory(let strips) = pixels {
      for strip in strips { try body(strip) }
      return
    }
    let source = try rows()
    let chunk = max(1, 1 << 20 / width)
    var done = 0
    while done < height {
      let count = min(chunk, height - done)
      var rgba = [UInt8](repeating: 0, count: count * width * 4)
      try rgba.withUnsafeMutableBytes { try source.read(count, into: $0.baseAddress!) }
      try body(RGBAImage(width: width, height: count, pixels: rgba).bitmap)
      done += count
    }
    try source.finish()
  }

  /// Writes the image as the PNG `url` (tiles beside it when it is tall), and removes tiles
  /// an earlier, taller image left there. An image in files is moved: after this, only
  /// `url` has it.
  func save(to url: URL) throws {
    switch pixels {
    case .memory(let strips):
      let opaque = strips.allSatisfy(\.isOpaque)
      let tileHeight = TiledPNG.tileHeight(width: width, pixels: tilePixels)
      if height <= tileHeight {
        // One strip, as the image was always encoded: a recorded reference keeps its bytes.
        let whole = strips.count == 1 ? strips[0] : Bitmap(width: width, height: height, pixels: strips.flatMap(\.pixels))
        try OutputWriter.write(PNG.encode(whole), to: url)
        TiledPNG.removeTiles(of: url, from: 1)
        return
      }
      let writer = TiledPNGWriter(for: url, width: width, color: opaque ? .rgb : .rgba, tileHeight: tileHeight)
      for strip in strips { try writer.append(strip) }
      try writer.finish()
      try writer.commit(removingStaleTiles: true)
    case .files(let files):
      try TiledPNG.move(files, to: url, removingStaleTiles: true)
    case .baseline:
      preconditionFailure("the image was let go as its baseline's")
    }
  }

  /// Removes the image's temporary files that are still there.
  func discard() {
    guard case .files(let files) = pixels else { return }
    for file in files where FileManager.default.fileExists(atPath: file.path) { try? FileManager.default.removeItem(at: file) }
  }
}
