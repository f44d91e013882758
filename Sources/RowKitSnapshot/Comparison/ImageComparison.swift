import Foundation
import RowKitGraphics

/// Compares two images as pixelmatch 7.2 does, in tiers: whole buffers first (identical
/// images cost one memory comparison), then rows, then only the pixels that differ, where
/// color distance, antialiasing and regions are judged.
///
/// Pixels are straight (not premultiplied) RGBA, as the files hold them. Where either pixel is
/// not opaque, both are blended over pixelmatch's background pattern before their distance is
/// measured, so a fully transparent pixel equals any other fully transparent pixel whatever
/// its color, and any visible change of alpha counts.
///
/// Images of different sizes are compared on a canvas as large as both, top-left aligned: the
/// pixels only one image covers all count as different, the overlap is compared pixel by
/// pixel as if both images were cropped to it, and the comparison fails whatever the
/// tolerances.
public enum ImageComparison {
  /// How each pixel of the canvas was judged, for diff images.
  public enum PixelClass: UInt8, Sendable {
    /// The same bytes in both images.
    case same = 0
    /// Counted as different.
    case different
    /// Different, but only because an edge's antialiasing moved.
    case antialiased
    /// Inside an ignored region.
    case ignored
    /// Different bytes, but colors no further apart than the threshold.
    case belowThreshold
    /// Covered by only one of two images of different sizes: counted as different.
    case onlyOneImage
    /// Covered by neither image (a corner of the canvas when one image is wider and the other
    /// taller).
    case noImage
  }

  /// A comparison's numbers, and the class of every canvas pixel when the images were not
  /// identical.
  public struct Outcome: Sendable {
    /// The comparison's numbers.
    public var result: ComparisonResult
    /// One class per canvas pixel, row by row; nil when the images are identical.
    public var classes: [PixelClass]?
  }

  /// Compares `actual` with `reference` under `options`.
  public static func compare(_ reference: RGBAImage, _ actual: RGBAImage, options: ComparisonOptions = .exact) -> Outcome {
    run(reference, actual, options: options, stopWhenFailed: false)
  }

  /// Compares two rendered bitmaps, un-premultiplied as their PNG files would hold them.
  public static func compare(_ reference: Bitmap, _ actual: Bitmap, options: ComparisonOptions = .exact) -> Outcome {
    compare(RGBAImage(reference), RGBAImage(actual), options: options)
  }

  /// Whether `actual` matches `reference` within the tolerances; stops as soon as the answer
  /// is known: at the first counted pixel when nothing may differ, at once when the sizes
  /// differ.
  public static func matches(_ reference: RGBAImage, _ actual: RGBAImage, options: ComparisonOptions = .exact) -> Bool {
    run(reference, actual, options: options, stopWhenFailed: true).result.passed
  }

  /// What ``compare(_:_:options:)-(RGBAImage,_,_)`` reports for two images of `width` × `height` with the
  /// same pixels, known without looking at one (two byte-identical files).
  public static func identical(width: Int, height: Int, options: ComparisonOptions = .exact) -> ComparisonResult {
    nothingCounted(reference: .init(width: width, height: height), actual: .init(width: width, height: height), options: options)
  }

  /// A comparison's result before any pixel is counted.
  private static func nothingCounted(
    reference: ComparisonResult.Size, actual: ComparisonResult.Size, options: ComparisonOptions
  ) -> ComparisonResult {
    let canvas = ComparisonResult.Size(width: max(reference.width, actual.width), height: max(reference.height, actual.height))
    let sizeMismatch = reference != actual
    let total = canvas.width * canvas.height
    return ComparisonResult(
      status: sizeMismatch ? .sizeMismatch : .identical, sizeMismatch: sizeMismatch, referenceSize: reference,
      actualSize: actual, canvasSize: canvas, totalPixels: total, differentPixels: 0, onlyOneImagePixels: 0,
      antialiasedPixels: 0, ignoredPixels: 0, belowThresholdPixels: 0,
      allowedDiffPixels: options.allowedDiffPixels(total: total), changedBox: nil, largestCluster: nil, maxDistance: 0,
      options: options)
  }

  static func run(_ reference: RGBAImage, _ actual: RGBAImage, options: ComparisonOptions, stopWhenFailed: Bool) -> Outcome {
    var result = nothingCounted(
      reference: .init(width: reference.width, height: reference.height),
      actual: .init(width: actual.width, height: actual.height), options: options)
    let (canvasWidth, canvasHeight) = (result.canvasSize.width, result.canvasSize.height)
    let width = min(reference.width, actual.width)
    let height = min(reference.height, actual.height)
    let sizeMismatch = result.sizeMismatch
    let total = result.totalPixels
    if sizeMismatch && stopWhenFailed { return Outcome(result: result, classes: nil) }
    if !sizeMismatch {
      let identical = reference.pixels.withUnsafeBytes { a in
        actual.pixels.withUnsafeBytes { b in a.count == 0 || memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0 }
      }
      if identical { return Outcome(result: result, classes: nil) }
    }

    var classes = [PixelClass](repeating: .same, count: total)
    // pixelmatch's scale: 35215 is the largest YIQ distance between two colors.
    let maxDelta = 35215 * options.threshold * options.threshold
    var largestDelta = 0.0
    var box = (minX: Int.max, minY: Int.max, maxX: -1, maxY: -1)
    func count(_ x: Int, _ y: Int) {
      result.differentPixels += 1
      box = (min(box.minX, x), min(box.minY, y), max(box.maxX, x), max(box.maxY, y))
    }
    func inIgnoredRegion(_ x: Int, _ y: Int) -> Bool { options.ignoredRegions.contains { $0.contains(x: x, y: y) } }

    reference.pixels.withUnsafeBytes { rawA in
      actual.pixels.withUnsafeBytes { rawB in
        let a = Pixels(raw: rawA, stride: reference.width, width: width, height: height)
        let b = Pixels(raw: rawB, stride: actual.width, width: width, height: height)
        var y = 0
        rows: while y < height && width > 0 {
          defer { y += 1 }
          if memcmp(a.address(0, y), b.address(0, y), width * 4) == 0 { continue }
          for x in 0..<width where a.word(x, y) != b.word(x, y) {
            let index = y * canvasWidth + x
            let delta = colorDelta(a, b, x, y)
            largestDelta = max(largestDelta, abs(delta))
            if inIgnoredRegion(x, y) {
              classes[index] = .ignored
              result.ignoredPixels += 1
            } else if abs(delta) <= maxDelta {
              classes[index] = .belowThreshold
              result.belowThresholdPixels += 1
            } else if isAntialiased(a, x, y, other: b) || isAntialiased(b, x, y, other: a) {
              result.antialiasedPixels += 1
              classes[index] = options.ignoresAntialiasing ? .antialiased : .different
              if !options.ignoresAntialiasing { count(x, y) }
            } else {
              classes[index] = .different
              count(x, y)
            }
            if stopWhenFailed && result.differentPixels > result.allowedDiffPixels { break rows }
          }
        }
      }
    }
    if sizeMismatch {
      for y in 0..<canvasHeight {
        for x in 0..<canvasWidth where x >= width || y >= height {
          let covered = (x < reference.width && y < reference.height ? 1 : 0) + (x < actual.width && y < actual.height ? 1 : 0)
          let index = y * canvasWidth + x
          if covered == 0 {
            classes[index] = .noImage
          } else if inIgnoredRegion(x, y) {
            classes[index] = .ignored
            result.ignoredPixels += 1
          } else {
            classes[index] = .onlyOneImage
            result.onlyOneImagePixels += 1
            count(x, y)
          }
        }
      }
    }
    result.maxDistance = (largestDelta / 35215).squareRoot()
    if box.maxX >= 0 {
      let changed = PixelRect(x: box.minX, y: box.minY, width: box.maxX - box.minX + 1, height: box.maxY - box.minY + 1)
      result.changedBox = changed
      result.largestCluster = largestCluster(classes, width: canvasWidth, box: changed)
    }
    if !sizeMismatch {
      let clusterOK = options.maxClusterPixels.map { (result.largestCluster?.pixels ?? 0) <= $0 } ?? true
      result.status = result.differentPixels <= result.allowedDiffPixels && clusterOK ? .withinTolerance : .different
    }
    return Outcome(result: result, classes: classes)
  }

  // MARK: - Clusters

  /// The largest 8-connected patch of counted pixels (different, or covered by only one
  /// image), searched inside `box` only.
  static func largestCluster(_ classes: [PixelClass], width: Int, box: PixelRect) -> ComparisonResult.Cluster {
    func counted(_ index: Int) -> Bool { classes[index] == .different || classes[index] == .onlyOneImage }
    var visited = [Bool](repeating: false, count: box.width * box.height)
    var best = ComparisonResult.Cluster(pixels: 0, box: box)
    var stack: [Int] = []
    for startY in box.y..<(box.y + box.height) {
      for startX in box.x..<(box.x + box.width) {
        let local = (startY - box.y) * box.width + (startX - box.x)
        guard counted(startY * width + startX), !visited[local] else { continue }
        visited[local] = true
        stack.append(startY * width + startX)
        var count = 0
        var lowX = startX, highX = startX, lowY = startY, highY = startY
        while let index = stack.popLast() {
          count += 1
          let x = index % width
          let y = index / width
          lowX = min(lowX, x)
          highX = max(highX, x)
          lowY = min(lowY, y)
          highY = max(highY, y)
          for ny in max(box.y, y - 1)...min(box.y + box.height - 1, y + 1) {
            for nx in max(box.x, x - 1)...min(box.x + box.width - 1, x + 1) {
              let neighbour = (ny - box.y) * box.width + (nx - box.x)
              if !visited[neighbour], counted(ny * width + nx) {
                visited[neighbour] = true
                stack.append(ny * width + nx)
              }
            }
          }
        }
        if count > best.pixels {
          best = .init(pixels: count, box: PixelRect(x: lowX, y: lowY, width: highX - lowX + 1, height: highY - lowY + 1))
        }
      }
    }
    return best
  }

  // MARK: - Color distance

  /// The compared area of one image: `width` × `height` pixels of straight RGBA, rows
  /// `stride` pixels apart.
  struct Pixels {
    let raw: UnsafeRawBufferPointer
    let stride: Int
    let width: Int
    let height: Int

    @inline(__always) func offset(_ x: Int, _ y: Int) -> Int { (y * stride + x) * 4 }

    @inline(__always) func address(_ x: Int, _ y: Int) -> UnsafeRawPointer { raw.baseAddress! + offset(x, y) }

    @inline(__always) func word(_ x: Int, _ y: Int) -> UInt32 {
      raw.load(fromByteOffset: offset(x, y), as: UInt32.self)
    }

    @inline(__always) func rgba(_ x: Int, _ y: Int) -> (Int, Int, Int, Int) {
      let at = offset(x, y)
      return (Int(raw[at]), Int(raw[at + 1]), Int(raw[at + 2]), Int(raw[at + 3]))
    }

    /// pixelmatch's position of a pixel: its byte offset in the compared area.
    @inline(__always) func position(_ x: Int, _ y: Int) -> Int { (y * width + x) * 4 }
  }

  /// pixelmatch's background for transparency at byte position `k`: red is always 48 (the
  /// position is a multiple of 4), green and blue switch between 48 and 207 in bands of 1.6
  /// and 2.6 bytes, which makes a fine irregular pattern of dark colors.
  @inline(__always) static func background(_ k: Int) -> (Int, Int, Int) {
    let r = 48 + 159 * (k % 2)
    let g = 48 + 159 * (Int(Double(k) / 1.618033988749895) % 2)
    let b = 48 + 159 * (Int(Double(k) / 2.618033988749895) % 2)
    return (r, g, b)
  }

  /// The differences of two pixels' channels, each blended over the background at `k` when
  /// either is not opaque.
  @inline(__always) static func channelDeltas(
    _ p1: (Int, Int, Int, Int), _ p2: (Int, Int, Int, Int), k: Int
  ) -> (Double, Double, Double) {
    let (r1, g1, b1, a1) = p1
    let (r2, g2, b2, a2) = p2
    guard a1 < 255 || a2 < 255 else { return (Double(r1 - r2), Double(g1 - g2), Double(b1 - b2)) }
    let (rb, gb, bb) = background(k)
    let da = a1 - a2
    return (
      Double(r1 * a1 - r2 * a2 - rb * da) / 255, Double(g1 * a1 - g2 * a2 - gb * da) / 255,
      Double(b1 * a1 - b2 * a2 - bb * da) / 255
    )
  }

  /// The YIQ distance between the same pixel of two images (Kotsarenko and Ramos), negative
  /// when `a`'s pixel is the brighter.
  @inline(__always) static func colorDelta(_ a: Pixels, _ b: Pixels, _ x: Int, _ y: Int) -> Double {
    let (dr, dg, db) = channelDeltas(a.rgba(x, y), b.rgba(x, y), k: a.position(x, y))
    let y = dr * 0.29889531 + dg * 0.58662247 + db * 0.11448223
    let i = dr * 0.59597799 - dg * 0.27417610 - db * 0.32180189
    let q = dr * 0.21147017 - dg * 0.52261711 + db * 0.31114694
    let delta = 0.5053 * y * y + 0.299 * i * i + 0.1957 * q * q
    return y > 0 ? -delta : delta
  }

  /// How much brighter the centre pixel is than another pixel of the same image, both
  /// blended over the background at the centre's position.
  @inline(__always) static func brightnessDelta(_ image: Pixels, center: (Int, Int, Int, Int), k: Int, _ x: Int, _ y: Int) -> Double {
    let other = image.rgba(x, y)
    if center == other { return 0 }
    let (dr, dg, db) = channelDeltas(center, other, k: k)
    return dr * 0.29889531 + dg * 0.58662247 + db * 0.11448223
  }

  // MARK: - Antialiasing

  /// Whether the pixel at (x, y) of `image` looks like an antialiased edge (pixelmatch's
  /// detector, after Vyšniauskas 2009): it has both a darker and a brighter neighbour, at
  /// most two neighbours of its own color, where the image's edge counts as one, and its
  /// darkest or brightest neighbour sits inside a flat area in both images (the edge moved;
  /// the shapes beside it did not).
  ///
  /// As in pixelmatch, the neighbours are visited column by column (x outer, y inner), and
  /// the first darkest and first brightest one found wins a tie.
  static func isAntialiased(_ image: Pixels, _ x: Int, _ y: Int, other: Pixels) -> Bool {
    let x0 = max(x - 1, 0), y0 = max(y - 1, 0)
    let x2 = min(x + 1, image.width - 1), y2 = min(y + 1, image.height - 1)
    let center = image.rgba(x, y)
    let k = image.position(x, y)
    var equalNeighbours = x == x0 || x == x2 || y == y0 || y == y2 ? 1 : 0
    var darkest = 0.0, brightest = 0.0
    var darkestAt = (0, 0), brightestAt = (0, 0)
    for nx in x0...x2 {
      for ny in y0...y2 where nx != x || ny != y {
        let delta = brightnessDelta(image, center: center, k: k, nx, ny)
        if delta == 0 {
          equalNeighbours += 1
          if equalNeighbours > 2 { return false }
        } else if delta < darkest {
          darkest = delta
          darkestAt = (nx, ny)
        } else if delta > brightest {
          brightest = delta
          brightestAt = (nx, ny)
        }
      }
    }
    guard darkest != 0, brightest != 0 else { return false }
    return (hasManySiblings(image, darkestAt) && hasManySiblings(other, darkestAt))
      || (hasManySiblings(image, brightestAt) && hasManySiblings(other, brightestAt))
  }

  /// Whether at least three neighbours of a pixel have exactly its RGBA bytes; the image's
  /// edge counts as one.
  static func hasManySiblings(_ image: Pixels, _ at: (Int, Int)) -> Bool {
    let (x, y) = at
    let x0 = max(x - 1, 0), y0 = max(y - 1, 0)
    let x2 = min(x + 1, image.width - 1), y2 = min(y + 1, image.height - 1)
    let own = image.word(x, y)
    var same = x == x0 || x == x2 || y == y0 || y == y2 ? 1 : 0
    for nx in x0...x2 {
      for ny in y0...y2 where nx != x || ny != y {
        if image.word(nx, ny) == own {
          same += 1
          if same > 2 { return true }
        }
      }
    }
    return false
  }
}
