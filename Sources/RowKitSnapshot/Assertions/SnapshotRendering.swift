import Foundation
import RowKit
import RowKitGraphics

/// Renders what a snapshot shows, with RowKit's pinned text environment, twice: a case whose
/// two renders differ in any pixel fails, since its reference could never be trusted.
public enum SnapshotRendering {
  /// A table rendered to one image (tiles stacked), checked for determinism.
  nonisolated(nonsending) public static func table(
    _ dataSource: any TableDataSource, configuration: TableConfiguration = TableConfiguration(),
    stylesheet: Stylesheet = .default, images: ImageSource = .none
  ) async throws -> Bitmap {
    try await twice {
      let renderer = try images.renderer(configuration: configuration, stylesheet: stylesheet)
      return stack(try await renderer.render(dataSource).tiles.map(\.bitmap))
    }
  }

  /// A document rendered as `rowkit render` renders it, checked for determinism.
  nonisolated(nonsending) public static func document(
    _ document: TableDocument, configuration: TableConfiguration? = nil, pipeline: ImagePipeline = .shared,
    imageDeadline: Double = TableRenderer.defaultImageDeadline
  ) async throws -> Bitmap {
    try await documentWithManifest(
      document, configuration: configuration, pipeline: pipeline, imageDeadline: imageDeadline
    ).image
  }

  /// A document rendered as ``document(_:configuration:pipeline:imageDeadline:)`` does,
  /// with the manifest of its render (row heights, image states, missing glyphs).
  nonisolated(nonsending) public static func documentWithManifest(
    _ document: TableDocument, configuration: TableConfiguration? = nil, pipeline: ImagePipeline = .shared,
    imageDeadline: Double = TableRenderer.defaultImageDeadline
  ) async throws -> (image: Bitmap, manifest: Manifest) {
    var manifest: Manifest?
    let image = try await twice {
      let renderer = try document.makeRenderer(configuration: configuration, pipeline: pipeline)
      renderer.imageDeadline = imageDeadline
      let rendered = try await document.render(with: renderer)
      manifest = rendered.manifest
      return stack(rendered.tiles.map(\.bitmap))
    }
    return (image, manifest!)
  }

  /// One item's row, as the per-row PNG of a one-row table, checked for determinism.
  nonisolated(nonsending) public static func row(
    _ item: any TableItem, mapping: CellMapping = CellMapping(), configuration: TableConfiguration = TableConfiguration(),
    stylesheet: Stylesheet = .default, images: ImageSource = .none
  ) async throws -> Bitmap {
    try await twice {
      let renderer = try images.renderer(configuration: configuration, stylesheet: stylesheet)
      let source = SectionedDataSource(sections: [TableSection(items: [item])], cellMapping: mapping)
      return try await renderer.render(source, outputs: [.rows]).rowImages[0]
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

    func renderer(configuration: TableConfiguration, stylesheet: Stylesheet) throws -> TableRenderer {
      let renderer = try TableRenderer(configuration: configuration, stylesheet: stylesheet, imageResolver: resolver)
      for (url, bitmap) in preloaded { renderer.preload(bitmap, for: url) }
      return renderer
    }
  }

  /// Renders twice with separate renderers and fails unless both are the same pixels.
  nonisolated(nonsending) static func twice(_ render: () async throws -> Bitmap) async throws -> Bitmap {
    let first = try await render()
    let second = try await render()
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
