import RowKitGraphics

/// The direction a table's rows are laid out in, as UIKit's semantic content attribute:
/// `rtl` mirrors every row as UIKit mirrors a cell forced right to left.
public enum LayoutDirection: String, Hashable, Sendable, CaseIterable {
  /// Left to right: rows as cells lay them out.
  case ltr
  /// Right to left: every row mirrored.
  case rtl

  /// Whether rows are mirrored.
  public var isRightToLeft: Bool { self == .rtl }

  /// The alignment a label asked to be `alignment` takes in this direction: left and right
  /// are leading and trailing, so they swap in `rtl`, and UIKit's value cells (a caption
  /// aligned right, then its text aligned left) come out swapped and mirrored.
  public func resolve(_ alignment: TextStyle.Alignment) -> TextStyle.Alignment {
    guard self == .rtl else { return alignment }
    switch alignment {
    case .left: return .right
    case .right: return .left
    case .center: return .center
    }
  }
}

extension RowLayout {
  /// This layout mirrored in `width` (the cell's width), as UIKit mirrors a cell in a
  /// right-to-left layout: every frame `x` (labels, images, decorations, the accessory)
  /// becomes `width − x − frame.width`.
  ///
  /// A label's *layout box* (the width it was shaped in) is mirrored, not its text: the
  /// text was shaped with its alignment swapped (``LayoutDirection/resolve(_:)``), so it
  /// stands at the other side of its box and its frame comes out as the mirror of the
  /// left-to-right frame, while its glyphs keep their reading order. An image inside a
  /// label's text (``ImageSlot/anchorLabel``) moves with that text instead of mirroring.
  func mirrored(in width: Double) -> RowLayout {
    var row = self
    var labelShifts: [String: Double] = [:]
    for index in row.labels.indices {
      let dx = row.labels[index].mirroringShift(in: width)
      row.labels[index].frame = row.labels[index].frame.offsetBy(dx: dx, dy: 0)
      labelShifts[row.labels[index].name] = dx
    }
    for index in row.images.indices {
      let frame = row.images[index].frame
      if let anchor = row.images[index].anchorLabel, let dx = labelShifts[anchor] {
        row.images[index].frame = frame.offsetBy(dx: dx, dy: 0)
      } else {
        row.images[index].frame = frame.mirrored(in: width)
      }
    }
    row.decorations = row.decorations.map { $0.mirrored(in: width) }
    if let accessory = row.accessory { row.accessory?.frame = accessory.frame.mirrored(in: width) }
    row.direction = .rtl
    return row
  }
}

extension TextLayout {
  /// The width of the box the text was laid out in: the width it was shaped in, or, without
  /// one, as far as its extents reach.
  var boxWidth: Double { style.width ?? logicalRect.maxX }
}

extension LayoutContext {
  /// Where `text`'s extents start inside its layout box in a left-to-right row. In `rtl` the
  /// text was shaped with its alignment swapped, so this is its offset reflected in the box.
  /// A cell that places a label by where its text starts (not where its box starts) places
  /// the box at that start less this offset, and the row mirrors correctly.
  public func leftToRightOffset(of text: TextLayout) -> Double {
    guard direction.isRightToLeft else { return text.logicalRect.x }
    return text.boxWidth - text.logicalRect.x - text.logicalRect.width
  }
}

extension RowLabel {
  /// How far this label moves when its layout box (from its drawing origin, as wide as the
  /// width it was shaped in) is mirrored in `width`.
  func mirroringShift(in width: Double) -> Double {
    let boxX = drawingOrigin.x
    return (width - boxX - text.boxWidth) - boxX
  }

  /// This label with its layout box mirrored in `width`: a header's or footer's title.
  func mirrored(in width: Double) -> RowLabel {
    var label = self
    label.frame = frame.offsetBy(dx: mirroringShift(in: width), dy: 0)
    return label
  }
}

extension Rect {
  /// This rectangle reflected in the vertical line through `width / 2`.
  public func mirrored(in width: Double) -> Rect {
    Rect(x: width - x - self.width, y: y, width: self.width, height: height)
  }
}
