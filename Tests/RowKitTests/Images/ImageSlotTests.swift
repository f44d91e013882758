import Foundation
import RowKitGraphics
import RowKitSnapshot
import RowKitSnapshotAssertions
import RowKitTestSupport
import Testing

@testable import RowKit

/// An avatar row drawn by a Swift cell: a fixed 44-point slot and a name.
struct Avatar: TableItem {
  var name: String
  var photoURL: String?
}

let avatarCell = ClosureCell<Avatar>(name: "AvatarCell") { avatar, context in
  var row = RowLayout(cellName: "AvatarCell", size: Size(width: context.cellWidth, height: context.rowHeight(fitting: 60)))
  row.images.append(ImageSlot(frame: Rect(x: 10, y: 8, width: 44, height: 44), url: avatar.photoURL, defaultURL: nil))
  if let name = try context.shape(avatar.name, font: "tableFont", width: context.contentWidth - 74) {
    row.labels.append(RowLabel(name: "name", text: name, color: try context.color("textColor"), boxOrigin: Point(x: 64, y: 18)))
  }
  return row
}

/// A person from the sample design file, as a Swift item.
struct Person: TableItem {
  var name: String
  var role: String
  var photoURL: String?
}

@Suite struct ImageSlotTests {
  static let families = ["DejaVu Sans", "DejaVu Sans Mono", "Inter"]

  /// The stylesheet of the sample designs.
  func designStylesheet() throws -> Stylesheet {
    try Stylesheet.load(contentsOf: TestSupport.assets.appendingPathComponent("Designs/styles.yaml"), fontFamilies: Self.families)
  }

  /// Every built-in cell with an image, and custom cells from a design file and from Swift.
  func rows(imageURL url: String) throws -> SectionedDataSource {
    let template = try DesignTemplate.load(
      contentsOf: TestSupport.assets.appendingPathComponent("Designs/person.yaml"), stylesheet: designStylesheet(),
      fontFamilies: Self.families, assets: TestSupport.assets)
    var mapping = CellMapping()
    mapping.register(DesignFileCell(name: "PersonCell", template: template), for: Person.self)
    mapping.register(avatarCell, for: Avatar.self)
    let items: [any TableItem] = [
      SubtitleItem(text: "Subtitle", subtitle: "with an image", imageURL: url),
      MessageItem(title: "Message", caption: "Caption", text: "Body text", imageURL: url),
      ImageItem(text: "Image", imageURL: url),
      ImageItem(text: "Rounded image", imageURL: url, imageStyle: "rounded"),
      RightImageItem(text: "Right image", imageURL: url),
      StyledTextItem(text: "Inline <img src=\"\(url)\" width=\"30\" height=\"20\"/> image"),
      Person(name: "Designed", role: "from a design file", photoURL: url),
      Avatar(name: "Swift cell", photoURL: url),
    ]
    return SectionedDataSource(sections: [TableSection(items: items)], cellMapping: mapping)
  }

  @Test func aRowsGeometryIsTheSameWhetherItsImageLoadedFailedOrWaits() async throws {
    let fixture = try ImageServer(extraRoutes: [
      "/big.png": .ok(contentType: "image/png", body: try PNG.encode(SampleArtwork.landscape(pixels: 1000))),
      "/tiny.png": .ok(contentType: "image/png", body: try PNG.encode(SampleArtwork.avatar(pixels: 10))),
    ])
    defer { fixture.server.stop() }
    let pipeline = ImageServer.pipeline()
    func geometry(
      _ path: String, policy: ImagePolicy = .complete
    ) async throws -> (rows: [[Double]], states: Set<ImageState>, reasons: Set<String>) {
      // Only the server that never answers needs the deadline; the others must load.
      let deadline = path.hasPrefix("/hang/") ? 1.0 : 60
      let renderer = try fixture.renderer(pipeline, deadline: deadline, stylesheet: designStylesheet())
      let rendered = try await renderer.render(try rows(imageURL: fixture.server.url(path)), policy: policy, outputs: [.rows])
      #expect(rendered.manifest.rows.allSatisfy { $0.images.count == 1 }, "every row has its slot")
      for (row, image) in zip(rendered.manifest.rows, rendered.rowImages) {
        #expect(Double(image.height) == row.height * 2, "\(row.cell): the row image is the measured height")
      }
      let rows = rendered.manifest.rows.map { [$0.y, $0.height] + ($0.images.first?.frame ?? []) }
      let reasons = Set(rendered.manifest.rows.compactMap { $0.images.first?.reason })
      return (rows, Set(rendered.manifest.rows.compactMap { $0.images.first?.state }), reasons)
    }
    let loaded = try await geometry("/big.png")
    #expect(loaded.states == [.loaded], "\(loaded.reasons)")
    for (path, policy, state) in [
      ("/tiny.png", ImagePolicy.complete, ImageState.loaded), ("/photo.jpg", .complete, .loaded),
      ("/missing.png", .complete, .failed), ("/hang/geometry", .complete, .failed), ("/big.png", .placeholder, .default),
    ] {
      let other = try await geometry(path, policy: policy)
      #expect(other.states == [state], "\(path) \(policy)")
      #expect(other.rows == loaded.rows, "\(path) \(policy) moved a row or a slot")
    }
  }

  // MARK: - Content modes

  let slot = Size(width: 50, height: 40)

  func target(_ mode: ContentMode) -> ImageTarget { ImageTarget(slotSize: slot, contentMode: mode, scale: 2) }

  @Test func scalingModesPlaceTheImageOnThePixelGrid() {
    // A 300×100 px image (3:1) in a 50×40 pt slot at scale 2.
    let wide = (width: 300, height: 100)
    #expect(target(.scaleToFill).drawingRect(imagePixels: wide) == Rect(x: 0, y: 0, width: 50, height: 40))
    #expect(target(.aspectFit).drawingRect(imagePixels: wide) == Rect(x: 0, y: 11.5, width: 50, height: 16.5))
    #expect(target(.aspectFill).drawingRect(imagePixels: wide) == Rect(x: -35, y: 0, width: 120, height: 40))
    // A tall one (1:3).
    let tall = (width: 100, height: 300)
    #expect(target(.aspectFit).drawingRect(imagePixels: tall) == Rect(x: 18.5, y: 0, width: 13.5, height: 40))
    #expect(target(.aspectFill).drawingRect(imagePixels: tall) == Rect(x: 0, y: -55, width: 50, height: 150))
  }

  @Test func naturalSizeModesUseOneImagePixelPerDevicePixel() {
    let image = (width: 60, height: 30)  // 30×15 points at scale 2
    #expect(target(.center).drawingRect(imagePixels: image) == Rect(x: 10, y: 12.5, width: 30, height: 15))
    #expect(target(.left).drawingRect(imagePixels: image) == Rect(x: 0, y: 12.5, width: 30, height: 15))
    #expect(target(.right).drawingRect(imagePixels: image) == Rect(x: 20, y: 12.5, width: 30, height: 15))
    #expect(target(.top).drawingRect(imagePixels: image) == Rect(x: 10, y: 0, width: 30, height: 15))
    #expect(target(.bottom).drawingRect(imagePixels: image) == Rect(x: 10, y: 25, width: 30, height: 15))
  }

  @Test func thePipelineResamplesToTheDrawingRectOnceAndPaintingOnlyCopies() async throws {
    let folder = try TestSupport.temporaryDirectory()
    let file = folder.appendingPathComponent("wide.png")
    try Data(PNG.encode(SampleArtwork.landscape(pixels: 300).scaled(width: 300, height: 100))).write(to: file)
    let pipeline = ImageServer.pipeline()
    for (mode, size) in [(ContentMode.aspectFit, [100, 33]), (.aspectFill, [240, 80]), (.scaleToFill, [100, 80])] {
      let image = try await pipeline.image(at: .file(file), for: target(mode)).get()
      #expect([image.bitmap.width, image.bitmap.height] == size, "\(mode)")
      #expect(image.originalWidth == 300 && image.originalHeight == 100)
      var shown = SlotImage(image: image, state: .loaded)
      try shown.fit(ImageSlot(frame: Rect(origin: Point(x: 10, y: 5), size: slot), url: nil, defaultURL: nil, contentMode: mode), scale: 2)
      #expect(shown.pixels == image.bitmap, "\(mode): the painter gets the pipeline's pixels untouched")
    }
    #expect(ImageTarget(ImageSlot(frame: .zero, url: nil, defaultURL: nil, contentMode: .center), scale: 2) == nil,
      "natural-size modes are not resampled")
  }

  // MARK: - Image styles

  @Test func anImageStyleInsetsTheImageByItsPaddingAndShadow() {
    let frame = Rect(x: 10, y: 10, width: 60, height: 60)
    let padded = ImageSlot(
      frame: frame, url: nil, defaultURL: nil,
      style: Style([.fill(.white), .border(color: .black, width: 1), .box(margin: .zero, padding: EdgeInsets(all: 4)), .content]))
    #expect(padded.imageFrame == Rect(x: 14, y: 14, width: 52, height: 52))
    let shadowed = ImageSlot(
      frame: frame, url: nil, defaultURL: nil,
      style: Style([.shadow(color: .black, blur: 6, offset: Size(width: 0, height: 2)), .shape(.roundedRect(CornerRadii(all: 8))), .content]))
    // Three20's shadow insets: 3 all round for the blur; at the bottom 2 + 6 more, at the top 3 less.
    #expect(shadowed.imageFrame == Rect(x: 13, y: 10, width: 54, height: 49))
    #expect(shadowed.shape == .roundedRect(CornerRadii(all: 8)))
    let plain = ImageSlot(frame: frame, url: nil, defaultURL: nil)
    #expect(plain.imageFrame == frame && plain.shape == .rectangle)
  }

  @Test func anImageStyleMakesTheTargetItsContentFrame() throws {
    let slot = ImageSlot(
      frame: Rect(x: 0, y: 0, width: 60, height: 60), url: nil, defaultURL: nil, contentMode: .aspectFill,
      style: Style([.box(margin: .zero, padding: EdgeInsets(all: 5)), .content]))
    let target = try #require(ImageTarget(slot, scale: 2))
    #expect(target.slotSize == Size(width: 50, height: 50))
    #expect(target.slotPixels == (100, 100))
  }

  // MARK: - Pixels

  static let imageStyles: Stylesheet = Stylesheet.default.merging(
    Stylesheet(styles: [
      "slotWell": Style([.fill(Color(r: 226, g: 230, b: 236)), .content, .border(color: Color(r: 150, g: 156, b: 166), width: 1)]),
      "bordered": Style([
        .shape(.roundedRect(CornerRadii(all: 10))), .content, .border(color: Color(white: 0, alpha: 0.35), width: 2),
      ]),
      "circleRing": Style([
        .shape(.roundedRect(CornerRadii(all: -1))), .fill(.white), .content,
        .border(color: Color(r: 5, g: 120, b: 240), width: 3),
      ]),
      "shadowed": Style([
        .shadow(color: Color(white: 0, alpha: 0.5), blur: 6, offset: Size(width: 0, height: 2)),
        .shape(.roundedRect(CornerRadii(all: 6))), .fill(.white), .content,
      ]),
      "polaroid": Style([
        .fill(.white), .border(color: Color(white: 0.7), width: 1), .box(margin: .zero, padding: EdgeInsets(top: 4, left: 4, bottom: 12, right: 4)), .content,
      ]),
    ]))

  /// One row per content mode, a wide and a tall image side by side in 64×48 wells, then one
  /// row per image style.
  struct Sample: TableItem {
    var title: String
    var mode: ContentMode = .aspectFill
    var style: String?
    var urls: [String?]
  }

  static let sampleCell = ClosureCell<Sample>(name: "SampleCell") { sample, context in
    var row = RowLayout(cellName: "SampleCell", size: Size(width: context.cellWidth, height: 68))
    for (index, url) in sample.urls.enumerated() {
      row.images.append(
        ImageSlot(
          name: "image\(index)", frame: Rect(x: 120 + Double(index) * 84, y: 10, width: 64, height: 48), url: url,
          defaultURL: nil, contentMode: sample.mode,
          style: try context.stylesheet.style(sample.style ?? "slotWell")))
    }
    if let title = try context.shape(sample.title, font: "tableSmallFont", width: 100) {
      row.labels.append(RowLabel(name: "title", text: title, color: try context.color("textColor"), boxOrigin: Point(x: 10, y: 24)))
    }
    return row
  }

  /// A picture whose corners and middle are told apart at a glance.
  static func marked(width: Int, height: Int) throws -> Bitmap {
    let canvas = try Canvas(pixelWidth: width, pixelHeight: height, scale: 1)
    let w = Double(width)
    let h = Double(height)
    canvas.fill(.rect(Rect(x: 0, y: 0, width: w, height: h)), gradient: .vertical(Rect(x: 0, y: 0, width: w, height: h), from: Color(r: 120, g: 190, b: 250), to: Color(r: 40, g: 90, b: 180)))
    let corner = min(w, h) / 4
    canvas.fill(Rect(x: 0, y: 0, width: corner, height: corner), color: Color(r: 230, g: 60, b: 60))
    canvas.fill(Rect(x: w - corner, y: 0, width: corner, height: corner), color: Color(r: 250, g: 200, b: 40))
    canvas.fill(Rect(x: 0, y: h - corner, width: corner, height: corner), color: Color(r: 60, g: 180, b: 90))
    canvas.fill(Rect(x: w - corner, y: h - corner, width: corner, height: corner), color: Color(r: 150, g: 80, b: 200))
    canvas.fill(.circle(center: Point(x: w / 2, y: h / 2), radius: min(w, h) / 5), color: .white)
    return try canvas.bitmap()
  }

  @Test func contentModesAndImageStylesMatchTheirReference() async throws {
    var rows: [any TableItem] = ContentMode.allCases.map { Sample(title: $0.rawValue, mode: $0, urls: ["gen://wide", "gen://tall"]) }
    rows += ["bordered", "circleRing", "shadowed", "polaroid", "rounded", "circle"].map {
      Sample(title: $0, style: $0, urls: ["gen://wide", "gen://photo", nil])
    }
    var mapping = CellMapping()
    mapping.register(Self.sampleCell, for: Sample.self)
    let source = SectionedDataSource(sections: [TableSection(items: rows)], cellMapping: mapping)
    let images = SnapshotImages.bitmaps([
      "gen://wide": try Self.marked(width: 160, height: 80),
      "gen://tall": try Self.marked(width: 60, height: 140),
      "gen://photo": try SampleArtwork.avatar(pixels: 200),
    ])
    await assertSnapshot(
      of: source, as: .table(stylesheet: Self.imageStyles, images: images), named: "content-modes-and-styles",
      suite: "Images")
  }
}
