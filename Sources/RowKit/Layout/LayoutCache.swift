/// Row layouts by item content and width, so identical rows are shaped once.
///
/// A layout holds Pango layouts made by one ``TextShaper``: a cache belongs to that shaper,
/// on its thread, and to one table configuration and stylesheet (the environment), for which
/// a renderer makes it. The key is the item itself (every item is `Hashable`: its type, its
/// fields and its options) and the cell width. The least recently used layouts go first
/// beyond ``capacity``.
public final class LayoutCache {
  public struct Key: Hashable {
    var item: AnyHashable
    var width: Double
  }

  /// Layouts kept at most.
  public let capacity: Int
  public private(set) var hits = 0
  public private(set) var misses = 0
  private var entries: [Key: (layout: RowLayout, use: Int)] = [:]
  private var clock = 0

  public init(capacity: Int = 4096) {
    self.capacity = max(1, capacity)
  }

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
