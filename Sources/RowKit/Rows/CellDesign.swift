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
  public var selectedBackground: String?
  public var body: DesignNode

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
  case stack(DesignStack)
  case label(DesignLabel)
  case image(DesignImage)
  case spacer(DesignSpacer)

  public static func hstack(
    spacing: Double = 0, alignment: DesignStack.Alignment = .center, padding: EdgeInsets = .zero,
    grow: Double = 0, _ children: [DesignNode]
  ) -> DesignNode {
    .stack(DesignStack(axis: .horizontal, spacing: spacing, alignment: alignment, padding: padding, grow: grow, children: children))
  }

  public static func vstack(
    spacing: Double = 0, alignment: DesignStack.Alignment = .start, padding: EdgeInsets = .zero,
    grow: Double = 0, _ children: [DesignNode]
  ) -> DesignNode {
    .stack(DesignStack(axis: .vertical, spacing: spacing, alignment: alignment, padding: padding, grow: grow, children: children))
  }

  public static func zstack(
    alignment: DesignStack.Alignment = .center, padding: EdgeInsets = .zero, grow: Double = 0,
    _ children: [DesignNode]
  ) -> DesignNode {
    .stack(DesignStack(axis: .overlay, spacing: 0, alignment: alignment, padding: padding, grow: grow, children: children))
  }

  public static func label(
    _ text: String, name: String? = nil, font: String = "font", color: String = "textColor",
    highlightedColor: String = "highlightedTextColor", lines: Int = 0,
    alignment: TextStyle.Alignment = .left, ellipsize: TextStyle.Ellipsize = .end, grow: Double = 0
  ) -> DesignNode {
    .label(
      DesignLabel(
        name: name, text: text, font: font, color: color, highlightedColor: highlightedColor, lines: lines,
        alignment: alignment, ellipsize: ellipsize, grow: grow))
  }

  public static func image(
    url: String?, name: String? = nil, width: Double, height: Double, defaultURL: String? = nil,
    contentMode: ContentMode = .aspectFill, style: String? = nil
  ) -> DesignNode {
    .image(
      DesignImage(
        name: name, url: url, defaultURL: defaultURL, width: width, height: height, contentMode: contentMode,
        style: style))
  }

  public static func spacer(minLength: Double = 0, grow: Double = 1) -> DesignNode {
    .spacer(DesignSpacer(minLength: minLength, grow: grow))
  }
}

/// Children side by side (`horizontal`), one above another (`vertical`), or on top of each
/// other (`overlay`).
public struct DesignStack: Hashable, Sendable {
  /// The direction a stack lays out its children in.
  public enum Axis: String, Hashable, Sendable { case horizontal, vertical, overlay }
  /// Where children sit across the stack's axis.
  public enum Alignment: String, Hashable, Sendable, CaseIterable { case start, center, end, stretch }

  public var axis: Axis
  public var spacing: Double
  public var alignment: Alignment
  public var padding: EdgeInsets
  /// A share of the space left over along the parent stack's axis; 0 takes none.
  public var grow: Double
  public var children: [DesignNode]

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
  public var text: String
  public var font: String
  public var color: String
  public var highlightedColor: String
  /// The most lines shown; 0 is no limit.
  public var lines: Int
  public var alignment: TextStyle.Alignment
  public var ellipsize: TextStyle.Ellipsize
  public var grow: Double

  public init(
    name: String? = nil, text: String, font: String = "font", color: String = "textColor",
    highlightedColor: String = "highlightedTextColor", lines: Int = 0, alignment: TextStyle.Alignment = .left,
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
  public var name: String?
  public var url: String?
  public var defaultURL: String?
  public var width: Double
  public var height: Double
  public var contentMode: ContentMode
  /// A stylesheet style whose shape clips the image (`rounded`, `circle`).
  public var style: String?

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
  public var minLength: Double
  public var grow: Double

  public init(minLength: Double = 0, grow: Double = 1) {
    self.minLength = minLength
    self.grow = grow
  }
}
