import Foundation
import RowKit
import RowKitGraphics

/// How a value becomes the image a snapshot compares: a strategy, as swift-snapshot-testing
/// has them, named for what it compares (beside ``LayoutSnapshotting``), so that a test that
/// imports both libraries names either without qualifying it. Every strategy is made from
/// ``image`` by ``pullback(_:)``: a row, a table and a document are each rendered by the one
/// `TableRenderer` on the process's `RenderPool`, with RowKit's pinned text environment.
///
/// A strategy is `Sendable`: its closures are, so one made once (a `static let`) serves tests
/// that run in parallel.
///
/// ```swift
/// await assertSnapshot(of: SettingsItem(text: "On", caption: "Wi-Fi"), as: .row(), named: "settings-on")
/// await assertSnapshot(of: dataSource, as: .table(configuration: TableConfiguration(style: .grouped)), named: "features")
/// ```
public struct ImageSnapshotting<Value>: Sendable {
  /// Renders a value to the image that is compared.
  public var render: @Sendable (Value) async throws -> Bitmap
  /// Renders a value to the image and, when asked (`true`), its layout record, which is kept
  /// beside the reference (`<name>.layout.json`) and makes failures say what changed; nil
  /// for a strategy that draws no table (``image``).
  public var renderWithLayout: (@Sendable (Value, _ recordsLayout: Bool) async throws -> RenderedSnapshot)?
  /// For a value whose render reads nothing but declared files (a document as loaded), what
  /// the render cache needs to pass its check without rendering; nil for values built in
  /// Swift, whose code the cache cannot see, and for every ``pullback(_:)``.
  package var declaredInputs: (@Sendable (Value) -> DeclaredRender?)?

  /// A strategy that makes its image with `render`, and no layout record.
  public init(render: @escaping @Sendable (Value) async throws -> Bitmap) {
    self.render = render
  }

  /// A strategy that makes its image and, when asked, its layout record with `render`.
  public init(renderWithLayout render: @escaping @Sendable (Value, _ recordsLayout: Bool) async throws -> RenderedSnapshot) {
    self.renderWithLayout = render
    self.render = { try await render($0, false).image }
  }

  /// A strategy for values that `transform` turns into this strategy's values.
  public func pullback<NewValue>(
    _ transform: @escaping @Sendable (NewValue) async throws -> Value
  ) -> ImageSnapshotting<NewValue> {
    if let renderWithLayout {
      return ImageSnapshotting<NewValue>(renderWithLayout: { try await renderWithLayout(try await transform($0), $1) })
    }
    let render = self.render
    return ImageSnapshotting<NewValue> { try await render(try await transform($0)) }
  }
}

/// The name this strategy had before ``ImageSnapshotting``: the name of swift-snapshot-testing's
/// `Snapshotting<Value, Format>`, which a test that imports both libraries had to qualify.
/// Unavailable, not deprecated: an unavailable alias no longer hides swift-snapshot-testing's
/// type in such a test (a deprecated one still did), and code that names it gets a fix-it to
/// the new name.
@available(*, unavailable, renamed: "ImageSnapshotting")
public typealias Snapshotting = ImageSnapshotting

extension ImageSnapshotting where Value == Bitmap {
  /// The image itself.
  public static var image: ImageSnapshotting<Bitmap> { ImageSnapshotting { $0 } }
}

extension ImageSnapshotting where Value == any TableDataSource {
  /// The whole table, tiles stacked.
  public static func table(
    configuration: TableConfiguration = TableConfiguration(), stylesheet: Stylesheet = .default,
    images: SnapshotImages = .none, allowing substitutes: SnapshotSubstitutes = []
  ) -> ImageSnapshotting<any TableDataSource> {
    let renderer = images.renderer(configuration: configuration, stylesheet: stylesheet)
    return ImageSnapshotting<any TableDataSource>(renderWithLayout: { dataSource, recordsLayout in
      var renderer = renderer
      renderer.recordsLayout = recordsLayout
      let rendered = try substitutes.check(try await renderer.render(dataSource))
      return RenderedSnapshot(image: rendered.image, layout: rendered.layoutRecord)
    })
  }
}

extension ImageSnapshotting where Value: TableDataSource {
  /// The whole table, tiles stacked.
  public static func table(
    configuration: TableConfiguration = TableConfiguration(), stylesheet: Stylesheet = .default,
    images: SnapshotImages = .none, allowing substitutes: SnapshotSubstitutes = []
  ) -> ImageSnapshotting<Value> {
    ImageSnapshotting<any TableDataSource>.table(
      configuration: configuration, stylesheet: stylesheet, images: images, allowing: substitutes)
      .pullback { (dataSource: Value) -> any TableDataSource in dataSource }
  }
}

extension ImageSnapshotting where Value: TableItem {
  /// One item's row, as the row image of a one-row table.
  public static func row(
    mapping: CellMapping = CellMapping(), configuration: TableConfiguration = TableConfiguration(),
    stylesheet: Stylesheet = .default, images: SnapshotImages = .none, allowing substitutes: SnapshotSubstitutes = []
  ) -> ImageSnapshotting<Value> {
    let renderer = images.renderer(configuration: configuration, stylesheet: stylesheet)
    return ImageSnapshotting<Value>(renderWithLayout: { item, recordsLayout in
      var renderer = renderer
      renderer.recordsLayout = recordsLayout
      let source = SectionedDataSource(sections: [TableSection(items: [item])], cellMapping: mapping)
      let rendered = try substitutes.check(try await renderer.render(source, outputs: [.rows]))
      return RenderedSnapshot(image: rendered.rowImages[0], layout: rendered.layoutRecord)
    })
  }
}

extension ImageSnapshotting where Value == TableDocument {
  /// A table document rendered as `rowkit render` renders it (tiles stacked).
  public static var document: ImageSnapshotting<TableDocument> { document() }

  /// A table document rendered as `rowkit render` renders it, which may show the defaults
  /// of images that failed or rows drawn by the fallback cell when `substitutes` allows.
  public static func document(allowing substitutes: SnapshotSubstitutes) -> ImageSnapshotting<TableDocument> {
    document(configuration: nil, allowing: substitutes)
  }

  /// A table document rendered as `rowkit render` renders it, with `configuration` in place of
  /// the document's own.
  public static func document(
    configuration: TableConfiguration? = nil, pipeline: ImagePipeline = .shared,
    imageDeadline: Double = TableRenderer.defaultImageDeadline, allowing substitutes: SnapshotSubstitutes = []
  ) -> ImageSnapshotting<TableDocument> {
    var strategy = ImageSnapshotting<TableDocument>(renderWithLayout: { document, recordsLayout in
      var renderer = document.makeRenderer(configuration: configuration, pipeline: pipeline)
      renderer.imageDeadline = imageDeadline
      renderer.recordsLayout = recordsLayout
      let rendered = try substitutes.check(try await document.render(with: renderer))
      var snapshot = RenderedSnapshot(image: rendered.image, layout: rendered.layoutRecord)
      snapshot.manifest = rendered.manifest
      return snapshot
    })
    var settings = ["document strategy", "image deadline \(imageDeadline)", "substitutes \(substitutes.rawValue)"]
    if let configuration { settings.append("configuration \(configuration)") }
    strategy.declaredInputs = { [settings] document in
      document.isAsLoaded ? DeclaredRender(document: document, settings: settings, pipeline: pipeline) : nil
    }
    return strategy
  }
}

/// What a snapshot's render may draw in place of what it was given. By default nothing: a
/// reference recorded with a failed image's default, or with the fallback cell for an item
/// no cell is mapped to, records a mistake, so the assertion fails and names the rows.
public struct SnapshotSubstitutes: OptionSet, Sendable {
  /// The set's bits: 1 for ``failedImages``, 2 for ``fallbackCells``.
  public let rawValue: Int
  /// The set whose bits are `rawValue`.
  public init(rawValue: Int) { self.rawValue = rawValue }

  /// Images that failed to load, drawn as their slots' default images.
  public static let failedImages = SnapshotSubstitutes(rawValue: 1)
  /// Items no cell is mapped to, drawn by the fallback cell.
  public static let fallbackCells = SnapshotSubstitutes(rawValue: 2)

  /// One line per substitute not allowed here that `rows` show, naming `file`: what keeps a
  /// mistake from becoming a reference, in the assertions and in `rowkit check`.
  public func problems(in rows: [Manifest.Row], file: String) -> [String] {
    var problems: [String] = []
    for row in rows {
      if !contains(.fallbackCells), row.cell == FallbackCell.cellName { problems.append(row.fallbackCellWarning(file: file)) }
      if !contains(.failedImages) { problems += row.failedImageWarnings(file: file) }
    }
    return problems
  }

  /// `rendered`, or an error naming each row that shows a substitute not allowed here.
  func check(_ rendered: RenderedTable) throws -> RenderedTable {
    let rows = rendered.manifest.rows
    let problems = problems(in: rows, file: "the render")
    guard problems.isEmpty else {
      var shown: SnapshotSubstitutes = []
      if !contains(.fallbackCells), rows.contains(where: { $0.cell == FallbackCell.cellName }) { shown.insert(.fallbackCells) }
      if !contains(.failedImages), rows.contains(where: { !$0.failedImageWarnings(file: "").isEmpty }) { shown.insert(.failedImages) }
      throw SubstituteError(problems: problems, shown: shown)
    }
    return rendered
  }
}

/// Rows of a snapshot's render that show a substitute the assertion did not allow.
public struct SubstituteError: Error, CustomStringConvertible {
  /// One line per row that shows a substitute, naming it.
  public var problems: [String]
  /// The substitutes the rows show.
  var shown: SnapshotSubstitutes = [.failedImages, .fallbackCells]

  /// The rows' lines, then what to do about each kind of substitute they show.
  public var description: String {
    var advice: [String] = []
    if shown.contains(.fallbackCells) {
      advice.append("map a cell to the item's type (CellMapping.register(_:for:)), or pass allowing: .fallbackCells if the reference must show the fallback cell")
    }
    if shown.contains(.failedImages) {
      advice.append("give the images (images: .files(assets:) or .bitmaps(_:)), or pass allowing: .failedImages if the reference must show the slots' defaults")
    }
    return problems.joined(separator: "\n") + "\n(" + advice.joined(separator: "; ") + ")"
  }
}

/// Where a snapshot's images come from.
public struct SnapshotImages: Sendable {
  var resolver: ImageURLResolver?
  var preloaded: [String: Bitmap]

  /// No images: every image slot fails to load (and shows its default), wherever the test
  /// runs; a reference that shows one needs `allowing: .failedImages`.
  public static let none = SnapshotImages(resolver: .refusingEveryURL, preloaded: [:])

  /// Images read from files: `bundle://` under `assets`, relative paths under `base`.
  public static func files(assets: URL, base: URL? = nil) -> SnapshotImages {
    SnapshotImages(resolver: ImageURLResolver(assetsDirectory: assets, baseDirectory: base ?? assets), preloaded: [:])
  }

  /// Images given by URL, such as generated ones; any other URL fails to load.
  public static func bitmaps(_ images: [String: Bitmap]) -> SnapshotImages {
    SnapshotImages(resolver: .refusingEveryURL, preloaded: images)
  }

  func renderer(configuration: TableConfiguration, stylesheet: Stylesheet) -> TableRenderer {
    var renderer = TableRenderer(configuration: configuration, stylesheet: stylesheet, imageResolver: resolver)
    renderer.preloaded = preloaded
    return renderer
  }
}

extension ReferenceStore {
  /// Renders `value` with `strategy` and checks it against the reference for `suite`/`name`
  /// (see ``check(suite:name:options:record:pool:render:)``).
  nonisolated(nonsending) public func check<Value>(
    _ value: Value, as strategy: ImageSnapshotting<Value>, suite: String, name: String, options: ComparisonOptions = .exact,
    record: RecordMode? = nil
  ) async throws -> SnapshotOutcome {
    try await checkExplaining(value, as: strategy, suite: suite, name: name, options: options, record: record).outcome
  }

  /// Renders `value` with `strategy` and checks it against the reference for `suite`/`name`,
  /// keeping the layout record beside the reference when the strategy makes one (see
  /// ``check(suite:name:options:record:pool:renderingLayout:)``): the outcome, and what the
  /// records say about a failure.
  ///
  /// A document as loaded from its file (``ImageSnapshotting/document``) passes without rendering
  /// when nothing its render reads changed since a render matched the reference pixel for
  /// pixel (the render cache, `<name>.inputs.json` beside the reference), unless
  /// `usesRenderCache` is false or `ROWKIT_RENDER_CACHE=off`. Values built in Swift always
  /// render: the cache cannot see the code that made them.
  nonisolated(nonsending) public func checkExplaining<Value>(
    _ value: Value, as strategy: ImageSnapshotting<Value>, suite: String, name: String, options: ComparisonOptions = .exact,
    record: RecordMode? = nil, usesRenderCache: Bool = true
  ) async throws -> (outcome: SnapshotOutcome, layout: LayoutFindings) {
    guard let renderWithLayout = strategy.renderWithLayout else {
      let outcome = try await check(suite: suite, name: name, options: options, record: record) { try await strategy.render(value) }
      return (outcome, LayoutFindings())
    }
    let declared = usesRenderCache ? strategy.declaredInputs?(value) : nil
    // Reading the environment is file work: on a render worker, as a render's work is.
    var cache: RenderCache?
    if let declared { cache = try await RenderPool.shared.run { self.renderCache(for: declared, record: record) } }
    guard let declared, let cache else {
      return try await check(suite: suite, name: name, options: options, record: record) { recordsLayout in
        try await renderWithLayout(value, recordsLayout)
      }
    }
    // Hashing the inputs reads files: on a render worker, as a render's work is.
    let site = Self.checkSite
    let cached = try await RenderPool.shared.run {
      Self.$checkSite.withValue(site) {
        self.cachedMatch(
          suite: suite, name: name, options: options, record: record, declared: declared, cache: cache, keepsLayoutRecord: true)
      }
    }
    if let cached { return (cached, LayoutFindings()) }
    let renderStart = Date()
    var manifest: Manifest?
    let checked = try await check(suite: suite, name: name, options: options, record: record) { recordsLayout in
      let rendered = try await renderWithLayout(value, recordsLayout)
      manifest = rendered.manifest
      return rendered
    }
    let kept = manifest
    try await RenderPool.shared.run {
      self.keepInputs(
        of: declared, manifest: kept, outcome: checked.outcome, suite: suite, name: name, record: record, cache: cache,
        renderStart: renderStart)
    }
    return checked
  }
}
