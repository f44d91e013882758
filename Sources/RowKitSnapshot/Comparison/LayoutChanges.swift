import Foundation
import RowKit

/// One structural difference between a reference's layout record and the actual render's,
/// told as a sentence with its numbers: `s0-r3 title moved down 2 pt (y 12 → 14)`.
public struct LayoutChange: Codable, Hashable, Sendable {
  /// What the change is in: a row (`s0-r3`), a band (`section 0 header`), a section added or
  /// removed (`section 1`) or `table`.
  public var row: String
  /// The element's name in its row (`title`, `image`, `accessory`); nil for the row itself.
  public var element: String?
  /// What changed: `position`, `size`, `color`, `text`, `font`, `fontSize`, `height`,
  /// `gapAbove` (a row, band or section moved without a cause above it), `span`, `alignment`,
  /// `pixels` (of `table`: the differing pixels no other change explains)…
  public var property: String
  /// The reference's value; nil where the element did not exist.
  public var from: String?
  /// The actual value; nil where the element no longer exists.
  public var to: String?
  /// The change in one sentence.
  public var sentence: String
  /// Where the changed element (or row) is in the reference image, in pixels: [x, y, width,
  /// height]; nil where it is not in the reference, or the change is of the whole table.
  public var referenceBox: [Int]?
  /// Where the changed element (or row) is in the actual image, in pixels; nil where it is
  /// not there.
  public var actualBox: [Int]?
  /// Every row the change is in, when the same change is in several rows: ``row`` then names
  /// them compactly (`s0-r0…s0-r59`) and the boxes are the first row's; nil for one.
  public var rows: [String]?

  /// A change of `property` of `element` in `row`, from `from` to `to`, told by `sentence`,
  /// and where it is in the two images.
  public init(
    row: String, element: String? = nil, property: String, from: String?, to: String?, sentence: String,
    referenceBox: [Int]? = nil, actualBox: [Int]? = nil
  ) {
    self.row = row
    self.element = element
    self.property = property
    self.from = from
    self.to = to
    self.sentence = sentence
    self.referenceBox = referenceBox
    self.actualBox = actualBox
  }

  /// The sentence without its row (`title color #FF3B30 → #FF453A`): what one change made in
  /// many rows has in common, by which the review page groups cases.
  public var sentenceWithoutRow: String {
    sentence.hasPrefix(row + " ") ? String(sentence.dropFirst(row.count + 1)) : sentence
  }

  /// Whether the change is only of font files' digests, the files keeping their names: what
  /// a font package update that kept every glyph's metrics changes.
  public var isFontDigestOnly: Bool {
    guard property == "fontFile", let from, let to else { return false }
    // `Inter-Regular.otf (3f2a…), DejaVuSans.ttf (9c1e…)`: the names without the digests.
    func names(_ files: String) -> [Substring] {
      files.split(separator: ", ").map { $0.split(separator: " (").first ?? $0 }
    }
    return names(from) == names(to)
  }

  /// Every key, with `null` for none, so that a reader sees the same shape for every change.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(row, forKey: .row)
    try container.encode(element, forKey: .element)
    try container.encode(property, forKey: .property)
    try container.encode(from, forKey: .from)
    try container.encode(to, forKey: .to)
    try container.encode(sentence, forKey: .sentence)
    try container.encode(referenceBox, forKey: .referenceBox)
    try container.encode(actualBox, forKey: .actualBox)
    try container.encode(rows, forKey: .rows)
  }
}

/// Compares two layout records and tells each structural change once.
///
/// A change is told where it starts, not everywhere it leads: a row that grows is one
/// sentence (its height), not one for every row below it that moved down; a label whose
/// text, font or line count changed is not also said to have changed size.
public enum LayoutChanges {
  /// The changes from `reference` to `actual`, in table order, each with where it is in the
  /// two images. Sections are matched by what they show (then by their header's title), and
  /// rows within them, so that a section or row inserted or removed is one sentence, not one
  /// for each below it; the same change in several rows is one sentence naming them all.
  public static func compare(_ reference: LayoutRecord, _ actual: LayoutRecord) -> [LayoutChange] {
    let (inReference, inActual) = (Boxes(reference), Boxes(actual))
    let located = changes(reference, actual).map { found in
      var change = found.change
      change.referenceBox = found.inReference.flatMap { inReference.box(of: $0, element: change.element) }
      change.actualBox = found.inActual.flatMap { inActual.box(of: $0, element: change.element) }
      return change
    }
    return grouped(located).map { change in
      var change = change
      // A sentence is one line, whatever the texts, names and URLs it quotes hold.
      change.sentence = change.sentence.escapedForOneLine
      return change
    }
  }

  /// A change with the names of the row or band it is in, in each record (nil where it is
  /// not in that record or is of the whole table).
  private struct Located {
    var change: LayoutChange
    var inReference: String?
    var inActual: String?

    /// `name` (a row, band or section; `inReference` there) only in the reference, where it
    /// showed `value`, told in the sentence as `told`.
    static func removed(_ name: String, was value: String, told: String? = nil, inReference: String? = nil) -> Located {
      Located(
        change: LayoutChange(row: name, property: "presence", from: value, to: nil, sentence: "\(name) removed (was \(told ?? value))"),
        inReference: inReference ?? name)
    }

    /// `name` only in the actual render (`inActual` there), showing `value`, told as `told`.
    static func added(_ name: String, showing value: String, told: String? = nil, inActual: String? = nil) -> Located {
      Located(
        change: LayoutChange(row: name, property: "presence", from: nil, to: value, sentence: "\(name) added (\(told ?? value))"),
        inActual: inActual ?? name)
    }
  }

  /// `changes` with each change made in several rows told once, at its first row, naming
  /// every row it is in.
  static func grouped(_ changes: [LayoutChange]) -> [LayoutChange] {
    struct Key: Hashable {
      var element: String?, property: String, from: String?, to: String?, sentence: String
    }
    func key(_ change: LayoutChange) -> Key? {
      guard RowName(change.row) != nil else { return nil }
      return Key(element: change.element, property: change.property, from: change.from, to: change.to, sentence: change.sentenceWithoutRow)
    }
    var rowsByKey: [Key: [String]] = [:]
    for change in changes { if let key = key(change) { rowsByKey[key, default: []].append(change.row) } }
    var told = Set<Key>()
    return changes.compactMap { change in
      guard let key = key(change), let rows = rowsByKey[key], rows.count > 1 else { return change }
      guard told.insert(key).inserted else { return nil }
      var group = change
      group.row = RowName.compact(rows)
      group.sentence = "\(group.row) \(key.sentence)"
      group.rows = rows
      return group
    }
  }

  /// A row's name (`s0-r3`) read back into its section and index.
  struct RowName: Hashable {
    var section: Int, row: Int
    init?(_ name: String) {
      let parts = name.split(separator: "-")
      guard parts.count == 2, parts[0].first == "s", parts[1].first == "r", let section = Int(parts[0].dropFirst()),
        let row = Int(parts[1].dropFirst())
      else { return nil }
      (self.section, self.row) = (section, row)
    }

    /// `names` as runs of neighbours (`s0-r0…s0-r59, s1-r2`), with how many when more than two.
    static func compact(_ names: [String]) -> String {
      var runs: [(first: String, last: String, count: Int)] = []
      var previous: RowName?
      for name in names {
        let current = RowName(name)
        if let current, let previous, current.section == previous.section, current.row == previous.row + 1, !runs.isEmpty {
          runs[runs.count - 1].last = name
          runs[runs.count - 1].count += 1
        } else {
          runs.append((name, name, 1))
        }
        previous = current
      }
      let listed = runs.map { run in
        switch run.count {
        case 1: return run.first
        case 2: return "\(run.first), \(run.last)"
        default: return "\(run.first)…\(run.last)"
        }
      }.joined(separator: ", ")
      return names.count > 2 ? "\(listed) (\(names.count) rows)" : listed
    }
  }

  /// Where rows, bands and their elements are in a record's image.
  private struct Boxes {
    let record: LayoutRecord
    let rows: [String: LayoutRecord.Row]
    let bands: [String: LayoutRecord.Band]
    /// Each section's top and bottom (`section 1`): from its first band or row to its last.
    let sections: [String: (top: Double, bottom: Double)]

    init(_ record: LayoutRecord) {
      self.record = record
      rows = Dictionary(record.rows.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
      bands = Dictionary(record.bands.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
      var sections: [String: (top: Double, bottom: Double)] = [:]
      let spans = record.bands.map { ($0.section, $0.y, $0.y + $0.height) } + record.rows.map { ($0.section, $0.y, $0.y + $0.height) }
      for (section, top, bottom) in spans {
        let old = sections["section \(section)"] ?? (top, bottom)
        sections["section \(section)"] = (min(old.top, top), max(old.bottom, bottom))
      }
      self.sections = sections
    }

    /// The frame of element `element` of the row or band `name` (or the whole row's) in
    /// pixels of the image, rounded outwards.
    func box(of name: String, element: String?) -> [Int]? {
      let origin: (x: Double, y: Double)
      let whole: [Double]
      let elements: [LayoutRecord.Element]
      if let row = rows[name] {
        (origin, whole, elements) = ((row.x, row.y), [0, row.y, record.width, row.height], row.elements)
      } else if let band = bands[name] {
        (origin, whole, elements) = ((0, band.y), [0, band.y, record.width, band.height], band.elements)
      } else if let section = sections[name], element == nil {
        return pixels([0, section.top, record.width, section.bottom - section.top])
      } else {
        return nil
      }
      guard let element else { return pixels(whole) }
      guard let frame = elements.first(where: { $0.name == element })?.frame, frame.count == 4 else { return nil }
      return pixels([origin.x + frame[0], origin.y + frame[1], frame[2], frame[3]])
    }

    private func pixels(_ rect: [Double]) -> [Int] {
      let scale = record.scale
      let (left, top) = ((rect[0] * scale).rounded(.down), (rect[1] * scale).rounded(.down))
      let (right, bottom) = (((rect[0] + rect[2]) * scale).rounded(.up), ((rect[1] + rect[3]) * scale).rounded(.up))
      return [Int(left), Int(top), Int(right - left), Int(bottom - top)]
    }
  }

  private static func changes(_ reference: LayoutRecord, _ actual: LayoutRecord) -> [Located] {
    var changes: [Located] = []
    func table(_ property: String, _ from: String, _ to: String, _ sentence: String) {
      if from != to { changes.append(Located(change: LayoutChange(row: "table", property: property, from: from, to: to, sentence: sentence))) }
    }
    let (w0, w1) = (number(reference.width), number(actual.width))
    table("width", w0, w1, "table width \(w0) → \(w1) pt")
    table("scale", number(reference.scale), number(actual.scale), "table scale \(number(reference.scale)) → \(number(actual.scale))")
    table("style", reference.style, actual.style, "table style \(reference.style) → \(actual.style)")
    let (v0, v1) = (reference.variant ?? "none", actual.variant ?? "none")
    table("variant", v0, v1, "table variant \(v0) → \(v1)")

    let sections = matchedSections(reference, actual)
    for (old, new) in sections {
      switch (old, new) {
      case (let old?, let new?):
        for kind in ["header", "footer"] {
          changes += bandChanges(old.band(kind), new.band(kind), named: new.band(kind)?.name ?? "section \(new.index) \(kind)")
        }
      case (let old?, nil):
        changes.append(.removed("section \(old.index)", was: old.summary))
      case (nil, let new?):
        changes.append(.added("section \(new.index)", showing: new.summary))
      case (nil, nil):
        break
      }
    }

    let pairs = sections.flatMap { old, new in
      // The rows of a section added or removed are told by its one sentence.
      guard let old, let new else { return [(LayoutRecord.Row?, LayoutRecord.Row?)]() }
      return matchedRows(old.rows, new.rows)
    }
    for (old, new) in pairs {
      switch (old, new) {
      case (let old?, let new?):
        changes += compare(old, new, as: new.name).map { Located(change: $0, inReference: old.name, inActual: new.name) }
      case (let old?, nil):
        changes.append(.removed(old.name, was: summary(old)))
      case (nil, let new?):
        changes.append(.added(new.name, showing: summary(new)))
      case (nil, nil):
        break
      }
    }
    let bandPairs = sections.flatMap { old, new in
      ["header", "footer"].compactMap { kind in
        old.flatMap { $0.band(kind) }.flatMap { old in new.flatMap { $0.band(kind) }.map { (old.name, $0.name) } }
      }
    }
    changes += moves(reference, actual, bands: bandPairs, rows: pairs)
    return changes
  }

  /// The changes of a section's header or footer band, named `name` in sentences: its
  /// height and title, or its coming or going.
  private static func bandChanges(_ old: LayoutRecord.Band?, _ new: LayoutRecord.Band?, named name: String) -> [Located] {
    switch (old, new) {
    case (let old?, let new?):
      var found: [LayoutChange] = []
      if old.height != new.height {
        found.append(LayoutChange(
          row: name, property: "height", from: number(old.height), to: number(new.height),
          sentence: "\(name) height \(number(old.height)) → \(number(new.height)) pt"))
      }
      found += compare(old.elements, new.elements, in: name)
      return causesFirst(found).map { Located(change: $0, inReference: old.name, inActual: new.name) }
    case (let old?, nil):
      let title = old.elements.first?.text?.string ?? ""
      return [.removed(name, was: title, told: quoted(title), inReference: old.name)]
    case (nil, let new?):
      let title = new.elements.first?.text?.string ?? ""
      return [.added(name, showing: title, told: quoted(title), inActual: new.name)]
    case (nil, nil):
      return []
    }
  }

  /// One section of a record: its bands and rows, which a record keeps apart.
  struct Section {
    var index: Int
    var bands: [LayoutRecord.Band]
    var rows: [LayoutRecord.Row]

    func band(_ kind: String) -> LayoutRecord.Band? { bands.first { $0.kind == kind } }

    /// The section's titles and rows as the rows' matching sees them: equal only where the
    /// section shows the same.
    var signature: [[String]] {
      [bands.map { "\($0.kind) \($0.elements.first?.text?.string ?? "")" }] + rows.map(LayoutChanges.rowSignature)
    }

    /// The header's title, by which a section changed in place is still told apart from one
    /// added beside it; nil for a section without one.
    var headerTitle: String? { band("header")?.elements.first?.text?.string }

    /// The section in a few words: `header "Photos", 3 rows`.
    var summary: String {
      let count = rows.count == 1 ? "1 row" : "\(rows.count) rows"
      return headerTitle.map { "header \(LayoutChanges.quoted($0)), \(count)" } ?? count
    }

    /// Every section with a band or a row in `record`, in order.
    static func all(in record: LayoutRecord) -> [Section] {
      let indices = Set(record.bands.map(\.section)).union(record.rows.map(\.section)).sorted()
      let bands = Dictionary(grouping: record.bands, by: \.section)
      let rows = Dictionary(grouping: record.rows, by: \.section)
      return indices.map { Section(index: $0, bands: bands[$0] ?? [], rows: rows[$0] ?? []) }
    }
  }

  /// The sections of the two records paired in table order, so that a section inserted or
  /// removed is one sentence and the sections below it are compared with themselves: sections
  /// that show the same are matched first; then, between two matches, sections with the same
  /// rows (a section renamed beside one added), then with the same header title (a section
  /// changed in place beside one added); what is left is paired by position.
  static func matchedSections(_ reference: LayoutRecord, _ actual: LayoutRecord) -> [(Section?, Section?)] {
    paired(
      Section.all(in: reference), Section.all(in: actual),
      by: [{ $0.signature }, { $0.rows.isEmpty ? nil : $0.rows.map(LayoutChanges.rowSignature) }, { $0.headerTitle }])
  }

  /// A row in a few words, for sentences about one added or removed: its cell and its first
  /// text (`TextCell "Zero"`).
  static func summary(_ row: LayoutRecord.Row) -> String {
    guard let text = row.elements.lazy.compactMap(\.text).first else { return row.cell }
    return "\(row.cell) \(quoted(text.string))"
  }

  /// The rows of one section in the two records paired in order: rows that show the same
  /// (item type, cell and texts) are matched by a longest common subsequence; the rows
  /// between two matches are paired by position (rows changed in place), and what is left
  /// over was removed (only a reference row) or added (only an actual row).
  static func matchedRows(_ old: [LayoutRecord.Row], _ new: [LayoutRecord.Row]) -> [(LayoutRecord.Row?, LayoutRecord.Row?)] {
    paired(old, new, by: [{ rowSignature($0) }])
  }

  /// What a row shows, for matching: its item type, cell and texts.
  static func rowSignature(_ row: LayoutRecord.Row) -> [String] {
    [row.type, row.cell] + row.elements.compactMap { $0.text?.string }
  }

  /// `old` and `new` paired in order: matched by a longest common subsequence of their first
  /// key; between two matches, by their next key the same way, and so on; what is left
  /// between is paired by position (changed in place), then the rest of the old removed and
  /// of the new added. A nil key matches nothing, not even another nil.
  static func paired<T>(_ old: [T], _ new: [T], by keys: [(T) -> AnyHashable?]) -> [(T?, T?)] {
    var pairs: [(T?, T?)] = []
    func byPosition(_ a: ArraySlice<T>, _ b: ArraySlice<T>) {
      let paired = min(a.count, b.count)
      for k in 0..<paired { pairs.append((a[a.startIndex + k], b[b.startIndex + k])) }
      for item in a.dropFirst(paired) { pairs.append((item, nil)) }
      for item in b.dropFirst(paired) { pairs.append((nil, item)) }
    }
    func match(_ a: ArraySlice<T>, _ b: ArraySlice<T>, level: Int) {
      guard level < keys.count, !a.isEmpty, !b.isEmpty else { return byPosition(a, b) }
      // Each key is numbered once, so that the matching compares numbers, not whole
      // sections; a missing key gets a number of its own.
      var numbers: [AnyHashable: Int] = [:]
      func number(_ item: T) -> Int? {
        guard let key = keys[level](item) else { return nil }
        if let known = numbers[key] { return known }
        numbers[key] = numbers.count
        return numbers[key]
      }
      let (aKeys, bKeys) = (a.map(number), b.map(number))
      guard aKeys.contains(where: { $0 != nil }), bKeys.contains(where: { $0 != nil }) else {
        return match(a, b, level: level + 1)
      }
      var missing = 0
      func numbered(_ key: Int?) -> Int {
        if let key { return key }
        missing -= 1
        return missing
      }
      let matches = commonSubsequence(aKeys.map(numbered), bKeys.map(numbered))
      var (i, j) = (a.startIndex, b.startIndex)
      for (matchA, matchB) in matches.map({ (a.startIndex + $0.0, b.startIndex + $0.1) }) + [(a.endIndex, b.endIndex)] {
        match(a[i..<matchA], b[j..<matchB], level: level + 1)
        if matchA < a.endIndex { pairs.append((a[matchA], b[matchB])) }
        (i, j) = (matchA + 1, matchB + 1)
      }
    }
    match(old[...], new[...], level: 0)
    return pairs
  }

  /// The index pairs of a longest common subsequence of `a` and `b`, in order. The shared
  /// start and end are matched first; a middle too large to compare whole (over 4 million
  /// pairs) is left unmatched, to be paired by position.
  static func commonSubsequence<T: Equatable>(_ a: [T], _ b: [T]) -> [(Int, Int)] {
    var start = 0
    while start < a.count, start < b.count, a[start] == b[start] { start += 1 }
    var end = 0
    while end < a.count - start, end < b.count - start, a[a.count - 1 - end] == b[b.count - 1 - end] { end += 1 }
    let prefix = (0..<start).map { ($0, $0) }
    let suffix = (0..<end).reversed().map { (a.count - 1 - $0, b.count - 1 - $0) }
    let (n, m) = (a.count - start - end, b.count - start - end)
    guard n > 0, m > 0, n * m <= 4_000_000 else { return prefix + suffix }
    // lengths[i][j]: the longest common subsequence of the middles from i and j on.
    var lengths = [Int32](repeating: 0, count: (n + 1) * (m + 1))
    for i in stride(from: n - 1, through: 0, by: -1) {
      for j in stride(from: m - 1, through: 0, by: -1) {
        lengths[i * (m + 1) + j] =
          a[start + i] == b[start + j]
          ? lengths[(i + 1) * (m + 1) + j + 1] + 1 : max(lengths[(i + 1) * (m + 1) + j], lengths[i * (m + 1) + j + 1])
      }
    }
    var middle: [(Int, Int)] = []
    var (i, j) = (0, 0)
    while i < n, j < m {
      if a[start + i] == b[start + j] {
        middle.append((start + i, start + j))
        (i, j) = (i + 1, j + 1)
      } else if lengths[(i + 1) * (m + 1) + j] >= lengths[i * (m + 1) + j + 1] {
        i += 1
      } else {
        j += 1
      }
    }
    return prefix + middle + suffix
  }

  /// The rows and bands that moved without a cause above them, and the table's height when
  /// it changed without one: each one's gap to the
  /// bottom of what is above it (or the table's top) is compared, so that a row that grows,
  /// or one inserted, moves nothing below it in these sentences, and a section whose gap
  /// changed is one sentence (`section 1 moved down 20 pt`).
  private static func moves(
    _ reference: LayoutRecord, _ actual: LayoutRecord, bands: [(String, String)], rows pairs: [(LayoutRecord.Row?, LayoutRecord.Row?)]
  ) -> [Located] {
    struct Placed { var name: String, section: Int, startsSection: Bool, y: Double, height: Double }
    func gaps(_ record: LayoutRecord) -> (above: [String: (gap: Double, placed: Placed)], below: Double) {
      let headers = Set(record.bands.filter { $0.kind == "header" }.map(\.section))
      var placed = record.bands.map {
        Placed(name: $0.name, section: $0.section, startsSection: $0.kind == "header", y: $0.y, height: $0.height)
      }
      placed += record.rows.map {
        Placed(name: $0.name, section: $0.section, startsSection: $0.row == 0 && !headers.contains($0.section), y: $0.y, height: $0.height)
      }
      var bottom = 0.0
      var found: [String: (Double, Placed)] = [:]
      for item in placed.sorted(by: { ($0.y, $0.startsSection ? 0 : 1) < ($1.y, $1.startsSection ? 0 : 1) }) {
        found[item.name] = (item.y - bottom, item)
        bottom = max(bottom, item.y + item.height)
      }
      return (found, record.height - bottom)
    }
    let ((before, belowBefore), (after, belowAfter)) = (gaps(reference), gaps(actual))
    // Within half a device pixel a gap is the same: positions are kept to 1/64 point, each
    // rounded alone, and a difference of one rounding is no move a pixel shows.
    let tolerance = 0.5 / max(reference.scale, actual.scale)
    func differ(_ a: Double, _ b: Double) -> Bool { abs(a - b) > tolerance }
    let names = bands + pairs.compactMap { old, new in old.flatMap { old in new.map { (old.name, $0.name) } } }
    var moves: [(y: Double, located: Located)] = []
    for (oldName, newName) in names {
      guard let (oldGap, _) = before[oldName], let (newGap, new) = after[newName], differ(oldGap, newGap) else { continue }
      let subject = new.startsSection ? "section \(new.section)" : newName
      let change = LayoutChange(
        row: subject, property: "gapAbove", from: number(oldGap), to: number(newGap),
        sentence: "\(subject) moved \(vertical(newGap - oldGap)) (gap above it \(number(oldGap)) → \(number(newGap)) pt)")
      moves.append((new.y, Located(change: change, inReference: oldName, inActual: newName)))
    }
    var located = moves.sorted { $0.y < $1.y }.map(\.located)
    // The table's height follows from its rows and bands: told only when the space below
    // the last of them changed.
    if differ(belowBefore, belowAfter) {
      let (from, to) = (number(reference.height), number(actual.height))
      located.append(Located(change: LayoutChange(row: "table", property: "height", from: from, to: to, sentence: "table height \(from) → \(to) pt")))
    }
    return located
  }

  /// The changes of one row, named `name` in sentences, causes first (what it shows, its
  /// fonts and colors), then their effects (the row's height, then its elements' moves and
  /// sizes); its top is not compared here (see `moves`).
  static func compare(_ old: LayoutRecord.Row, _ new: LayoutRecord.Row, as name: String) -> [LayoutChange] {
    var changes: [LayoutChange] = []
    func change(_ property: String, _ from: String, _ to: String, _ sentence: String) {
      if from != to { changes.append(LayoutChange(row: name, property: property, from: from, to: to, sentence: sentence)) }
    }
    change("type", old.type, new.type, "\(name) item type \(old.type) → \(new.type)")
    change("cell", old.cell, new.cell, "\(name) drawn by \(new.cell) instead of \(old.cell)")
    change("height", number(old.height), number(new.height), "\(name) height \(number(old.height)) → \(number(new.height)) pt")
    change("selected", "\(old.selected)", "\(new.selected)", "\(name) \(new.selected ? "now selected" : "no longer selected")")
    change("direction", old.direction, new.direction, "\(name) laid out \(directionWords(new.direction)) (was \(directionWords(old.direction)))")
    change("x", number(old.x), number(new.x), "\(name) cell moved \(horizontal(new.x - old.x)) (x \(number(old.x)) → \(number(new.x)))")
    // A row laid out in the other direction mirrors its elements: told once, by the row.
    changes += compare(old.elements, new.elements, in: name, mirrored: old.direction != new.direction)
    return causesFirst(changes)
  }

  /// `changes` in the order a reader follows them: causes, then the row's own size and
  /// place, then where its elements went and how big they are; each group in table order.
  static func causesFirst(_ changes: [LayoutChange]) -> [LayoutChange] {
    func rank(_ change: LayoutChange) -> Int {
      switch change.property {
      case "height" where change.element == nil, "x": return 1
      case "position", "size", "width", "height": return 2
      default: return 0
      }
    }
    return changes.enumerated().sorted { (rank($0.element), $0.offset) < (rank($1.element), $1.offset) }.map(\.element)
  }

  /// The changes between two rows' (or bands') elements, matched by name.
  static func compare(
    _ old: [LayoutRecord.Element], _ new: [LayoutRecord.Element], in row: String, mirrored: Bool = false
  ) -> [LayoutChange] {
    let oldByName = Dictionary(old.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
    let newByName = Dictionary(new.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
    var changes: [LayoutChange] = []
    for name in ordered(old.map(\.name), new.map(\.name)) {
      switch (oldByName[name], newByName[name]) {
      case (let before?, let after?):
        changes += compare(before, after, in: row, mirrored: mirrored)
      case (let before?, nil):
        changes.append(LayoutChange(
          row: row, element: name, property: "presence", from: summary(before), to: nil,
          sentence: "\(row) \(name) removed (was \(summary(before)))"))
      case (nil, let after?):
        changes.append(LayoutChange(
          row: row, element: name, property: "presence", from: nil, to: summary(after),
          sentence: "\(row) \(name) added (\(summary(after)))"))
      case (nil, nil):
        break
      }
    }
    return changes
  }

  /// The changes of one element.
  static func compare(
    _ old: LayoutRecord.Element, _ new: LayoutRecord.Element, in row: String, mirrored: Bool = false
  ) -> [LayoutChange] {
    let subject = "\(row) \(old.name)"
    var changes: [LayoutChange] = []
    func change(_ property: String, _ from: String?, _ to: String?, _ sentence: String) {
      if from != to {
        changes.append(LayoutChange(row: row, element: old.name, property: property, from: from, to: to, sentence: sentence))
      }
    }
    if old.kind != new.kind {
      change("kind", old.kind, new.kind, "\(subject) is now \(new.kind) (was \(old.kind))")
      return changes
    }
    let (oldFrame, newFrame) = (padded(old.frame), padded(new.frame))
    let (dx, dy) = (newFrame[0] - oldFrame[0], newFrame[1] - oldFrame[1])
    // Lines aligned another way sit elsewhere in their box: told by the alignment.
    let realigned = old.text?.alignment.map { from in new.text?.alignment.map { $0 != from } ?? false } ?? false
    let movedAcross = dx != 0 && !mirrored && !realigned
    if movedAcross || dy != 0 {
      var moves: [String] = []
      var values: [String] = []
      if movedAcross {
        moves.append(horizontal(dx))
        values.append("x \(number(oldFrame[0])) → \(number(newFrame[0]))")
      }
      if dy != 0 {
        moves.append(vertical(dy))
        values.append("y \(number(oldFrame[1])) → \(number(newFrame[1]))")
      }
      change(
        "position", "\(number(oldFrame[0])), \(number(oldFrame[1]))", "\(number(newFrame[0])), \(number(newFrame[1]))",
        "\(subject) moved \(moves.joined(separator: " and ")) (\(values.joined(separator: ", ")))")
    }
    // A label's size follows from its text, font and lines: told by those, not again here.
    let textChanged = old.text.map { textShape($0) } != new.text.map { textShape($0) }
    if !textChanged {
      let (w0, h0, w1, h1) = (oldFrame[2], oldFrame[3], newFrame[2], newFrame[3])
      if w0 != w1 && h0 != h1 {
        change("size", "\(number(w0))×\(number(h0))", "\(number(w1))×\(number(h1))",
          "\(subject) size \(number(w0))×\(number(h0)) → \(number(w1))×\(number(h1)) pt")
      } else if w0 != w1 {
        change("width", number(w0), number(w1), "\(subject) width \(number(w0)) → \(number(w1)) pt")
      } else if h0 != h1 {
        change("height", number(h0), number(h1), "\(subject) height \(number(h0)) → \(number(h1)) pt")
      }
    }
    // A control's or accessory's color follows its state or kind: told by the value.
    if let from = old.color, let to = new.color, old.value == new.value {
      change("color", from, to, "\(subject) color \(from) → \(to)")
    }
    change("shadow", old.shadow, new.shadow, "\(subject) shadow \(old.shadow ?? "none") → \(new.shadow ?? "none")")
    // A plain fill is told by its color above; any other style by its digest.
    if old.color == nil || new.color == nil || old.kind != "background" {
      change("style", old.style, new.style, "\(subject) style changed (\(old.style ?? "none") → \(new.style ?? "none"))")
    }
    if let from = old.value, let to = new.value {
      change("value", from, to, "\(subject) \(from) → \(to)")
    }
    if let before = old.text, let after = new.text {
      changes += compare(before, after, subject: subject, row: row, element: old.name)
    }
    if let before = old.image, let after = new.image {
      change("url", before.url, after.url, "\(subject) URL \(before.url ?? "none") → \(after.url ?? "none")")
      if before.state != after.state {
        change("state", before.state, after.state, "\(subject) \(stateWords(after.state)) (was \(stateWords(before.state, past: true)))")
      } else if before.url == after.url, oldFrame[2] == newFrame[2], oldFrame[3] == newFrame[3] {
        // A slot of another size shows the image resampled: told by its size.
        let source = after.url.map { " of \($0)" } ?? ""
        change(
          "digest", before.digest, after.digest,
          "\(subject) shows other pixels\(source) (digest \(before.digest ?? "none") → \(after.digest ?? "none"))")
      }
    }
    return changes
  }

  /// What decides a label's size.
  private static func textShape(_ text: LayoutRecord.Text) -> [String] {
    [text.string, text.family, number(text.size), "\(text.weight)", "\(text.italic)", "\(text.lines)", text.alignment ?? ""]
      + text.runs.map { "\($0.family ?? "")" } + (text.spans ?? []).map { "\($0.attribute) \($0.value ?? "")" }
  }

  /// The changes of a label's text.
  static func compare(
    _ old: LayoutRecord.Text, _ new: LayoutRecord.Text, subject: String, row: String, element: String
  ) -> [LayoutChange] {
    var changes: [LayoutChange] = []
    func change(_ property: String, _ from: String, _ to: String, _ sentence: String) {
      if from != to {
        changes.append(LayoutChange(row: row, element: element, property: property, from: from, to: to, sentence: sentence))
      }
    }
    // A label named `text` is not named twice: `s0-r6 text "Wi-Fi" → "WLAN"`.
    let textSubject = element == "text" ? subject : "\(subject) text"
    let (before, after) = quotedDifference(old.string, new.string)
    change("text", old.string, new.string, "\(textSubject) \(before) → \(after)")
    change("family", old.family, new.family, "\(subject) font \(old.family) → \(new.family)")
    let (drawnBefore, drawnAfter) = (drawingFamilies(old), drawingFamilies(new))
    // Other text is drawn by other fonts: the fonts are news only for the same text.
    if drawnBefore != drawnAfter, old.family == new.family, old.string == new.string {
      let fallback = drawnAfter.contains { $0 != new.family } ? " (fallback)" : ""
      change("drawnFamily", drawnBefore.joined(separator: ", "), drawnAfter.joined(separator: ", "),
        "\(subject) drawn in \(drawnAfter.joined(separator: ", ")) instead of \(drawnBefore.joined(separator: ", "))\(fallback)")
    } else if drawnBefore == drawnAfter, old.string == new.string, old.weight == new.weight, old.italic == new.italic {
      // Another weight or slant is another file of the family: told by the weight.
      let (filesBefore, filesAfter) = (fontFiles(old), fontFiles(new))
      change("fontFile", filesBefore, filesAfter, "\(subject) font file \(filesBefore) → \(filesAfter)")
    }
    change("fontSize", number(old.size), number(new.size), "\(subject) font size \(number(old.size)) → \(number(new.size)) pt")
    change("weight", "\(old.weight)", "\(new.weight)", "\(subject) weight \(old.weight) → \(new.weight)")
    change("italic", "\(old.italic)", "\(new.italic)", "\(subject) \(new.italic ? "now italic" : "no longer italic")")
    let (cutBefore, cutAfter) = (old.truncated || old.ellipsized, new.truncated || new.ellipsized)
    let lines = old.lines == new.lines ? lineCount(new.lines) : "\(lineCount(old.lines)) → \(new.lines)"
    if cutBefore != cutAfter {
      change("truncated", "\(cutBefore)", "\(cutAfter)", "\(subject) \(cutAfter ? "now truncated" : "no longer truncated") (\(lines))")
    } else {
      change("lines", "\(old.lines)", "\(new.lines)", "\(subject) lines \(old.lines) → \(new.lines)")
    }
    change("missingGlyphs", "\(old.missingGlyphs)", "\(new.missingGlyphs)",
      "\(subject) missing glyphs \(old.missingGlyphs) → \(new.missingGlyphs)")
    change("direction", old.direction, new.direction,
      "\(subject) text runs \(directionWords(new.direction)) (was \(directionWords(old.direction)))")
    // A record written before alignment and spans were recorded knows neither: it cannot
    // say they changed (see `unverifiedStyling`).
    if let from = old.ellipsis, let to = new.ellipsis {
      change("ellipsis", from, to, "\(subject) ellipsis at the \(to) (was at the \(from))")
    }
    if old.recordsStyling, new.recordsStyling {
      if let from = old.alignment, let to = new.alignment {
        change("alignment", from, to, "\(textSubject) alignment \(from) → \(to)")
      }
      changes += compare(
        spans: old.spans ?? [], new.spans ?? [], subject: textSubject, row: row, element: element, sameText: old.string == new.string)
    }
    return changes
  }

  /// The changes of a label's styled spans, matched by attribute and the text they style
  /// (the second `"warning"` in bold with the second), so that an edit elsewhere in the text
  /// is not told as every span moving.
  /// With `sameText`, a span that styles the same words at another place of the text has
  /// moved (`Buy <b>now</b> or later, now` → `Buy now or later, <b>now</b>`); in a text that
  /// changed, the text's own sentence tells why spans moved.
  private static func compare(
    spans old: [LayoutRecord.Span], _ new: [LayoutRecord.Span], subject: String, row: String, element: String, sameText: Bool
  ) -> [LayoutChange] {
    func keyed(_ spans: [LayoutRecord.Span]) -> [(key: String, span: LayoutRecord.Span)] {
      var seen: [String: Int] = [:]
      return spans.map { span in
        let base = "\(span.attribute)\u{0}\(span.text)"
        let count = (seen[base] ?? 0) + 1
        seen[base] = count
        return ("\(base)\u{0}\(count)", span)
      }
    }
    let (before, after) = (keyed(old), keyed(new))
    let oldByKey = Dictionary(before.map { ($0.key, $0.span) }, uniquingKeysWith: { a, _ in a })
    let newByKey = Dictionary(after.map { ($0.key, $0.span) }, uniquingKeysWith: { a, _ in a })
    func words(_ span: LayoutRecord.Span) -> String { span.value.map { "\(span.attribute) \($0)" } ?? span.attribute }
    var changes: [LayoutChange] = []
    for key in ordered(before.map(\.key), after.map(\.key)) {
      let (from, to) = (oldByKey[key], newByKey[key])
      guard let span = from ?? to else { continue }
      let place = "\(subject) span \(quoted(span.text))"
      let sentence: String
      switch (from, to) {
      case (let from?, let to?) where from.value == to.value:
        guard sameText, from.range != to.range else { continue }
        func characters(_ range: [Int]) -> String { range.count == 2 ? "\(range[0])–\(range[1])" : "?" }
        sentence = "\(place) \(words(span)) moved (characters \(characters(from.range)) → \(characters(to.range)))"
      case (let from?, let to?):
        sentence = "\(place) \(span.attribute) \(from.value ?? "none") → \(to.value ?? "none")"
      case (let from?, nil): sentence = "\(place) \(words(from)) removed"
      default: sentence = "\(place) \(words(span)) added"
      }
      changes.append(LayoutChange(
        row: row, element: element, property: "span", from: from.map(words), to: to.map(words), sentence: sentence))
    }
    return changes
  }

  /// Why `reference` cannot vouch that no label's alignment or styled spans changed, naming
  /// the first such label; nil when it can. A record written before RowKit recorded them has
  /// no `LayoutRecord.Text.alignment`: its changes are told without them (no sentence is
  /// made up from a key it lacks), but where they could matter (a label of several lines, or
  /// one the actual render styles in spans) its pixels cannot be taken as rasterization only.
  /// The same holds for where an ellipsis stands (`LayoutRecord.Text.ellipsis`), recorded
  /// later still: a reference's label with an ellipsis and no such key cannot vouch for it.
  public static func unverifiedStyling(_ reference: LayoutRecord, _ actual: LayoutRecord) -> String? {
    func labels(_ record: LayoutRecord) -> [String: LayoutRecord.Text] {
      var texts: [String: LayoutRecord.Text] = [:]
      for band in record.bands { for element in band.elements { if let text = element.text { texts["\(band.name) \(element.name)"] = text } } }
      for row in record.rows { for element in row.elements { if let text = element.text { texts["\(row.name) \(element.name)"] = text } } }
      return texts
    }
    let old = labels(reference)
    for (name, text) in labels(actual).sorted(by: { $0.key < $1.key }) {
      guard let before = old[name] else { continue }
      if !before.recordsStyling, before.lines > 1 || text.lines > 1 || text.spans != nil {
        return "the reference's layout record does not say how \(name) is aligned and styled (it predates their recording); "
          + "record the reference again to verify it"
      }
      // Alignment and spans were recorded before the ellipsis's place was.
      if before.ellipsized, before.ellipsis == nil {
        return "the reference's layout record does not say where \(name)'s ellipsis stands (it predates its recording); "
          + "record the reference again to verify it"
      }
    }
    return nil
  }

  /// The families that drew a text, each once, in order.
  private static func drawingFamilies(_ text: LayoutRecord.Text) -> [String] {
    var seen = Set<String>()
    return text.runs.map { $0.family ?? "no font" }.filter { seen.insert($0).inserted }
  }

  /// The font files that drew a text, with their digests.
  private static func fontFiles(_ text: LayoutRecord.Text) -> String {
    var seen = Set<String>()
    return text.runs.compactMap { run in run.file.map { "\($0) (\(run.sha256 ?? "?"))" } }
      .filter { seen.insert($0).inserted }.joined(separator: ", ")
  }

  /// A few words that say what an element is, for sentences about one added or removed.
  static func summary(_ element: LayoutRecord.Element) -> String {
    if let text = element.text { return quoted(text.string) }
    if let value = element.value { return value }
    return element.kind
  }

  /// The names of both lists, the first's order first, then the names only the second has.
  private static func ordered(_ first: [String], _ second: [String]) -> [String] {
    let known = Set(first)
    return first + second.filter { !known.contains($0) }
  }

  private static func padded(_ frame: [Double]) -> [Double] {
    frame + Array(repeating: 0, count: max(0, 4 - frame.count))
  }

  private static func horizontal(_ dx: Double) -> String { dx > 0 ? "right \(number(dx)) pt" : "left \(number(-dx)) pt" }
  private static func vertical(_ dy: Double) -> String { dy > 0 ? "down \(number(dy)) pt" : "up \(number(-dy)) pt" }

  private static func directionWords(_ direction: String) -> String {
    direction == "rtl" ? "right to left" : "left to right"
  }

  private static func stateWords(_ state: String?, past: Bool = false) -> String {
    switch state {
    case "loaded": return past ? "loaded" : "now loaded"
    case "failed": return "failed"
    case "default": return past ? "a placeholder" : "now a placeholder"
    default: return past ? "not loaded" : "not loaded"
    }
  }

  private static func lineCount(_ lines: Int) -> String { lines == 1 ? "1 line" : "\(lines) lines" }

  /// A text in quotes, shortened to 40 characters.
  static func quoted(_ text: String) -> String {
    let short = text.count > 40 ? String(text.prefix(39)) + "…" : text
    return "\"\(short)\""
  }

  /// Two texts in quotes, each shortened to show where they differ: a long shared start
  /// becomes `…`.
  static func quotedDifference(_ old: String, _ new: String) -> (String, String) {
    let shared = zip(old, new).prefix { $0 == $1 }.count
    guard shared > 30 else { return (quoted(old), quoted(new)) }
    let skip = shared - 10
    return (quoted("…" + old.dropFirst(skip)), quoted("…" + new.dropFirst(skip)))
  }

  /// A number as a sentence shows it: `14`, `16.5`, `16.22`.
  static func number(_ value: Double) -> String {
    let hundredths = (value * 100).rounded() / 100
    if hundredths == hundredths.rounded() { return String(Int(hundredths)) }
    var text = String(format: "%.2f", hundredths)
    while text.hasSuffix("0") { text.removeLast() }
    return text
  }
}

/// Where the pixels of a failed comparison differ when the layout did not change: which
/// elements' boxes hold them (`layout unchanged; 412 pixels differ, all inside s0-r3 title's
/// glyphs`).
public struct PixelOnlyDifference: Codable, Hashable, Sendable {
  /// The differing pixels.
  public var pixels: Int
  /// The elements whose boxes hold differing pixels (`s0-r3 title`), in table order; a row's
  /// name alone for pixels of a row outside its elements, `outside every row` for the rest.
  public var elements: [String]
  /// Whether every differing pixel lies inside the glyphs' ink of a label.
  public var insideGlyphsOnly: Bool
  /// The finding in one sentence.
  public var sentence: String

  /// Places the differing pixels of `classes` (one per pixel of an image `width` pixels
  /// wide) in `record`'s elements. A label's place is its glyphs' ink box grown by one
  /// device pixel, where antialiasing reaches.
  public static func locate(_ classes: [ImageComparison.PixelClass], width: Int, in record: LayoutRecord) -> PixelOnlyDifference {
    locate(classes, width: width, in: record) { "layout unchanged; " + ($0 == 1 ? "1 pixel differs" : "\($0) pixels differ") }
  }

  /// ``locate(_:width:in:)``, its sentence led by `lead` of the number of differing pixels.
  private static func locate(
    _ classes: [ImageComparison.PixelClass], width: Int, in record: LayoutRecord, lead: (Int) -> String
  ) -> PixelOnlyDifference {
    struct Box {
      var place: String
      var isGlyphs: Bool
      var minX, minY, maxX, maxY: Double
      func contains(_ x: Double, _ y: Double) -> Bool { x >= minX && x < maxX && y >= minY && y < maxY }
    }
    let slack = 1 / record.scale
    var strips: [(minY: Double, maxY: Double, name: String, boxes: [Box])] = []
    func boxes(of elements: [LayoutRecord.Element], in name: String, x: Double, y: Double) -> [Box] {
      // Glyphs first: a pixel inside a label's ink and a background is the label's.
      elements.sorted { ($0.ink != nil ? 0 : 1) < ($1.ink != nil ? 0 : 1) }.compactMap { element in
        let frame = element.ink ?? element.frame
        guard frame.count == 4 else { return nil }
        let grow = element.ink != nil ? slack : 0
        return Box(
          place: "\(name) \(element.name)", isGlyphs: element.ink != nil, minX: x + frame[0] - grow, minY: y + frame[1] - grow,
          maxX: x + frame[0] + frame[2] + grow, maxY: y + frame[1] + frame[3] + grow)
      }
    }
    for band in record.bands {
      strips.append((band.y, band.y + band.height, band.name, boxes(of: band.elements, in: band.name, x: 0, y: band.y)))
    }
    for row in record.rows {
      strips.append((row.y, row.y + row.height, row.name, boxes(of: row.elements, in: row.name, x: row.x, y: row.y)))
    }
    strips.sort { $0.minY < $1.minY }
    var counts: [String: Int] = [:]
    var order: [String] = []
    var glyphPlaces = Set<String>()
    var stripPlaces = Set<String>()
    var pixels = 0
    var allGlyphs = true
    for (index, pixelClass) in classes.enumerated() where pixelClass == .different || pixelClass == .onlyOneImage {
      pixels += 1
      let x = (Double(index % width) + 0.5) / record.scale
      let y = (Double(index / width) + 0.5) / record.scale
      var place = "outside every row"
      var isGlyphs = false
      if let strip = strips.first(where: { y >= $0.minY && y < $0.maxY }) {
        place = strip.name
        stripPlaces.insert(place)
        if let box = strip.boxes.first(where: { $0.contains(x, y) }) {
          place = box.place
          isGlyphs = box.isGlyphs
        }
      }
      if !isGlyphs { allGlyphs = false } else { glyphPlaces.insert(place) }
      if counts[place] == nil { order.append(place) }
      counts[place, default: 0] += 1
    }
    let described = order.map { place in
      if glyphPlaces.contains(place) { return "\(place)'s glyphs" }
      return stripPlaces.contains(place) ? "\(place) outside its elements" : place
    }
    let outside = "outside every row"
    let whereWords: String
    switch described.count {
    case 0: whereWords = ""
    case 1: whereWords = described[0] == outside ? ", all \(outside)" : ", all inside \(described[0])"
    default:
      let shown = described.prefix(4)
      let rest = described.count - shown.count
      // `inside s0-r1 title's glyphs, s0-r2 outside its elements, and outside every row`.
      let inside = shown.filter { $0 != outside }
      let parts = (inside.isEmpty ? [] : ["inside " + inside.joined(separator: ", ")]) + (shown.contains(outside) ? [outside] : [])
      whereWords = ", " + parts.joined(separator: ", and ") + (rest > 0 ? " and \(rest) more" : "")
    }
    return PixelOnlyDifference(
      pixels: pixels, elements: order, insideGlyphsOnly: allGlyphs && pixels > 0,
      sentence: lead(pixels) + whereWords)
  }

  /// The differing pixels that the layout changes `changes` (from `old` to `new`) do not
  /// explain, placed as ``locate(_:width:in:)`` places them: those outside the boxes of the
  /// elements and rows the changes name, where each was and where it is. A separator's
  /// color, which no record holds, changed beside a label's text was said of the text alone.
  /// Nil when every differing pixel is explained, or when a change moves what lies below it
  /// (a row added, removed, grown or moved, or the table itself changed): then no pixel below
  /// can be told apart from the move; and when a changed style or shadow may paint past its
  /// element's frame.
  public static func unexplained(
    _ classes: [ImageComparison.PixelClass], width: Int, by changes: [LayoutChange], old: LayoutRecord, new: LayoutRecord
  ) -> (change: LayoutChange, insideGlyphsOnly: Bool)? {
    // A style or a shadow paints past its element's frame (a shadow's blur, a negative
    // inset), by how much the record does not say: its pixels cannot be told apart either.
    let unbounded: Set<String> = ["height", "gapAbove", "style", "shadow"]
    guard !changes.isEmpty,
      !changes.contains(where: { $0.row == "table" || unbounded.contains($0.property) || ($0.property == "presence" && $0.element == nil) })
    else { return nil }
    var remaining = classes
    let height = classes.count / max(1, width)
    // Clears a box given in points, grown by a device pixel where antialiasing reaches.
    func clear(x: Double, y: Double, width boxWidth: Double, height boxHeight: Double, scale: Double) {
      let minX = max(0, Int(((x * scale) - 1).rounded(.down))), maxX = min(width, Int(((x + boxWidth) * scale + 1).rounded(.up)))
      let minY = max(0, Int(((y * scale) - 1).rounded(.down))), maxY = min(height, Int(((y + boxHeight) * scale + 1).rounded(.up)))
      guard minX < maxX, minY < maxY else { return }
      for row in minY..<maxY { for column in minX..<maxX { remaining[row * width + column] = .same } }
    }
    for change in changes {
      for rowName in change.rows ?? [change.row] {
        for record in [old, new] {
          if let row = record.rows.first(where: { $0.name == rowName }) {
            guard let name = change.element else {
              clear(x: 0, y: row.y, width: record.width, height: row.height, scale: record.scale)
              continue
            }
            for element in row.elements where element.name == name {
              for frame in [element.frame, element.ink].compactMap({ $0 }) where frame.count == 4 {
                clear(x: row.x + frame[0], y: row.y + frame[1], width: frame[2], height: frame[3], scale: record.scale)
              }
            }
          } else if let band = record.bands.first(where: { $0.name == rowName }) {
            clear(x: 0, y: band.y, width: record.width, height: band.height, scale: record.scale)
          }
        }
      }
    }
    let located = locate(remaining, width: width, in: new) {
      "\($0) more \($0 == 1 ? "pixel differs" : "pixels differ") outside the changed elements"
    }
    guard located.pixels > 0 else { return nil }
    let change = LayoutChange(row: "table", property: "pixels", from: nil, to: String(located.pixels), sentence: located.sentence)
    return (change, located.insideGlyphsOnly)
  }
}
