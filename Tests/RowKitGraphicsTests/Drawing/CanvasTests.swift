import Testing
@testable import RowKitGraphics

@Suite struct CanvasTests {
  @Test func refusesSurfacesPastCairosLimit() {
    #expect(throws: GraphicsError.self) { try Canvas(pixelWidth: 10, pixelHeight: 40_000, scale: 1) }
    #expect(throws: GraphicsError.self) { try Canvas(pixelWidth: 0, pixelHeight: 10, scale: 1) }
  }

  @Test func drawsInPointsAtItsScale() throws {
    let canvas = try Canvas(pixelWidth: 20, pixelHeight: 20, scale: 2)
    canvas.clear(.white)
    canvas.fill(Rect(x: 0, y: 0, width: 5, height: 5), color: .black)
    let bitmap = canvas.bitmap()
    #expect(bitmap.color(x: 9, y: 9) == .black)
    #expect(bitmap.color(x: 10, y: 10) == .white)
  }

  @Test func scalesImagesIntoARect() throws {
    let source = Bitmap(width: 4, height: 4, color: Color(r: 255, g: 0, b: 0))
    let canvas = try Canvas(pixelWidth: 20, pixelHeight: 20, scale: 1)
    canvas.clear(.white)
    canvas.draw(source, in: Rect(x: 5, y: 5, width: 10, height: 10))
    let bitmap = canvas.bitmap()
    #expect(bitmap.color(x: 10, y: 10) == Color(r: 255, g: 0, b: 0))
    #expect(bitmap.color(x: 2, y: 2) == .white)
    #expect(bitmap.color(x: 16, y: 16) == .white)
  }

  @Test func colorsParseHex() {
    #expect(Color(hex: "#FF0000") == Color(r: 255, g: 0, b: 0))
    #expect(Color(hex: "#00000080")?.alpha == 128.0 / 255)
    #expect(Color(hex: "red") == nil)
    #expect(Color(hex: "#12345") == nil)
    #expect(Color(r: 87, g: 107, b: 149).hexString == "#576B95")
  }
}
