import Foundation
import RowKitGraphics
import RowKitTestSupport
import Testing

@testable import RowKitSnapshot

/// The comparison of images read strip by strip (what `rowkit check` and `rowkit diff` run,
/// in bounded memory) against the comparison of the whole images: the same numbers, the
/// same class for every pixel, the same diff image, whatever the strips' height, strip
/// boundaries inside antialiased edges included.
@Suite struct StripComparisonTests {
  typealias PixelClass = ImageComparison.PixelClass

  /// The comparison of `first` and `second` through strips of `height` rows, and every
  /// strip's classes.
  func throughStrips(
    _ first: RGBAImage, _ second: RGBAImage, options: ComparisonOptions, height: Int, stopWhenFailed: Bool = false
  ) throws -> (result: RowKitSnapshot.ComparisonResult, classes: [PixelClass]) {
    var classes: [PixelClass] = []
    let result = try ImageComparison.compare(
      RGBAImageRows(first), RGBAImageRows(second), options: options, stopWhenFailed: stopWhenFailed, stripHeight: height
    ) { classes += $0.classes }
    return (result, classes)
  }

  static let heights = [1, 2, 5, 16]

  @Test(arguments: PixelmatchFixtureTests.cases)
  func pixelmatchsFixturesThroughStripsGiveTheWholeComparison(_ fixture: PixelmatchFixtureTests.Case) throws {
    let first = try PixelmatchFixtureTests.image(fixture.first)
    let second = try PixelmatchFixtureTests.image(fixture.second)
    let variants: [ComparisonOptions] = [
      .init(threshold: fixture.threshold, ignoresAntialiasing: true), .init(),
      .init(threshold: fixture.threshold, maxDiffPixels: fixture.excluded, maxClusterPixels: 40,
        ignoredRegions: [PixelRect(x: 10, y: 10, width: 30, height: 7)]),
    ]
    for options in variants {
      let whole = ImageComparison.compare(first, second, options: options)
      let wholeClasses = whole.classes ?? [PixelClass](repeating: .same, count: whole.result.totalPixels)
      for height in Self.heights {
        let strips = try throughStrips(first, second, options: options, height: height)
        #expect(strips.result == whole.result, "\(fixture), \(options), strips of \(height)")
        #expect(strips.classes == wholeClasses, "\(fixture), \(options), strips of \(height)")
      }
      let stopped = try throughStrips(first, second, options: options, height: 1, stopWhenFailed: true)
      #expect(stopped.result.passed == whole.result.passed, "\(fixture), \(options), stopping")
    }
  }

  /// The strip heights above cut through the fixtures' antialiased edges: pixels judged
  /// antialiasing lie on both sides of a strip boundary, where the detector reads rows of
  /// the strip before or after.
  @Test func stripBoundariesCutThroughAntialiasedEdges() throws {
    let first = try PixelmatchFixtureTests.image("1a")
    let second = try PixelmatchFixtureTests.image("1b")
    let whole = ImageComparison.compare(first, second, options: .init(threshold: 0.05, ignoresAntialiasing: true))
    let classes = try #require(whole.classes)
    let width = whole.result.canvasSize.width
    func antialiased(_ row: Int) -> Bool { classes[(row * width)..<((row + 1) * width)].contains(.antialiased) }
    for height in Self.heights.dropLast() {
      let cut = stride(from: height, to: whole.result.canvasSize.height, by: height).filter { antialiased($0 - 1) && antialiased($0) }
      #expect(!cut.isEmpty, "strips of \(height): \(cut.count) boundaries inside antialiased edges")
    }
  }

  /// Sizes that differ: the part only one image covers is judged strip by strip too.
  /// Sizes as files' headers claim them, never read: a canvas endless or past `Int` (tiles
  /// of 2³¹ − 1 rows each) is refused before a row is read, never counted into an overflow
  /// (which stopped the program).
  @Test func aCanvasPastEveryLimitIsRefusedBeforeAnyRow() {
    final class Claimed: RGBARowSource {
      let width: Int
      let height: Int
      init(_ width: Int, _ height: Int) { (self.width, self.height) = (width, height) }
      func read(_ count: Int, into output: UnsafeMutableRawPointer) throws { Issue.record("a row was read") }
      func finish() throws {}
    }
    for (reference, actual) in [
      (Claimed(1_000_000, 1), Claimed(1, 1_000_001)),
      (Claimed(2_147_483_647, 4_294_967_294), Claimed(750, 1400)),
      (Claimed(Int.max, Int.max), Claimed(Int.max, Int.max)),
      (Claimed(1000, Int.max / 500), Claimed(1000, 10)),
    ] {
      #expect {
        try ImageComparison.compare(reference, actual)
      } throws: { error in
        "\(error)".contains("comparing them takes a canvas of \(max(reference.width, actual.width))×\(max(reference.height, actual.height))")
      }
    }
  }

  @Test func imagesOfDifferentSizesThroughStrips() throws {
    let base = try PixelmatchFixtureTests.image("3a")
    let other = try PixelmatchFixtureTests.image("3b")
    func crop(_ image: RGBAImage, width: Int, height: Int) -> RGBAImage {
      var pixels: [UInt8] = []
      for row in 0..<height { pixels += image.pixels[(row * image.width * 4)..<(row * image.width * 4 + width * 4)] }
      return RGBAImage(width: width, height: height, pixels: pixels)
    }
    let pairs = [
      (crop(base, width: base.width - 7, height: base.height), other),
      (base, crop(other, width: other.width, height: other.height - 11)),
      (crop(base, width: base.width - 3, height: base.height), crop(other, width: other.width, height: other.height - 5)),
    ]
    let options = ComparisonOptions(threshold: 0.05, ignoresAntialiasing: true, ignoredRegions: [PixelRect(x: 0, y: 0, width: 4, height: 900)])
    for (first, second) in pairs {
      let whole = ImageComparison.compare(first, second, options: options)
      for height in Self.heights {
        let strips = try throughStrips(first, second, options: options, height: height)
        #expect(strips.result == whole.result)
        #expect(strips.classes == whole.classes)
      }
    }
  }

  /// The largest cluster found row by row is the one a flood fill of the whole canvas finds,
  /// ties going to the patch whose first pixel comes first.
  @Test func clustersFoundRowByRowAreTheFloodFills() {
    var state: UInt64 = 5
    func random(_ below: Int) -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((state >> 33) % UInt64(below))
    }
    for round in 0..<60 {
      let (width, height) = (1 + random(40), 1 + random(30))
      let density = 1 + random(6)
      let classes: [PixelClass] = (0..<(width * height)).map { _ in
        random(10) < density ? (random(4) == 0 ? .onlyOneImage : .different) : (random(3) == 0 ? .antialiased : .same)
      }
      var tracker = ImageComparison.ClusterTracker(width: width)
      classes.withUnsafeBufferPointer { all in
        for row in 0..<height { tracker.add(row: row, UnsafeBufferPointer(rebasing: all[(row * width)..<((row + 1) * width)])) }
      }
      #expect(tracker.finish() == Self.floodFill(classes, width: width, height: height), "round \(round)")
    }
  }

  /// The whole-canvas search the comparison made before it read strips.
  static func floodFill(_ classes: [PixelClass], width: Int, height: Int) -> RowKitSnapshot.ComparisonResult.Cluster? {
    func counted(_ index: Int) -> Bool { classes[index] == .different || classes[index] == .onlyOneImage }
    var visited = [Bool](repeating: false, count: classes.count)
    var best: RowKitSnapshot.ComparisonResult.Cluster?
    for start in classes.indices where counted(start) && !visited[start] {
      var stack = [start]
      visited[start] = true
      var (count, lowX, highX, lowY, highY) = (0, width, -1, height, -1)
      while let index = stack.popLast() {
        count += 1
        let (x, y) = (index % width, index / width)
        (lowX, highX, lowY, highY) = (min(lowX, x), max(highX, x), min(lowY, y), max(highY, y))
        for ny in max(0, y - 1)...min(height - 1, y + 1) {
          for nx in max(0, x - 1)...min(width - 1, x + 1) where !visited[ny * width + nx] && counted(ny * width + nx) {
            visited[ny * width + nx] = true
            stack.append(ny * width + nx)
          }
        }
      }
      if count > best?.pixels ?? 0 {
        best = .init(pixels: count, box: PixelRect(x: lowX, y: lowY, width: highX - lowX + 1, height: highY - lowY + 1))
      }
    }
    return best
  }

  /// Drawn strip by strip, the diff image and the composite are the whole images' bytes.
  @Test(arguments: [("1a", "1b"), ("5a", "5b"), ("8a", "5b"), ("3a", "3b")])
  func theStreamedDiffImageAndCompositeAreTheWholeOnes(_ pair: (String, String)) throws {
    let first = try PixelmatchFixtureTests.image(pair.0)
    var second = try PixelmatchFixtureTests.image(pair.1)
    if pair.0 == "3a" {
      // Of another size, so that the canvas has parts only one image covers.
      second = RGBAImage(width: second.width, height: second.height - 9, pixels: Array(second.pixels.dropLast(second.width * 9 * 4)))
    }
    let options = ComparisonOptions(threshold: 0.05, ignoresAntialiasing: true)
    let whole = ImageComparison.compare(first, second, options: options)
    let diff = DiffImage.make(whole, reference: first, actual: second)
    let expectedDiff = try PNG.encode(diff)
    let expectedComposite = try PNG.encode(DiffImage.composite([first.bitmap, diff, second.bitmap]))
    let folder = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    for height in [1, 7] {
      let (diffURL, compositeURL) = (folder.appendingPathComponent("diff-\(height).png"), folder.appendingPathComponent("composite-\(height).png"))
      let writer = DiffImageWriter(
        reference: .init(width: first.width, height: first.height), actual: .init(width: second.width, height: second.height),
        diff: diffURL, composite: compositeURL)
      let result = try ImageComparison.compare(
        RGBAImageRows(first), RGBAImageRows(second), options: options, stripHeight: height, each: writer.write)
      try writer.commit()
      #expect(result == whole.result)
      #expect(try [UInt8](Data(contentsOf: diffURL)) == expectedDiff, "strips of \(height)")
      #expect(try [UInt8](Data(contentsOf: compositeURL)) == expectedComposite, "strips of \(height)")
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).count == 4, "no temporary file is left")
  }
}
