import Foundation
import RowKit
import RowKitGraphics

/// Renders what a snapshot shows, with RowKit's pinned text environment, twice: a case whose
/// two renders differ in any pixel fails, since its reference could never be trusted.
public enum SnapshotRendering {
  /// A table rendered to one image (tiles stacked), checked for determinism.
  public static func table(
    _ dataSource: any TableDataSource, configuration: TableConfiguration = TableConfiguration(),
    stylesheet: Stylesheet = .default, images: ImageSource = .none
  ) throws -> Bitmap {
    try twice {
      let renderer = try TableRenderer(configuration: configuration, stylesheet: stylesheet, images: images.loader())
      images.preload(into: renderer.images)
      return stack(try renderer.render(dataSource).tiles.map(\.bitmap))
    }
  }

  /// A document rendered as `rowkit render` renders it, checked for determinism.
  public static func document(_ document: TableDocument, configuration: TableConfiguration? = nil) throws -> Bitmap {
    try twice {
      let renderer = try document.makeRenderer(configuration: configuration)
      return stack(try document.render(with: renderer).tiles.map(\.bitmap))
    }
  }

  /// One item's row, as the per-row PNG of a one-row table, checked for determinism.
  public static func row(
    _ item: any TableItem, mapping: CellMapping = CellMapping(), configuration: TableConfiguration = TableConfiguration(),
    stylesheet: Stylesheet = .default, images: ImageSource = .none
  ) throws -> Bitmap {
    try twice {
      let renderer = try TableRenderer(configuration: configuration, stylesheet: stylesheet, images: images.loader())
      images.preload(into: renderer.images)
      let source = SectionedDataSource(sections: [TableSection(items: [item])], cellMapping: mapping)
      return try renderer.render(source, outputs: [.rows]).rowImages[0]
    }
  }

  /// Where a snapshot's images come from.
  public struct ImageSource: Sendable {
    var resolver: ImageURLResolver?
    var preloaded: [String: Bitmap]

    public static let none = ImageSource(resolver: nil, preloaded: [:])

    /// Images read from files: `bundle://` under `assets`, relative paths under `base`.
    public static func files(assets: URL, base: URL? = nil) -> ImageSource {
      ImageSource(resolver: ImageURLResolver(assetsDirectory: assets, baseDirectory: base ?? assets), preloaded: [:])
    }

    /// Images given by URL, such as generated ones.
    public static func bitmaps(_ images: [String: Bitmap]) -> ImageSource {
      ImageSource(resolver: nil, preloaded: images)
    }

    func loader() -> ImageLoader? { resolver.map { ImageLoader(resolver: $0) } }

    func preload(into loader: ImageLoader) {
      for (url, bitmap) in preloaded { loader.preload(bitmap, for: url) }
    }
  }

  /// Renders twice with separate renderers and fails unless both are the same pixels.
  static func twice(_ render: () throws -> Bitmap) throws -> Bitmap {
    let first = try render()
    let second = try render()
    guard first == second else {
      let outcome = ImageComparison.compare(first, second)
      throw SnapshotError("rendering is not deterministic: two renders differ (\(outcome.result.summary))")
    }
    return first
  }

  /// Tiles top to bottom as one image.
  static func stack(_ tiles: [Bitmap]) -> Bitmap {
    guard tiles.count > 1 else { return tiles.first ?? Bitmap(width: 0, height: 0, pixels: []) }
    return Bitmap(
      width: tiles[0].width, height: tiles.map(\.height).reduce(0, +), pixels: tiles.flatMap(\.pixels))
  }
}
