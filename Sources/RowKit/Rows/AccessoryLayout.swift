import RowKitGraphics

/// An accessory placed in its row, with its colors for the row's state.
public struct AccessoryLayout: Hashable, Sendable {
  public var kind: Accessory
  public var frame: Rect
  public var color: Color
  /// The chevron color inside the detail button.
  public var glyphColor: Color
}
