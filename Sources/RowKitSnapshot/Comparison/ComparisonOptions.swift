import Foundation

/// How different two images may be and still match.
///
/// The default is exact: any differing pixel fails. The tolerances are independent, and all
/// of them must hold:
/// - ``threshold``: how far apart two colors may be and still count as the same pixel, on
///   pixelmatch's scale (0 = any visible difference counts, 1 = nothing does). The distance
///   is measured in YIQ space, weighted toward brightness (Kotsarenko and Ramos, "Measuring
///   perceived color difference using YIQ NTSC transmission color space in mobile
///   applications", 2010), on straight RGBA; where either pixel is not opaque, both are first
///   blended over pixelmatch 7's dark background pattern, so fully transparent pixels of any
///   color are equal and any change of alpha shows. 0.1 passes the shading noise of
///   antialiased edges between renderers but fails any visible change of color.
/// - ``ignoresAntialiasing``: pixels that differ only because an edge's antialiasing moved
///   (pixelmatch 7.2's detector, after Vyšniauskas 2009, exactly) are reported but do not
///   count.
/// - ``maxDiffPixels`` / ``maxDiffRatio``: how many differing pixels may remain, as a count
///   and as a share of all pixels; with both, the smaller wins; with neither, none may.
/// - ``maxClusterPixels``: the largest connected patch (8-neighbour) of differing pixels, so
///   that scattered noise can pass while a real blob of the same size fails.
/// - ``ignoredRegions``: rectangles that are not compared at all.
public struct ComparisonOptions: Hashable, Sendable, Codable {
  /// How far apart two colors may be and still count as the same pixel, from 0 to 1.
  public var threshold: Double
  /// Whether pixels that differ only by moved antialiasing are left uncounted.
  public var ignoresAntialiasing: Bool
  /// How many differing pixels may remain; nil sets no count.
  public var maxDiffPixels: Int?
  /// The share of all pixels that may differ, from 0 to 1; nil sets no share.
  public var maxDiffRatio: Double?
  /// The largest connected patch of differing pixels allowed; nil sets no limit.
  public var maxClusterPixels: Int?
  /// Rectangles that are not compared.
  public var ignoredRegions: [PixelRect]

  /// Options with the given tolerances; the defaults are ``exact``.
  public init(
    threshold: Double = 0, ignoresAntialiasing: Bool = false, maxDiffPixels: Int? = nil, maxDiffRatio: Double? = nil,
    maxClusterPixels: Int? = nil, ignoredRegions: [PixelRect] = []
  ) {
    self.threshold = threshold
    self.ignoresAntialiasing = ignoresAntialiasing
    self.maxDiffPixels = maxDiffPixels
    self.maxDiffRatio = maxDiffRatio
    self.maxClusterPixels = maxClusterPixels
    self.ignoredRegions = ignoredRegions
  }

  /// Every pixel must be identical.
  public static let exact = ComparisonOptions()

  /// For text rendered by another build of the same libraries: color noise and antialiasing
  /// ignored, a few scattered pixels allowed, no patch larger than 16 pixels.
  public static let textTolerant = ComparisonOptions(
    threshold: 0.1, ignoresAntialiasing: true, maxDiffPixels: 200, maxDiffRatio: 0.001, maxClusterPixels: 16)

  /// Whether every knob is in range; the reason if not.
  public var problem: String? {
    if !(0...1).contains(threshold) { return "threshold \(threshold) is out of range (0 to 1)" }
    if let maxDiffPixels, maxDiffPixels < 0 { return "max diff pixels \(maxDiffPixels) is negative" }
    if let maxDiffRatio, !(0...1).contains(maxDiffRatio) { return "max diff ratio \(maxDiffRatio) is out of range (0 to 1)" }
    if let maxClusterPixels, maxClusterPixels < 0 { return "max cluster pixels \(maxClusterPixels) is negative" }
    return nil
  }

  /// How many differing pixels may remain in an image of `total` pixels.
  public func allowedDiffPixels(total: Int) -> Int {
    var allowed = Int.max
    if let maxDiffPixels { allowed = min(allowed, maxDiffPixels) }
    if let maxDiffRatio { allowed = min(allowed, Int((maxDiffRatio * Double(total)).rounded(.down))) }
    return allowed == Int.max ? 0 : allowed
  }
}

/// A rectangle of pixels.
public struct PixelRect: Hashable, Sendable, Codable, CustomStringConvertible {
  /// The left column.
  public var x: Int
  /// The top row.
  public var y: Int
  /// The width in pixels.
  public var width: Int
  /// The height in pixels.
  public var height: Int

  /// The rectangle with its top-left pixel at `x`, `y`.
  public init(x: Int, y: Int, width: Int, height: Int) {
    self.x = x
    self.y = y
    self.width = width
    self.height = height
  }

  /// Whether the pixel at `px`, `py` lies in the rectangle. A region from the command line
  /// (`--ignore`) or a JSON file may lie anywhere in `Int`'s range, so nothing here adds to
  /// its corner: `x + width` overflowed and trapped (found by fuzzing).
  public func contains(x px: Int, y py: Int) -> Bool {
    guard px >= x, py >= y else { return false }
    let (dx, xOverflow) = px.subtractingReportingOverflow(x)
    let (dy, yOverflow) = py.subtractingReportingOverflow(y)
    // An overflow means the pixel lies further than Int.max from the corner: outside.
    return !xOverflow && !yOverflow && dx < width && dy < height
  }

  /// Parses `x,y,width,height`.
  public init?(parsing text: String) {
    let parts = text.split(separator: ",").map { Int($0.trimmingCharacters(in: .whitespaces)) }
    guard parts.count == 4, let x = parts[0], let y = parts[1], let w = parts[2], let h = parts[3], w > 0, h > 0
    else { return nil }
    self.init(x: x, y: y, width: w, height: h)
  }

  /// The columns and rows it covers, inclusive (`x 0–9, y 10–19`).
  public var description: String {
    "x \(x)–\(Int128(x) + Int128(width) - 1), y \(y)–\(Int128(y) + Int128(height) - 1)"
  }
}
