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

  /// The gap between a contact sheet's columns, in pixels.
  public static let contactSheetGap = 16

  /// Renders `dataSource` in every variant of `axes` and lays the tables side by side on one
  /// image, left to right in the order of ``VariantAxes/variants``: each column is a plain
  /// header band naming its variant (drawn in this renderer's own stylesheet, light and left
  /// to right, whatever the variant) above the table, at the variant's width. Columns of
  /// different heights are filled below with gray.
  public func contactSheet(
    _ dataSource: any TableDataSource, variants axes: VariantAxes, policy: ImagePolicy = .complete
  ) async throws -> Bitmap {
    if let problem = axes.problem { throw StyleError("variants: \(problem)") }
    var columns: [Bitmap] = []
    var sheetWidth = 0
    var sheetHeight = 0
    for variant in axes.variants {
      let renderer = rendering(variant)
      let table = try await renderer.render(dataSource, policy: policy).image
      let title = try await titleRenderer(width: renderer.configuration.width)
        .render(SectionedDataSource(sections: [TableSection(header: variant.name.isEmpty ? "default" : variant.name, items: [])]))
        .image
      sheetWidth += (columns.isEmpty ? 0 : Self.contactSheetGap) + table.width
      sheetHeight = max(sheetHeight, title.height + table.height)
      guard sheetWidth * sheetHeight <= Bounds.contactSheetPixels else {
        throw StyleError(
          "the variants contact sheet would be \(sheetWidth) × \(sheetHeight) pixels or more, more than "
            + "\(Bounds.contactSheetPixels) pixels; render fewer variants or one file per variant (-o)")
      }
      columns.append(Bitmap(width: table.width, height: title.height + table.height, pixels: title.pixels + table.pixels))
    }
    return Bitmap.sideBySide(columns, gap: Self.contactSheetGap)
  }

  /// A renderer for a contact sheet's column titles: a plain table `width` points wide, at
  /// this renderer's scale, in its stylesheet, left to right.
  private func titleRenderer(width: Double) -> TableRenderer {
    var renderer = self
    renderer.configuration = TableConfiguration(
      width: width, scale: configuration.scale, style: .plain, language: configuration.language)
    renderer.variant = nil
    renderer.lint = nil
    return renderer
  }
}
