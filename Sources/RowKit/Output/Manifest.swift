/// What a render wrote and where everything is: the table's size, each section's header and
/// footer, each row's position, type, cell, accessory and image slots. `rowkit measure`
/// prints the same document without image states.
public struct Manifest: Codable, Hashable, Sendable {
  /// One section in the manifest.
  public struct Section: Codable, Hashable, Sendable {
    /// The section's index, from 0.
    public var section: Int
    /// The header's text; absent when the section has none.
    public var header: String?
    /// The header's top and height (0 when the section has no header band).
    public var y: Double
    /// The header band's height in points.
    public var height: Double
    /// The footer's text; absent when the section has none.
    public var footer: String?
    /// The footer band's top in points; absent when the section has no footer.
    public var footerY: Double?
    /// The footer band's height in points; absent when the section has no footer.
    public var footerHeight: Double?
    /// The number of rows in the section.
    public var rows: Int
    /// With lint on, the header's findings (its title's contrast); absent when it has none.
    public var headerFindings: [LintFinding]?
    /// With lint on, the footer's findings; absent when it has none.
    public var footerFindings: [LintFinding]?
  }

  /// One image slot of a row in the manifest.
  public struct Image: Codable, Hashable, Sendable {
    /// The slot's name, as its cell gives it.
    public var slot: String
    /// The slot in the row, in points: [x, y, width, height].
    public var frame: [Double]
    /// The image URL the item gave the slot; absent for none.
    public var url: String?
    /// The default image's URL; absent for none.
    public var defaultImage: String?
    /// Whether the slot showed its own image, the default, or the default after a failure; absent where `rowkit measure` loads no images.
    public var state: ImageState?
    /// Why the image failed, or why the default of a slot that shows its default cannot be
    /// shown; absent otherwise.
    public var reason: String?
    /// The pixel size of the image shown (the slot's own or the default), as stored.
    public var imageSize: [Int]?

    /// Whether the slot was to show its default (no image asked for, or placeholders drawn)
    /// and the default cannot be shown: said, not a failed image.
    var defaultCannotBeShown: Bool { state == .default && reason != nil }
  }

  /// One row in the manifest: its place, size, item, cell and images.
  public struct Row: Codable, Hashable, Sendable {
    /// The manifest entry of `row`; with `images`, each slot's state.
    init(_ row: PlacedRow, images: ResolvedImages?) {
      let options = row.item.options
      self.init(
        section: row.section, row: row.row, y: row.y, height: row.height, type: row.item.typeName,
        cell: row.layout.cellName, selected: options.isSelected, url: options.url, accessoryURL: options.accessoryURL,
        accessory: row.layout.accessory?.kind.rawValue,
        images: row.layout.images.map { slot in
          Image(
            slot: slot.name, frame: [slot.frame.x, slot.frame.y, slot.frame.width, slot.frame.height], url: slot.url,
            defaultImage: slot.defaultURL)
        })
      missingGlyphs = row.layout.missingGlyphCount
      if missingGlyphs > 0 { missingCharacters = row.layout.missingCharacters.map(Manifest.codePoint) }
      if let images { record(images) }
    }

    /// Sets each image slot's state, reason and shown size from what `images` resolved.
    mutating func record(_ images: ResolvedImages) {
      for index in self.images.indices {
        let resolved = images.image(section: section, row: row, slot: index)
        self.images[index].state = resolved?.state
        self.images[index].reason = resolved?.reason
        self.images[index].imageSize = resolved?.image.map { [$0.originalWidth, $0.originalHeight] }
      }
    }

    init(
      section: Int, row: Int, y: Double, height: Double, type: String, cell: String, selected: Bool, url: String?,
      accessoryURL: String?, accessory: String?, images: [Image], file: String? = nil
    ) {
      self.section = section
      self.row = row
      self.y = y
      self.height = height
      self.type = type
      self.cell = cell
      self.selected = selected
      self.url = url
      self.accessoryURL = accessoryURL
      self.accessory = accessory
      self.images = images
      self.file = file
    }

    /// The row's section, from 0.
    public var section: Int
    /// The row's index in its section, from 0.
    public var row: Int
    /// The row's top in points, from the table's top.
    public var y: Double
    /// The row's height in points.
    public var height: Double
    /// The item's type name.
    public var type: String
    /// The name of the cell that drew the row.
    public var cell: String
    /// Whether the row was drawn selected.
    public var selected: Bool
    /// Where tapping the row leads; `null` for nowhere.
    public var url: String?
    /// Where the accessory button leads; absent for nowhere.
    public var accessoryURL: String?
    /// The accessory drawn (`disclosure`, `detailDisclosure`, `checkmark`); `null` for none.
    public var accessory: String?
    /// The row's image slots, in the cell's order.
    public var images: [Image]
    /// The row's PNG, relative to the rows folder, when one was written.
    public var file: String?
    /// Glyphs drawn as boxes because no loaded font has their characters; 0 when every
    /// character was drawn.
    public var missingGlyphs = 0
    /// Those characters as code points (`U+E000`), each once; absent when there are none.
    public var missingCharacters: [String]?
    /// The design-lint findings of the row, when the render linted (empty for a clean row);
    /// absent otherwise.
    public var findings: [LintFinding]?

    /// The row's name in messages: `s0-r3`.
    public var name: String { "s\(section)-r\(row)" }

    /// Every row has `url` and `accessory`, `null` when it has none, so a reader can tell
    /// "no accessory" from an older manifest; the other optional keys appear when set.
    public func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(section, forKey: .section)
      try container.encode(row, forKey: .row)
      try container.encode(y, forKey: .y)
      try container.encode(height, forKey: .height)
      try container.encode(type, forKey: .type)
      try container.encode(cell, forKey: .cell)
      try container.encode(selected, forKey: .selected)
      try container.encode(url, forKey: .url)
      try container.encodeIfPresent(accessoryURL, forKey: .accessoryURL)
      try container.encode(accessory, forKey: .accessory)
      try container.encode(images, forKey: .images)
      try container.encodeIfPresent(file, forKey: .file)
      try container.encode(missingGlyphs, forKey: .missingGlyphs)
      try container.encodeIfPresent(missingCharacters, forKey: .missingCharacters)
      try container.encodeIfPresent(findings, forKey: .findings)
    }
  }

  /// One PNG of a table too tall for a single image.
  public struct Tile: Codable, Hashable, Sendable {
    /// The tile's PNG file name.
    public var file: String
    /// The tile's top in points, from the table's top.
    public var y: Double
    /// The tile's height in points.
    public var height: Double
  }

  /// The variant this table was rendered in (`320pt,dark,AX3`), when it is one of a
  /// document's variants; absent otherwise.
  public var variant: String?
  /// The table's width in points.
  public var width: Double
  /// Device pixels per point.
  public var scale: Double
  /// The table's height in points.
  public var height: Double
  /// The table style (`plain` or `grouped`).
  public var style: String
  /// The fixed height of every row; absent when rows are as tall as their content.
  public var rowHeight: Double?
  /// Every section, in order.
  public var sections: [Section]
  /// Every row, section by section.
  public var rows: [Row]
  /// The tiles of a table written as several PNGs; absent for a single image.
  public var tiles: [Tile]?
  /// Every text slot's headroom and the headroom each needs, when the render measured it
  /// (``TableRenderer/measuresHeadroom``, `rowkit render --headroom`); absent otherwise.
  public var headroom: TableHeadroom?

  /// An empty manifest for a table of `configuration`, to fill row by row.
  init(configuration: TableConfiguration) {
    width = configuration.width
    scale = configuration.scale
    height = 0
    style = configuration.style.rawValue
    rowHeight = configuration.rowHeight
    sections = []
    rows = []
  }

  /// A character as Unicode writes it: `U+E000`, `U+1F600`.
  public static func codePoint(_ scalar: Unicode.Scalar) -> String {
    let hex = String(scalar.value, radix: 16, uppercase: true)
    return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
  }

  /// The rows that have characters no loaded font can draw.
  public var rowsWithMissingGlyphs: [Row] { rows.filter { $0.missingGlyphs > 0 } }

  /// The per-row PNG name for a section and row.
  public static func rowFileName(section: Int, row: Int) -> String { "s\(section)-r\(row).png" }
}

extension LintFinding {
  /// The findings of image slots that show their default because their image failed.
  public static func imageFailures(_ images: [Manifest.Image]) -> [LintFinding] {
    images.compactMap { image in
      guard image.state == .failed else { return nil }
      return LintFinding(
        rule: .imageFailed, label: image.slot,
        message: "\(image.url?.passwordsHidden ?? "the image in slot \(image.slot)") failed (\((image.reason ?? "no reason given").passwordsHidden)); "
          + (image.imageSize != nil ? "the slot shows its default" : "the slot is left empty"))
    }
  }
}

extension Array {
  subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}

extension Manifest.Row {
  /// Where each image the row showed came from, and each slot's default: the images its
  /// render read, slot by slot.
  package func imageLocations(resolver: ImageURLResolver) -> [ImageLocation] {
    images.flatMap { image in
      [image.url, image.defaultImage].compactMap { $0 }.compactMap { try? resolver.resolve($0) }
    }
  }
}
