import RowKitGraphics

/// A caption with a control drawn at the right (Three20's `TTTableControlCell`): a switch,
/// a text field or a slider, drawn as vector shapes in the state the item gives.
public struct ControlCell: TableCell {
  /// `ControlCell`, as manifests name it.
  public let name = "ControlCell"
  /// The size of a switch, as UIKit draws one.
  public static let switchSize = Size(width: 51, height: 31)
  /// The height of a text field, in points.
  public static let fieldHeight = 31.0
  /// The diameter of a slider's knob, in points.
  public static let sliderKnob = 23.0

  /// The control cell; its sizes come from the stylesheet and the constants above.
  public init() {}

  /// None: the control takes the accessory's place.
  public func accessory(for item: ControlItem) -> Accessory? { nil }

  /// Lays out the caption and draws the control at the right, in the item's state.
  public func layout(_ item: ControlItem, in context: LayoutContext) throws -> RowLayout {
    let padding = context.metrics.padding
    let spacing = context.metrics.controlSpacing
    let available = context.contentWidth - 2 * padding
    let captionWidth: Double
    switch item.control {
    case .toggle: captionWidth = available - Self.switchSize.width - spacing
    case .textField, .slider: captionWidth = available * 0.4
    }
    let caption = try context.shape(item.caption, font: "tableFont", width: captionWidth, lines: 1)
    let controlX = padding + (caption.map { $0.size.width + spacing } ?? 0)
    let controlWidth = context.contentWidth - padding - controlX
    let highlighted: ColorReference = "highlightedTextColor"

    var placeholder: TextLayout?
    var placeholderColor = Color.clear
    if case .textField(let placeholderText, let text) = item.control {
      let shown = text ?? placeholderText
      placeholder = try context.shape(shown, font: "tableControlFont", width: controlWidth - 2 * spacing, lines: 1)
      placeholderColor = try context.color(text == nil ? "placeholderTextColor" : "textColor", highlighted: highlighted)
    }
    let controlHeight: Double
    switch item.control {
    case .toggle: controlHeight = Self.switchSize.height
    case .textField: controlHeight = max(Self.fieldHeight, (placeholder?.size.height ?? 0) + 12)
    case .slider: controlHeight = Self.sliderKnob
    }
    let contentHeight = max(caption?.size.height ?? 0, controlHeight)
    let height = context.rowHeight(fitting: contentHeight + 2 * padding)
    var row = RowLayout(cellName: name, size: Size(width: context.cellWidth, height: height))
    if let caption {
      row.labels.append(
        RowLabel(
          name: "caption", text: caption, color: try context.color("textColor", highlighted: highlighted),
          boxOrigin: Point(x: padding, y: context.grid.round((height - caption.size.height) / 2))))
    }
    let controlY = context.grid.round((height - controlHeight) / 2)
    let border = try context.color("controlBorderColor")
    switch item.control {
    case .toggle(let isOn):
      row.decorations.append(
        .toggle(
          frame: Rect(
            x: context.contentWidth - padding - Self.switchSize.width, y: controlY,
            width: Self.switchSize.width, height: Self.switchSize.height),
          isOn: isOn, onColor: try context.color("switchOnColor"), offColor: try context.color("switchOffColor"),
          borderColor: border))
    case .textField:
      let frame = Rect(x: controlX, y: controlY, width: controlWidth, height: controlHeight)
      row.decorations.append(.textField(frame: frame, borderColor: border))
      if let placeholder {
        row.labels.append(
          RowLabel(
            name: "field", text: placeholder, color: placeholderColor,
            boxOrigin: Point(
              x: controlX + spacing, y: controlY + context.grid.round((controlHeight - placeholder.size.height) / 2))))
      }
    case .slider(let value):
      row.decorations.append(
        .slider(
          frame: Rect(x: controlX, y: controlY, width: controlWidth, height: controlHeight),
          value: min(max(value, 0), 1), fillColor: try context.color("switchOnColor"),
          trackColor: try context.color("sliderTrackColor"), borderColor: border))
    }
    return row
  }
}
