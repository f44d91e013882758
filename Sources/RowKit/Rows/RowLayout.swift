import RowKitGraphics

/// Everything about one row, computed once: its size, where each label, image slot and
/// control sits, the shaped text, the accessory and the background. The painter draws a row
/// layout as it is and never measures; the row's height is ``height`` and nothing else.
///
/// Frames are in the cell's coordinates: the origin is the cell's top-left corner (inside
/// the side margins of a grouped table).
public struct RowLayout {
  /// The cell that made this layout, for manifests (`SubtitleCell`).
  public var cellName: String
  /// The cell's size in points. The height is a whole number of device pixels.
  public var size: Size
  /// The row's shaped labels and where they sit.
  public var labels: [RowLabel]
  /// The row's image slots.
  public var images: [ImageSlot]
  /// Spinners, controls, fills and styles the cell draws besides labels and images.
  public var decorations: [Decoration]
  /// The accessory and the frame of its glyph; set by the table, not by cells.
  public var accessory: AccessoryLayout?
  /// The style drawn behind the row instead of the table's cell background, if any.
  public var background: Style?
  /// The style drawn behind the row when it is selected, if not the table's.
  public var selectedBackground: Style?
  /// Whether the row is drawn selected.
  public var isSelected: Bool
  /// The direction the row was laid out in; the painter points chevrons and draws controls
  /// for it (`mirrored(in:)` makes a right-to-left row).
  public var direction: LayoutDirection = .ltr

  /// A row of `size` drawn by the cell `cellName`, with whatever labels, images and decorations are given.
  public init(
    cellName: String, size: Size, labels: [RowLabel] = [], images: [ImageSlot] = [],
    decorations: [Decoration] = [], isSelected: Bool = false
  ) {
    self.cellName = cellName
    self.size = size
    self.labels = labels
    self.images = images
    self.decorations = decorations
    self.isSelected = isSelected
  }

  /// The row's height in points: the height of ``size``.
  public var height: Double {
    get { size.height }
    set { size.height = newValue }
  }

  /// A row of one label inset by `padding` and centered vertically, at least 44 points
  /// tall: the shape of the text, styled-text and fallback rows.
  static func paddedLabel(
    cellName: String, text: TextLayout?, color: Color, padding: Double, in context: LayoutContext
  ) -> RowLayout {
    let textHeight = text?.size.height ?? 0
    let height = context.rowHeight(fitting: textHeight + 2 * padding)
    var row = RowLayout(cellName: cellName, size: Size(width: context.cellWidth, height: height))
    if let text {
      row.labels.append(
        RowLabel(
          name: "text", text: text, color: color,
          boxOrigin: Point(x: padding, y: context.grid.round((height - textHeight) / 2))))
    }
    return row
  }

  /// Glyphs drawn as boxes in this row's labels because no loaded font has their
  /// characters: 0 when every character was drawn.
  public var missingGlyphCount: Int { labels.reduce(0) { $0 + $1.text.unknownGlyphCount } }

  /// The characters of this row that no loaded font can draw, each once, in label order.
  public var missingCharacters: [Unicode.Scalar] {
    var seen = Set<Unicode.Scalar>()
    return labels.flatMap(\.text.missingCharacters).filter { seen.insert($0).inserted }
  }

  /// The label with this name (`text`, `subtitle`, `caption`…).
  public func label(_ name: String) -> RowLabel? {
    labels.first { $0.name == name }
  }

  /// The image slot with this name (`image`).
  public func image(_ name: String) -> ImageSlot? {
    images.first { $0.name == name }
  }

  /// Moves every element down by `dy` points.
  mutating func shiftContent(by dy: Double) {
    guard dy != 0 else { return }
    for index in labels.indices { labels[index].frame = labels[index].frame.offsetBy(dx: 0, dy: dy) }
    for index in images.indices { images[index].frame = images[index].frame.offsetBy(dx: 0, dy: dy) }
    decorations = decorations.map { $0.offsetBy(dy: dy) }
  }
}

/// A shaped label and where its text sits.
public struct RowLabel {
  /// What the label shows in its cell (`text`, `subtitle`, `timestamp`…).
  public var name: String
  /// Where the text's logical extents sit, in cell coordinates.
  public var frame: Rect
  /// The shaped text, drawn as it is.
  public let text: TextLayout
  /// The color for the row's state (the highlighted color when the row is selected).
  public var color: Color
  /// A second drawing of the text, moved by ``shadowOffset``, as table headers use.
  public var shadow: Color?
  /// How far the shadow is moved from the text, in points: 1 down by default.
  public var shadowOffset = Size(width: 0, height: 1)
  /// Drawn by a style decoration at its `content` element, not with the other labels.
  public var isStyleContent = false

  /// A label whose layout box (the width it was shaped in) starts at `boxOrigin`.
  public init(name: String, text: TextLayout, color: Color, boxOrigin: Point, shadow: Color? = nil) {
    self.name = name
    self.text = text
    self.color = color
    self.shadow = shadow
    self.frame = text.logicalRect.offsetBy(dx: boxOrigin.x, dy: boxOrigin.y)
  }

  /// Where the layout's origin goes when drawing, so that its text lands on ``frame``.
  public var drawingOrigin: Point {
    Point(x: frame.x - text.logicalRect.x, y: frame.y - text.logicalRect.y)
  }
}

/// A place for an image. Its size comes from the cell, never from the image, so a row keeps
/// its height whether the image loads, fails or is replaced by its default image.
public struct ImageSlot: Hashable, Sendable {
  /// The slot's name, for manifests and tests (`image` by default).
  public var name: String
  /// The slot's frame in the cell's coordinates.
  public var frame: Rect
  /// The image's URL; nil shows the default image.
  public var url: String?
  /// The URL of the image shown when there is none from ``url``.
  public var defaultURL: String?
  /// How the image fills the slot.
  public var contentMode: ContentMode
  /// The image style, drawn through the style chain with the image as its content: rounded
  /// corners, a circle, a border, a shadow. Without one the image fills the frame.
  public var style: Style?
  /// The label whose text this image sits in (a styled-text `img`), or nil: in a mirrored
  /// row it moves with that text rather than mirroring on its own.
  public var anchorLabel: String?

  /// A slot of `frame` showing `url`, or `defaultURL` while there is no image from it.
  public init(
    name: String = "image", frame: Rect, url: String?, defaultURL: String?,
    contentMode: ContentMode = .aspectFill, style: Style? = nil, anchorLabel: String? = nil
  ) {
    self.anchorLabel = anchorLabel
    self.name = name
    self.frame = frame
    self.url = url
    self.defaultURL = defaultURL
    self.contentMode = contentMode
    self.style = style
  }

  /// The outline the image is clipped to: the style's shape.
  public var shape: StyleShape { style?.clipShape ?? .rectangle }

  /// Where the image goes: the style's content frame (inside its padding, insets and
  /// shadows), or the whole slot.
  public var imageFrame: Rect { style?.contentFrame(in: frame) ?? frame }
}

/// Vector drawings that some cells add: spinners and controls.
public enum Decoration: Hashable, Sendable {
  /// An activity spinner.
  case spinner(frame: Rect, color: Color)
  /// A switch, on or off.
  case toggle(frame: Rect, isOn: Bool, onColor: Color, offColor: Color, borderColor: Color)
  /// A slider, its knob at `value` from 0 to 1.
  case slider(frame: Rect, value: Double, fillColor: Color, trackColor: Color, borderColor: Color)
  /// A text field's border; its placeholder or text is one of the row's labels.
  case textField(frame: Rect, borderColor: Color)
  /// A filled rectangle, e.g. the fallback cell's warning background.
  case fill(frame: Rect, color: Color)
  /// A style drawn in a frame, with the label at `contentLabel` (an index into the row's
  /// labels) drawn at the style's `content` element.
  case style(frame: Rect, style: Style, contentLabel: Int?)

  /// The decoration's frame in the cell's coordinates.
  public var frame: Rect {
    switch self {
    case .spinner(let frame, _), .toggle(let frame, _, _, _, _), .slider(let frame, _, _, _, _),
      .textField(let frame, _), .fill(let frame, _), .style(let frame, _, _):
      return frame
    }
  }

  /// This decoration with its frame mirrored in `width` (``Rect/mirrored(in:)``).
  func mirrored(in width: Double) -> Decoration {
    withFrame(frame.mirrored(in: width))
  }

  func offsetBy(dy: Double) -> Decoration {
    withFrame(frame.offsetBy(dx: 0, dy: dy))
  }

  private func withFrame(_ frame: Rect) -> Decoration {
    switch self {
    case .spinner(_, let color):
      return .spinner(frame: frame, color: color)
    case .toggle(_, let isOn, let on, let off, let border):
      return .toggle(frame: frame, isOn: isOn, onColor: on, offColor: off, borderColor: border)
    case .slider(_, let value, let fill, let track, let border):
      return .slider(frame: frame, value: value, fillColor: fill, trackColor: track, borderColor: border)
    case .textField(_, let border):
      return .textField(frame: frame, borderColor: border)
    case .fill(_, let color):
      return .fill(frame: frame, color: color)
    case .style(_, let style, let label):
      return .style(frame: frame, style: style, contentLabel: label)
    }
  }
}
