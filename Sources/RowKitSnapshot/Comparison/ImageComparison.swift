import Foundation
import RowKitGraphics

/// Compares two images in tiers: whole buffers first (identical images cost one memory
/// comparison), then rows, then only the pixels that differ, where color distance,
/// antialiasing and regions are judged.
public enum ImageComparison {
  /// How each pixel was judged, for diff images.
  public enum PixelClass: UInt8, Sendable {
    case same = 0, different, antialiased, ignored, belowThreshold
  }

  /// A comparison's numbers, and the class of every pixel when the images were not
  /// identical.
  public struct Outcome: Sendable {
    public var result: ComparisonResult
    public var classes: [PixelClass]?
  }

  /// Compares `actual` with `reference` under `options`.
  public static func compare(_ reference: Bitmap, _ actual: Bitmap, options: ComparisonOptions = .exact) -> Outcome {
    let total = reference.width * reference.height
    var result = ComparisonResult(
      status: .identical, referenceSize: .init(width: reference.width, height: reference.height),
      actualSize: .init(width: actual.width, height: actual.height), totalPixels: total, differentPixels: 0,
      antialiasedPixels: 0, ignoredPixels: 0, belowThresholdPixels: 0,
      allowedDiffPixels: options.allowedDiffPixels(total: total), changedBox: nil, largestCluster: nil,
      maxDistance: 0, options: options)
    guard reference.width == actual.width, reference.height == actual.height else {
      result.status = .sizeMismatch
      return Outcome(result: result, classes: nil)
    }
    let identical = reference.pixels.withUnsafeBytes { a in
      actual.pixels.withUnsafeBytes { b in memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0 }
    }
    if identical || total == 0 { return Outcome(result: result, classes: nil) }

    let width = reference.width
    let height = reference.height
    var classes = [PixelClass](repeating: .same, count: total)
    // pixelmatch's scale: 35215 is the largest YIQ distance between two colors.
    let maxDelta = 35215 * options.threshold * options.threshold
    var largestDelta = 0.0
    var minX = Int.max, minY = Int.max, maxX = -1, maxY = -1
    reference.pixels.withUnsafeBytes { rawA in
      actual.pixels.withUnsafeBytes { rawB in
        let a = Pixels(raw: rawA, width: width, height: height)
        let b = Pixels(raw: rawB, width: width, height: height)
        let rowBytes = width * 4
        var y = 0
        while y < height {
          if memcmp(rawA.baseAddress! + y * rowBytes, rawB.baseAddress! + y * rowBytes, rowBytes) != 0 {
            var x = 0
            while x < width {
              if a.word(x, y) != b.word(x, y) {
                let index = y * width + x
                let delta = colorDelta(a, b, x, y)
                largestDelta = max(largestDelta, abs(delta))
                if options.ignoredRegions.contains(where: { $0.contains(x: x, y: y) }) {
                  classes[index] = .ignored
                  result.ignoredPixels += 1
                } else if abs(delta) <= maxDelta {
                  classes[index] = .belowThreshold
                  result.belowThresholdPixels += 1
                } else if isAntialiased(a, x, y, other: b) || isAntialiased(b, x, y, other: a) {
                  classes[index] = .antialiased
                  result.antialiasedPixels += 1
                  if !options.ignoresAntialiasing {
                    classes[index] = .different
                    result.differentPixels += 1
                  }
                } else {
                  classes[index] = .different
                  result.differentPixels += 1
                }
                if classes[index] == .different {
                  minX = min(minX, x)
                  maxX = max(maxX, x)
                  minY = min(minY, y)
                  maxY = max(maxY, y)
                }
              }
              x += 1
            }
          }
          y += 1
        }
      }
    }
    result.maxDistance = (largestDelta / 35215).squareRoot()
    if maxX >= 0 {
      result.changedBox = PixelRect(x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1)
      result.largestCluster = largestCluster(classes, width: width, height: height, box: result.changedBox!)
    }
    let clusterOK = options.maxClusterPixels.map { (result.largestCluster?.pixels ?? 0) <= $0 } ?? true
    result.status = result.differentPixels <= result.allowedDiffPixels && clusterOK ? .withinTolerance : .different
    return Outcome(result: result, classes: classes)
  }

  // MARK: - Clusters

  /// The largest 8-connected patch of `.different` pixels, searched inside `box` only.
  static func largestCluster(_ classes: [PixelClass], width: Int, height: Int, box: PixelRect) -> ComparisonResult.Cluster {
    var visited = [Bool](repeating: false, count: box.width * box.height)
    var best = ComparisonResult.Cluster(pixels: 0, box: box)
    var stack: [Int] = []
    for startY in box.y..<(box.y + box.height) {
      for startX in box.x..<(box.x + box.width) {
        let local = (startY - box.y) * box.width + (startX - box.x)
        guard classes[startY * width + startX] == .different, !visited[local] else { continue }
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
              if !visited[neighbour], classes[ny * width + nx] == .different {
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

  /// Premultiplied BGRA pixels, read as colors blended onto white.
  struct Pixels {
    let raw: UnsafeRawBufferPointer
    let width: Int
    let height: Int

    @inline(__always) func word(_ x: Int, _ y: Int) -> UInt32 {
      raw.load(fromByteOffset: (y * width + x) * 4, as: UInt32.self)
    }

    /// Red, green and blue as if drawn on white: premultiplied values make that one sum.
    @inline(__always) func rgb(_ x: Int, _ y: Int) -> (Double, Double, Double) {
      let offset = (y * width + x) * 4
      let white = 255 - Double(raw[offset + 3])
      return (Double(raw[offset + 2]) + white, Double(raw[offset + 1]) + white, Double(raw[offset]) + white)
    }

    @inline(__always) func brightness(_ x: Int, _ y: Int) -> Double {
      let (r, g, b) = rgb(x, y)
      return r * 0.29889531 + g * 0.58662247 + b * 0.11448223
    }
  }

  /// The YIQ distance between the same pixel of two images, negative when `b` is brighter.
  @inline(__always) static func colorDelta(_ a: Pixels, _ b: Pixels, _ x: Int, _ y: Int) -> Double {
    let (r1, g1, b1) = a.rgb(x, y)
    let (r2, g2, b2) = b.rgb(x, y)
    let y1 = r1 * 0.29889531 + g1 * 0.58662247 + b1 * 0.11448223
    let y2 = r2 * 0.29889531 + g2 * 0.58662247 + b2 * 0.11448223
    let i = (r1 - r2) * 0.59597799 - (g1 - g2) * 0.27417610 - (b1 - b2) * 0.32180189
    let q = (r1 - r2) * 0.21147017 - (g1 - g2) * 0.52261711 + (b1 - b2) * 0.31114694
    let delta = 0.5053 * (y1 - y2) * (y1 - y2) + 0.299 * i * i + 0.1957 * q * q
    return y1 > y2 ? -delta : delta
  }

  // MARK: - Antialiasing

  /// Whether the pixel at (x, y) of `image` looks like an antialiased edge: it has both a
  /// darker and a brighter neighbour, at most two neighbours of its own brightness, and its
  /// darkest or brightest neighbour sits inside a flat area in both images (the edge moved;
  /// the shapes beside it did not).
  static func isAntialiased(_ image: Pixels, _ x: Int, _ y: Int, other: Pixels) -> Bool {
    let center = image.brightness(x, y)
    var equalNeighbours = 0
    var darkest = 0.0, brightest = 0.0
    var darkestAt = (-1, -1), brightestAt = (-1, -1)
    for ny in max(0, y - 1)...min(image.height - 1, y + 1) {
      for nx in max(0, x - 1)...min(image.width - 1, x + 1) where nx != x || ny != y {
        let delta = image.brightness(nx, ny) - center
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

  /// Whether at least three neighbours of a pixel have exactly its color (image borders count
  /// as one).
  static func hasManySiblings(_ image: Pixels, _ at: (Int, Int)) -> Bool {
    let (x, y) = at
    let own = image.word(x, y)
    var same = (x == 0 || x == image.width - 1 || y == 0 || y == image.height - 1) ? 1 : 0
    for ny in max(0, y - 1)...min(image.height - 1, y + 1) {
      for nx in max(0, x - 1)...min(image.width - 1, x + 1) where nx != x || ny != y {
        if image.word(nx, ny) == own {
          same += 1
          if same > 2 { return true }
        }
      }
    }
    return false
  }
}
