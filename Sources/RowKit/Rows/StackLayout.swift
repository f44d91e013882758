import RowKitGraphics

/// Lays out a ``CellDesign`` in one pass over its tree.
///
/// Widths flow down and each label is shaped once, with the width it gets:
/// - a vertical or overlay stack gives every child its full inner width;
/// - a horizontal stack gives fixed children (images, spacers' least lengths) their widths
///   first, then each non-growing child in order the width still left (a label takes only
///   what its text needs), then shares what remains among growing children by weight.
/// Heights flow up. Placing then only moves frames: extra height goes to growing children of
/// a vertical stack, or centers its content; nothing is shaped again.
enum StackLayout {
  static func layout(_ design: CellDesign, name: String, in context: LayoutContext) throws -> RowLayout {
    let innerWidth = max(0, context.contentWidth - design.padding.horizontal)
    let measured = try measure(design.body, width: innerWidth, along: .vertical, context)
    let natural = measured.size.height + design.padding.vertical
    let height = design.height.map { context.grid.ceil($0) }
      ?? context.rowHeight(fitting: natural, minimum: design.minHeight)
    var row = RowLayout(cellName: name, size: Size(width: context.cellWidth, height: height))
    let bodyHeight = max(measured.size.height, height - design.padding.vertical)
    try place(
      measured, in: Rect(x: design.padding.left, y: design.padding.top, width: innerWidth, height: bodyHeight),
      into: &row, context)
    if let background = design.background { row.background = try context.stylesheet.style(background) }
    if let selected = design.selectedBackground { row.selectedBackground = try context.stylesheet.style(selected) }
    return row
  }

  indirect enum Measured {
    case stack(DesignStack, Size, [Measured])
    case label(DesignLabel, TextLayout?, Size)
    case image(DesignImage, Size)
    case spacer(DesignSpacer, Size)

    var size: Size {
      switch self {
      case .stack(_, let size, _), .label(_, _, let size), .image(_, let size), .spacer(_, let size): return size
      }
    }

    var grow: Double {
      switch self {
      case .stack(let stack, _, _): return stack.grow
      case .label(let label, _, _): return label.grow
      case .image: return 0
      case .spacer(let spacer, _): return spacer.grow
      }
    }
  }

  static func measure(
    _ node: DesignNode, width: Double, along axis: DesignStack.Axis, _ context: LayoutContext
  ) throws -> Measured {
    switch node {
    case .label(let label):
      let layout = try context.shape(
        label.text, font: label.font, width: width, lines: label.lines, alignment: label.alignment,
        ellipsize: label.ellipsize)
      guard let layout else { return .label(label, nil, Size(width: 0, height: 0)) }
      // A label takes only its text's width, unless it grows: then its whole box, in which
      // Pango aligns the text.
      let used = label.grow > 0 ? width : min(width, layout.logicalRect.width)
      return .label(label, layout, Size(width: used, height: layout.size.height))
    case .image(let image):
      return .image(image, Size(width: image.width, height: image.height))
    case .spacer(let spacer):
      let size = axis == .horizontal
        ? Size(width: spacer.minLength, height: 0) : Size(width: 0, height: spacer.minLength)
      return .spacer(spacer, size)
    case .stack(let stack):
      let inner = max(0, width - stack.padding.horizontal)
      var children: [Measured] = []
      switch stack.axis {
      case .vertical, .overlay:
        for child in stack.children {
          children.append(try measure(child, width: inner, along: stack.axis, context))
        }
        let heights = children.map(\.size.height)
        let contentHeight = stack.axis == .vertical
          ? heights.reduce(0, +) + stack.spacing * Double(max(0, children.count - 1))
          : heights.max() ?? 0
        // A stack hugs its widest child; a growing or stretching one fills its place.
        let contentWidth = children.map(\.size.width).max() ?? 0
        let used = stack.grow > 0 || stack.alignment == .stretch ? width : min(width, contentWidth + stack.padding.horizontal)
        return .stack(stack, Size(width: used, height: contentHeight + stack.padding.vertical), children)
      case .horizontal:
        children = try measureRow(stack, inner: inner, context)
        let contentHeight = children.map(\.size.height).max() ?? 0
        return .stack(stack, Size(width: width, height: contentHeight + stack.padding.vertical), children)
      }
    }
  }

  private static func measureRow(_ stack: DesignStack, inner: Double, _ context: LayoutContext) throws -> [Measured] {
    var results = [Measured?](repeating: nil, count: stack.children.count)
    var remaining = inner - stack.spacing * Double(max(0, stack.children.count - 1))
    func grow(_ node: DesignNode) -> Double {
      switch node {
      case .stack(let s): return s.grow
      case .label(let l): return l.grow
      case .image: return 0
      case .spacer(let s): return s.grow
      }
    }
    // Fixed widths first; a growing spacer reserves its least length now and grows last.
    for (index, child) in stack.children.enumerated() {
      switch child {
      case .image:
        let measured = try measure(child, width: 0, along: .horizontal, context)
        results[index] = measured
        remaining -= measured.size.width
      case .spacer(let spacer):
        remaining -= spacer.minLength
        if spacer.grow == 0 { results[index] = .spacer(spacer, Size(width: spacer.minLength, height: 0)) }
      default: break
      }
    }
    // Then non-growing children in order, each taking what it needs of what is left.
    for (index, child) in stack.children.enumerated() where results[index] == nil && grow(child) == 0 {
      if case .spacer = child { continue }
      let measured = try measure(child, width: max(0, remaining), along: .horizontal, context)
      results[index] = measured
      remaining -= measured.size.width
    }
    // Growing children share the rest by weight.
    let growing = stack.children.enumerated().filter { results[$0.offset] == nil }
    let totalGrow = growing.map { grow($0.element) }.reduce(0, +)
    for (index, child) in growing {
      let share = totalGrow > 0 ? max(0, remaining) * grow(child) / totalGrow : 0
      if case .spacer(let spacer) = child {
        results[index] = .spacer(spacer, Size(width: spacer.minLength + share, height: 0))
      } else {
        results[index] = try measure(child, width: share, along: .horizontal, context)
      }
    }
    return results.map { $0! }
  }

  /// Places a measured node in `frame`, adding its labels and image slots to `row`.
  static func place(_ measured: Measured, in frame: Rect, into row: inout RowLayout, _ context: LayoutContext) throws {
    switch measured {
    case .label(let label, let layout, _):
      guard let layout else { return }
      // A frame as wide as the box the text was shaped in holds the whole box; a narrower one
      // holds just the text, which then starts at the frame's left edge (before the row is
      // mirrored in `rtl`).
      let boxWidth = layout.style.width ?? layout.logicalRect.width
      let origin = frame.width >= boxWidth - 0.001
        ? frame.origin : Point(x: frame.x - context.leftToRightOffset(of: layout), y: frame.y)
      row.labels.append(
        RowLabel(
          name: label.name ?? "label\(row.labels.count)", text: layout,
          color: try context.color(label.color, highlighted: label.highlightedColor),
          boxOrigin: origin))
    case .image(let image, _):
      row.images.append(
        ImageSlot(
          name: image.name ?? "image\(row.images.count)", frame: frame, url: image.url,
          defaultURL: image.defaultURL, contentMode: image.contentMode,
          style: try image.style.map { try context.stylesheet.style($0) }))
    case .spacer:
      return
    case .stack(let stack, _, let children):
      let inner = frame.inset(by: stack.padding)
      switch stack.axis {
      case .vertical:
        let content = children.map(\.size.height).reduce(0, +) + stack.spacing * Double(max(0, children.count - 1))
        let extra = max(0, inner.height - content)
        let totalGrow = children.map(\.grow).reduce(0, +)
        var y = inner.y + (totalGrow > 0 ? 0 : context.grid.round(extra / 2))
        for child in children {
          let height = child.size.height + (totalGrow > 0 ? extra * child.grow / totalGrow : 0)
          let x = crossOffset(child.size.width, in: inner.width, stack.alignment)
          let width = stack.alignment == .stretch ? inner.width : child.size.width
          try place(child, in: Rect(x: inner.x + x, y: y, width: width, height: height), into: &row, context)
          y += height + stack.spacing
        }
      case .horizontal:
        var x = inner.x
        for child in children {
          let y = crossOffset(child.size.height, in: inner.height, stack.alignment)
          let height = stack.alignment == .stretch ? inner.height : child.size.height
          try place(child, in: Rect(x: x, y: inner.y + y, width: child.size.width, height: height), into: &row, context)
          x += child.size.width + stack.spacing
        }
      case .overlay:
        for child in children {
          let x = crossOffset(child.size.width, in: inner.width, stack.alignment)
          let y = crossOffset(child.size.height, in: inner.height, stack.alignment)
          let size = stack.alignment == .stretch ? inner.size : child.size
          try place(child, in: Rect(origin: Point(x: inner.x + x, y: inner.y + y), size: size), into: &row, context)
        }
      }
    }

    func crossOffset(_ size: Double, in available: Double, _ alignment: DesignStack.Alignment) -> Double {
      switch alignment {
      case .start, .stretch: return 0
      case .center: return context.grid.round((available - size) / 2)
      case .end: return available - size
      }
    }
  }
}
