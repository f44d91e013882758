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

  /// Compares the images `reference` and `actual` read strip by strip, with the same result
  /// as a comparison of the whole images; memory holds a strip of each (and the rows around
  /// it that antialiasing is judged by), whatever their size. `each` is handed every strip
  /// of the canvas as it is judged, for diff images. With `stopWhenFailed`, stops (and
  /// reads no further) once the comparison has failed, as ``matches(_:_:options:)`` does.
  ///
  /// Two images of different shapes whose canvas (the wider width by the taller height)
  /// holds more pixels than an image decoded whole may (`PNG.defaultMaximumPixels`) and
  /// more than twice the larger image are refused before a pixel is read: a 1,000,000 × 1
  /// image against a 1 × 1,000,000 one is two files of a few kilobytes and a canvas of a
  /// trillion pixels. Images of any size that share their shape are compared strip by strip.
  public static func compare(
    _ reference: any RGBARowSource, _ actual: any RGBARowSource, options: ComparisonOptions = .exact,
    stopWhenFailed: Bool = false, stripHeight: Int? = nil, each: ((CanvasStrip) throws -> Void)? = nil
  ) throws -> ComparisonResult {
    let (width, height) = (max(reference.width, actual.width), max(reference.height, actual.height))
    // Sizes come from files' headers (a tile each may claim 2³¹ − 1 rows): nothing here may
    // overflow, and what would is over every limit.
    func area(_ width: Int, _ height: Int) -> Int? {
      let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
      return overflow ? nil : pixels
    }
    let larger = max(area(reference.width, reference.height) ?? .max, area(actual.width, actual.height) ?? .max)
    let limit = max(PNG.defaultMaximumPixels, larger > Int.max / 2 ? .max : 2 * larger)
    let problem: String? =
      width > PNGRowReader.defaultMaximumWidth
      ? "wider than \(PNGRowReader.defaultMaximumWidth) pixels, the widest image compared a strip at a time"
      : area(width, height).map { $0 <= limit } == true ? nil
      : "more than \(PNG.defaultMaximumPixels) pixels and more than twice the larger image"
    if let problem {
      throw SnapshotError(
        "the images are \(reference.width)×\(reference.height) and \(actual.width)×\(actual.height) pixels: comparing them "
          + "takes a canvas of \(width)×\(height), \(problem)")
    }
    return try StripComparison(reference: reference, actual: actual, options: options, stopWhenFailed: stopWhenFailed)
      .run(stripHeight: stripHeight, each: each)
  }

  /// What ``compare(_:_:options:)-(RGBAImage,_,_)`` reports for two images of `width` × `height` with the
  /// same pixels, known without looking at one (two byte-identical files).
  public static func identical(width: Int, height: Int, options: ComparisonOptions = .exact) -> ComparisonResult {
    nothingCounted(reference: .init(width: width, height: height), actual: .init(width: width, height: height), options: options)
  }

  /// A comparison's result before any pixel is counted.
  static func nothingCounted(
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

  /// The whole-image comparison: the strip comparison, every strip's classes kept.
  static func run(_ reference: RGBAImage, _ actual: RGBAImage, options: ComparisonOptions, stopWhenFailed: Bool) -> Outcome {
    var classes: [PixelClass] = []
    let comparison = StripComparison(
      reference: RGBAImageRows(reference), actual: RGBAImageRows(actual), options: options, stopWhenFailed: stopWhenFailed)
    // Images in memory cannot fail to read.
    let result = try! comparison.run(stripHeight: nil) { strip in classes += strip.classes }
    return Outcome(result: result, classes: comparison.sawDifference ? classes : nil)
  }

  /// One strip of a comparison's canvas, as it was judged: the class of each of its pixels,
  /// and the rows of both images there.
  public struct CanvasStrip {
    /// The canvas rows of the strip.
    public var rows: Range<Int>
    /// The canvas's width in pixels.
    public var width: Int
    /// One class per pixel of the strip, row by row.
    public var classes: UnsafeBufferPointer<PixelClass>
    let reference: RowWindow
    let actual: RowWindow

    /// Row `y` of the reference image, straight RGBA, while this strip is handed out; nil
    /// below the image's end.
    public func referenceRow(_ y: Int) -> UnsafeRawPointer? { reference.contains(y) ? reference.row(y) : nil }
    /// Row `y` of the actual image, as ``referenceRow(_:)``.
    public func actualRow(_ y: Int) -> UnsafeRawPointer? { actual.contains(y) ? actual.row(y) : nil }
    /// The reference image's size.
    public var referenceSize: ComparisonResult.Size { .init(width: reference.source.width, height: reference.source.height) }
    /// The actual image's size.
    public var actualSize: ComparisonResult.Size { .init(width: actual.source.width, height: actual.source.height) }
  }

  /// The rows of one image that a strip of the comparison needs, with the two rows above and
  /// below it that antialiasing is judged by, read from its source as the strips move down.
  final class RowWindow {
    let source: any RGBARowSource
    let rowLength: Int
    private let buffer: UnsafeMutableRawPointer
    private let capacity: Int
    /// The image rows in the buffer: `first..<end`.
    private(set) var first = 0
    private(set) var end = 0

    init(_ source: any RGBARowSource, rows capacity: Int) {
      self.source = source
      self.capacity = capacity
      rowLength = source.width * 4
      buffer = .allocate(byteCount: max(1, capacity * rowLength), alignment: 16)
    }

    deinit { buffer.deallocate() }

    /// Makes rows `lower..<upper` (what of them the image has) ready; `lower` never moves up
    /// between calls, and the rows are read in order.
    func load(_ lower: Int, _ upper: Int) throws {
      let upper = min(upper, source.height)
      let lower = min(lower, upper)
      if lower > first {
        let kept = max(0, end - lower)
        if kept > 0 { buffer.copyMemory(from: buffer + (lower - first) * rowLength, byteCount: kept * rowLength) }
        first = lower
        end = max(end, lower)
      }
      if upper > end {
        precondition(upper - first <= capacity, "a strip larger than its window")
        try source.read(upper - end, into: buffer + (end - first) * rowLength)
        end = upper
      }
    }

    func contains(_ y: Int) -> Bool { y >= first && y < end }
    func row(_ y: Int) -> UnsafeRawPointer { UnsafeRawPointer(buffer + (y - first) * rowLength) }

    /// The window as the color distance and the antialiasing detector read it: the compared
    /// area, `width` × `height`.
    func pixels(width: Int, height: Int) -> Pixels {
      Pixels(base: UnsafeRawPointer(buffer), firstRow: first, stride: source.width, width: width, height: height)
    }
  }

  /// A comparison of two images read strip by strip, in tiers: rows first (identical rows
  /// cost one memory comparison), then only the pixels that differ, where color distance,
  /// antialiasing and regions are judged. Counts, boxes and clusters are gathered as the
  /// strips pass, so the result is the whole images' whatever the strips' height.
  final class StripComparison {
    let reference: any RGBARowSource
    let actual: any RGBARowSource
    let options: ComparisonOptions
    let stopWhenFailed: Bool
    /// Whether any pixel's bytes differed, or the sizes do.
    private(set) var sawDifference = false

    /// The canvas pixels a strip holds by default: a few megabytes of each image.
    static let stripPixels = 1 << 20

    init(reference: any RGBARowSource, actual: any RGBARowSource, options: ComparisonOptions, stopWhenFailed: Bool) {
      self.reference = reference
      self.actual = actual
      self.options = options
      self.stopWhenFailed = stopWhenFailed
    }

    func run(stripHeight: Int?, each: ((CanvasStrip) throws -> Void)?) throws -> ComparisonResult {
      var result = nothingCounted(
        reference: .init(width: reference.width, height: reference.height),
        actual: .init(width: actual.width, height: actual.height), options: options)
      let (canvasWidth, canvasHeight) = (result.canvasSize.width, result.canvasSize.height)
      let width = min(reference.width, actual.width)
      let height = min(reference.height, actual.height)
      let sizeMismatch = result.sizeMismatch
      sawDifference = sizeMismatch
      if sizeMismatch && stopWhenFailed { return result }
      let stripRows = max(1, stripHeight ?? Self.stripPixels / max(1, canvasWidth))
      // Antialiasing looks one row beyond a pixel, and at the neighbours of that row's pixels.
      let context = 2
      let first = RowWindow(reference, rows: stripRows + 2 * context)
      let second = RowWindow(actual, rows: stripRows + 2 * context)
      let classes = UnsafeMutableBufferPointer<PixelClass>.allocate(capacity: max(1, stripRows * canvasWidth))
      defer { classes.deallocate() }
      // pixelmatch's scale: 35215 is the largest YIQ distance between two colors.
      let maxDelta = 35215 * options.threshold * options.threshold
      var largestDelta = 0.0
      var box = (minX: Int.max, minY: Int.max, maxX: -1, maxY: -1)
      var clusters = ClusterTracker(width: canvasWidth)
      let options = self.options
      func count(_ x: Int, _ y: Int) {
        result.differentPixels += 1
        box = (min(box.minX, x), min(box.minY, y), max(box.maxX, x), max(box.maxY, y))
      }
      func inIgnoredRegion(_ x: Int, _ y: Int) -> Bool { options.ignoredRegions.contains { $0.contains(x: x, y: y) } }
      func failed() -> Bool { stopWhenFailed && result.differentPixels > result.allowedDiffPixels }

      var top = 0
      var stopped = false
      strips: while top < canvasHeight {
        let bottom = min(top + stripRows, canvasHeight)
        try first.load(max(0, top - context), bottom + context)
        try second.load(max(0, top - context), bottom + context)
        let stripClasses = UnsafeMutableBufferPointer(rebasing: classes[0..<((bottom - top) * canvasWidth)])
        stripClasses.update(repeating: .same)
        let a = first.pixels(width: width, height: height)
        let b = second.pixels(width: width, height: height)
        var y = top
        rows: while y < min(bottom, height) && width > 0 {
          defer { y += 1 }
          if memcmp(a.address(0, y), b.address(0, y), width * 4) == 0 { continue }
          sawDifference = true
          for x in 0..<width where a.word(x, y) != b.word(x, y) {
            let index = (y - top) * canvasWidth + x
            let delta = colorDelta(a, b, x, y)
            largestDelta = max(largestDelta, abs(delta))
            if inIgnoredRegion(x, y) {
              stripClasses[index] = .ignored
              result.ignoredPixels += 1
            } else if abs(delta) <= maxDelta {
              stripClasses[index] = .belowThreshold
              result.belowThresholdPixels += 1
            } else if isAntialiased(a, x, y, other: b) || isAntialiased(b, x, y, other: a) {
              result.antialiasedPixels += 1
              stripClasses[index] = options.ignoresAntialiasing ? .antialiased : .different
              if !options.ignoresAntialiasing { count(x, y) }
            } else {
              stripClasses[index] = .different
              count(x, y)
            }
            if failed() {
              stopped = true
              break rows
            }
          }
        }
        if sizeMismatch && !stopped {
          for y in top..<bottom {
            for x in 0..<canvasWidth where x >= width || y >= height {
              let covered = (x < reference.width && y < reference.height ? 1 : 0) + (x < actual.width && y < actual.height ? 1 : 0)
              let index = (y - top) * canvasWidth + x
              if covered == 0 {
                stripClasses[index] = .noImage
              } else if inIgnoredRegion(x, y) {
                stripClasses[index] = .ignored
                result.ignoredPixels += 1
              } else {
                stripClasses[index] = .onlyOneImage
                result.onlyOneImagePixels += 1
                count(x, y)
              }
            }
          }
        }
        for row in 0..<(bottom - top) {
          clusters.add(row: top + row, UnsafeBufferPointer(rebasing: stripClasses[(row * canvasWidth)..<((row + 1) * canvasWidth)]))
        }
        try each?(CanvasStrip(rows: top..<bottom, width: canvasWidth, classes: UnsafeBufferPointer(stripClasses), reference: first, actual: second))
        if stopped { break strips }
        top = bottom
      }
      if !stopped {
        try reference.finish()
        try actual.finish()
      }
      result.maxDistance = (largestDelta / 35215).squareRoot()
      if box.maxX >= 0 {
        result.changedBox = PixelRect(x: box.minX, y: box.minY, width: box.maxX - box.minX + 1, height: box.maxY - box.minY + 1)
        result.largestCluster = clusters.finish()
      }
      if !sizeMismatch && sawDifference {
        let clusterOK = options.maxClusterPixels.map { (result.largestCluster?.pixels ?? 0) <= $0 } ?? true
        result.status = result.differentPixels <= result.allowedDiffPixels && clusterOK ? .withinTolerance : .different
      }
      return result
    }
  }

  // MARK: - Clusters

  /// The largest 8-connected patch of counted pixels (different, or covered by only one
  /// image), found row by row: each row's runs of counted pixels join the patches of the
  /// row above that they touch, and a patch that reaches no further is done. Memory holds
  /// the patches of two rows. Of patches of one size, the one whose first pixel (top row,
  /// then left) comes first wins, as a search from the top-left corner finds it.
  struct ClusterTracker {
    struct Patch {
      var pixels: Int
      var minX: Int
      var minY: Int
      var maxX: Int
      var maxY: Int
      /// The patch's first pixel in reading order.
      var first: (y: Int, x: Int)
      var parent: Int
    }

    let width: Int
    /// The patches of the previous row's runs and the current row's, joined by parent links.
    private var patches: [Patch] = []
    /// The previous row's runs of counted pixels (first and last column) and their patches.
    private var above: [(start: Int, end: Int, patch: Int)] = []
    private var best: Patch?

    init(width: Int) {
      self.width = width
    }

    private mutating func root(_ index: Int) -> Int {
      var index = index
      while patches[index].parent != index {
        patches[index].parent = patches[patches[index].parent].parent
        index = patches[index].parent
      }
      return index
    }

    private mutating func join(_ first: Int, _ second: Int) {
      let (a, b) = (root(first), root(second))
      guard a != b else { return }
      let other = patches[b]
      patches[b].parent = a
      patches[a].pixels += other.pixels
      patches[a].minX = min(patches[a].minX, other.minX)
      patches[a].minY = min(patches[a].minY, other.minY)
      patches[a].maxX = max(patches[a].maxX, other.maxX)
      patches[a].maxY = max(patches[a].maxY, other.maxY)
      if other.first < patches[a].first { patches[a].first = other.first }
    }

    private mutating func consider(_ patch: Patch) {
      if let best, patch.pixels < best.pixels || patch.pixels == best.pixels && !(patch.first < best.first) { return }
      best = patch
    }

    /// Takes row `y`'s classes.
    mutating func add(row y: Int, _ classes: UnsafeBufferPointer<PixelClass>) {
      var runs: [(start: Int, end: Int, patch: Int)] = []
      var x = 0
      while x < width {
        guard classes[x] == .different || classes[x] == .onlyOneImage else {
          x += 1
          continue
        }
        let start = x
        while x < width && (classes[x] == .different || classes[x] == .onlyOneImage) { x += 1 }
        patches.append(Patch(pixels: x - start, minX: start, minY: y, maxX: x - 1, maxY: y, first: (y, start), parent: patches.count))
        runs.append((start, x - 1, patches.count - 1))
      }
      if runs.isEmpty && above.isEmpty { return }
      // Runs of both rows are in column order: each run touches a window of runs above.
      var lowest = 0
      for run in runs {
        while lowest < above.count && above[lowest].end < run.start - 1 { lowest += 1 }
        var index = lowest
        while index < above.count && above[index].start <= run.end + 1 {
          join(run.patch, above[index].patch)
          index += 1
        }
      }
      // A patch of the row above that no run of this row joined is done.
      var continues = [Bool](repeating: false, count: patches.count)
      for run in runs { continues[root(run.patch)] = true }
      for run in above {
        let top = root(run.patch)
        if !continues[top] {
          consider(patches[top])
          continues[top] = true
        }
      }
      // Only this row's patches are kept, renumbered.
      var renumbered = [Int](repeating: -1, count: patches.count)
      var kept: [Patch] = []
      above = runs.map { run in
        let top = root(run.patch)
        if renumbered[top] < 0 {
          renumbered[top] = kept.count
          var patch = patches[top]
          patch.parent = kept.count
          kept.append(patch)
        }
        return (run.start, run.end, renumbered[top])
      }
      patches = kept
    }

    /// The largest patch, once every row is added.
    mutating func finish() -> ComparisonResult.Cluster? {
      for index in patches.indices where root(index) == index { consider(patches[index]) }
      patches = []
      above = []
      return best.map {
        ComparisonResult.Cluster(pixels: $0.pixels, box: PixelRect(x: $0.minX, y: $0.minY, width: $0.maxX - $0.minX + 1, height: $0.maxY - $0.minY + 1))
      }
    }
  }

  // MARK: - Color distance

  /// The compared area of one image: `width` × `height` pixels of straight RGBA, rows
  /// `stride` pixels apart, of which the rows of a strip and around it are held.
  struct Pixels {
    /// Where row `firstRow` starts: the rows held are a window of the image.
    let base: UnsafeRawPointer
    let firstRow: Int
    let stride: Int
    let width: Int
    let height: Int

    @inline(__always) func offset(_ x: Int, _ y: Int) -> Int { ((y - firstRow) * stride + x) * 4 }

    @inline(__always) func address(_ x: Int, _ y: Int) -> UnsafeRawPointer { base + offset(x, y) }

    @inline(__always) func word(_ x: Int, _ y: Int) -> UInt32 {
      base.load(fromByteOffset: offset(x, y), as: UInt32.self)
    }

    @inline(__always) func rgba(_ x: Int, _ y: Int) -> (Int, Int, Int, Int) {
      let at = base + offset(x, y)
      return (Int(at.load(as: UInt8.self)), Int(at.load(fromByteOffset: 1, as: UInt8.self)),
              Int(at.load(fromByteOffset: 2, as: UInt8.self)), Int(at.load(fromByteOffset: 3, as: UInt8.self)))
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
