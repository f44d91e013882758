import Foundation
import RowKitGraphics
import RowKitTestSupport
import Testing

@testable import RowKit

/// What each style element does to the frame and the content frame, as numbers.
@Suite struct StyleGeometryTests {
  let rect = Rect(x: 0, y: 0, width: 100, height: 40)

  @Test func boxPaddingAndArrowsShrinkTheContentFrame() {
    let padded = Style([.box(margin: .zero, padding: EdgeInsets(top: 1, left: 7, bottom: 2, right: 7))])
    #expect(padded.contentFrame(in: rect) == Rect(x: 7, y: 1, width: 86, height: 37))
    #expect(Style([.shape(.roundedLeftArrow(radius: 4.5))]).contentFrame(in: rect) == Rect(x: 4, y: 0, width: 96, height: 40))
    #expect(Style([.shape(.roundedRightArrow(radius: 4.5))]).contentFrame(in: rect) == Rect(x: 0, y: 0, width: 96, height: 40))
    #expect(Style([.shape(.roundedRect(CornerRadii(all: 8)))]).contentFrame(in: rect) == rect)
  }

  @Test func boxMarginKeepsTheBoxOffItsFrameAndGrowsAFittingSize() throws {
    let style = Style([
      .box(margin: EdgeInsets(top: 4, left: 10, bottom: 6, right: 10), padding: EdgeInsets(all: 3)), .fill(.black),
    ])
    #expect(style.contentFrame(in: rect) == Rect(x: 13, y: 7, width: 74, height: 24))
    #expect(style.size(fitting: Size(width: 50, height: 20)) == Size(width: 50 + 20 + 6, height: 20 + 10 + 6))
    let canvas = try Canvas(pixelWidth: 100, pixelHeight: 40, scale: 1)
    canvas.draw(style, in: rect)
    let pixels = try canvas.bitmap()
    #expect(pixels.color(x: 5, y: 20).alpha == 0, "the margin is left undrawn")
    #expect(pixels.color(x: 50, y: 2).alpha == 0)
    #expect(pixels.color(x: 50, y: 36).alpha == 0)
    #expect(pixels.color(x: 11, y: 5) == .black, "the fill starts inside the margin")
    #expect(pixels.color(x: 88, y: 33) == .black)
  }

  @Test func insetsAndBordersMoveOnlyTheFrame() {
    let style = Style([.inset(EdgeInsets(all: 5)), .border(color: .black, width: 2), .content])
    #expect(style.contentFrame(in: rect) == rect)
  }

  @Test func shadowsMakeRoomByThreeTwentysRule() {
    // blur 3 rounds to 2 on each side; a downward offset of 4 takes 4 + 2·2 more below and
    // gives back 2 above.
    #expect(Style.shadowInsets(blur: 3, offset: Size(width: 0, height: 4)) == EdgeInsets(top: 0, left: 2, bottom: 10, right: 2))
    #expect(Style.shadowInsets(blur: 0, offset: Size(width: -3, height: 0)) == EdgeInsets(top: 0, left: 3, bottom: 0, right: 0))
    let style = Style([.shadow(color: .black, blur: 3, offset: Size(width: 0, height: 4)), .content])
    #expect(style.contentFrame(in: rect) == Rect(x: 2, y: 0, width: 96, height: 30))
  }

  @Test func fittingSizeAddsPaddingShapesAndShadows() {
    let badge = Stylesheet.default.styles["badge"]!
    // padding 7 + 7 and 1 + 2; shadow blur 3 (2 each side) offset 4 (+ 4 + 2 below).
    #expect(badge.size(fitting: Size(width: 20, height: 18)) == Size(width: 20 + 14 + 4, height: 18 + 3 + 4 + 2 + 4))
  }

  @Test func contentStopsAtTheContentElement() {
    let style = Style([.box(margin: .zero, padding: EdgeInsets(all: 4)), .content, .box(margin: .zero, padding: EdgeInsets(all: 10))])
    #expect(style.contentFrame(in: rect) == Rect(x: 4, y: 4, width: 92, height: 32))
  }
}

/// Shapes as paths: where their outlines reach.
@Suite struct StyleShapeTests {
  func bounds(_ path: Path) -> (minX: Double, minY: Double, maxX: Double, maxY: Double) {
    var points: [Point] = []
    for element in path.elements {
      switch element {
      case .move(let p), .line(let p): points.append(p)
      case .curve(_, _, let p): points.append(p)
      case .arc(let center, let radius, let start, let end, _):
        points.append(Point(x: center.x + radius * cos(start), y: center.y + radius * sin(start)))
        points.append(Point(x: center.x + radius * cos(end), y: center.y + radius * sin(end)))
      case .close: break
      }
    }
    return (points.map(\.x).min()!, points.map(\.y).min()!, points.map(\.x).max()!, points.map(\.y).max()!)
  }

  let rect = Rect(x: 10, y: 20, width: 120, height: 30)

  @Test func arrowsPointOutOfTheirSide() {
    let left = bounds(StyleShape.roundedLeftArrow(radius: 5).path(in: rect))
    #expect(abs(left.minX - 10) < 1e-9 && abs(left.maxX - 130) < 1e-9)
    let leftPath = StyleShape.roundedLeftArrow(radius: 5).path(in: rect)
    guard case .move(let tip)? = leftPath.elements.first else {
      Issue.record("no start")
      return
    }
    #expect(tip == Point(x: 10, y: 35), "the point is at the left edge, halfway down")
    let right = StyleShape.roundedRightArrow(radius: 5).path(in: rect)
    guard case .move(let rightTip)? = right.elements.first else {
      Issue.record("no start")
      return
    }
    #expect(rightTip == Point(x: 130, y: 35))
  }

  @Test(arguments: [(60.0, "top"), (180.0, "right"), (290.0, "bottom"), (0.0, "left")])
  func speechBubblesPointFromTheEdgeTheirLocationNames(location: Double, edge: String) {
    let shape = StyleShape.speechBubble(radius: 6, pointLocation: location, pointAngle: location == 0 ? 0 : location == 60 ? 90 : location == 180 ? 180 : 270, pointSize: Size(width: 10, height: 10))
    let box = bounds(shape.path(in: rect))
    // The pointer reaches the frame's edge on its side; the body stays inside.
    #expect(box.minX >= 10 - 1e-9 && box.maxX <= 130 + 1e-9 && box.minY >= 20 - 1e-9 && box.maxY <= 50 + 1e-9)
    let edges = shape.edgePaths(in: rect)
    #expect(edges.count == 4)
    let pointerEdge = bounds(edges[StyleShape.Edge.allCases.first { "\($0)" == edge }!]!)
    switch edge {
    case "top": #expect(abs(pointerEdge.minY - 20) < 1e-9)
    case "right": #expect(abs(pointerEdge.maxX - 130) < 1e-9)
    case "bottom": #expect(abs(pointerEdge.maxY - 50) < 1e-9)
    default: #expect(abs(pointerEdge.minX - 10) < 1e-9)
    }
  }

  @Test func aPillHasRoundEnds() {
    let pill = bounds(StyleShape.roundedRect(CornerRadii(all: -1)).path(in: rect))
    #expect(abs(pill.minX - 10) < 1e-9 && abs(pill.maxX - 130) < 1e-9 && abs(pill.minY - 20) < 1e-9 && abs(pill.maxY - 50) < 1e-9)
  }

  @Test func tangentArcsTouchBothLines() throws {
    let arc = try #require(Path.tangentArc(from: Point(x: 0, y: 0), corner: Point(x: 10, y: 0), next: Point(x: 10, y: 10), radius: 3))
    #expect(abs(arc.center.x - 7) < 1e-9 && abs(arc.center.y - 3) < 1e-9)
    #expect(abs(arc.start.x - 7) < 1e-9 && abs(arc.start.y) < 1e-9)
    #expect(arc.sweep > 0, "a right turn on screen sweeps clockwise")
  }
}

@Suite struct StyleCellTests {
  @Test func theBoxSitsAtTheRightAndTheCaptionInItsContentFrame() throws {
    let row = try TestSupport.layoutRow(StyleItem(text: "badge", style: "badge", caption: "12"))
    guard case .style(let frame, let style, let contentLabel?)? = row.layout.decorations.first else {
      Issue.record("no style box")
      return
    }
    let caption = row.layout.labels[contentLabel]
    #expect(caption.isStyleContent && caption.text.text == "12")
    #expect(abs(frame.maxX - (375 - 10)) < 0.01)
    #expect(frame.size == style.size(fitting: caption.text.size))
    let content = style.contentFrame(in: frame)
    #expect(abs(caption.frame.midX - content.midX) <= 0.5)
    #expect(caption.color == .white)
    #expect(row.layout.label("text")?.frame.minX == 10)
  }

  /// A style's caption font scales with the text size once, as body text does (the style's
  /// font was kept scaled already, and shaping scaled it again: 193 points at AX5 for 20).
  @Test(arguments: [ContentSizeCategory.xSmall, .large, .AX1, .AX5])
  func theCaptionScalesWithTheTextSizeOnce(_ category: ContentSizeCategory) throws {
    let base = try #require(try Stylesheet.default.style("badge").textStyle?.font?.size)
    let renderer = TableRenderer().rendering(Variant(textSize: category))
    let row = try TestSupport.layoutRow(StyleItem(text: "badge", style: "badge", caption: "12"), renderer: renderer)
    guard case .style(_, _, let contentLabel?)? = row.layout.decorations.first else {
      Issue.record("no style box")
      return
    }
    #expect(row.layout.labels[contentLabel].text.style.font.size == category.scaledSize(base))
  }

  @Test func aFixedBoxKeepsItsSize() throws {
    let row = try TestSupport.layoutRow(StyleItem(text: "A box", style: "whiteBezel", caption: "Loading", width: 140, height: 34))
    guard case .style(let frame, _, _)? = row.layout.decorations.first else {
      Issue.record("no style box")
      return
    }
    #expect(frame.size == Size(width: 140, height: 34))
    #expect(row.height == 54)
  }
}
