import RowKitGraphics

/// A declarative cell: stacks of labels, image slots and spacers. The same stack engine lays
/// out designs written in Swift (``DesignedCell``) and designs loaded from files, and it
/// shapes each label once.
public struct CellDesign: Hashable, Sendable {
  /// Space between the cell's edges and its body.
  public var padding: EdgeInsets
  /// The least row height; nil is the stylesheet's `tableRowHeight` (Three20's 44 points).
  public var minHeight: Double?
  /// A fixed row height; the body is clipped if it is taller.
  public var height: Double?
  /// Stylesheet style names for the row's background in each state.
  public var background: String?
  /// The stylesheet style drawn behind the row when it is selected.
  public var selectedBackground: String?
  /// The root of the design's tree of stacks, labels, images and spacers.
  public var body: DesignNode

  /// A design of `body`, padded 10 points on every side unless told otherwise.
  public init(
    padding: EdgeInsets = EdgeInsets(all: 10), minHeight: Double? = nil,
    height: Double? = nil, background: String? = nil, selectedBackground: String? = nil, body: DesignNode
  ) {
    self.padding = padding
    self.minHeight = minHeight
    self.height = height
    self.background = background
    self.selectedBackground = selectedBackground
    self.body = body
  }
}

/// One node of a ``CellDesign``.
public indirect enum DesignNode: Hashable, Sendable {
  /// A stack of child nodes.
  case stack(DesignStack)
  /// A text label.
  case label(DesignLabel)
  /// An image slot.
  case image(DesignImage)
  /// Empty space.
  case spacer(DesignSpacer)

  /// Children side by side, centered vertically by default.
  public static func hstack(
    spacing: Double = 0, alignment: DesignStack.Alignment = .center, padding: EdgeInsets = .zero,
    grow: Double = 0, _ children: [DesignNode]
  ) -> DesignNode {
    .stack(DesignStack(axis: .horizontal, spacing: spacing, alignment: alignment, padding: padding, grow: grow, children: children))
  }

  /// Children one above another, aligned to the leading edge by default.
  public static func vstack(
    spacing: Double = 0, alignment: DesignStack.Alignment = .start, padding: EdgeInsets = .zero,
    grow: Double = 0, _ children: [DesignNode]
  ) -> DesignNode {
    .stack(DesignStack(axis: .vertical, spacing: spacing, alignment: alignment, padding: padding, grow: grow, children: children))
  }

  /// Children on top of each other, centered by default.
  public static func zstack(
    alignment: DesignStack.Alignment = .center, padding: EdgeInsets = .zero, grow: Double = 0,
    _ children: [DesignNode]
  ) -> DesignNode {
    .stack(DesignStack(axis: .overlay, spacing: 0, alignment: alignment, padding: padding, grow: grow, children: children))
  }

  /// A label of `text`, in stylesheet font and color names, with no line limit by default.
  public static func label(
    _ text: String, name: String? = nil, font: FontReference = "font", color: ColorReference = "textColor",
    highlightedColor: ColorReference = "highlightedTextColor", lines: Int = 0,
    alignment: TextStyle.Alignment = .left, ellipsize: TextStyle.Ellipsize = .end, grow: Double = 0
  ) -> DesignNode {
    .label(
      DesignLabel(
        name: name, text: text, font: font, color: color, highlightedColor: highlightedColor, lines: lines,
        alignment: alignment, ellipsize: ellipsize, grow: grow))
  }

  /// An image slot of `width` by `height` points, filled by aspect by default.
  public static func image(
    url: String?, name: String? = nil, width: Double, height: Double, defaultURL: String? = nil,
    contentMode: ContentMode = .aspectFill, style: String? = nil
  ) -> DesignNode {
    .image(
      DesignImage(
        name: name, url: url, defaultURL: defaultURL, width: width, height: height, contentMode: contentMode,
        style: style))
  }

  /// Space that takes a share of what is left, at least `minLength` points.
  public static func spacer(minLength: Double = 0, grow: Double = 1) -> DesignNode {
    .spacer(DesignSpacer(minLength: minLength, grow: grow))
  }
}

/// Children side by side (`horizontal`), one above another (`vertical`), or on top of each
/// other (`overlay`).
public struct DesignStack: Hashable, Sendable {
  /// The direction a stack lays out its children in.
  public enum Axis: String, Hashable, Sendable {
    /// Side by side.
    case horizontal
    /// One above another, top to bottom.
    case vertical
    /// On top of each other, the first at the back.
    case overlay
  }
  /// Where children sit across the stack's axis.
  public enum Alignment: String, Hashable, Sendable, CaseIterable {
    /// At the top, or the leading edge.
    case start
    /// Centered.
    case center
    /// At the bottom, or the trailing edge.
    case end
    /// As long as the stack's inner size across the axis.
    case stretch
  }

  /// Whether the children are side by side, stacked vertically, or overlaid.
  public var axis: Axis
  /// The space between neighbouring children, in points.
  public var spacing: Double
  /// Where the children sit across the axis.
  public var alignment: Alignment
  /// Space between the stack's edges and its children.
  public var padding: EdgeInsets
  /// A share of the space left over along the parent stack's axis; 0 takes none.
  public var grow: Double
  /// The stack's nodes, in order along the axis (back to front for an overlay).
  public var children: [DesignNode]

  /// A stack along `axis` of `children`.
  public init(
    axis: Axis, spacing: Double = 0, alignment: Alignment = .start, padding: EdgeInsets = .zero,
    grow: Double = 0, children: [DesignNode]
  ) {
    self.axis = axis
    self.spacing = spacing
    self.alignment = alignment
    self.padding = padding
    self.grow = grow
    self.children = children
  }
}

/// A text element of a cell design.
public struct DesignLabel: Hashable, Sendable {
  /// The name the row layout gives the label (for tests and manifests).
  public var name: String?
  /// The label's text.
  public var text: String
  /// The font: a stylesheet name or a literal font.
  public var font: FontReference
  /// The text color: a stylesheet name or a literal color.
  public var color: ColorReference
  /// The text color when the row is selected.
  public var highlightedColor: ColorReference
  /// The most lines shown; 0 is no limit.
  public var lines: Int
  /// How the lines are aligned.
  public var alignment: TextStyle.Alignment
  /// Where text that does not fit is cut short.
  public var ellipsize: TextStyle.Ellipsize
  /// A share of the space left over along the parent stack's axis; 0 takes none.
  public var grow: Double

  /// A label of `text`; its font and colors are stylesheet names or literals.
  public init(
    name: String? = nil, text: String, font: FontReference = "font", color: ColorReference = "textColor",
    highlightedColor: ColorReference = "highlightedTextColor", lines: Int = 0, alignment: TextStyle.Alignment = .left,
    ellipsize: TextStyle.Ellipsize = .end, grow: Double = 0
  ) {
    self.name = name
    self.text = text
    self.font = font
    self.color = color
    self.highlightedColor = highlightedColor
    self.lines = lines
    self.alignment = alignment
    self.ellipsize = ellipsize
    self.grow = grow
  }
}

/// An image element of a cell design.
public struct DesignImage: Hashable, Sendable {
  /// The name the row layout gives the slot (for tests and manifests).
  public var name: String?
  /// The image's URL; nil shows the default image.
  public var url: String?
  /// The URL of the image shown when there is none from ``url``.
  public var defaultURL: String?
  /// The slot's width in points, whatever the image's size.
  public var width: Double
  /// The slot's height in points, whatever the image's size.
  public var height: Double
  /// How the image fills the slot.
  public var contentMode: ContentMode
  /// A stylesheet style whose shape clips the image (`rounded`, `circle`).
  public var style: String?

  /// An image slot of `width` by `height` points showing `url`.
  public init(
    name: String? = nil, url: String?, defaultURL: String? = nil, width: Double, height: Double,
    contentMode: ContentMode = .aspectFill, style: String? = nil
  ) {
    self.name = name
    self.url = url
    self.defaultURL = defaultURL
    self.width = width
    self.height = height
    self.contentMode = contentMode
    self.style = style
  }
}

/// Empty space in a stack of a cell design.
public struct DesignSpacer: Hashable, Sendable {
  /// The least length along the stack's axis, in points.
  public var minLength: Double
  /// The spacer's share of the space left over along the stack's axis.
  public var grow: Double

  /// A spacer of at least `minLength` points that takes a `grow` share of what is left.
  public init(minLength: Double = 0, grow: Double = 1) {
    self.minLength = minLength
    self.grow = grow
  }
}
