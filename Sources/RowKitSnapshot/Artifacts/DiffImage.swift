import Foundation
import RowKit
import RowKitGraphics

/// Pictures of a comparison: a diff image and a side-by-side composite.
public enum DiffImage {
  /// Counted differences in red; antialiasing in yellow; ignored regions in blue.
  public static let differentColor = (r: UInt8(255), g: UInt8(0), b: UInt8(0))
  /// Differences classified as antialiasing, in yellow.
  public static let antialiasedColor = (r: UInt8(255), g: UInt8(200), b: UInt8(0))
  /// Differences inside ignored regions, in blue.
  public static let ignoredColor = (r: UInt8(80), g: UInt8(140), b: UInt8(255))
  /// Stripes over the part of the canvas only one image covers (when the sizes differ).
  public static let onlyOneImageColor = (r: UInt8(255), g: UInt8(0), b: UInt8(255))
  /// The part of the canvas neither image covers.
  public static let noImageColor = (r: UInt8(128), g: UInt8(128), b: UInt8(128))

  /// The comparison's canvas: the reference faded to a light gray (where only the actual
  /// covers the canvas, the actual), with every differing pixel painted in its class's color
  /// and the part only one image covers striped in magenta. Pixels within the color
  /// threshold stay gray.
  public static func make(_ outcome: ImageComparison.Outcome, reference: RGBAImage, actual: RGBAImage) -> Bitmap {
    let canvas = outcome.result.canvasSize
    var pixels = [UInt8](repeating: 255, count: canvas.width * canvas.height * 4)
    let classes = outcome.classes ?? []
    reference.pixels.withUnsafeBytes { first in
      actual.pixels.withUnsafeBytes { second in
        pixels.withUnsafeMutableBytes { output in
          classes.withUnsafeBufferPointer { classes in
          for y in 0..<canvas.height {
            drawRow(
              y, width: canvas.width,
              classes: classes.isEmpty ? nil : UnsafeBufferPointer(rebasing: classes[(y * canvas.width)..<((y + 1) * canvas.width)]),
              reference: y < reference.height ? first.baseAddress! + y * reference.width * 4 : nil, referenceWidth: reference.width,
              actual: y < actual.height ? second.baseAddress! + y * actual.width * 4 : nil, actualWidth: actual.width,
              into: output.baseAddress! + y * canvas.width * 4)
          }
          }
        }
      }
    }
    return Bitmap(width: canvas.width, height: canvas.height, pixels: pixels)
  }

  /// Draws row `y` of the diff image, `width` pixels of opaque BGRA, into `output`, from the
  /// row's pixel classes (nil: all the same) and the two images' rows there (nil below an
  /// image's end).
  static func drawRow(
    _ y: Int, width: Int, classes: UnsafeBufferPointer<ImageComparison.PixelClass>?, reference: UnsafeRawPointer?, referenceWidth: Int,
    actual: UnsafeRawPointer?, actualWidth: Int, into output: UnsafeMutableRawPointer
  ) {
    let target = output.assumingMemoryBound(to: UInt8.self)
    // pixelmatch's faded pixel: 10% of its brightness over white.
    func faded(_ rgba: UInt32) -> UInt8 {
      let (r, g, b, a) = (Double(rgba & 0xFF), Double(rgba >> 8 & 0xFF), Double(rgba >> 16 & 0xFF), Double(rgba >> 24))
      let luma = r * 0.29889531 + g * 0.58662247 + b * 0.11448223
      return UInt8(255 + (luma - 255) * 0.1 * a / 255)
    }
    // Rows of a table repeat their colors: the last pixel's gray is kept.
    var (lastPixel, lastGray) = (UInt32(0), faded(0))
    for x in 0..<width {
      var color = noImageColor
      let covering: UnsafeRawPointer? =
        if let reference, x < referenceWidth { reference + x * 4 } else if let actual, x < actualWidth { actual + x * 4 } else { nil }
      if let covering {
        let pixel = UInt32(littleEndian: covering.loadUnaligned(as: UInt32.self))
        if pixel != lastPixel { (lastPixel, lastGray) = (pixel, faded(pixel)) }
        color = (lastGray, lastGray, lastGray)
      }
      switch classes?[x] ?? .same {
      case .same, .belowThreshold, .noImage: break
      case .different: color = differentColor
      case .antialiased: color = antialiasedColor
      case .ignored: color = ignoredColor
      case .onlyOneImage: if (x + y) % 8 < 4 { color = onlyOneImageColor }
      }
      target[x * 4] = color.b
      target[x * 4 + 1] = color.g
      target[x * 4 + 2] = color.r
      target[x * 4 + 3] = 255
    }
  }

  /// The images side by side with a gap between them, top-aligned on a neutral gray: for a
  /// failed comparison, reference | diff | actual.
  public static func composite(_ images: [Bitmap], gap: Int = 8) -> Bitmap {
    Bitmap.sideBySide(images, gap: gap)
  }
}

/// The diff image and the reference | diff | actual composite of a comparison, drawn and
/// written strip by strip as the comparison hands its strips over
/// (``ImageComparison/compare(_:_:options:stopWhenFailed:stripHeight:each:)``), so
/// that they take no more memory than a strip of each, and are the bytes
/// ``DiffImage/make(_:reference:actual:)`` and ``DiffImage/composite(_:gap:)`` would
/// give, encoded by `PNG.encode(_:compression:)`, for images up to a few megapixels.
/// Files are written under temporary names beside their targets until
/// ``commit(removingStaleTiles:)``.
package final class DiffImageWriter {
  private let diff: TiledPNGWriter?
  private let composite: TiledPNGWriter?

  /// A writer for a comparison of `reference` and `actual` of these sizes, of the diff image
  /// to `diff` and the composite to `composite` (those given), each one file or, with
  /// `tilePixels`, tiles of at most that many pixels as `TiledPNG` cuts them.
  public init(
    reference: ComparisonResult.Size, actual: ComparisonResult.Size, diff: URL?, composite: URL?, tilePixels: Int? = nil
  ) {
    func writer(_ target: URL, width: Int) -> TiledPNGWriter {
      let tileHeight = tilePixels.map { TiledPNG.tileHeight(width: width, pixels: $0) } ?? .max
      return TiledPNGWriter(for: target, width: width, color: .rgb, tileHeight: tileHeight)
    }
    let canvas = max(reference.width, actual.width)
    self.diff = diff.map { writer($0, width: canvas) }
    self.composite = composite.map { writer($0, width: reference.width + canvas + actual.width + Self.gap * 2) }
  }

  static let gap = 8

  /// Draws and writes the rows of `strip`.
  public func write(_ strip: ImageComparison.CanvasStrip) throws {
    let rows = strip.rows
    var pixels = [UInt8](repeating: 0, count: rows.count * strip.width * 4)
    pixels.withUnsafeMutableBytes { output in
      for (row, y) in rows.enumerated() {
        DiffImage.drawRow(
          y, width: strip.width, classes: UnsafeBufferPointer(rebasing: strip.classes[(row * strip.width)..<((row + 1) * strip.width)]),
          reference: strip.referenceRow(y), referenceWidth: strip.referenceSize.width,
          actual: strip.actualRow(y), actualWidth: strip.actualSize.width, into: output.baseAddress! + row * strip.width * 4)
      }
    }
    let diffStrip = Bitmap(width: strip.width, height: rows.count, pixels: pixels)
    try diff?.append(diffStrip)
    guard let composite else { return }
    func panel(_ size: ComparisonResult.Size, _ row: (Int) -> UnsafeRawPointer?) -> Bitmap {
      let count = max(0, min(rows.upperBound, size.height) - rows.lowerBound)
      var rgba = [UInt8](repeating: 0, count: count * size.width * 4)
      rgba.withUnsafeMutableBytes { target in
        for index in 0..<count {
          (target.baseAddress! + index * size.width * 4).copyMemory(from: row(rows.lowerBound + index)!, byteCount: size.width * 4)
        }
      }
      return RGBAImage(width: size.width, height: count, pixels: rgba).bitmap
    }
    let panels = [panel(strip.referenceSize, strip.referenceRow), diffStrip, panel(strip.actualSize, strip.actualRow)]
    try composite.append(Bitmap.sideBySide(panels, gap: Self.gap, height: rows.count))
  }

  /// Ends the images and stages their files in `files`, which put them all in place at its
  /// commit, or none: a failing second image (a full device, a folder in the way) leaves no
  /// first one written and no temporary file behind.
  package func stage(in files: AtomicFiles) throws {
    for writer in [diff, composite].compactMap({ $0 }) {
      try writer.finish()
      for (index, file) in writer.handOver().enumerated() { files.adopt(file, as: TiledPNG.tileURL(writer.target, index: index)) }
    }
  }

  /// Ends the images and moves them into place, tiles beside them; with
  /// `removingStaleTiles`, tiles an earlier image left there are removed.
  public func commit(removingStaleTiles: Bool = false) throws {
    try diff?.finish()
    try composite?.finish()
    try diff?.commit(removingStaleTiles: removingStaleTiles)
    try composite?.commit(removingStaleTiles: removingStaleTiles)
  }
}
