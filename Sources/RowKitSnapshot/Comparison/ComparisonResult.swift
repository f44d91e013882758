/// What comparing two images found, in exact numbers.
public struct ComparisonResult: Hashable, Sendable, Codable {
  /// How two images compare.
  public enum Status: String, Hashable, Sendable, Codable {
    /// Every pixel is the same.
    case identical
    /// Some pixels differ, within the tolerances.
    case withinTolerance
    /// More differs than the tolerances allow.
    case different
    /// The images are not the same size: always a failure, whatever the tolerances.
    case sizeMismatch
  }

  /// An image's size in pixels.
  public struct Size: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The width in pixels.
    public var width: Int
    /// The height in pixels.
    public var height: Int
    /// A size of `width` × `height` pixels.
    public init(width: Int, height: Int) {
      self.width = width
      self.height = height
    }
    /// `width×height`.
    public var description: String { "\(width)×\(height)" }
  }

  /// A connected patch of differing pixels.
  public struct Cluster: Hashable, Sendable, Codable {
    /// The number of differing pixels in the patch.
    public var pixels: Int
    /// The patch's bounding box.
    public var box: PixelRect
  }

  /// How the images compare, judged by the tolerances.
  public var status: Status
  /// Whether the two images differ in size; then ``status`` is ``Status/sizeMismatch``.
  public var sizeMismatch: Bool
  /// The reference image's size.
  public var referenceSize: Size
  /// The actual image's size.
  public var actualSize: Size
  /// The canvas both images were compared on, top-left aligned: as wide and as tall as the
  /// larger of the two (their size when they are the same size).
  public var canvasSize: Size
  /// The canvas's pixels.
  public var totalPixels: Int
  /// Counted differing pixels, what the tolerances judge: pixels whose colors differ by more
  /// than the threshold, not counting antialiasing (when ignored) or ignored regions, plus
  /// every pixel of the canvas that only one image covers.
  public var differentPixels: Int
  /// Pixels of the canvas covered by only one image (when the sizes differ), included in
  /// ``differentPixels``.
  public var onlyOneImagePixels: Int
  /// Differing pixels classified as antialiasing (not counted when it is ignored).
  public var antialiasedPixels: Int
  /// Differing pixels inside ignored regions.
  public var ignoredPixels: Int
  /// Pixels whose bytes differ but whose colors are no further apart than the threshold
  /// (at threshold 0: differences nobody can see, such as the color of a fully transparent
  /// pixel).
  public var belowThresholdPixels: Int
  /// How many differing pixels the options allow.
  public var allowedDiffPixels: Int
  /// The bounding box of every counted differing pixel.
  public var changedBox: PixelRect?
  /// The largest connected patch of counted differing pixels.
  public var largestCluster: Cluster?
  /// The largest color distance found, on the threshold's 0–1 scale.
  public var maxDistance: Double
  /// The tolerances the images were compared with.
  public var options: ComparisonOptions

  /// Whether the images match: identical, or within the tolerances.
  public var passed: Bool { status == .identical || status == .withinTolerance }

  /// Whether no byte of the two images differs, whatever the tolerances: what the render
  /// cache requires before it trusts a render to match again.
  public var isIdentical: Bool {
    status == .identical && !sizeMismatch && belowThresholdPixels == 0 && ignoredPixels == 0 && antialiasedPixels == 0
  }

  /// The share of the canvas's pixels that counted as different, from 0 to 1.
  public var diffRatio: Double { totalPixels == 0 ? 0 : Double(differentPixels) / Double(totalPixels) }

  /// One line with the exact numbers.
  public var summary: String {
    switch status {
    case .identical:
      return "identical (\(referenceSize), \(totalPixels) pixels)"
    case .sizeMismatch:
      var parts = [
        "sizes differ: reference \(referenceSize), actual \(actualSize); \(differentPixels) of \(totalPixels) pixels "
          + "of the \(canvasSize) canvas differ (\(Self.percent(diffRatio))): \(onlyOneImagePixels) covered by only one image, "
          + "\(differentPixels - onlyOneImagePixels) where both overlap"
      ]
      parts += details
      return parts.joined(separator: "; ")
    case .withinTolerance, .different:
      let parts = ["\(differentPixels) of \(totalPixels) pixels differ (\(Self.percent(diffRatio))), \(allowedDiffPixels) allowed"] + details
      return (status == .withinTolerance ? "within tolerance: " : "") + parts.joined(separator: "; ")
    }
  }

  /// The clusters, the box, antialiasing, ignored pixels and the largest distance.
  private var details: [String] {
    var parts: [String] = []
    if let largestCluster {
      var cluster = "largest cluster \(largestCluster.pixels) pixels at \(largestCluster.box)"
      if let limit = options.maxClusterPixels { cluster += " (limit \(limit))" }
      parts.append(cluster)
    }
    if let changedBox { parts.append("changes within \(changedBox)") }
    if antialiasedPixels > 0 {
      parts.append(
        options.ignoresAntialiasing
          ? "\(antialiasedPixels) antialiasing pixels ignored"
          : "\(antialiasedPixels) of them look like antialiasing")
    }
    if ignoredPixels > 0 { parts.append("\(ignoredPixels) pixels in ignored regions") }
    if belowThresholdPixels > 0 { parts.append("\(belowThresholdPixels) pixels within the color threshold") }
    parts.append("max color distance \(Self.decimal(maxDistance))")
    return parts
  }

  static func percent(_ ratio: Double) -> String {
    let value = ratio * 100
    if value == 0 { return "0%" }
    if value < 0.0001 { return "<0.0001%" }
    return decimal(value, digits: value < 1 ? 4 : 2) + "%"
  }

  static func decimal(_ value: Double, digits: Int = 4) -> String {
    var factor = 1.0
    for _ in 0..<digits { factor *= 10 }
    let rounded = (value * factor).rounded() / factor
    var text = String(rounded)
    if text.hasSuffix(".0") { text.removeLast(2) }
    return text
  }
}
