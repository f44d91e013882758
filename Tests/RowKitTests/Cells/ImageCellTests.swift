import RowKitGraphics
import RowKitTestSupport
import Testing

@testable import RowKit

@Suite struct ImageCellTests {
  let shaper: TextShaper
  init() throws { shaper = try TextEnvironment.standard.makeShaper() }

  func row(_ item: any TableItem) throws -> PlacedRow { try TestSupport.layoutRow(item, shaper: shaper) }

  @Test func subtitleImageSlotIsSquareFlushLeftAndCountsInTheHeight() throws {
    let row = try row(SubtitleItem(text: "Video", subtitle: "Shoot", imageURL: "bundle://video.png"))
    let slot = try #require(row.layout.image("image"))
    let context = LayoutContext(
      cellWidth: 375, accessory: nil, tableStyle: .plain, scale: 2, isSelected: false, stylesheet: .default,
      shaper: shaper)
    let side = try SubtitleCell.imageSide(in: context)
    #expect(slot.frame == Rect(x: 0, y: 0, width: side, height: side))
    #expect(row.height == side, "Three20 ignored the image; RowKit's row is at least the slot")
    #expect(row.layout.label("text")?.frame.minX == side + 6)
    #expect(row.layout.label("subtitle")?.frame.minX == side + 6)
  }

  @Test func subtitleWithoutImageStartsAtTenAndKeepsTheWidth() throws {
    let row = try row(SubtitleItem(text: "Title", subtitle: "Subtitle"))
    #expect(row.layout.images.isEmpty)
    #expect(row.layout.label("text")?.frame.minX == 10)
    #expect(row.layout.label("text")?.text.style.width == Double(375 - 20))
  }

  @Test func subtitleTitleIsOneLineAndSubtitleAtMostTwo() throws {
    let long = String(repeating: "A long subtitle keeps going. ", count: 8)
    let row = try row(SubtitleItem(text: long, subtitle: long, imageURL: "x.png", options: ItemOptions(url: "app://x")))
    let title = try #require(row.layout.label("text"))
    let subtitle = try #require(row.layout.label("subtitle"))
    #expect(title.text.lineCount == 1 && title.text.isEllipsized)
    #expect(subtitle.text.lineCount == 2 && subtitle.text.isEllipsized)
    #expect(subtitle.frame.minY == title.frame.maxY)
    let slot = try #require(row.layout.image("image"))
    #expect(row.height > slot.frame.height, "two subtitle lines outgrow the slot")
    #expect(abs(slot.frame.midY - row.height / 2) <= 0.5, "the slot stays centered")
  }

  @Test func imageCellHasAFiftyPointSlotTenPointsIn() throws {
    let row = try row(ImageItem(text: "Image", imageURL: "x.png", options: ItemOptions(url: "app://x")))
    let slot = try #require(row.layout.image("image"))
    let label = try #require(row.layout.label("text"))
    #expect(slot.frame.size == Size(width: 50, height: 50))
    #expect(slot.frame.minX == 10)
    #expect(row.height == 70, "slot plus two paddings")
    #expect(slot.frame.minY == 10)
    #expect(label.frame.minX == 72, "10 + 50 + 12")
    #expect(label.text.style.width == Double(375 - 20 - 62 - CellMetrics.default.width(of: .disclosureIndicator)))
  }

  @Test func imageCellWithoutAnyImageIsATextRow() throws {
    let row = try row(ImageItem(text: "No image"))
    #expect(row.layout.images.isEmpty)
    #expect(row.layout.label("text")?.frame.minX == 10)
    #expect(row.height == 44)
  }

  @Test func imageStylesClipTheSlot() throws {
    let row = try row(ImageItem(text: "Rounded", imageURL: "x.png", imageStyle: "rounded"))
    #expect(row.layout.image("image")?.shape == .roundedRect(CornerRadii(all: 8)))
  }

  @Test func rightImageCentersTheTextAndNeverShowsAnAccessory() throws {
    let row = try row(RightImageItem(text: "Right", imageURL: "x.png", options: ItemOptions(url: "app://x")))
    let slot = try #require(row.layout.image("image"))
    let label = try #require(row.layout.label("text"))
    #expect(row.layout.accessory == nil)
    #expect(slot.frame.maxX == 375 - 10)
    #expect(abs(label.frame.midX - (10 + (375 - 20 - 62) / 2)) < 0.01)
    #expect(label.text.style.font == Font(family: "Inter", size: 15, weight: 700))
  }

  @Test func messageHeightComesFromItsContentNotAFixedNinety() throws {
    let short = try row(MessageItem(title: "Joe", text: "Hi"))
    let long = try row(
      MessageItem(
        title: "Joe", caption: "Subject", text: String(repeating: "A long body. ", count: 20), imageURL: "x.png"))
    let title = try #require(short.layout.label("title"))
    let text = try #require(short.layout.label("body"))
    #expect(short.height == PixelGrid(scale: 2).ceil(6 + title.frame.height + text.frame.height + 6))
    #expect(short.height < 90)
    let body = try #require(long.layout.label("body"))
    #expect(body.text.lineCount == 2)
    #expect(long.height == PixelGrid(scale: 2).ceil(body.frame.maxY + 6))
    #expect(long.height != 90)
  }

  @Test func messageAvatarTitleAndTimestampFollowThreeTwenty() throws {
    let now = Catalog.now
    let item = MessageItem(
      title: "A sender with a long name that would run into the time", caption: "Subject", text: "Body",
      timestamp: now.addingTimeInterval(-3600), imageURL: "x.png", options: ItemOptions(url: "app://x"))
    let renderer = TableRenderer(configuration: TableConfiguration(now: now))
    let row = try TestSupport.layoutRow(item, renderer: renderer)
    let slot = try #require(row.layout.image("image"))
    let title = try #require(row.layout.label("title"))
    let timestamp = try #require(row.layout.label("timestamp"))
    let caption = try #require(row.layout.label("caption"))
    let contentWidth = 375 - CellMetrics.default.width(of: .disclosureIndicator)
    #expect(slot.frame == Rect(x: 6, y: 6, width: 34, height: 34))
    #expect(title.frame.minX == 46 && title.frame.minY == 6)
    #expect(abs(timestamp.frame.maxX - (contentWidth - 10)) < 0.01)
    #expect(title.frame.maxX <= timestamp.frame.minX - 12 + 0.01)
    #expect(title.text.isEllipsized)
    #expect(abs((title.frame.minY + title.text.baseline) - (timestamp.frame.minY + timestamp.text.baseline)) < 0.001)
    #expect(caption.frame.minY == title.frame.maxY)
    #expect(timestamp.text.text == "9:13 PM")
  }

  @Test func timestampsFollowThreeTwentysShortFormat() {
    let now = Catalog.now
    #expect(MessageCell.format(now.addingTimeInterval(-3600), now: now) == "9:13 PM")
    #expect(MessageCell.format(now.addingTimeInterval(-3 * 86400), now: now) == "Saturday")
    #expect(MessageCell.format(now.addingTimeInterval(-30 * 86400), now: now) == "10/15/23")
    #expect(MessageCell.format(now, now: nil) == "11/14/23")
  }

  @Test func moreButtonIsAtLeastSixtySixTallWithTextAtForty() throws {
    let row = try row(MoreButtonItem(text: "Load more", isLoading: true, options: ItemOptions(url: "app://more")))
    #expect(row.height == 66)
    #expect(row.layout.accessory == nil)
    #expect(row.layout.label("text")?.frame.minX == 40)
    guard case .spinner(let frame, _)? = row.layout.decorations.first else {
      Issue.record("no spinner while loading")
      return
    }
    #expect(frame.maxX == 34)
    #expect(abs(frame.midY - 33) <= 0.5)
  }

  @Test func activitySpinnerAndTextAreCenteredTogether() throws {
    let row = try row(ActivityItem(text: "Loading…"))
    let label = try #require(row.layout.label("text"))
    guard case .spinner(let spinner, _)? = row.layout.decorations.first else {
      Issue.record("no spinner")
      return
    }
    #expect(label.frame.minX == spinner.maxX + 6)
    #expect(abs((spinner.minX + label.frame.maxX) / 2 - 375 / 2) <= 0.5)
    #expect(row.height == 44)
  }

  @Test func controlsSitAtTheRightOfTheirCaption() throws {
    let toggle = try row(ControlItem(caption: "Wi-Fi", control: .toggle(isOn: true)))
    guard case .toggle(let frame, let isOn, _, _, _)? = toggle.layout.decorations.first else {
      Issue.record("no switch")
      return
    }
    #expect(isOn)
    #expect(frame.size == ControlCell.switchSize)
    #expect(frame.maxX == 375 - 10)
    #expect(toggle.height == 51, "31-point switch plus two 10-point paddings, on the grid")

    let field = try row(ControlItem(caption: "Name", control: .textField(placeholder: "Your name", text: nil)))
    let caption = try #require(field.layout.label("caption"))
    let placeholder = try #require(field.layout.label("field"))
    guard case .textField(let box, _)? = field.layout.decorations.first else {
      Issue.record("no text field")
      return
    }
    #expect(box.minX == caption.frame.maxX + 8)
    #expect(box.maxX == 375 - 10)
    #expect(placeholder.color == Color(r: 179, g: 179, b: 179))
    #expect(box.contains(placeholder.frame))
  }
}
