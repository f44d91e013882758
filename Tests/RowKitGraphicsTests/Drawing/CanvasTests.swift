import Testing
@testable import RowKitGraphics

@Suite struct CanvasTests {
  @Test func refusesSurfacesPastCairosLimit() {
    #expect(throws: GraphicsError.self) { try Canvas(pixelWidth: 10, pixelHeight: 40_000, scale: 1) }
    #expect(throws: GraphicsError.self) { try Canvas(pixelWidth: 0, pixelHeight: 10, scale: 1) }
  }

  /// Issue 25: Cairo keeps a drawing failure in the context and ignores every later call;
  /// the canvas reads that status when its pixels are taken, so a failed drawing is an error
  /// rather than a blank row.
  @Test func aFailedDrawingIsAnErrorWhenThePixelsAreTaken() throws {
    let canvas = try Canvas(pixelWidth: 20, pixelHeight: 20, scale: 1)
    canvas.clear(.white)
    canvas.translate(x: .nan, y: 0)
    canvas.fill(Rect(x: 0, y: 0, width: 5, height: 5), color: .black)
    #expect(throws: GraphicsError(.surface, "Cairo stopped drawing: invalid matrix (not invertible)")) { try canvas.bitmap() }

    // An image Cairo cannot hold (wider than its 32,767 pixels) fails the same way, by name.
    let wide = try Canvas(pixelWidth: 20, pixelHeight: 20, scale: 1)
    wide.draw(Bitmap(width: 40_000, height: 1, color: .black), in: Rect(x: 0, y: 0, width: 20, height: 20))
    wide.fill(Rect(x: 0, y: 0, width: 5, height: 5), color: .black)
    #expect(throws: GraphicsError(
      .surface, "Cairo could not make a 40000×1 image to draw: invalid value (typically too big) for the size of the input (surface, pattern, etc.)"
    )) { try wide.bitmap() }

    // A canvas that drew nothing wrong gives its pixels.
    let fine = try Canvas(pixelWidth: 20, pixelHeight: 20, scale: 1)
    fine.draw(Bitmap(width: 4, height: 1, color: .black), in: Rect(x: 0, y: 0, width: 20, height: 20))
    #expect(try fine.bitmap().color(x: 10, y: 10) == .black)
  }

  /// A bitmap drawn in its own memory (`Canvas.bitmap(pixelWidth:pixelHeight:scale:drawing:)`,
  /// how rows are painted) has the pixels of the same drawing copied out of a canvas, and a
  /// failed drawing is the same error.
  @Test func aBitmapDrawnInItsOwnMemoryIsTheCanvasCopy() throws {
    func draw(_ canvas: Canvas) {
      canvas.clear(Color(r: 240, g: 240, b: 245))
      canvas.fill(.circle(center: Point(x: 9.3, y: 6.1), radius: 5.2), color: Color(r: 20, g: 120, b: 240, a: 0.7))
      canvas.fill(Rect(x: 13, y: 1, width: 3.5, height: 9), color: .black)
    }
    let canvas = try Canvas(pixelWidth: 37, pixelHeight: 23, scale: 2)
    draw(canvas)
    let copied = try canvas.bitmap()
    let drawn = try Canvas.bitmap(pixelWidth: 37, pixelHeight: 23, scale: 2, drawing: draw)
    #expect(drawn == copied)
    #expect(drawn.color(x: 28, y: 10) == .black)
    #expect(throws: GraphicsError(.surface, "Cairo stopped drawing: invalid matrix (not invertible)")) {
      try Canvas.bitmap(pixelWidth: 20, pixelHeight: 20, scale: 1) { canvas in
        canvas.clear(.white)
        canvas.translate(x: .nan, y: 0)
        canvas.fill(Rect(x: 0, y: 0, width: 5, height: 5), color: .black)
      }
    }
    #expect(throws: GraphicsError.self) { try Canvas.bitmap(pixelWidth: 0, pixelHeight: 10, scale: 1) { _ in } }
  }

  @Test func drawsInPointsAtItsScale() throws {
    let canvas = try Canvas(pixelWidth: 20, pixelHeight: 20, scale: 2)
    canvas.clear(.white)
    canvas.fill(Rect(x: 0, y: 0, width: 5, height: 5), color: .black)
    let bitmap = try canvas.bitmap()
    #expect(bitmap.color(x: 9, y: 9) == .black)
    #expect(bitmap.color(x: 10, y: 10) == .white)
  }

  @Test func scalesImagesIntoARect() throws {
    let source = Bitmap(width: 4, height: 4, color: Color(r: 255, g: 0, b: 0))
    let canvas = try Canvas(pixelWidth: 20, pixelHeight: 20, scale: 1)
    canvas.clear(.white)
    canvas.draw(source, in: Rect(x: 5, y: 5, width: 10, height: 10))
    let bitmap = try canvas.bitmap()
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
