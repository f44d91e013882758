import Foundation
import RowKit
import RowKitGraphics

/// Renders every table document in a folder and checks each against its reference: what
/// `rowkit check` runs.
public struct SnapshotCheck: Sendable {
  /// One document and the reference it is checked against.
  public struct Case: Hashable, Sendable {
    /// The document's path relative to the folder, without its extension (`settings/wifi`).
    public var name: String
    /// The table document (or design file) the case renders.
    public var document: URL
    /// For a case made of a design file's preview item: which item, and how it is drawn.
    public var preview: DesignPreview?
    /// The variant of the document this case renders (its name follows an `@` in ``name``),
    /// or nil for the document as it is.
    public var variant: Variant?

    /// A case named `name` (relative to the folder, no extension) for `document`.
    public init(name: String, document: URL, preview: DesignPreview? = nil, variant: Variant? = nil) {
      self.name = name
      self.document = document
      self.preview = preview
      self.variant = variant
    }

    /// The reference's suite and name: the folders and the file name of ``name``.
    public var suite: String {
      let parts = name.split(separator: "/")
            return parts.dropLast().joined(separator: "/")
    }

    /// The reference's file name: the last component of ``name``.
    public var baseName: String { String(name.split(separator: "/").last ?? "") }
  }

  /// One preview item of a cell design file, checked as a case of its own
  /// (`rowkit check --designs`).
  public struct DesignPreview: Hashable, Sendable {
    /// The design's name: its file name without the extension.
    public var design: String
    /// Which item of the design's `preview:` list (0-based).
    public var index: Int
    /// Whether the item is drawn selected.
    public var selected: Bool
    /// The stylesheet the design is checked against (nil: the default one).
    public var stylesheet: URL?
    /// Where `bundle://` URLs resolve.
    public var assets: URL
  }

  /// How a case of a check ended.
  public enum Status: String, Codable, Sendable, CaseIterable {
    /// The image matched its reference.
    case passed
    /// The image differs from its reference, or the case has lint findings.
    case failed
    /// There was no reference, and the image was recorded as one.
    case new
    /// There is no reference, and none was recorded.
    case missing
    /// The case could not run; ``CaseResult/message`` says why.
    case error
  }

  /// The outcome of one case of a check.
  public struct CaseResult: Codable, Sendable {
    /// The case's name (``Case/name``).
    public var name: String
    /// The document's path.
    public var document: String
    /// How the case ended.
    public var status: Status
    /// Why the case did not pass, in one line; nil when it passed.
    public var message: String?
    /// The comparison's numbers, when the images were compared.
    public var result: ComparisonResult?
    /// Images for a review page, relative to the report folder.
    public var reference: String?
    /// The rendered image, relative to the report folder.
    public var actual: String?
    /// The diff image, relative to the report folder.
    public var diff: String?
    /// The side-by-side composite, relative to the report folder.
    public var composite: String?
    /// One line per row with characters no loaded font can draw.
    public var warnings: [String]?
    /// With lint on, one line per design-lint finding; any fails the case.
    public var findings: [String]?
    /// With ``SnapshotCheck/measuresHeadroom``, every text slot's headroom in the case's
    /// render and the headroom each needs (`rowkit check --headroom`).
    public var headroom: TableHeadroom?
    /// What changed in the layout, one sentence each, when the case failed and both the
    /// reference and the render have a layout record.
    public var layoutChanges: [LayoutChange]?
    /// Set when the layout records are the same and only pixels differ.
    public var pixelOnly: Bool?
    /// With ``pixelOnly``: the elements whose boxes hold the differing pixels (`s0-r3 title`).
    public var pixelOnlyElements: [String]?
    /// With ``pixelOnly``: where the pixels differ, in one sentence.
    public var pixelOnlySummary: String?
    /// Set when the case differs in rasterization alone (``LayoutFindings/rasterizationOnly``):
    /// the references were recorded in another environment and nothing but glyph pixels
    /// changed. `rowkit accept REPORT --rasterization-only` accepts exactly these.
    public var rasterizationOnly: Bool?
    /// The render's layout record, relative to the report folder.
    public var actualLayout: String?
    /// The reference's layout record, relative to the report folder.
    public var referenceLayout: String?
    /// Set when the case passed without rendering: nothing its render reads changed since a
    /// render matched its reference pixel for pixel (``CaseInputs``).
    public var cached: Bool?
    /// The time the render workers spent on the case, in seconds: loading, rendering and
    /// comparing it, or checking its inputs when it passed from the cache, not counting the
    /// time it waited behind other cases (so the same on one worker or several). What shards
    /// by cost are planned from (`ShardPlan`).
    public var seconds: Double?
    /// With ``SnapshotCheck/explainsRenderCache``, why the case was rendered rather than
    /// passed from the cache, one phrase each (`stylesheet Styles/app.yaml changed`).
    public var renderedBecause: [String]?

    /// The layout findings as sentences: the changes, or where only pixels differ.
    public var layoutSentences: [String] {
      (layoutChanges ?? []).map(\.sentence) + (pixelOnlySummary.map { [$0] } ?? [])
    }
  }

  /// Every case of a check and their summary.
  public struct Report: Codable, Sendable {
    /// How many cases ended each way.
    public struct Summary: Codable, Sendable {
      /// Every case checked.
      public var total = 0
      /// Cases that matched their reference.
      public var passed = 0
      /// Cases that differ from their reference.
      public var failed = 0
      /// Cases whose reference was recorded by this run.
      public var new = 0
      /// Cases with no reference, none recorded.
      public var missing = 0
      /// Cases that could not run.
      public var errors = 0
      /// References with no case (``Report/orphans``).
      public var orphans = 0
      /// Of the failed cases, those that differ in rasterization only
      /// (``CaseResult/rasterizationOnly``); absent for none.
      public var rasterizationOnly: Int?
      /// Of the passed cases, those passed without rendering (``CaseResult/cached``);
      /// absent for none.
      public var cached: Int?
    }

    /// How many cases ended each way.
    public var summary = Summary()
    /// Which shard of the suite this report covers (`2/4`); nil for the whole suite.
    public var shard: String?
    /// For a shard: every case of the whole suite, in order, so that `rowkit merge-reports`
    /// puts the shards' cases back in that order and says which are missing or doubled,
    /// however the suite was split.
    public var suite: [String]?
    /// What identifies the run across its shards: a hash of every case's name (before
    /// sharding), the references folder, the record mode and the comparison options.
    /// `rowkit merge-reports` joins only shards with the same one.
    public var run: String
    /// The references folder: relative to the folder the check ran in when inside it
    /// (`ReportFolder/referencesPath(for:)`), else absolute.
    public var snapshots: String
    /// When the run wrote references.
    public var recordMode: RecordMode
    /// The tolerances the images were compared with.
    public var options: ComparisonOptions
    /// The environment the run rendered in.
    public var environment: EnvironmentFingerprint
    /// Set when the references were recorded in another environment: the cases were compared
    /// anyway (nothing recorded) to tell rasterization-only differences from real ones, and
    /// the run fails.
    public var environmentMismatch: String?
    /// Each case's outcome, in the order the cases ran.
    public var cases: [CaseResult] = []
    /// Reference files (relative to ``snapshots``) that no case of the whole suite checks:
    /// left behind by a deleted or renamed document.
    public var orphans: [String] = []
    /// Whether orphans fail the check (`--fail-on-orphans`).
    public var failsOnOrphans = false
    /// How many checked references have no layout record beside them (recorded before
    /// records existed, and none added: `--record missing` adds them); absent for none.
    public var referencesWithoutLayoutRecord: Int?

    /// The one line saying that references have no layout record, or nil when all have one.
    public var missingLayoutRecordsLine: String? {
      guard let count = referencesWithoutLayoutRecord, count > 0 else { return nil }
      return "\(count) reference\(count == 1 ? " has" : "s have") no layout record, so failures cannot say what changed; "
        + "rowkit check --record missing adds them without touching a reference whose pixels match"
    }

    /// The exit status of `rowkit check`: 2 when a case could not run, 1 when any failed, else 0.
    public var exitStatus: Int32 {
      if summary.errors > 0 { return 2 }
      if environmentMismatch != nil || summary.passed < summary.total { return 1 }
      if failsOnOrphans && !orphans.isEmpty { return 1 }
      return 0
    }

    /// The summary line `rowkit check` prints last.
    public var summaryLine: String {
      let s = summary
      let rasterization = s.rasterizationOnly.map { " (\($0) rasterization only)" } ?? ""
      let cached = s.cached.map { " (\($0) cached)" } ?? ""
      return "\(s.total) \(s.total == 1 ? "case" : "cases"): \(s.passed) passed\(cached), \(s.failed) failed\(rasterization), \(s.new) new, "
        + "\(s.missing) missing, \(s.errors) \(s.errors == 1 ? "error" : "errors"), "
        + "\(s.orphans) orphaned \(s.orphans == 1 ? "reference" : "references")" + (shard.map { " (shard \($0))" } ?? "")
    }
  }

  /// The folder of table documents.
  public let folder: URL
  /// The references the cases are checked against.
  public internal(set) var store: ReferenceStore
  /// The tolerances every comparison uses.
  public let options: ComparisonOptions
  /// Which references the check records; nil records none.
  public let record: RecordMode?
  /// Where the report goes; nil writes none. It must be a new folder, an empty one or an
  /// earlier report (`ReportFolder/checkReplaceable(_:option:)`); the report is written
  /// beside it and swapped in whole at the end, with the failure images of its cases under
  /// its `cases` folder.
  public let reportDirectory: URL?
  /// The folder this run writes its report in until the swap.
  var stagedReportDirectory: URL?
  /// How the cases' images load.
  public var pipeline: ImagePipeline = .shared
  /// The threads cases are rendered, decoded and compared on.
  public var pool: RenderPool = .shared
  /// Processes of RowKit's own that check a share of the cases, each with a text lock of its
  /// own; nil checks every case in this process.
  package var helpers: HelperProcesses?
  /// How long a case's renders wait for network images.
  public var imageDeadline = TableRenderer.defaultImageDeadline
  /// Where the documents' relative image paths and the image cache are.
  public var imageFolders = ImageFolders()
  /// Brand fonts every case may use (`--fonts`).
  public var brandFonts: [BrandFont] = []
  /// Whether a case with characters no loaded font can draw is an error (nothing recorded)
  /// rather than a warning.
  public var failsOnMissingGlyphs = false
  /// Whether references with no case fail the check.
  public var failsOnOrphans = false
  /// Whether every case may show images that failed to load (`--lint-off imageFailed`);
  /// otherwise only the documents that switch the `imageFailed` lint rule off may, and any
  /// other render with a failed image is an error, never recorded.
  public var allowsFailedImages = false
  /// How the review page and the summaries name the report folder in the `rowkit accept`
  /// commands they show (the path as the user typed it).
  public var reportPathForCommands: String?
  /// Whether the review page shows only the cases to look at (failed, new, missing,
  /// errors), and passed cases' references are not copied into the report.
  public var reportsOnlyFailures = false
  /// Whether cases keep layout records beside their references, and failures are told in
  /// layout-change sentences; otherwise only PNGs are written and compared.
  public var keepsLayoutRecords = true
  /// The lint rules switched off besides each document's own, when cases are linted
  /// (`check --lint`): a case with findings fails. Nil lints nothing.
  public var lint: LintOptions?
  /// Whether a case whose inputs are all as they were when a render matched its reference
  /// pixel for pixel passes without rendering (``CaseInputs``), and whether such proofs are
  /// written beside references when a render matches pixel for pixel and the record mode
  /// writes anything (not under CI); `--no-cache` turns both off.
  /// Cases are always rendered when linted, and when the references were recorded in
  /// another environment.
  public var usesRenderCache = true
  /// Whether each rendered case says why the cache could not pass it
  /// (``CaseResult/renderedBecause``; `--explain-cache`).
  public var explainsRenderCache = false
  /// With ``lint``, the findings accepted for now (`check --lint --baseline FILE`): a case
  /// fails only for findings the baseline does not list, and those it lists that are gone
  /// are the case's warnings. Cases are known to it by name, without their variant.
  public var lintBaseline: LintBaseline?
  /// Whether each case's text slots have their headroom measured (``CaseResult/headroom``;
  /// `check --headroom`): with ``lint``, a slot with less than ``minimumHeadroom`` is a
  /// finding that fails its case. Cases are then always rendered.
  public var measuresHeadroom = false
  /// The headroom every text slot needs, in percent, when ``measuresHeadroom``.
  public var minimumHeadroom = TableRenderer.defaultMinimumHeadroom

  /// A check of the documents in `folder` against `store`, writing a report to `reportDirectory` when given.
  public init(
    folder: URL, store: ReferenceStore, options: ComparisonOptions = .exact, record: RecordMode? = nil,
    reportDirectory: URL? = nil
  ) {
    self.folder = folder.standardizedFileURL
    self.store = store
    self.options = options
    self.record = record
    self.reportDirectory = reportDirectory
  }

  /// The cases of every design file in `folder` (YAML files whose top level has `body`): each
  /// preview item, normal and selected, named `<design>/preview-<n>` and
  /// `<design>/preview-<n>-selected` (n from 1). A design without `preview:` has one item
  /// that shows its field names. A bad design file is an error naming it.
  public static func discoverDesigns(
    in folder: URL, stylesheet: URL?, assets: URL?, fontFamilies: [String]
  ) throws -> [Case] {
    let sheet = try stylesheet.map { try Stylesheet.load(contentsOf: $0, fontFamilies: fontFamilies) } ?? .default
    let catalog = try DesignCatalog.load(folder: folder, stylesheet: sheet, fontFamilies: fontFamilies, assets: assets)
    return catalog.entries.flatMap { entry in
      let file = folder.appendingPathComponent(entry.name + ".yaml")
      let document = FileManager.default.fileExists(atPath: file.path) ? file : folder.appendingPathComponent(entry.name + ".yml")
      return designCases(entry.name, template: entry.template, file: document, stylesheet: stylesheet, assets: assets ?? folder)
    }
  }

  /// The cases of the design file `file` alone: each preview item, normal and selected,
  /// checked against `stylesheet`; an error names the file, line, column and key.
  package static func designCases(of file: URL, stylesheet: URL?, assets: URL, fontFamilies: [String]) throws -> [Case] {
    let sheet = try stylesheet.map { try Stylesheet.load(contentsOf: $0, fontFamilies: fontFamilies) } ?? .default
    let template = try DesignTemplate.load(contentsOf: file, stylesheet: sheet, fontFamilies: fontFamilies, assets: assets)
    return designCases(file.deletingPathExtension().lastPathComponent, template: template, file: file, stylesheet: stylesheet, assets: assets)
  }

  private static func designCases(_ name: String, template: DesignTemplate, file: URL, stylesheet: URL?, assets: URL) -> [Case] {
    DesignCatalog.previewFields(of: template).indices.flatMap { index in
      [false, true].map { selected in
        Case(
          name: "\(name)/preview-\(index + 1)\(selected ? "-selected" : "")", document: file,
          preview: DesignPreview(design: name, index: index, selected: selected, stylesheet: stylesheet, assets: assets))
      }
    }
  }

  /// The table documents in `folder` and below, sorted by name. YAML and JSON files whose
  /// top level has no `sections` or `items` (stylesheets, cell designs) are not cases.
  public static func discover(in folder: URL) throws -> [Case] {
    let root = folder.standardizedFileURL
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: root.path, isDirectory: &isDirectory) else {
      throw SnapshotError("\(root.path): no such folder")
    }
    guard isDirectory.boolValue else {
      throw SnapshotError("\(root.path): a file, not a folder; give the folder of table documents (each is a case)")
    }
    guard let entries = FileTree.entries(under: root.path) else {
      throw SnapshotError("\(root.path): cannot list the folder")
    }
    var cases: [Case] = []
    var byName: [String: String] = [:]
    for entry in entries where entry.kind != .folder {
      guard let dot = entry.name.lastIndex(of: "."), dot != entry.name.startIndex else { continue }
      let ext = entry.name[entry.name.index(after: dot)...].lowercased()
      let url = root.appendingPathComponent(entry.path)
      guard ["yaml", "yml", "json"].contains(ext), isTableDocument(url) else { continue }
      let name = String(entry.path.dropLast(ext.count + 1))
      // A case's name is printed, written into reports and compared as text: a control
      // character in it (a newline, an escape) forged lines of the listing and drove the
      // terminal; two names of one text (é composed and decomposed, or bytes that are no
      // UTF-8) were one case to the report and two files on disk.
      if let control = Self.invisibleCharacter(in: name) {
        throw SnapshotError(
          "\(root.path)/\(Self.escaped(entry.path)): a document whose name holds the invisible character U+\(String(format: "%04X", control.value)); rename it")
      }
      if name.unicodeScalars.contains("\u{FFFD}") {
        throw SnapshotError("\(root.path)/\(Self.escaped(entry.path)): a document whose name is not UTF-8; rename it")
      }
      // Keyed by the name in lower case: a checkout on macOS or Windows, whose file names
      // ignore case, would make `Row.png` and `row.png` one reference of two cases.
      if let other = byName[name.lowercased()] {
        throw SnapshotError(
          "\(root.path): '\(Self.escaped(other))' and '\(Self.escaped(entry.path))' are two files of one name "
            + "(the same letters, in another case or composed differently); rename one")
      }
      byName[name.lowercased()] = entry.path
      cases.append(Case(name: name, document: url))
    }
    return cases.sorted { $0.name < $1.name }
  }

  /// The first character of `name` that is invisible (a control character such as a newline
  /// or an escape, a format character such as a direction override, a line or paragraph
  /// separator), which no case's name may hold; nil when there is none.
  static func invisibleCharacter(in name: String) -> Unicode.Scalar? {
    name.unicodeScalars.first { [.control, .format, .lineSeparator, .paragraphSeparator].contains($0.properties.generalCategory) }
  }

  /// `text` with every character outside printable ASCII as a Unicode escape, for a message
  /// that names a file whose name may hold anything.
  static func escaped(_ text: String) -> String {
    text.unicodeScalars.map { (0x20..<0x7F).contains($0.value) ? String($0) : "\\u{\(String($0.value, radix: 16, uppercase: true))}" }.joined()
  }

  /// `cases` with each document that has a `variants:` block replaced by one case per
  /// variant, named `name@variant` (`settings@dark,AX3`, checked against
  /// `settings@dark,AX3.png`). A document that cannot be read stays one case, whose check
  /// reports why.
  public static func expandingVariants(
    _ cases: [Case], fontFamilies: [String], imageFolders: ImageFolders = ImageFolders(), brandFonts: [BrandFont] = [],
    overriding flags: VariantAxes = VariantAxes()
  ) -> [Case] {
    cases.flatMap { testCase -> [Case] in
      // Variant flags give variants to every document; without them, only a document that
      // names `variants` can have any.
      guard testCase.variant == nil, !flags.isEmpty || TableDocument.mayHaveVariants(testCase.document),
        let document = try? TableDocument.load(
          testCase.document, fontFamilies: fontFamilies, imageFolders: imageFolders, brandFonts: brandFonts)
      else { return [testCase] }
      let axes = document.variantAxes.overriding(with: flags)
      guard !axes.isEmpty, axes.problem == nil else { return [testCase] }
      return axes.variants.map { variant in
        Case(name: variant.fileName(testCase.name, hasExtension: false), document: testCase.document, variant: variant)
      }
    }
  }

  static func isTableDocument(_ url: URL) -> Bool {
    TableDocument.looksLikeTableDocument(url)
  }

  /// The cases of shard `index` (1-based) of `count`: every `count`-th case, so shards stay
  /// balanced as cases are added.
  public static func shard(_ cases: [Case], index: Int, count: Int) -> [Case] {
    cases.enumerated().filter { $0.offset % count == index - 1 }.map(\.element)
  }

  /// The cases of shard `index` (1-based) of `count` when the suite is split by cost
  /// (`ShardPlan/byCost(_:costs:count:)`), each case costing its seconds in `costs`.
  public static func shard(_ cases: [Case], index: Int, count: Int, costs: [String: Double]) -> [Case] {
    let members = Set(ShardPlan.byCost(cases.map(\.name), costs: costs, count: count).shards[index - 1])
    return cases.filter { members.contains($0.name) }
  }

  /// Runs `cases` (the whole suite, or the shard of `suite` named by `shard`) and writes the
  /// report. Orphans are the references no case of `suite` (by default `cases`) checks.
  nonisolated(nonsending) public func run(
    _ cases: [Case], shard: String? = nil, suite: [Case]? = nil, fontFamilies: [String]
  ) async throws -> Report {
    guard let reportDirectory else { return try await runCases(cases, shard: shard, suite: suite, fontFamilies: fontFamilies) }
    let staging = try ReportFolder.Staging(replacing: reportDirectory, option: "--report")
    defer { staging.discard() }
    var staged = self
    staged.stagedReportDirectory = staging.folder
    staged.store = store.withArtifactsRoot(staging.casesFolder)
    let report = staging.relocated(try await staged.runCases(cases, shard: shard, suite: suite, fontFamilies: fontFamilies))
    try ReportFolder.write(
      report, to: staging.folder, pathForCommands: reportPathForCommands ?? reportDirectory.path,
      onlyFailures: reportsOnlyFailures)
    try staging.commit()
    return report
  }

  /// Runs the cases; the report is written by ``run(_:shard:suite:fontFamilies:)``.
  nonisolated(nonsending) private func runCases(
    _ cases: [Case], shard: String?, suite: [Case]?, fontFamilies: [String]
  ) async throws -> Report {
    let suite = suite ?? cases
    let recordMode = RecordMode.effective(record)
    let snapshots = ReportFolder.referencesPath(for: store.root)
    var report = Report(
      shard: shard, run: Self.runIdentity(suite: suite, snapshots: snapshots, recordMode: recordMode, options: options),
      snapshots: snapshots, recordMode: recordMode, options: options, environment: .current(store.environment))
    report.summary.total = cases.count
    if shard != nil { report.suite = suite.map(\.name) }
    report.failsOnOrphans = failsOnOrphans
    report.orphans = store.orphanedReferences(keeping: Set(suite.map(\.name)))
    report.summary.orphans = report.orphans.count
    // References of another environment are compared anyway, recording nothing, so that
    // each difference is classified: rasterization only (accepted in one command) or a
    // real change. The mismatch still fails the run.
    let mismatch = report.recordMode == .all ? nil : try store.environmentMismatch()
    report.environmentMismatch = mismatch
    let checking = mismatch == nil ? self : withStore(store.comparingInAnotherEnvironment())
    // Cases are linted and their headroom measured from their render, and references of
    // another environment are compared to classify differences: all always render.
    let cacheEnvironment = usesRenderCache && lint == nil && !measuresHeadroom && mismatch == nil
      ? SHA256.hex(ofBuffer: try report.environment.jsonBytes()) : nil
    let cache = cacheEnvironment.map { renderCache(environment: $0) }
    // A name checked twice is an error of the second check, which only one process can tell.
    let hasDuplicateNames = Set(cases.map(\.name)).count < cases.count
    let helpers = self.helpers?.begin(
      HelperSetup(
        reportFolder: (stagedReportDirectory ?? reportDirectory)?.path, artifactsRoot: store.artifactsRoot.path,
        comparesInAnotherEnvironment: mismatch != nil, cacheEnvironment: cacheEnvironment),
      caseCount: hasDuplicateNames ? 1 : cases.count) ?? []
    // Cases run side by side on the pool and in the helper processes, a few more than each
    // has workers so that one case's image loading overlaps another's painting; results keep
    // the cases' order, so the output and the report are the same for any number of workers.
    let results = await withTaskGroup(of: CaseEvent.self) { group in
      var results = [(CaseResult, Bool)?](repeating: nil, count: cases.count)
      var next = 0
      /// Starts the next case, in helper `lane` or, for nil, in this process.
      func startNext(in lane: Int?) {
        guard next < cases.count else { return }
        let (index, testCase) = (next, cases[next])
        next += 1
        if next == cases.count {
          // A helper still starting would get no case: it need not start at all.
          for helper in helpers where !helper.isReady { helper.finish() }
        }
        group.addTask {
          if let lane, let result = await helpers[lane].check(index, testCase) { return .checked(index, lane: lane, result) }
          return .checked(index, lane: nil, await checking.check(testCase, fontFamilies: fontFamilies, cache: cache))
        }
      }
      // Four cases a worker: a case is a chain of jobs, each pinned to one worker, and with
      // two a worker the two workers of `--jobs 2` slept half of the check, one waiting while
      // the other held the queued jobs (the comparison runs on the workers since issue 30).
      for _ in 0..<(pool.workerCount * 4) { startNext(in: nil) }
      for (lane, helper) in helpers.enumerated() { group.addTask { .ready(lane: lane, await helper.ready()) } }
      for await event in group {
        switch event {
        case .ready(let lane, let ready):
          if ready { for _ in 0..<4 { startNext(in: lane) } }
        case .checked(let index, let lane, let result):
          results[index] = result
          startNext(in: lane.flatMap { helpers[$0].isReady ? $0 : nil })
        }
      }
      return results.map { $0! }
    }
    await self.helpers?.finishAndWait()
    for (result, hasNoRecord) in results {
      report.summary.count(result)
      report.cases.append(result)
      if hasNoRecord { report.referencesWithoutLayoutRecord = (report.referencesWithoutLayoutRecord ?? 0) + 1 }
    }
    return report
  }

  /// What a case of ``runCases(_:shard:suite:fontFamilies:)``'s task group tells it.
  private enum CaseEvent: Sendable {
    /// Helper `lane` is ready for cases, or stopped before it was.
    case ready(lane: Int, Bool)
    /// Case `index` was checked, in helper `lane` or, for nil, in this process.
    case checked(Int, lane: Int?, (CaseResult, Bool))
  }

  /// The render cache of a check in the environment whose fingerprint hashes to `environment`.
  func renderCache(environment: String) -> RenderCache {
    RenderCache(
      folder: folder, boundary: RenderCache.boundary(checked: folder, references: store.root), environment: environment,
      pipeline: pipeline)
  }

  /// This check with `store` instead of its own.
  private func withStore(_ store: ReferenceStore) -> SnapshotCheck {
    var check = self
    check.store = store
    return check
  }

  /// A hash of what makes two reports parts of one run.
  static func runIdentity(suite: [Case], snapshots: String, recordMode: RecordMode, options: ComparisonOptions) -> String {
    let optionsText = (try? DeterministicJSON.bytes(options)).map { String(decoding: $0, as: UTF8.self) } ?? ""
    let text = ([snapshots, recordMode.rawValue, optionsText] + suite.map(\.name)).joined(separator: "\n")
    return String(SHA256.hex(Array(text.utf8)).prefix(16))
  }

  /// Loads a case's table: its document, or a one-row table of a design's preview item,
  /// with every file it was read from in its ``TableDocument/dependencies``.
  static func load(
    _ testCase: Case, fontFamilies: [String], imageFolders: ImageFolders, brandFonts: [BrandFont]
  ) throws -> TableDocument {
    guard let preview = testCase.preview else {
      return try TableDocument.load(testCase.document, fontFamilies: fontFamilies, imageFolders: imageFolders, brandFonts: brandFonts)
    }
    let families = fontFamilies + brandFonts.flatMap(\.families)
    let (stylesheet, stylesheetFiles) = try preview.stylesheet.map {
      try Stylesheet.loadRecordingFiles(contentsOf: $0, fontFamilies: families)
    } ?? (.default, [])
    let template = try DesignTemplate.load(
      contentsOf: testCase.document, stylesheet: stylesheet, fontFamilies: families + stylesheet.fonts.flatMap(\.families),
      assets: preview.assets)
    var document = TableDocument.designPreview(
      template, named: preview.design, file: testCase.document, preview: preview.index, selected: preview.selected,
      stylesheet: stylesheet, assets: preview.assets)
    document.fonts = brandFonts
    document.dependencies = [testCase.document] + stylesheetFiles
    return document
  }

  /// The check's settings that change how `testCase` renders or whether it passes, one per
  /// line: part of what the render cache compares (``CaseInputs/settings``). Paths are
  /// stored as the cache stores them (relative to the checked folder), so that clones of a
  /// repository in other places agree.
  private func renderSettings(for testCase: Case, cache: RenderCache?) -> [String] {
    func path(_ url: URL) -> String {
      let path = ContainedPath.standardized(url).path
      return cache?.storedPath(path) ?? path
    }
    var settings: [String] = []
    if let variant = testCase.variant { settings.append("variant \(variant.name)") }
    if let preview = testCase.preview {
      settings.append("preview \(preview.design) \(preview.index + 1)\(preview.selected ? " selected" : "")")
      settings.append("assets \(path(preview.assets))")
      if let stylesheet = preview.stylesheet { settings.append("stylesheet \(path(stylesheet))") }
    }
    if let documents = imageFolders.documents { settings.append("documents folder \(path(documents))") }
    if let cache = imageFolders.cache { settings.append("cache folder \(path(cache))") }
    for font in brandFonts { settings.append("font \(path(font.file))") }
    if allowsFailedImages { settings.append("failed images allowed") }
    if failsOnMissingGlyphs { settings.append("strict") }
    return settings
  }

  /// The result of a case passed from the render cache, or why it must render (nil and the
  /// reasons): its stored inputs must all hold, and its reference must have the layout
  /// record a render would otherwise add. `inputsChanged`: the reference has stored inputs,
  /// and they no longer hold.
  private func cachedPass(
    _ testCase: Case, settings: [String], cache: RenderCache
  ) async -> (CaseResult?, [String], lacksRecord: Bool, inputsChanged: Bool) {
    guard let reference = try? store.referenceURL(suite: testCase.suite, name: testCase.baseName) else {
      return (nil, [], false, false)
    }
    let (store, keepsLayoutRecords) = (self.store, self.keepsLayoutRecords)
    let recordsWithoutRecord = RecordMode.effective(record, environment: store.processEnvironment) != .never
    let document = testCase.document
    // File work, off the caller's thread (see `fileWork`).
    let verdict = try? await fileWork { () -> (changes: [String], lacksRecord: Bool) in
      // Never hashed through a link out of the references: the render's check refuses such a
      // reference or record, and says so.
      guard (try? store.confineReading(reference)) != nil else {
        return (["the reference or its layout record leads out of the references folder"], false)
      }
      guard let stored = store.storedInputs(suite: testCase.suite, name: testCase.baseName) else {
        return ([FileManager.default.fileExists(atPath: reference.path) ? "no stored inputs" : "no reference"], false)
      }
      // A table too long for a record never has one: the cache passes it all the same.
      let lacksRecord = keepsLayoutRecords && stored.tooLongForALayoutRecord != true
        && !FileManager.default.fileExists(atPath: LayoutRecord.url(besidePNG: reference).path)
      if lacksRecord, recordsWithoutRecord { return (["no layout record"], false) }
      return (cache.changes(since: stored, document: document, reference: reference, settings: settings), lacksRecord)
    }
    guard let (changes, lacksRecord) = verdict else { return (nil, ["the inputs could not be read"], false, false) }
    guard changes.isEmpty else { return (nil, changes, false, !lacksRecord && Self.areInputChanges(changes)) }
    // The name is claimed as a render's check claims it: a case checked twice in one run is
    // an error, passed from the cache or not.
    if case .failure(let early) = store.claim(
      suite: testCase.suite, name: testCase.baseName, options: options, record: record, confinementChecked: true)
    {
      var result = CaseResult(name: testCase.name, document: testCase.document.path, status: .error)
      result.message = early.outcome.message
      return (result, [], false, false)
    }
    await store.removeStaleArtifacts(suite: testCase.suite, name: testCase.baseName, pool: pool)
    var result = CaseResult(name: testCase.name, document: testCase.document.path, status: .passed)
    result.cached = true
    if !reportsOnlyFailures { result.reference = await copyForReport(reference, testCase, "reference.png") }
    return (result, [], lacksRecord, false)
  }

  /// Whether `reasons` to render are changes of the case's inputs since its reference, rather
  /// than its having none to compare (no stored inputs, no reference).
  private static func areInputChanges(_ reasons: [String]) -> Bool {
    !reasons.contains { ["no stored inputs", "no reference", "no layout record"].contains($0) || $0.hasSuffix("out of the references folder") }
  }

  /// The most rows of a table whose layout record a check keeps. A record is made whole in
  /// memory, about 8 KB a row, while the rest of a check runs in memory that does not grow
  /// with the table: a longer table is checked by its pixels alone, and no note asks for its
  /// record.
  public static let maximumLayoutRecordRows = 2_000

  /// Runs one case: its result, and whether its reference has no layout record.
  func check(_ testCase: Case, fontFamilies: [String], cache: RenderCache?) async -> (CaseResult, Bool) {
    let meter = WorkMeter()
    var (result, hasNoRecord) = await WorkMeter.$current.withValue(meter) {
      await checkUntimed(testCase, fontFamilies: fontFamilies, cache: cache)
    }
    // Milliseconds are enough to plan shards, and keep report.json short.
    result.seconds = (meter.seconds * 1000).rounded() / 1000
    return (result, hasNoRecord)
  }

  private func checkUntimed(_ testCase: Case, fontFamilies: [String], cache: RenderCache?) async -> (CaseResult, Bool) {
    let settings = renderSettings(for: testCase, cache: cache)
    var renderedBecause: [String] = []
    // A case whose inputs changed since its reference was recorded may pass with the record
    // of the old ones: it is made again, and kept when the pixels match.
    var refreshesRecord = false
    // Re-recording everything (`--record all`) renders every case, and keeps their inputs: it
    // rewrites each layout record and the environment, which a case passed from the cache
    // would leave as they are.
    if let cache, RecordMode.effective(record, environment: store.processEnvironment) != .all {
      let (cached, reasons, lacksRecord, inputsChanged) = await cachedPass(testCase, settings: settings, cache: cache)
      if let cached { return (cached, lacksRecord) }
      renderedBecause = reasons
      refreshesRecord = inputsChanged
    }
    var (result, hasNoRecord, written) = await render(
      testCase, fontFamilies: fontFamilies, cache: cache, settings: settings, refreshingRecord: refreshesRecord)
    if explainsRenderCache, cache != nil, !renderedBecause.isEmpty { result.renderedBecause = renderedBecause }
    if let written, result.status == .passed || result.status == .new {
      // The proof is kept only once the case's outcome is known to be a clean match.
      do {
        let store = self.store
        try await fileWork { try store.writeInputs(written, suite: testCase.suite, name: testCase.baseName) }
      } catch {
        result.warnings = (result.warnings ?? []) + ["the render cache's inputs file could not be written: \(error)"]
      }
    }
    return (result, hasNoRecord)
  }

  /// Renders and checks one case: its result, whether its reference has no layout record,
  /// and the inputs to keep beside the reference when the render matched it pixel for pixel
  /// and the cache may write (the record mode writes anything; the inputs are new or changed).
  private func render(
    _ testCase: Case, fontFamilies: [String], cache: RenderCache?, settings: [String], refreshingRecord: Bool
  ) async -> (CaseResult, Bool, CaseInputs?) {
    var tooLongForARecord = false
    let renderStart = Date()
    var result = CaseResult(name: testCase.name, document: testCase.document.path, status: .error)
    var loaded: TableDocument?
    var lastManifest: Manifest?
    let outcome: SnapshotOutcome
    let layout: LayoutFindings
    var missing: [String] = []
    // Slots whose default image cannot be shown: a warning, not a failure (nothing asked for
    // failed), as `rowkit render` prints it.
    var unshownDefaults: [String] = []
    var findings: [String] = []
    var fixedFindings: [String] = []
    do {
      let (folders, fonts) = (imageFolders, brandFonts)
      let document = try await pool.run {
        try Self.load(testCase, fontFamilies: fontFamilies, imageFolders: folders, brandFonts: fonts)
      }
      loaded = document
      var renderer = document.makeRenderer(pipeline: pipeline, pool: pool)
      renderer.imageDeadline = imageDeadline
      if let lint { renderer.lint = document.lintOptions.adding(lint) }
      renderer.measuresHeadroom = measuresHeadroom
      renderer.minimumHeadroom = minimumHeadroom
      if let variant = testCase.variant { renderer = renderer.rendering(variant) }
      tooLongForARecord = document.dataSource.numberOfRows > Self.maximumLayoutRecordRows
      let keepsRecords = keepsLayoutRecords
      // Strip by strip into the check: a table of any height is never whole in memory. The
      // manifest is kept for its image states, which a reference must not show failed.
      func render(into receiver: any TableImageReceiver, recordsLayout: Bool) async throws -> LayoutRecord? {
        var renderer = renderer
        renderer.recordsLayout = recordsLayout && !tooLongForARecord
        let rendered = try await document.render(with: renderer, into: receiver, keepsManifest: true)
        lastManifest = rendered.manifest
        result.headroom = rendered.manifest.headroom
        if lint != nil { findings = lintFindings(testCase, rendered.manifest, document.dataSource, fixed: &fixedFindings) }
        // A variant's warnings name it: the same row warns in every variant.
        let variant = testCase.variant.map { "[\($0.name)] " } ?? ""
        missing = rendered.rowsWithMissingGlyphs.map { variant + $0.missingGlyphWarning(file: testCase.document.path) }
        unshownDefaults = rendered.manifest.rows.flatMap { $0.unshownDefaultWarnings(file: testCase.document.path) }.map { variant + $0 }
        if failsOnMissingGlyphs, !missing.isEmpty { throw SnapshotError(missing.joined(separator: "; ") + " (--strict)") }
        try refuseSubstitutes(in: rendered.manifest.rows, of: document, file: testCase.document.path)
        return rendered.layoutRecord
      }
      if keepsRecords {
        (outcome, layout) = try await store.check(
          suite: testCase.suite, name: testCase.baseName, options: options, record: record, pool: pool, refreshingRecord: refreshingRecord
        ) { receiver, recordsLayout in try await render(into: receiver, recordsLayout: recordsLayout) }
      } else {
        outcome = try await store.check(
          suite: testCase.suite, name: testCase.baseName, options: options, record: record, pool: pool
        ) { receiver in _ = try await render(into: receiver, recordsLayout: false) }
        layout = LayoutFindings()
      }
      let warnings = missing + unshownDefaults + fixedFindings
      if !warnings.isEmpty { result.warnings = warnings }
    } catch {
      result.message = "\(error)"
      if !missing.isEmpty { result.warnings = missing }
      return (result, false, nil)
    }
    result.message = outcome.message
    let caseDirectory = store.artifactDirectory(suite: testCase.suite, name: testCase.baseName)
    switch outcome {
    case .matched(let comparison):
      result.status = .passed
      result.result = comparison
      if !reportsOnlyFailures {
        result.reference = await copyForReport(try? store.referenceURL(suite: testCase.suite, name: testCase.baseName), testCase, "reference.png")
      }
    case .recorded(let path, _):
      result.status = .new
      result.actual = await copyForReport(URL(fileURLWithPath: path), testCase, "actual.png")
    case .failed(_, let comparison, let artifacts):
      result.status = comparison == nil && artifacts?.reference == nil ? .missing : .failed
      result.result = comparison
      result.reference = artifacts?.reference.map { relative($0) }
      result.actual = artifacts.map { relative($0.actual) }
      result.diff = artifacts?.diff.map { relative($0) }
      result.composite = artifacts.map { relative($0.composite) }
      let written = caseDirectory.appendingPathComponent("actual.png")
      if artifacts == nil, (try? await fileWork { FileManager.default.fileExists(atPath: written.path) }) == true {
        result.actual = relative(written.path)
      }
    case .environmentMismatch:
      result.status = .failed
    case .error:
      result.status = .error
    }
    await record(layout, in: &result, testCase)
    if !findings.isEmpty {
      // A design problem fails the case whatever its pixels did.
      result.findings = findings
      if result.status != .error { result.status = .failed }
      let count = findings.count == 1 ? "1 lint finding" : "\(findings.count) lint findings"
      result.message = "\(testCase.name): \(count): " + findings.joined(separator: "; ")
    }
    var written: CaseInputs?
    // A case with a warning is never passed from the cache, which would pass it without one.
    if let cache, let document = loaded, let manifest = lastManifest, missing.isEmpty, unshownDefaults.isEmpty, findings.isEmpty,
      outcome.isPixelForPixel, !store.environmentDiffers,
      RecordMode.effective(record, environment: store.processEnvironment) != .never,
      let reference = try? store.referenceURL(suite: testCase.suite, name: testCase.baseName)
    {
      let (store, tooLongForARecord) = (self.store, tooLongForARecord)
      written = try? await pool.run { () -> CaseInputs? in
        var inputs = cache.inputs(
          of: document, manifest: manifest, otherFiles: self.brandFonts.map(\.file), reference: reference, settings: settings,
          renderStart: renderStart, recordedReference: outcome.isRecorded)
        if tooLongForARecord { inputs?.tooLongForALayoutRecord = true }
        return inputs != store.storedInputs(suite: testCase.suite, name: testCase.baseName) ? inputs : nil
      }
    }
    return (result, layout.referenceHasNoRecord && !tooLongForARecord, written)
  }

  /// The lines of a case's lint findings that fail it: every finding, or with a baseline the
  /// new ones; `fixed` gets the baseline's findings that are gone.
  private func lintFindings(
    _ testCase: Case, _ manifest: Manifest, _ dataSource: any TableDataSource, fixed: inout [String]
  ) -> [String] {
    guard let lintBaseline else { return LintReport(file: testCase.document.path, manifest: manifest).lines }
    // The document as `rowkit lint` names it, by its path from the working folder, so that
    // one baseline serves both; a baseline written by hand before names it by the case.
    let path = displayPath(testCase.document)
    let caseName = testCase.variant == nil ? testCase.name : String(testCase.name[..<(testCase.name.lastIndex(of: "@") ?? testCase.name.endIndex)])
    let namesCases = lintBaseline.findings.contains { $0.document == caseName } && !lintBaseline.findings.contains { $0.document == path }
    let document = namesCases ? caseName : path
    let comparison = lintBaseline.compare([LintReport(file: document, manifest: manifest, dataSource: dataSource)])
    fixed = comparison.fixed.map { "fixed lint finding, still in the baseline: " + $0.line }
    return comparison.new.map { "new: " + $0.line }
  }

  /// Puts a case's layout findings in its result, and its records in the report.
  private func record(_ layout: LayoutFindings, in result: inout CaseResult, _ testCase: Case) async {
    if !layout.changes.isEmpty { result.layoutChanges = layout.changes }
    if let unreadable = layout.unreadableRecord {
      result.warnings = (result.warnings ?? [])
        + ["\(unreadable); what changed cannot be told (rowkit check --record all writes the record again)"]
    }
    if layout.rasterizationOnly, result.status == .failed { result.rasterizationOnly = true }
    if let pixelOnly = layout.pixelOnly {
      result.pixelOnly = true
      result.pixelOnlyElements = pixelOnly.elements
      result.pixelOnlySummary = pixelOnly.sentence
    }
    result.actualLayout = layout.actualRecord.map { relative($0.path) }
    result.referenceLayout = layout.referenceRecord.map { relative($0.path) }
    if result.status == .new, let written = layout.writtenRecord {
      result.actualLayout = await copyForReport(written, testCase, "actual.layout.json")
    }
  }

  /// Throws, naming the rows, when `rendered` shows what must never become a reference, as
  /// the Swift assertions refuse it (``SnapshotSubstitutes``): an image that failed to load
  /// (its slot's default drawn instead), unless ``allowsFailedImages`` or the document
  /// switches the `imageFailed` lint rule off, or the fallback cell.
  private func refuseSubstitutes(in rows: [Manifest.Row], of document: TableDocument, file: String) throws {
    let ruleOff = !document.lintOptions.adding(lint ?? LintOptions()).runs(.imageFailed)
    let allowed: SnapshotSubstitutes = allowsFailedImages || ruleOff ? .failedImages : []
    let problems = allowed.problems(in: rows, file: file)
    guard !problems.isEmpty else { return }
    throw SnapshotError(
      problems.joined(separator: "; ") + "; a reference must not show this, so nothing was compared or recorded"
        + " (a document that shows a failed image on purpose has lint: { off: [imageFailed] }; --lint-off imageFailed allows it in every case)")
  }

  /// Puts a copy of `source` in the report's case folder and returns its relative path.
  /// Runs `work`, which reads or writes files, on the loading executor's threads (two at
  /// least): off Swift's cooperative pool, and beside the render workers rather than in
  /// their queue. With one render worker, cases passed from the cache otherwise waited
  /// there for one another's file work: 8% more time for a check of 200 cached cases.
  private func fileWork<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await LoadingExecutor.shared.run { try work() }
  }

  private func copyForReport(_ source: URL?, _ testCase: Case, _ name: String) async -> String? {
    guard let reportDirectory = stagedReportDirectory ?? reportDirectory, let source else { return nil }
    let target = store.artifactDirectory(suite: testCase.suite, name: testCase.baseName).appendingPathComponent(name)
    // A reference of tens of megabytes is copied off the caller's thread (see `fileWork`).
    let copied = try? await fileWork { () -> Bool in
      try OutputWriter.createFolder(target.deletingLastPathComponent())
      try TiledPNG.copy(source, to: target)
      return true
    }
    guard copied == true else { return nil }
    return relative(target.path, to: reportDirectory)
  }

  private func relative(_ path: String) -> String {
    guard let reportDirectory = stagedReportDirectory ?? reportDirectory else { return path }
    return relative(path, to: reportDirectory)
  }

  private func relative(_ path: String, to directory: URL) -> String {
    let prefix = directory.standardizedFileURL.path + "/"
    return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
  }

  /// Deletes the report's orphaned references: what `--prune` does.
  public func prune(_ report: Report) throws {
    try store.removeReferences(report.orphans)
  }
}
