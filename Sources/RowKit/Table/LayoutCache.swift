import RowKitGraphics

/// Row layouts by item content, width and environment, so identical rows are shaped once.
///
/// A layout holds Pango layouts made by one `TextShaper` (RowKitGraphics): a cache belongs to that shaper,
/// on its thread. The key is the item itself (every item is `Hashable`: its type, its fields
/// and its options), the cell that draws it, the cell width, and the environment the layout
/// was made in (the table configuration, the stylesheet and the text environment), so a
/// cache shared by engines of different tables never hands one table's layout to another.
/// The least recently used layouts go first beyond ``capacity``.
package final class LayoutCache {
  /// What a cached layout is looked up by.
  public struct Key: Hashable {
    var item: AnyHashable
    var cell: String
    var width: Double
    var environment: Environment
  }

  /// What a layout depends on besides its item, hashed once per engine rather than per row.
  final class Environment: Hashable {
    let configuration: TableConfiguration
    let stylesheet: Stylesheet
    let text: TextEnvironment
    private let hash: Int

    init(configuration: TableConfiguration, stylesheet: Stylesheet, text: TextEnvironment) {
      self.configuration = configuration
      self.stylesheet = stylesheet
      self.text = text
      var hasher = Hasher()
      hasher.combine(configuration)
      hasher.combine(stylesheet)
      hasher.combine(text)
      hash = hasher.finalize()
    }

    static func == (left: Environment, right: Environment) -> Bool {
      left === right
        || (left.hash == right.hash && left.configuration == right.configuration && left.text == right.text
          && left.stylesheet == right.stylesheet)
    }

    func hash(into hasher: inout Hasher) { hasher.combine(hash) }
  }

  /// Layouts kept at most.
  public let capacity: Int
  /// Lookups answered with a kept layout.
  public private(set) var hits = 0
  /// Lookups that found no layout.
  public private(set) var misses = 0
  private var entries: [Key: (layout: RowLayout, use: Int)] = [:]
  private var clock = 0

  /// An empty cache keeping at most `capacity` layouts (at least one).
  public init(capacity: Int = 4096) {
    self.capacity = max(1, capacity)
  }

  /// The layouts kept now.
  public var count: Int { entries.count }

  func layout(for key: Key) -> RowLayout? {
    guard let entry = entries[key] else {
      misses += 1
      return nil
    }
    hits += 1
    clock += 1
    entries[key]?.use = clock
    return entry.layout
  }

  func insert(_ layout: RowLayout, for key: Key) {
    clock += 1
    entries[key] = (layout, clock)
    if entries.count > capacity {
      // Evict the oldest eighth at once, so eviction costs little per insert.
      let oldest = entries.sorted { $0.value.use < $1.value.use }.prefix(max(1, capacity / 8))
      for (key, _) in oldest { entries[key] = nil }
    }
  }
}
