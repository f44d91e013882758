import RowKitGraphics
import Testing

@testable import RowKit

/// A style's shadow and inner shadow draw on a layer of their own; what fails there fails the
/// whole drawing, as it would on the canvas itself.
@Suite struct StyleFailureTests {
  /// Cairo holds no image wider than 32,767 pixels: drawing one is a failure of the drawing.
  let imageCairoCannotHold = Bitmap(width: 40_000, height: 1, color: .black)
  let rect = Rect(x: 0, y: 0, width: 40, height: 20)

  @Test func contentThatFailsInsideAShadowFailsTheDrawing() throws {
    let expected = GraphicsError(
      .surface,
      "Cairo could not make a 40000×1 image to draw: invalid value (typically too big) for the size of the input (surface, pattern, etc.)")
    for style in [
      Style([.shadow(color: .black, blur: 3, offset: Size(width: 0, height: 2)), .fill(.white), .content]),
      Style([.fill(.white), .shadow(color: .black, blur: 3, offset: Size(width: 0, height: 2)), .shadow(color: Color(red: 1, green: 0, blue: 0), blur: 1, offset: .zero), .content]),
    ] {
      let canvas = try Canvas(pixelWidth: 80, pixelHeight: 40, scale: 2)
      canvas.draw(style, in: rect) { layer, frame, _ in layer.draw(imageCairoCannotHold, in: frame) }
      #expect(throws: expected) { try canvas.bitmap() }
    }

    // The same content drawn whole is drawn, shadow and all.
    let canvas = try Canvas(pixelWidth: 80, pixelHeight: 40, scale: 2)
    canvas.draw(Style([.shadow(color: .black, blur: 3, offset: Size(width: 0, height: 2)), .fill(.white), .content]), in: rect) {
      layer, frame, _ in layer.draw(Bitmap(width: 4, height: 1, color: .black), in: frame)
    }
    #expect(try canvas.bitmap().color(x: 40, y: 20) == .black)
  }

  @Test func aLayerWhoseDrawingFailedFailsTheCanvasItIsDrawnOn() throws {
    let canvas = try Canvas(pixelWidth: 80, pixelHeight: 40, scale: 2)
    let layer = try #require(canvas.makeLayer(covering: rect, margin: 4))
    layer.canvas.translate(x: .nan, y: 0)
    layer.canvas.fill(Rect(x: 0, y: 0, width: 5, height: 5), color: .black)
    canvas.drawShadow(of: layer, color: .black, blur: 2, offset: .zero)
    #expect(throws: GraphicsError(.surface, "Cairo stopped drawing: invalid matrix (not invertible)")) { try canvas.bitmap() }

    let composited = try Canvas(pixelWidth: 80, pixelHeight: 40, scale: 2)
    let failed = try #require(composited.makeLayer(covering: rect, margin: 4))
    failed.canvas.draw(imageCairoCannotHold, in: rect)
    composited.composite(failed)
    #expect(throws: GraphicsError.self) { try composited.bitmap() }
  }
}
