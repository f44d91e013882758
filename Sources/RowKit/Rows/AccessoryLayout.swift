import RowKitGraphics

/// An accessory placed in its row, with its colors for the row's state.
public struct AccessoryLayout: Hashable, Sendable {
  /// Which accessory is drawn.
  public var kind: Accessory
  /// The accessory's frame in the cell's coordinates.
  public var frame: Rect
  /// The accessory's color in the row's state: the chevron, the checkmark or the detail button's circle.
  public var color: Color
  /// The chevron color inside the detail button.
  public var glyphColor: Color
}
