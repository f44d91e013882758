/// How a paragraph of text is laid out: its font, the width it wraps in, line limits and
/// ellipsizing. A `TextStyle` and a string are everything a ``TextShaper`` needs.
public struct TextStyle: Hashable, Sendable {
  /// How lines of text are aligned.
  public enum Alignment: String, Hashable, Sendable, CaseIterable {
    /// The leading edge: left for left-to-right text, right for right-to-left text.
    case left
    /// Centered between the edges.
    case center
    /// The trailing edge: right for left-to-right text, left for right-to-left text.
    case right
  }

  /// Where text that does not fit is cut short with an ellipsis.
  public enum Ellipsize: String, Hashable, Sendable, CaseIterable {
    /// No ellipsis (the text is clipped), or the ellipsis at the start, in the middle or at the end.
    case none, start, middle, end
  }

  /// Where long lines of text may break.
  public enum Wrap: String, Hashable, Sendable {
    /// Break at word boundaries, and inside a word only when it alone is wider than the line.
    case word
    /// Break between any two characters.
    case character
  }

  /// The font the text is set in.
  public var font: Font
  /// The width to wrap (or ellipsize) in, in points; nil lays the text out on one line of
  /// whatever width it needs.
  public var width: Double?
  /// The most lines shown; 0 means no limit. Newlines count as line breaks, not paragraphs,
  /// so the limit holds for the whole text.
  public var maxLines: Int
  /// How the lines are aligned within ``width``.
  public var alignment: Alignment
  /// Where text that does not fit is cut short with an ellipsis.
  public var ellipsize: Ellipsize
  /// Where long lines may break.
  public var wrap: Wrap
  /// The tallest the text may be, in points; lines below it are cut off.
  public var maxHeight: Double?
  /// Whether ``alignment`` names an edge of the box whatever the direction of the text
  /// (`left` is the left edge even for Arabic), as UIKit aligns every label of a
  /// right-to-left layout to the right. By default `left` and `right` are the leading and
  /// trailing edges of the text's first paragraph, Pango's natural alignment.
  public var isAlignmentVisual: Bool

  /// A style in `font`; by default one line as wide as the text needs, left-aligned, ellipsized at the end.
  public init(
    font: Font, width: Double? = nil, maxLines: Int = 0, alignment: Alignment = .left,
    ellipsize: Ellipsize = .end, wrap: Wrap = .word, maxHeight: Double? = nil, isAlignmentVisual: Bool = false
  ) {
    self.isAlignmentVisual = isAlignmentVisual
    self.font = font
    self.width = width
    self.maxLines = maxLines
    self.alignment = alignment
    self.ellipsize = ellipsize
    self.wrap = wrap
    self.maxHeight = maxHeight
  }
}

/// A stretch of text with its own attributes, for styled text. Offsets count Unicode scalars
/// of the text handed to the shaper.
public struct TextRun: Hashable, Sendable {
  /// A style applied to part of a text.
  public enum Attribute: Hashable, Sendable {
    /// A CSS weight (400 regular, 700 bold).
    case weight(Int)
    /// The italic face.
    case italic
    /// A single underline.
    case underline
    /// A line through the text.
    case strikethrough
    /// The color of the text.
    case color(Color)
    /// Another font (family, size, weight and slant) for the run.
    case font(Font)
    /// The font size multiplied by a factor.
    case scale(Double)
    /// A color painted behind the run's glyphs.
    case background(Color)
    /// Reserves a box of this size standing on the baseline, for an inline image.
    case placeholder(Size)
  }

  /// The run's Unicode scalar offsets in the text.
  public var range: Range<Int>
  /// The style the run applies.
  public var attribute: Attribute

  /// A run applying `attribute` to the scalars in `range`.
  public init(_ range: Range<Int>, _ attribute: Attribute) {
    self.range = range
    self.attribute = attribute
  }
}

/// A font's vertical metrics in points.
public struct FontMetrics: Hashable, Sendable {
  /// The distance from the baseline up to the top of the line, in points.
  public var ascent: Double
  /// The distance from the baseline down to the bottom of the line, in points.
  public var descent: Double

  /// Metrics of `ascent` above the baseline and `descent` below it.
  public init(ascent: Double, descent: Double) {
    self.ascent = ascent
    self.descent = descent
  }

  /// The height of one line: ascent plus descent.
  public var lineHeight: Double { ascent + descent }
}
