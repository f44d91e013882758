import Foundation
import RowKitGraphics
import RowKitTestSupport
import Testing

@testable import RowKit

/// Every built-in cell with text in Arabic, Hebrew, Cyrillic and Greek: each glyph comes from
/// a loaded font, right-to-left text runs right to left, every label stays inside the
/// content (never under the accessory), and the row is tall enough for all of it.
@Suite struct ScriptTests {
  struct Script: CustomTestStringConvertible, Sendable {
    var name: String
    var sample: String
    var isRightToLeft: Bool
    var testDescription: String { name }
  }

  static let scripts = [
    Script(name: "Arabic", sample: "هذا نص عربي طويل يلتف على أكثر من سطر واحد في الجدول", isRightToLeft: true),
    Script(name: "Hebrew", sample: "זהו טקסט עברי ארוך שנשבר ליותר משורה אחת בטבלה", isRightToLeft: true),
    Script(name: "Cyrillic", sample: "Съешь же ещё этих мягких французских булок, да выпей чаю", isRightToLeft: false),
    Script(name: "Greek", sample: "Ξεσκεπάζω την ψυχοφθόρα βδελυγμία των ανθρώπων", isRightToLeft: false),
  ]

  /// One item of every built-in type, its text in `text`; each has a URL, so those that show
  /// an accessory do.
  static func items(_ text: String) -> [any TableItem] {
    let link = ItemOptions(url: "app://x")
    let now = Catalog.now
    return [
      TextItem(text: text, options: link), LinkItem(text: text, options: link), ButtonItem(text: text, options: link),
      LongTextItem(text: text, options: link), GrayTextItem(text: text, options: link), SummaryItem(text: text, options: link),
      CaptionItem(text: text, caption: text, options: link), RightCaptionItem(text: text, caption: text, options: link),
      SubtextItem(text: text, caption: text, options: link), SettingsItem(text: text, caption: text, options: link),
      SubtitleItem(text: text, subtitle: text, imageURL: "bundle://images/photo.png", options: link),
      MoreButtonItem(text: text, subtitle: text, isLoading: true, options: link),
      MessageItem(title: text, caption: text, text: text, timestamp: now, imageURL: "bundle://images/person.png", options: link),
      ImageItem(text: text, imageURL: "bundle://images/photo.png", options: link),
      RightImageItem(text: text, imageURL: "bundle://images/photo.png", options: link),
      StyledTextItem(text: "<b>" + text + "</b>", options: link), ActivityItem(text: text, options: link),
      ControlItem(caption: text, control: .toggle(isOn: true), options: link),
      CheckmarkItem(text: text, isChecked: true, options: link),
    ]
  }

  @Test(arguments: scripts)
  func everyBuiltInCellShapesAndPlacesTheScript(_ script: Script) throws {
    let renderer = try TestSupport.renderer()
    let table = try renderer.layout(ListDataSource(items: Self.items(script.sample)))
    for row in table.rows {
      let type = row.item.typeName
      let contentWidth = row.cellFrame.width - (row.layout.accessory.map { CellMetrics.default.width(of: $0.kind) } ?? 0)
      let labels = row.layout.labels.filter { $0.text.text.contains(script.sample) }
      #expect(!labels.isEmpty, "\(script.name) \(type): the sample is in no label")
      for label in row.layout.labels {
        #expect(label.text.unknownGlyphCount == 0, "\(script.name) \(type).\(label.name) draws boxes")
        #expect(label.frame.minX >= -0.01 && label.frame.maxX <= contentWidth + 0.01,
          "\(script.name) \(type).\(label.name) at \(label.frame.minX)…\(label.frame.maxX) leaves the content (0…\(contentWidth))")
        #expect(label.frame.maxY <= row.height + 0.01, "\(script.name) \(type).\(label.name) below the row")
      }
      for label in labels {
        #expect(label.text.isRightToLeft == script.isRightToLeft, "\(script.name) \(type).\(label.name) runs the wrong way")
      }
      #expect(row.height >= 44, "\(script.name) \(type)")
    }
  }
}
