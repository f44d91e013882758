import RowKitGraphics
import RowKitTestSupport
import Testing

@testable import RowKit

private struct Designed: TableItem {
  var design: CellDesign
  static func == (a: Designed, b: Designed) -> Bool { a.design == b.design }
  func hash(into hasher: inout Hasher) { hasher.combine(design) }
}

private struct DesignCell: DesignedCell {
  func design(for item: Designed) -> CellDesign { item.design }
}

@Suite struct StackLayoutTests {
  func row(_ design: CellDesign, accessory url: String? = nil) throws -> RowLayout {
    var mapping = CellMapping()
    mapping.register(DesignCell(), for: Designed.self)
    return try TestSupport.layoutRow(Designed(design: design), mapping: mapping).layout
  }

  @Test func horizontalStacksGiveFixedChildrenTheirWidthAndGrowersTheRest() throws {
    let layout = try row(CellDesign(body: .hstack(spacing: 8, [
      .image(url: "a.png", name: "photo", width: 40, height: 40),
      .label("Name", name: "name", font: "tableFont", grow: 1),
      .label("12:45", name: "time", font: "font"),
    ])))
    let photo = try #require(layout.image("photo"))
    let name = try #require(layout.label("name"))
    let time = try #require(layout.label("time"))
    #expect(photo.frame == Rect(x: 10, y: 10, width: 40, height: 40))
    #expect(name.frame.minX == 58)
    #expect(abs(time.frame.maxX - (375 - 10)) < 0.01, "the grower pushes the time to the right edge")
    #expect(name.text.style.width == Double(375 - 20 - 40 - 16 - time.frame.width))
    #expect(layout.size.height == 60)
  }

  @Test func spacersPushAndCenterAlignmentCenters() throws {
    let layout = try row(CellDesign(minHeight: 80, body: .hstack(alignment: .center, [
      .label("Left", name: "left"), .spacer(), .label("Right", name: "right"),
    ])))
    let left = try #require(layout.label("left"))
    let right = try #require(layout.label("right"))
    #expect(left.frame.minX == 10)
    #expect(abs(right.frame.maxX - 365) < 0.01)
    #expect(layout.size.height == 80)
    #expect(abs(left.frame.midY - 40) <= 0.5)
  }

  @Test func aFixedHeightClipsInsteadOfGrowing() throws {
    let layout = try row(CellDesign(height: 30, body: .label(String(repeating: "long ", count: 100), name: "text")))
    #expect(layout.size.height == 30)
  }

  @Test func overlayStacksPutChildrenOnTopOfEachOther() throws {
    let layout = try row(CellDesign(body: .zstack(alignment: .center, [
      .image(url: "bg.png", name: "bg", width: 100, height: 50), .label("On top", name: "text"),
    ])))
    let bg = try #require(layout.image("bg"))
    let text = try #require(layout.label("text"))
    #expect(bg.frame.minX == 137.5, "centered on the pixel grid")
    #expect(abs(text.frame.midX - 187.5) < 0.6)
  }
}
