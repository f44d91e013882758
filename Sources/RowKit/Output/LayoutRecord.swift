import Foundation
import RowKitGraphics

/// What a table's render laid out, element by element: the layout record written beside a
/// reference PNG as `<name>.layout.json`, so that a failing snapshot can say what changed
/// (`row 3 title moved down 2 pt (y 12 → 14)`) rather than only that pixels did.
///
/// A record is deterministic: positions are rounded to 1/64 point, keys are sorted and the
/// JSON is pretty-printed (``jsonBytes()``), so the same render is always the same bytes and
/// a change reads well in a pull request's text diff.
public struct LayoutRecord: Codable, Hashable, Sendable {
  /// The suffix of a record's file beside its PNG: `wifi.layout.json` beside `wifi.png`.
  public static let fileSuffix = ".layout.json"
  /// The record format's version; a reader compares only records of its own version.
  public static let currentVersion = 1

  /// The record format's version (``currentVersion``).
  public var version = LayoutRecord.currentVersion
  /// The table's width in points.
  public var width: Double
  /// Device pixels per point.
  public var scale: Double
  /// The table style (`plain` or `grouped`).
  public var style: String
  /// The variant the table was rendered in (`320pt,dark,AX3`); absent for the document as it is.
  public var variant: String?
  /// The table's height in points.
  public var height: Double
  /// Every section header and footer band with a title, in order.
  public var bands: [Band]
  /// Every row, section by section.
  public var rows: [Row]

  /// A section's header or footer band.
  public struct Band: Codable, Hashable, Sendable {
    /// The band's section, from 0.
    public var section: Int
    /// `header` or `footer`.
    public var kind: String
    /// The band's top in points, from the table's top.
    public var y: Double
    /// The band's height in points.
    public var height: Double
    /// The band's title label (named `title`).
    public var elements: [Element]

    /// The band's name in messages: `section 0 header`.
    public var name: String { "section \(section) \(kind)" }
  }

  /// One row: where it sits, what drew it, and each of its elements.
  public struct Row: Codable, Hashable, Sendable {
    /// The row's section, from 0.
    public var section: Int
    /// The row's index in its section, from 0.
    public var row: Int
    /// The item's type name.
    public var type: String
    /// The name of the cell that drew the row.
    public var cell: String
    /// The row's top in points, from the table's top.
    public var y: Double
    /// The row's height in points.
    public var height: Double
    /// The cell's left edge in the table, in points: where the elements' frames start
    /// (inside a grouped table's margin).
    public var x: Double
    /// Whether the row was drawn selected.
    public var selected: Bool
    /// `ltr` or `rtl`: the direction the row was laid out in.
    public var direction: String
    /// The row's labels, image slots, decorations, accessory and background, each under a
    /// name unique in the row.
    public var elements: [Element]

    /// The row's name in messages, as manifests and warnings name it: `s0-r3`.
    public var name: String { "s\(section)-r\(row)" }

    /// The element named `name`.
    public func element(_ name: String) -> Element? { elements.first { $0.name == name } }
  }

  /// One thing a row draws.
  public struct Element: Codable, Hashable, Sendable {
    /// The element's name, unique in its row: a label's (`text`, `subtitle`), a slot's
    /// (`image`), `accessory`, `background`, or a decoration's kind (`toggle`, `style`), with
    /// `-2`, `-3`… for a second and third of one name.
    public var name: String
    /// `text`, `image`, `accessory`, `background` or `decoration`.
    public var kind: String
    /// Every ``kind`` a record's element may have, as the layout record schema lists them.
    package static let kinds = ["text", "image", "accessory", "background", "decoration"]
    /// The element's frame in the cell's coordinates, in points: [x, y, width, height].
    public var frame: [Double]
    /// Where a label's glyphs put ink, in the cell's coordinates: [x, y, width, height]. It
    /// may reach past ``frame`` (accents, italic overhang) and holds the shadow's glyphs.
    public var ink: [Double]?
    /// The text's or the glyph's color (`#RRGGBB` or `#RRGGBBAA`); a background's fill when
    /// its style is one plain fill.
    public var color: String?
    /// A label's shadow color, where its text is drawn a second time as a shadow.
    public var shadow: String?
    /// A label's shaped text.
    public var text: Text?
    /// An image slot's image.
    public var image: Image?
    /// A short digest of the style the element is drawn with, where it has one: the same
    /// style always has the same digest.
    public var style: String?
    /// What kind of accessory or control, and its state (`disclosure`, `on`, `0.5`).
    public var value: String?
  }

  /// A label's shaped text.
  public struct Text: Codable, Hashable, Sendable {
    /// The text shown.
    public var string: String
    /// The family the label asked for; ``runs`` say which fonts drew it.
    public var family: String
    /// Stretches of the text drawn by one font file.
    public var runs: [Run]
    /// The font size in points.
    public var size: Double
    /// The font weight (400 regular, 700 bold).
    public var weight: Int
    /// Whether the font is italic.
    public var italic: Bool
    /// The lines laid out, after line limits.
    public var lines: Int
    /// Whether an ellipsis replaced some of the text.
    public var ellipsized: Bool
    /// Whether lines were cut off by a line limit or a maximum height.
    public var truncated: Bool
    /// Glyphs drawn as boxes because no loaded font has their character.
    public var missingGlyphs: Int
    /// `ltr` or `rtl`: the first paragraph's direction.
    public var direction: String
    /// How the lines are aligned in the label's box (`left`, `center` or `right`, as a
    /// left-to-right layout names them; a right-to-left layout mirrors them): a
    /// multi-line label drawn another way has the same frame and glyph boxes, so only this
    /// says so. Absent in records written before RowKit recorded it; a record that has it
    /// also has every span (``spans`` absent there means the text has none).
    public var alignment: String?
    /// What styles parts of the text (styled text's colors, underlines, fonts…), one entry
    /// per attribute: what the glyph boxes do not show. Absent for text without any.
    public var spans: [Span]?
    /// Where the ellipsis stands (`start`, `middle` or `end`) when one replaced some of the
    /// text: the glyph boxes of `…its succe…` and `…eat many…` can be the same. Absent when
    /// no ellipsis is drawn, and in records written before RowKit recorded it.
    public var ellipsis: String?

    /// Whether the record says how the text is aligned and styled (see ``alignment``): a
    /// record written before it did cannot tell such a change.
    public var recordsStyling: Bool { alignment != nil }
  }

  /// One attribute over a stretch of a label's text.
  public struct Span: Codable, Hashable, Sendable {
    /// The characters the attribute applies to.
    public var text: String
    /// The stretch's Unicode scalar offsets in the label's text: [start, end).
    public var range: [Int]
    /// What the attribute is: `color`, `underline`, `strikethrough`, `weight`, `italic`,
    /// `font`, `scale`, `background` or `image`.
    public var attribute: String
    /// The attribute's value where it has one (`#C5221F`, `700`, `Inter 15 pt 600 italic`,
    /// `1.2`, `20×20 pt`).
    public var value: String?
    /// Every ``attribute`` a span may have, as the layout record schema lists them.
    package static let attributes = ["color", "underline", "strikethrough", "weight", "italic", "font", "scale", "background", "image"]
  }

  /// A stretch of text drawn by one font.
  public struct Run: Codable, Hashable, Sendable {
    /// The characters of the stretch.
    public var text: String
    /// The font's family; absent for characters no loaded font has.
    public var family: String?
    /// The font file's name (`Inter-Regular.otf`); absent for characters no loaded font has.
    public var file: String?
    /// The first 12 hex digits of the font file's SHA-256.
    public var sha256: String?
  }

  /// An image slot's image.
  public struct Image: Codable, Hashable, Sendable {
    /// `loaded`, `default` (a placeholder) or `failed`; absent where no images were loaded.
    public var state: String?
    /// The image URL the slot names; absent for none.
    public var url: String?
    /// The first 16 hex digits of the SHA-256 of the pixels drawn in the slot; absent when
    /// nothing was drawn.
    public var digest: String?
  }

  /// An empty record of a table of `configuration`, to fill row by row.
  init(configuration: TableConfiguration, variant: String?) {
    width = LayoutRecord.rounded(configuration.width)
    scale = configuration.scale
    style = configuration.style.rawValue
    self.variant = variant
    height = 0
    bands = []
    rows = []
  }

  /// `value` on the 1/64 point grid: positions that differ by float noise record the same.
  public static func rounded(_ value: Double) -> Double {
    guard value.isFinite else { return 0 }
    let rounded = (value * 64).rounded() / 64
    return rounded == 0 ? 0 : rounded
  }

  static func frame(_ rect: Rect) -> [Double] {
    [rect.x, rect.y, rect.width, rect.height].map(rounded)
  }

  /// Pretty-printed JSON with sorted keys, ending in a newline: the same record is always
  /// the same bytes.
  public func jsonBytes() throws -> [UInt8] {
    try DeterministicJSON.bytes(self)
  }

  /// The record in `bytes`; an error naming `file` when they are not one, or when a number
  /// in them is out of what a render records (a record beside a reference may come from
  /// anyone, and the comparison turns its numbers into pixels and sentences).
  public static func decode(_ bytes: [UInt8], file: String) throws -> LayoutRecord {
    let record: LayoutRecord
    do {
      record = try JSONDecoder().decode(LayoutRecord.self, from: Data(bytes))
    } catch {
      throw StyleError("\(file) is not a RowKit layout record: \(DocumentError.decodingProblem(error, in: bytes))")
    }
    if let problem = record.problem { throw StyleError("\(file) is not a RowKit layout record: \(problem)") }
    return record
  }

  /// The farthest a recorded position or size may be from 0, in points: a table of the most
  /// rows, each of the tallest, is 800 million points tall.
  static let coordinateLimit = Bounds.maximumLaidOutRowHeight * Double(Bounds.maximumRows)

  /// The first number out of range, with its key path; nil when every number is in range.
  var problem: String? {
    func outside(_ value: Double, _ range: ClosedRange<Double>, _ path: String) -> String? {
      range.contains(value) ? nil : "'\(path)' is \(value), not in \(Bounds.format(range.lowerBound))…\(Bounds.format(range.upperBound))"
    }
    func outside(_ value: Int, _ range: ClosedRange<Int>, _ path: String) -> String? {
      range.contains(value) ? nil : "'\(path)' is \(value), not in \(range.lowerBound)…\(range.upperBound)"
    }
    let coordinate = -Self.coordinateLimit...Self.coordinateLimit
    let index = 0...Bounds.maximumRows
    func rectangle(_ values: [Double]?, _ path: String) -> String? {
      guard let values else { return nil }
      guard values.count == 4 else { return "'\(path)' has \(values.count) numbers, not 4 (x, y, width, height)" }
      return values.indices.lazy.compactMap { outside(values[$0], coordinate, "\(path)[\($0)]") }.first
    }
    func elements(_ elements: [Element], _ path: String) -> String? {
      for (number, element) in elements.enumerated() {
        let path = "\(path).elements[\(number)]"
        if let problem = rectangle(element.frame, "\(path).frame") ?? rectangle(element.ink, "\(path).ink") { return problem }
        guard let text = element.text else { continue }
        if let problem = outside(text.size, 0...10_000, "\(path).text.size") ?? outside(text.weight, 1...1000, "\(path).text.weight")
          ?? outside(text.lines, 0...Int(Self.coordinateLimit), "\(path).text.lines")
          ?? outside(text.missingGlyphs, 0...Int(Self.coordinateLimit), "\(path).text.missingGlyphs")
        {
          return problem
        }
      }
      return nil
    }
    if let problem = outside(width, Bounds.tableWidth, "width") ?? outside(scale, Bounds.scale, "scale")
      ?? outside(height, 0...Self.coordinateLimit, "height")
    {
      return problem
    }
    for (number, band) in bands.enumerated() {
      let path = "bands[\(number)]"
      if let problem = outside(band.section, index, "\(path).section") ?? outside(band.y, coordinate, "\(path).y")
        ?? outside(band.height, 0...Self.coordinateLimit, "\(path).height") ?? elements(band.elements, path)
      {
        return problem
      }
    }
    for (number, row) in rows.enumerated() {
      let path = "rows[\(number)]"
      if let problem = outside(row.section, index, "\(path).section") ?? outside(row.row, index, "\(path).row")
        ?? outside(row.x, coordinate, "\(path).x") ?? outside(row.y, coordinate, "\(path).y")
        ?? outside(row.height, 0...Self.coordinateLimit, "\(path).height") ?? elements(row.elements, path)
      {
        return problem
      }
    }
    return nil
  }

  /// The record file beside the reference PNG at `png`: `wifi.png` → `wifi.layout.json`.
  public static func url(besidePNG png: URL) -> URL {
    png.deletingPathExtension().appendingPathExtension("layout.json")
  }
}

/// The one JSON form of RowKit's files: pretty-printed, keys sorted, slashes as they are, and
/// a final newline, so that the same value is always the same bytes.
package enum DeterministicJSON {
  /// `value` as JSON in RowKit's form.
  public static func bytes<Value: Encodable>(_ value: Value) throws -> [UInt8] {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    return [UInt8](try encoder.encode(value)) + [0x0A]
  }
}

extension LayoutRecord.Row {
  /// The record of `row`, made on the worker thread that laid it out (it reads the shaped
  /// text's fonts); image states are added once the images are loaded.
  init(_ row: PlacedRow) {
    let layout = row.layout
    section = row.section
    self.row = row.row
    type = row.item.typeName
    cell = layout.cellName
    y = LayoutRecord.rounded(row.y)
    x = LayoutRecord.rounded(row.cellFrame.x)
    height = LayoutRecord.rounded(row.height)
    selected = layout.isSelected
    direction = layout.direction.rawValue
    var elements: [LayoutRecord.Element] = []
    if let background = layout.isSelected ? layout.selectedBackground : layout.background {
      elements.append(LayoutRecord.Element(
        name: "background", kind: "background", frame: LayoutRecord.frame(Rect(origin: .zero, size: layout.size)),
        color: LayoutRecord.plainFill(of: background)?.hexString, style: LayoutRecord.digest(of: background)))
    }
    for decoration in layout.decorations {
      elements.append(LayoutRecord.Element(decoration, labels: layout.labels))
    }
    for slot in layout.images {
      elements.append(LayoutRecord.Element(
        name: slot.name, kind: "image", frame: LayoutRecord.frame(slot.frame),
        image: LayoutRecord.Image(url: (slot.url ?? slot.defaultURL)?.passwordsHidden), style: slot.style.map(LayoutRecord.digest(of:))))
    }
    for label in layout.labels { elements.append(LayoutRecord.Element(label)) }
    if let accessory = layout.accessory {
      elements.append(LayoutRecord.Element(
        name: "accessory", kind: "accessory", frame: LayoutRecord.frame(accessory.frame), color: accessory.color.hexString,
        value: accessory.kind.rawValue))
    }
    self.elements = LayoutRecord.uniquelyNamed(elements)
  }

  /// Sets each image slot's state and the digest of the pixels it shows, from `images`.
  mutating func record(_ images: ResolvedImages) {
    var slot = 0
    for index in elements.indices where elements[index].kind == "image" {
      defer { slot += 1 }
      guard let resolved = images.image(section: section, row: row, slot: slot) else { continue }
      elements[index].image?.state = resolved.state.rawValue
      elements[index].image?.digest = resolved.pixels.map { String(SHA256.hex(ofBuffer: $0.pixels).prefix(16)) }
    }
  }
}

extension LayoutRecord.Band {
  init?(_ band: SectionBand, section: Int, top: Double) {
    guard let label = band.label else { return nil }
    self.section = section
    kind = band.kind.rawValue
    y = LayoutRecord.rounded(top)
    height = LayoutRecord.rounded(band.frame.height)
    var title = LayoutRecord.Element(label)
    title.name = "title"
    elements = [title]
  }
}

extension LayoutRecord.Span {
  /// The record of `run` over `text`.
  init(_ run: TextRun, in text: String) {
    let scalars = text.unicodeScalars
    let start = min(max(run.range.lowerBound, 0), scalars.count)
    let end = min(max(run.range.upperBound, start), scalars.count)
    let first = scalars.index(scalars.startIndex, offsetBy: start)
    self.text = String(scalars[first..<scalars.index(first, offsetBy: end - start)])
    range = [run.range.lowerBound, run.range.upperBound]
    switch run.attribute {
    case .weight(let weight): (attribute, value) = ("weight", "\(weight)")
    case .italic: (attribute, value) = ("italic", nil)
    case .underline: (attribute, value) = ("underline", nil)
    case .strikethrough: (attribute, value) = ("strikethrough", nil)
    case .color(let color): (attribute, value) = ("color", color.hexString)
    case .font(let font):
      let size = LayoutRecord.rounded(font.size)
      let sizeWords = size == size.rounded() ? "\(Int(size))" : "\(size)"
      (attribute, value) = ("font", "\(font.family) \(sizeWords) pt \(font.weight)\(font.isItalic ? " italic" : "")")
    case .scale(let factor): (attribute, value) = ("scale", "\(LayoutRecord.rounded(factor))")
    case .background(let color): (attribute, value) = ("background", color.hexString)
    case .placeholder(let size):
      (attribute, value) = ("image", "\(LayoutRecord.rounded(size.width))×\(LayoutRecord.rounded(size.height)) pt")
    }
  }
}

extension LayoutRecord.Element {
  /// A label's element: its frame, color and shaped text with the font of every run.
  init(_ label: RowLabel) {
    let text = label.text
    let runs = text.fontFileRuns().map { run -> LayoutRecord.Run in
      let identity = run.file.map(FontFileDigests.identity(ofFileAt:))
      return LayoutRecord.Run(text: run.text, family: run.family, file: identity?.name, sha256: identity?.sha256)
    }
    let font = text.style.font
    let origin = label.drawingOrigin
    var ink = text.inkRect.offsetBy(dx: origin.x, dy: origin.y)
    if label.shadow != nil {
      // The shadow is the same glyphs again, moved: its pixels are glyph pixels too.
      let moved = ink.offsetBy(dx: label.shadowOffset.width, dy: label.shadowOffset.height)
      let (minX, minY) = (min(ink.x, moved.x), min(ink.y, moved.y))
      ink = Rect(x: minX, y: minY, width: max(ink.maxX, moved.maxX) - minX, height: max(ink.maxY, moved.maxY) - minY)
    }
    self.init(
      name: label.name, kind: "text", frame: LayoutRecord.frame(label.frame),
      ink: LayoutRecord.frame(ink), color: label.color.hexString, shadow: label.shadow?.hexString,
      text: LayoutRecord.Text(
        string: text.text, family: font.family, runs: runs, size: LayoutRecord.rounded(font.size), weight: font.weight, italic: font.isItalic,
        lines: text.lineCount, ellipsized: text.isEllipsized, truncated: text.isClipped, missingGlyphs: text.unknownGlyphCount,
        direction: text.isRightToLeft ? "rtl" : "ltr",
        // As the cell asked for it: a right-to-left layout mirrors it, and says so itself.
        alignment: (text.style.isAlignmentVisual ? LayoutDirection.rtl.resolve(text.style.alignment) : text.style.alignment).rawValue,
        spans: text.runs.isEmpty ? nil : text.runs.map { LayoutRecord.Span($0, in: text.text) },
        ellipsis: text.isEllipsized && text.style.ellipsize != .none ? text.style.ellipsize.rawValue : nil))
  }

  /// A decoration's element, named after its kind; a style drawn around a label is named
  /// after the label (`badge-box`).
  init(_ decoration: Decoration, labels: [RowLabel]) {
    let frame = LayoutRecord.frame(decoration.frame)
    switch decoration {
    case .spinner(_, let color):
      self.init(name: "spinner", kind: "decoration", frame: frame, color: color.hexString)
    case .toggle(_, let isOn, let onColor, let offColor, _):
      self.init(name: "toggle", kind: "decoration", frame: frame, color: (isOn ? onColor : offColor).hexString, value: isOn ? "on" : "off")
    case .slider(_, let value, let fillColor, _, _):
      self.init(
        name: "slider", kind: "decoration", frame: frame, color: fillColor.hexString, value: "\(LayoutRecord.rounded(value))")
    case .textField(_, let borderColor):
      self.init(name: "textField", kind: "decoration", frame: frame, color: borderColor.hexString)
    case .fill(_, let color):
      self.init(name: "fill", kind: "decoration", frame: frame, color: color.hexString)
    case .style(_, let style, let contentLabel):
      let label = contentLabel.flatMap { labels[safe: $0] }
      self.init(
        name: label.map { "\($0.name)-box" } ?? "style", kind: "decoration", frame: frame, style: LayoutRecord.digest(of: style))
    }
  }
}

extension LayoutRecord {
  /// A short digest of `style`'s chain: equal styles have equal digests.
  static func digest(of style: Style) -> String {
    String(SHA256.hex(Array(String(describing: style).utf8)).prefix(8))
  }

  /// The color of a style that is one plain fill, drawn under its content (`[fill]` or
  /// `[fill, content]`), which a sentence can name; nil for any other style, told by its
  /// digest: a fill after `content` paints over the row's content.
  static func plainFill(of style: Style) -> Color? {
    switch style.elements.count {
    case 1: if case .fill(let color) = style.elements[0] { return color }
    case 2: if case .fill(let color) = style.elements[0], case .content = style.elements[1] { return color }
    default: break
    }
    return nil
  }

  /// `elements` with a second, third… element of one name renamed `name-2`, `name-3`…
  static func uniquelyNamed(_ elements: [Element]) -> [Element] {
    var seen: [String: Int] = [:]
    return elements.map { element in
      var element = element
      let count = (seen[element.name] ?? 0) + 1
      seen[element.name] = count
      if count > 1 { element.name += "-\(count)" }
      return element
    }
  }
}
