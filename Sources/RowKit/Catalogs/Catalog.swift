import Foundation
import RowKitGraphics

/// The catalog of built-in cells: every built-in item type, short and long, with
/// accessories, a selected row and images drawn by code. `rowkit catalog` renders it.
public enum Catalog {
  /// The moment the catalog's message timestamps count from.
  public static let now = Date(timeIntervalSince1970: 1_700_000_000)

  /// The URLs of the catalog's generated images.
  public static let photoURL = "bundle://catalog/photo.png"
  /// The catalog's generated avatar image.
  public static let avatarURL = "bundle://catalog/avatar.png"
  /// The catalog's generated placeholder, the default image of its image rows.
  public static let placeholderURL = "bundle://catalog/placeholder.png"
  /// A URL with no image behind it, for the row that shows a failed load's default image.
  public static let missingURL = "bundle://catalog/missing.png"

  /// The catalog's images, drawn by code so that the catalog needs no files.
  public static func images() throws -> [String: Bitmap] {
    [
      photoURL: try SampleArtwork.landscape(pixels: 200),
      avatarURL: try SampleArtwork.avatar(pixels: 136),
      placeholderURL: try SampleArtwork.placeholder(pixels: 136),
    ]
  }

  /// The catalog's sections: every built-in item type, short and long.
  public static func dataSource() -> SectionedDataSource {
    let long = "A long row wraps onto as many lines as it needs, and its row grows to fit all of them, however narrow the table."
    let link = ItemOptions(url: "app://detail")
    let detail = ItemOptions(url: "app://detail", accessoryURL: "app://info")
    return SectionedDataSource(sections: [
      TableSection(
        header: "Text", footer: "text, link, button, longText, grayText, summary",
        items: [
          TextItem(text: "Text"),
          TextItem(text: long, options: link),
          LinkItem(text: "Link", options: link),
          LinkItem(text: "A link whose title is far too long to fit on one line", options: detail),
          ButtonItem(text: "Button"),
          ButtonItem(text: "A button whose title is long enough to wrap onto a second line of the row"),
          LongTextItem(text: "Long text, short."),
          LongTextItem(text: "Long text: " + long + " " + long),
          GrayTextItem(text: "Gray text"),
          GrayTextItem(text: "Gray text, for notes and explanations that sit between other rows."),
          SummaryItem(text: "24 photos"),
          SummaryItem(text: "24 photos and 3 videos, shared with you and everyone else in the family album"),
          TextItem(text: "Selected row", options: ItemOptions(url: "app://detail", isSelected: true)),
        ]),
      TableSection(
        header: "Captions",
        items: [
          CaptionItem(text: "Joe Hewitt", caption: "Name"),
          CaptionItem(
            text: "1 Hacker Way, Menlo Park, California 94025, United States of America",
            caption: "Address that wraps", options: link),
          RightCaptionItem(text: "Battery", caption: "85%"),
          RightCaptionItem(text: "A right caption row whose text wraps onto a second line", caption: "12:45 PM"),
          SubtextItem(text: "Subtext", caption: "Smaller text below"),
          SubtextItem(text: "Subtext that is far too long to fit on one line", caption: long, options: link),
          SettingsItem(text: "On", caption: "Airplane Mode"),
          SettingsItem(text: "A value too long for the row", caption: "A setting with a long name", options: link),
        ]),
      TableSection(
        header: "Subtitles and images",
        items: [
          SubtitleItem(text: "Subtitle", subtitle: "With a subtitle"),
          SubtitleItem(
            text: "Video", subtitle: "Shoot, edit and share video.", imageURL: photoURL,
            defaultImage: placeholderURL, options: link),
          SubtitleItem(
            text: "A subtitle row with a long title", subtitle: long, imageURL: missingURL,
            defaultImage: placeholderURL, options: detail),
          ImageItem(text: "Image", imageURL: photoURL, options: link),
          ImageItem(text: "Rounded image with a long text: " + long, imageURL: avatarURL, imageStyle: "rounded"),
          RightImageItem(text: "Right image", imageURL: photoURL, imageStyle: "rounded"),
          RightImageItem(text: "A right image row with a longer centered text", imageURL: avatarURL),
        ]),
      TableSection(
        header: "Messages",
        items: [
          MessageItem(
            title: "Joe Hewitt", caption: "Three20 1.0", text: "The table system is back, on Linux.",
            timestamp: now.addingTimeInterval(-3 * 3600), imageURL: avatarURL),
          MessageItem(
            title: "A sender with a very long name indeed", caption: "A subject line that is far too long to fit",
            text: long + " " + long, timestamp: now.addingTimeInterval(-40 * 86400), defaultImage: placeholderURL,
            options: link),
        ]),
      TableSection(
        header: "Styled text, activity, more",
        items: [
          StyledTextItem(text: "Styled <b>bold</b>, <i>italic</i> and a <a href=\"app://x\">link</a>."),
          StyledTextItem(
            text: "<div>A <b>styled</b> paragraph</div><div>spans blocks, <u>underlines</u> and "
              + "<a href=\"app://y\">links that wrap over the end of a line</a>.<br/>A line break ends it.</div>",
            options: link),
          ActivityItem(text: "Loading…"),
          ActivityItem(text: "Loading a great many things at once, more than fit"),
          MoreButtonItem(text: "Load more", subtitle: "Showing 25 of 120"),
          MoreButtonItem(text: "Loading more items", subtitle: long, isLoading: true),
        ]),
      TableSection(
        header: "Controls and checkmarks", footer: "control and checkmark rows",
        items: [
          ControlItem(caption: "Wi-Fi", control: .toggle(isOn: true)),
          ControlItem(caption: "A switch with a long caption that is cut off", control: .toggle(isOn: false)),
          ControlItem(caption: "Name", control: .textField(placeholder: "Your name", text: nil)),
          ControlItem(caption: "Volume", control: .slider(value: 0.6)),
          CheckmarkItem(text: "Checked", isChecked: true),
          CheckmarkItem(text: "Unchecked, with a long text that wraps onto a second line", isChecked: false),
        ]),
    ])
  }
}

/// Images drawn by code, for the catalog and tests.
package enum SampleArtwork {
  /// A square landscape: sky, sun and hills.
  public static func landscape(pixels: Int) throws -> Bitmap {
    let canvas = try Canvas(pixelWidth: pixels, pixelHeight: pixels, scale: Double(pixels) / 100)
    let all = Rect(x: 0, y: 0, width: 100, height: 100)
    canvas.fill(.rect(all), gradient: .vertical(all, from: Color(r: 90, g: 170, b: 240), to: Color(r: 200, g: 230, b: 250)))
    canvas.fill(.circle(center: Point(x: 70, y: 30), radius: 12), color: Color(r: 255, g: 210, b: 80))
    var hills = Path()
    hills.move(to: Point(x: 0, y: 70))
    hills.curve(to: Point(x: 100, y: 65), control1: Point(x: 30, y: 45), control2: Point(x: 60, y: 85))
    hills.line(to: Point(x: 100, y: 100))
    hills.line(to: Point(x: 0, y: 100))
    hills.close()
    canvas.fill(hills, color: Color(r: 70, g: 150, b: 80))
    return try canvas.bitmap()
  }

  /// A round-headed figure on a warm background.
  public static func avatar(pixels: Int) throws -> Bitmap {
    let canvas = try Canvas(pixelWidth: pixels, pixelHeight: pixels, scale: Double(pixels) / 100)
    let all = Rect(x: 0, y: 0, width: 100, height: 100)
    canvas.fill(.rect(all), gradient: .vertical(all, from: Color(r: 250, g: 170, b: 110), to: Color(r: 230, g: 110, b: 90)))
    canvas.fill(.circle(center: Point(x: 50, y: 40), radius: 18), color: Color(white: 1, alpha: 0.9))
    canvas.fill(.roundedRect(Rect(x: 20, y: 64, width: 60, height: 50), radius: 25), color: Color(white: 1, alpha: 0.9))
    return try canvas.bitmap()
  }

  /// A gray placeholder with a simple picture glyph.
  public static func placeholder(pixels: Int) throws -> Bitmap {
    let canvas = try Canvas(pixelWidth: pixels, pixelHeight: pixels, scale: Double(pixels) / 100)
    canvas.fill(Rect(x: 0, y: 0, width: 100, height: 100), color: Color(r: 220, g: 222, b: 226))
    canvas.stroke(.roundedRect(Rect(x: 28, y: 32, width: 44, height: 36), radius: 4), color: Color(r: 160, g: 164, b: 170), width: 4)
    canvas.fill(.circle(center: Point(x: 40, y: 45), radius: 4), color: Color(r: 160, g: 164, b: 170))
    canvas.fill(.polyline([Point(x: 32, y: 64), Point(x: 48, y: 52), Point(x: 68, y: 64)]), color: Color(r: 160, g: 164, b: 170))
    return try canvas.bitmap()
  }
}
