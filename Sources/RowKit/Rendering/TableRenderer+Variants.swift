import RowKitGraphics

extension TableRenderer {
  /// This renderer in `variant`: its width, its stylesheet at the variant's text size and in
  /// its appearance, and the manifest naming the variant. The same renderer draws every
  /// variant; cells see only the configuration and the stylesheet.
  public func rendering(_ variant: Variant) -> TableRenderer {
    var renderer = self
    renderer.configuration = variant.apply(to: configuration)
    renderer.stylesheet = variant.apply(to: stylesheet)
    renderer.variant = variant.name.isEmpty ? nil : variant
    return renderer
  }

  /// Renders `dataSource` in every variant of `axes`, one after the other, into bitmaps.
  public func render(
    _ dataSource: any TableDataSource, variants axes: VariantAxes, policy: ImagePolicy = .complete,
    outputs: Outputs = [.table]
  ) async throws -> [(variant: Variant, table: RenderedTable)] {
    if let problem = axes.problem { throw StyleError("variants: \(problem)") }
    var results: [(variant: Variant, table: RenderedTable)] = []
    for variant in axes.variants {
      results.append((variant, try await rendering(variant).render(dataSource, policy: policy, outputs: outputs)))
    }
    return results
  }
}
