import Foundation
import RowKitGraphics

/// One horizontal piece of a table: a header or footer band, or a row. Strips tile the
/// table from top to bottom, each a whole number of device pixels tall.
package enum TableStrip {
  /// A section's header or footer band.
  case band(SectionBand)
  /// A row, placed in the table.
  case row(PlacedRow)

  /// The strip's place in the table, in points.
  public var frame: Rect {
    switch self {
    case .band(let band): return band.frame
    case .row(let row): return row.frame
    }
  }
}

/// Paints a laid-out table, strip by strip. It measures nothing: it draws each row's layout
/// as it is.
///
/// Each strip is painted on a canvas of its own, with its top at the canvas's top, and
/// clipped to itself: a row's pixels are the same whether it is painted alone, with the
/// whole table, or on another thread, and a table's image is its strips' pixels one below
/// the other.
struct TablePainter {
  let look: TableLook
  let configuration: TableConfiguration
  let images: ResolvedImages
  /// Whether labels are drawn; the contrast lint paints rows without them to see what lies
  /// under their text.
  var drawsText = true

  private var onePixel: Double { 1 / configuration.scale }

  /// The pixels of `strip`, as tall as the strip.
  func paint(_ strip: TableStrip) throws -> Bitmap {
    let height = configuration.grid.pixels(strip.frame.height)
    return try Canvas.bitmap(pixelWidth: configuration.pixelWidth, pixelHeight: max(1, height), scale: configuration.scale) { canvas in
      canvas.clear(look.background)
      paintBackground(Rect(x: 0, y: 0, width: configuration.width, height: canvas.size.height), canvas)
      switch strip {
      case .band(var band):
        band.frame.origin.y = 0
        paint(band, canvas)
      case .row(var row):
        row.moveTo(y: 0)
        paint(row, canvas)
      }
    }
  }

  /// One pixel row of bare table background, for a table with no strips.
  func emptyRow() throws -> [UInt8] {
    let canvas = try Canvas(pixelWidth: configuration.pixelWidth, pixelHeight: 1, scale: configuration.scale)
    canvas.clear(look.background)
    paintBackground(Rect(x: 0, y: 0, width: configuration.width, height: canvas.size.height), canvas)
    return try canvas.bitmap().pixels
  }

  /// Paints the table's background and its stripes over `band`, on a canvas just cleared
  /// to the background. An opaque background is not filled again: every pixel already has
  /// its color, and filling a whole canvas was a third of a plain row's pixel work. A
  /// translucent one is, as it always was: over itself, it comes out more opaque.
  private func paintBackground(_ band: Rect, _ canvas: Canvas) {
    if look.background.alpha < 1 {
      canvas.fill(band, color: look.background)
    }
    guard let stripe = look.stripe else { return }
    // UIKit's grouped pinstripes: vertical, so every strip lines up with the next.
    let period = 5.0
    var x = 0.0
    while x < band.maxX {
      canvas.fill(Rect(x: x, y: band.minY, width: 2, height: band.height), color: stripe)
      x += period
    }
  }

  /// Whether `style` only fills its shape with the table's opaque background, which every
  /// pixel of a canvas without stripes already has (``paint(_:)`` clears it to that color):
  /// filling it again changes no pixel (opaque over the same color is that color, whatever
  /// the coverage), and cost a pass over the row's pixels. The default stylesheet's cell
  /// background is such a style.
  private func paintsOnlyTheBackground(_ style: Style) -> Bool {
    guard look.stripe == nil, look.background.alpha >= 1, style.elements.count == 1,
      case .fill(let color) = style.elements[0]
    else { return false }
    return color == look.background
  }

  // MARK: - Headers and footers

  private func paint(_ band: SectionBand, _ canvas: Canvas) {
    canvas.withSavedState {
      canvas.clip(to: band.frame)
      if band.kind == .header, band.title != nil, configuration.style == .plain {
        canvas.draw(look.headerStyle, in: band.frame)
      }
      if let label = band.label { draw(label, canvas) }
    }
  }

  // MARK: - Rows

  private func paint(_ row: PlacedRow, _ canvas: Canvas) {
    let layout = row.layout
    let cellRect = Rect(origin: .zero, size: row.cellFrame.size)
    let grouped = configuration.style == .grouped
    let radius = look.cornerRadius
    let corners = CornerRadii(
      topLeft: row.position.roundsTop ? radius : 0, topRight: row.position.roundsTop ? radius : 0,
      bottomRight: row.position.roundsBottom ? radius : 0, bottomLeft: row.position.roundsBottom ? radius : 0)
    let cellShape = grouped ? Path.roundedRect(cellRect, corners: corners) : .rect(cellRect)
    let background: Style? =
      layout.isSelected
      ? (layout.selectedBackground ?? look.selectedBackground) : (layout.background ?? (grouped ? nil : look.cellBackground))
    canvas.withSavedState {
      canvas.clip(to: row.frame)
      canvas.translate(x: row.cellFrame.x, y: row.cellFrame.y)
      canvas.withSavedState {
        canvas.clip(to: cellShape)
        if let background, paintsOnlyTheBackground(background) {
          drawContent(of: row, on: canvas)
        } else if let background {
          // A background style with a `content` element decides where the row's content goes.
          canvas.draw(background, in: cellRect) { target, _, _ in drawContent(of: row, on: target) }
        } else {
          canvas.fill(cellRect, color: look.groupedCellBackground)
          drawContent(of: row, on: canvas)
        }
      }
      if grouped {
        strokeGroupedBorder(cellRect, corners: corners, position: row.position, canvas)
      }
      if !grouped || !row.position.roundsBottom {
        drawSeparator(below: cellRect, canvas)
      }
    }
  }

  private func drawContent(of row: PlacedRow, on canvas: Canvas) {
    let layout = row.layout
    for decoration in layout.decorations { draw(decoration, in: layout, canvas) }
    for (index, slot) in layout.images.enumerated() {
      draw(images.image(section: row.section, row: row.row, slot: index), in: slot, canvas)
    }
    for label in layout.labels where !label.isStyleContent { draw(label, canvas) }
    if let accessory = layout.accessory { draw(accessory, direction: layout.direction, canvas) }
  }

  /// The one-pixel line at a row's bottom, between the stylesheet's separator insets;
  /// `singleLineEtched` adds a lighter line under it, `none` draws nothing.
  private func drawSeparator(below rect: Rect, _ canvas: Canvas) {
    guard look.separatorStyle != "none" else { return }
    let etched = look.separatorStyle == "singleLineEtched"
    // UIKit's separator inset is leading: on the right in a right-to-left table.
    let rtl = configuration.direction.isRightToLeft
    let leading = rtl ? look.separatorInsetRight : look.separatorInsetLeft
    let trailing = rtl ? look.separatorInsetLeft : look.separatorInsetRight
    let left = rect.minX + leading
    let width = rect.width - leading - trailing
    guard width > 0 else { return }
    let y = rect.maxY - onePixel * (etched ? 2 : 1)
    canvas.fill(Rect(x: left, y: y, width: width, height: onePixel), color: look.separator)
    if etched {
      canvas.fill(Rect(x: left, y: y + onePixel, width: width, height: onePixel), color: look.separatorEtch)
    }
  }

  /// A grouped cell's outline: the sides, with the rounded top on a section's first row and
  /// the rounded bottom on its last. Separators between rows are drawn on their own.
  private func strokeGroupedBorder(_ rect: Rect, corners: CornerRadii, position: RowPosition, _ canvas: Canvas) {
    let half = onePixel / 2
    let inner = rect.insetBy(dx: half, dy: half)
    if position == .only {
      canvas.stroke(.roundedRect(inner, corners: corners), color: look.groupedBorder, width: onePixel)
      return
    }
    var path = Path()
    if position.roundsTop {
      let r = corners.topLeft
      path.move(to: Point(x: inner.minX, y: rect.maxY))
      path.line(to: Point(x: inner.minX, y: inner.minY + r))
      path.arc(center: Point(x: inner.minX + r, y: inner.minY + r), radius: r, start: .pi, end: 1.5 * .pi)
      path.arc(center: Point(x: inner.maxX - r, y: inner.minY + r), radius: r, start: 1.5 * .pi, end: 2 * .pi)
      path.line(to: Point(x: inner.maxX, y: rect.maxY))
    } else if position.roundsBottom {
      let r = corners.bottomLeft
      path.move(to: Point(x: inner.minX, y: rect.minY))
      path.line(to: Point(x: inner.minX, y: inner.maxY - r))
      path.arc(center: Point(x: inner.minX + r, y: inner.maxY - r), radius: r, start: .pi, end: .pi / 2)
      path.arc(center: Point(x: inner.maxX - r, y: inner.maxY - r), radius: r, start: .pi / 2, end: 0)
      path.line(to: Point(x: inner.maxX, y: rect.minY))
    } else {
      path.move(to: Point(x: inner.minX, y: rect.minY))
      path.line(to: Point(x: inner.minX, y: rect.maxY))
      path.move(to: Point(x: inner.maxX, y: rect.minY))
      path.line(to: Point(x: inner.maxX, y: rect.maxY))
    }
    canvas.stroke(path, color: look.groupedBorder, width: onePixel)
  }

  private func draw(_ label: RowLabel, _ canvas: Canvas) {
    guard drawsText else { return }
    let origin = label.drawingOrigin
    if let shadow = label.shadow {
      canvas.draw(
        label.text, at: Point(x: origin.x + label.shadowOffset.width, y: origin.y + label.shadowOffset.height), color: shadow)
    }
    canvas.draw(label.text, at: origin, color: label.color)
  }

  /// Draws a slot: its style's chain, if it has one, with the image as the chain's content
  /// (clipped to the shape there); else the image clipped to the slot. A style draws even
  /// while the slot has no image, so a bordered slot keeps its border.
  private func draw(_ image: SlotImage?, in slot: ImageSlot, _ canvas: Canvas) {
    func drawImage(on canvas: Canvas, clippedTo path: Path) {
      guard let pixels = image?.pixels, let rect = image?.drawingRect else { return }
      canvas.withSavedState {
        canvas.clip(to: path)
        canvas.blit(pixels, at: rect.origin)
      }
    }
    guard let style = slot.style else {
      drawImage(on: canvas, clippedTo: StyleShape.rectangle.path(in: slot.frame))
      return
    }
    canvas.draw(style, in: slot.frame) { target, contentFrame, shape in
      drawImage(on: target, clippedTo: shape.path(in: contentFrame))
    }
  }

  // MARK: - Vector glyphs

  /// Draws an accessory's glyph. In a right-to-left row the chevrons (of the disclosure
  /// indicator and inside the detail button) point left, as UIKit draws them; the checkmark
  /// is not mirrored.
  private func draw(_ accessory: AccessoryLayout, direction: LayoutDirection, _ canvas: Canvas) {
    let f = accessory.frame
    /// `point` reflected in the glyph's vertical center line when the row is mirrored.
    func chevron(_ point: Point) -> Point {
      direction.isRightToLeft ? Point(x: f.minX + f.maxX - point.x, y: point.y) : point
    }
    switch accessory.kind {
    case .disclosureIndicator:
      let inset = 1.25
      canvas.stroke(
        .polyline(
          [
            Point(x: f.minX + inset, y: f.minY + inset), Point(x: f.maxX - inset, y: f.midY),
            Point(x: f.minX + inset, y: f.maxY - inset),
          ].map(chevron)), color: accessory.color, width: 2.5)
    case .detailDisclosureButton:
      let center = Point(x: f.midX, y: f.midY)
      let radius = f.width / 2
      let top = Color(
        red: min(1, accessory.color.red + 0.25), green: min(1, accessory.color.green + 0.25),
        blue: min(1, accessory.color.blue + 0.15))
      canvas.fill(.circle(center: center, radius: radius), color: .white)
      canvas.fill(.circle(center: center, radius: radius - 2), gradient: .vertical(f, from: top, to: accessory.color))
      canvas.stroke(
        .polyline(
          [
            Point(x: center.x - 2, y: center.y - 4.5), Point(x: center.x + 2.5, y: center.y),
            Point(x: center.x - 2, y: center.y + 4.5),
          ].map(chevron)), color: accessory.glyphColor, width: 2.2)
    case .checkmark:
      canvas.stroke(
        .polyline([
          Point(x: f.minX + 1, y: f.minY + f.height * 0.55), Point(x: f.minX + f.width * 0.38, y: f.maxY - 1),
          Point(x: f.maxX - 1, y: f.minY + 1),
        ]), color: accessory.color, width: 2.5, cap: .round)
    }
  }

  private func draw(_ decoration: Decoration, in layout: RowLayout, _ canvas: Canvas) {
    switch decoration {
    case .style(let frame, let style, let contentLabel):
      canvas.draw(style, in: frame) { target, _, _ in
        if let contentLabel, layout.labels.indices.contains(contentLabel) { draw(layout.labels[contentLabel], target) }
      }
    case .fill(let frame, let color):
      canvas.fill(frame, color: color)
    case .spinner(let frame, let color):
      let center = Point(x: frame.midX, y: frame.midY)
      let outer = frame.width / 2 - 1
      for spoke in 0..<12 {
        let angle = Double(spoke) * .pi / 6 - .pi / 2
        let alpha = 0.25 + 0.75 * Double(spoke) / 11
        canvas.stroke(
          .polyline([
            Point(x: center.x + cos(angle) * outer * 0.5, y: center.y + sin(angle) * outer * 0.5),
            Point(x: center.x + cos(angle) * outer, y: center.y + sin(angle) * outer),
          ]), color: color.withAlpha(color.alpha * alpha), width: 2, cap: .round)
      }
    case .toggle(let frame, let isOn, let onColor, let offColor, let borderColor):
      let pill = Path.roundedRect(frame, radius: frame.height / 2)
      canvas.fill(pill, color: isOn ? onColor : offColor)
      canvas.stroke(
        .roundedRect(frame.insetBy(dx: 0.5, dy: 0.5), radius: frame.height / 2 - 0.5),
        color: isOn ? onColor : borderColor, width: 1)
      let knobRadius = frame.height / 2 - 1.5
      // A mirrored switch is on with its knob at the left, as UISwitch in a right-to-left layout.
      let knobAtRight = isOn != layout.direction.isRightToLeft
      let knobX = knobAtRight ? frame.maxX - 1.5 - knobRadius : frame.minX + 1.5 + knobRadius
      let knob = Path.circle(center: Point(x: knobX, y: frame.midY), radius: knobRadius)
      canvas.fill(knob, color: .white)
      canvas.stroke(knob, color: borderColor.withAlpha(0.6), width: 0.5)
    case .slider(let frame, let value, let fillColor, let trackColor, let borderColor):
      let knobRadius = frame.height / 2
      let trackHeight = 4.0
      let start = frame.minX + knobRadius
      let end = frame.maxX - knobRadius
      // A mirrored slider fills from the right, as UISlider in a right-to-left layout.
      let rtl = layout.direction.isRightToLeft
      let knobX = rtl ? end - (end - start) * value : start + (end - start) * value
      let track = Rect(x: frame.minX, y: frame.midY - trackHeight / 2, width: frame.width, height: trackHeight)
      canvas.fill(.roundedRect(track, radius: trackHeight / 2), color: trackColor)
      let filled =
        rtl
        ? Rect(x: knobX, y: track.minY, width: track.maxX - knobX, height: trackHeight)
        : Rect(x: track.minX, y: track.minY, width: knobX - track.minX, height: trackHeight)
      canvas.fill(.roundedRect(filled, radius: trackHeight / 2), color: fillColor)
      let knob = Path.circle(center: Point(x: knobX, y: frame.midY), radius: knobRadius - 0.5)
      canvas.fill(knob, color: .white)
      canvas.stroke(knob, color: borderColor, width: 1)
    case .textField(let frame, let borderColor):
      canvas.fill(.roundedRect(frame, radius: 5), color: .white)
      canvas.stroke(.roundedRect(frame.insetBy(dx: 0.5, dy: 0.5), radius: 4.5), color: borderColor, width: 1)
    }
  }
}
