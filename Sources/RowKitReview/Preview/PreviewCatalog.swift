import Foundation
import RowKit
import RowKitGraphics
import RowKitSnapshot

/// What `rowkit preview` shows: every table document and cell design of its paths, at every
/// variant, rendered with the lint on, and rendered again when a file it read changes.
///
/// ``refresh()`` looks at the files: a case is rendered again only when a file its last
/// render read (document, stylesheets, designs, brand fonts, images) changed, or when it is
/// new. A render that fails keeps the case's last good image beside the error.
package final class PreviewCatalog: Sendable {
  /// One case of the catalog, as the page shows it.
  package struct Entry: Sendable, Encodable, Equatable {
    /// The case's name (`settings@dark`, `Card/preview-1-selected`).
    package var name: String
    /// The document or design file, as given.
    package var file: String
    /// The catalog's version when the case last changed: the page asks for its image again
    /// when this moves.
    package var version: Int
    /// The catalog's version when the image last changed: part of its address, so that an
    /// error shown over the last good image leaves the image alone.
    package var imageVersion: Int
    /// Whether an image was ever rendered (the last good one is kept through errors).
    package var hasImage: Bool
    /// The image's size in points.
    package var width: Double
    package var height: Double
    /// The lint findings of the last good render, each with its box.
    package var marks: [PreviewRender.Mark]
    /// Why the last render failed (file, line, column and key for a document's mistake).
    package var error: String?
  }

  private struct Item {
    var entry: Entry
    var testCase: SnapshotCheck.Case?
    var png: [UInt8]?
    /// The files watched for the case, and how each was before it was last read: those of
    /// the last render, or of the last good render and the failed one's load.
    var stamps: [String: FileStamp]
    /// The files the last good render read: a failed render watches them and its own, so that
    /// what a failure looked for is watched until the next render, not for the session.
    var goodFiles: [String] = []
  }

  private struct State {
    var version = 0
    var items: [String: Item] = [:]
    var order: [String] = []
    /// Files seen as cell designs: one that stops parsing stays a design, showing its error.
    var knownDesigns: Set<String> = []
    /// What the paths held at the last look, by path.
    var listings: [String: Set<String>]?
    /// The cases being rendered: not rendered again until that render is done.
    var rendering: Set<String> = []
    /// Cases a look found while they were being rendered: looked at again once their render
    /// is done, as what that look found was not taken.
    var lookedAtWhileRendering: Set<String> = []
    /// Whether the next look must find the cases again though no file or folder changed.
    var looksAgain = false
  }

  private let paths: [URL]
  private let stylesheet: URL?
  private let assets: URL?
  private let variants: VariantAxes
  private let check: SnapshotCheck
  private let fontFamilies: [String]
  private let state = Locked(State())

  /// A catalog of the documents and designs at `paths` (files or folders); designs use
  /// `stylesheet` and resolve `bundle://` under `assets` (default: the design's folder);
  /// `variants` are added to every document's own and given to every design. Images load
  /// through `pipeline`, each render waiting at most `imageDeadline` seconds for them.
  package init(
    paths: [URL], stylesheet: URL? = nil, assets: URL? = nil, variants: VariantAxes = VariantAxes(),
    pipeline: ImagePipeline = .shared, imageDeadline: Double = TableRenderer.defaultImageDeadline
  ) throws {
    self.paths = paths.map(\.standardizedFileURL)
    self.stylesheet = stylesheet
    self.assets = assets
    self.variants = variants
    fontFamilies = try TextEnvironment.standard.fontSet().families
    let root = self.paths.first.map { $0.hasDirectoryPath ? $0 : $0.deletingLastPathComponent() } ?? URL(fileURLWithPath: ".")
    // The preview compares nothing: the store is never read or written.
    var check = SnapshotCheck(folder: root, store: ReferenceStore(root: root, processEnvironment: [:]))
    check.allowsFailedImages = true
    check.pipeline = pipeline
    check.imageDeadline = imageDeadline
    self.check = check
  }

  /// The cases in order.
  package var entries: [Entry] {
    state.withLock { state in state.order.compactMap { state.items[$0]?.entry } }
  }

  /// A number that grows whenever an entry changes.
  package var version: Int { state.withLock { $0.version } }

  /// The last good image of the case `name`.
  package func image(of name: String) -> [UInt8]? {
    state.withLock { $0.items[name]?.png }
  }

  /// Finds the cases again and renders those that are new or whose files changed; returns
  /// the names of the cases that changed (rendered, failed, added or gone) once every render
  /// is done. Looks at nothing but the files' stamps and the folders' listings while neither
  /// changed.
  @discardableResult
  package func refresh() async -> [String] {
    // Listing folders, reading stamps and finding the cases is file work, done 20 times a
    // second: off the cooperative pool, whose threads also answer the page.
    guard let (toRender, foundChanged) = await offCooperativePool({ self.casesToRender() }) else { return [] }
    // Each case on the pool's workers, side by side.
    let results = await withTaskGroup(of: RenderResult.self) { group in
      for job in toRender { group.addTask { await self.render(job) } }
      var results: [RenderResult] = []
      for await result in group { results.append(result) }
      return results
    }
    return apply(results, changed: foundChanged)
  }

  /// Looks at the files every `interval` until cancelled, as ``refresh()`` does, but shows
  /// each case as soon as its own render is done: a case waiting for a slow download holds
  /// no other case's update, and is not rendered again while it waits. `changed` gets the
  /// names of the cases each update changed.
  package func watch(every interval: Duration, changed: @escaping @Sendable ([String]) -> Void) async throws {
    try await withThrowingDiscardingTaskGroup { group in
      while true {
        try await Task.sleep(for: interval)
        guard let (toRender, foundChanged) = await offCooperativePool({ self.casesToRender() }) else { continue }
        let names = apply([], changed: foundChanged)
        if !names.isEmpty { changed(names) }
        for job in toRender {
          group.addTask {
            let names = self.apply([await self.render(job)], changed: [])
            if !names.isEmpty { changed(names) }
          }
        }
      }
    }
  }

  private typealias RenderJob = (name: String, testCase: SnapshotCheck.Case, watched: [String], good: [String])
  /// A case's render: nil when it was cancelled, which says nothing of the case.
  private typealias RenderResult = (name: String, result: Result<PreviewRender, any Error>?, stamps: [String: FileStamp])

  /// Renders one case, with the stamps of the files it is to watch from now on.
  private func render(_ job: RenderJob) async -> RenderResult {
    // Stamped before the render reads them: a save during the render is seen next time.
    // The files of the last render too: a render that fails on one of them (a broken
    // stylesheet) then keeps its stamp as it is now, and is not tried again at every look.
    let document = job.testCase.document.standardizedFileURL.path
    let before = Self.stamps([job.testCase.document] + job.watched.map { URL(fileURLWithPath: $0) })
    do throws(PreviewRenderFailure) {
      let render = try await check.renderForPreview(job.testCase, fontFamilies: fontFamilies)
      // Only what this render read: a file it no longer reads is no longer watched.
      let read = [document] + render.files.map(\.standardizedFileURL.path)
      let stamps = Dictionary(read.map { path in
        (path, before[path] ?? render.stampsBeforeReading[path] ?? FileStamp(path))
      }, uniquingKeysWith: { first, _ in first })
      return (job.name, .success(render), stamps)
    } catch {
      if Task.isCancelled { return (job.name, nil, [:]) }
      // The last good render's files, and every file this load looked for up to its
      // mistake: a stylesheet broken (or missing) when first read is watched until fixed.
      let kept = before.filter { path, _ in path == document || job.good.contains(path) }
      return (job.name, .failure(error.error), kept.merging(error.stampsBeforeReading) { first, _ in first })
    }
  }

  /// Puts renders' results in the catalog, with the names of cases that changed without a
  /// render; returns the names of every case that changed, in the catalog's order, and moves
  /// the version when there are any.
  private func apply(_ results: [RenderResult], changed foundChanged: Set<String>) -> [String] {
    var changed = foundChanged
    var imageChanged: Set<String> = []
    return state.withLock { state in
      for (name, result, stamps) in results {
        state.rendering.remove(name)
        if state.lookedAtWhileRendering.remove(name) != nil { state.looksAgain = true }
        guard let result else {
          // Rendered from the start at the next look, as a case not yet rendered is.
          state.items[name]?.testCase = nil
          state.looksAgain = true
          continue
        }
        guard var item = state.items[name] else { continue }
        switch result {
        case .success(let render):
          if item.png != render.png { imageChanged.insert(name) }
          item.png = render.png
          item.entry.hasImage = true
          (item.entry.width, item.entry.height, item.entry.marks, item.entry.error) = (render.width, render.height, render.marks, nil)
          item.stamps = stamps
          item.goodFiles = Array(stamps.keys)
        case .failure(let error):
          item.entry.error = "\(error)"
          item.stamps = stamps
        }
        state.items[name] = item
        changed.insert(name)
      }
      guard !changed.isEmpty else { return [] }
      state.version += 1
      for name in changed { state.items[name]?.entry.version = state.version }
      for name in imageChanged { state.items[name]?.entry.imageVersion = state.version }
      return state.order.filter(changed.contains) + changed.filter { !state.order.contains($0) }.sorted()
    }
  }

  /// The cases to render now, and the names of those that changed without a render (gone,
  /// or a design that does not load); nil while no file or folder changed.
  private func casesToRender() -> (toRender: [RenderJob], changed: Set<String>)? {
    let listings = Dictionary(paths.map { path in
      (path.path, Set((FileTree.entries(under: path.path) ?? []).map(\.path)))
    }, uniquingKeysWith: { first, _ in first })
    let anythingChanged = state.withLock { state in
      state.looksAgain || state.listings != listings
        || state.items.values.contains { item in item.stamps.contains { path, stamp in FileStamp(path) != stamp } }
    }
    guard anythingChanged else { return nil }
    state.withLock { state in
      state.listings = listings
      state.looksAgain = false
    }
    let found = discover()
    // Each case with the files it watches and those its last good render read.
    var toRender: [RenderJob] = []
    var changed: Set<String> = []
    state.withLock { state in
      let names = found.map(\.name)
      for gone in state.order where !names.contains(gone) {
        state.items[gone] = nil
        changed.insert(gone)
      }
      state.order = names
      for item in found {
        var known = state.items[item.name] ?? Item(
          entry: Entry(name: item.name, file: item.file.path, version: 0, imageVersion: 0, hasImage: false, width: 0, height: 0, marks: [], error: nil),
          testCase: nil, png: nil, stamps: [:])
        let isNew = state.items[item.name] == nil
        // A name another file took now (one named earlier, or in an earlier folder) is that file's.
        known.entry.file = item.file.path
        let filesChanged = known.stamps.contains { path, stamp in FileStamp(path) != stamp }
        // The files as they are now: the looks until the case's render is done then find
        // nothing new unless a file is saved again. The render's own stamps, taken before it
        // read them, replace these, so a save during the render is seen after it.
        func stampedNow() { known.stamps = Dictionary(uniqueKeysWithValues: known.stamps.keys.map { ($0, FileStamp($0)) }) }
        if state.rendering.contains(item.name) {
          // Looked at again once its render is done: its render may be of another file of
          // the same name, or of what it was before this save.
          stampedNow()
          state.lookedAtWhileRendering.insert(item.name)
          state.items[item.name] = known
          continue
        }
        if let testCase = item.testCase {
          if isNew || filesChanged || known.testCase != testCase {
            toRender.append((item.name, testCase, Array(known.stamps.keys), known.goodFiles))
            state.rendering.insert(item.name)
            stampedNow()
          }
        } else if isNew || filesChanged || known.entry.error != item.error {
          // A design that does not load: its error, and the last good image stays.
          known.entry.error = item.error
          // Stamped before the files were read, as a render's are: a save while they were
          // read is seen next time, not taken for the content that gave this error.
          known.stamps = item.stampsBeforeReading ?? Self.stamps(item.files)
          changed.insert(item.name)
        }
        known.testCase = item.testCase
        state.items[item.name] = known
      }
    }
    return (toRender, changed)
  }

  // MARK: - Discovery

  private struct Found {
    var name: String
    var file: URL
    var testCase: SnapshotCheck.Case?
    var error: String?
    var files: [URL]
    /// For a design that does not load: its files' stamps from before they were read.
    var stampsBeforeReading: [String: FileStamp]?
  }

  /// Every case of the paths as they are now; a design that does not load is one entry with
  /// its error.
  private func discover() -> [Found] {
    var found: [Found] = []
    var documents: [SnapshotCheck.Case] = []
    // The files other cases read (or tried to) besides their own document: a stylesheet one
    // extends that stops parsing would look like a document (any file that does not parse
    // does), and show as a case of its own with its document's error.
    let readByOthers = state.withLock { state in
      Set(state.items.values.flatMap { item in
        let own = item.testCase?.document.standardizedFileURL.path
        return item.stamps.keys.filter { $0 != own }
      })
    }
    // A file reached twice (named on its own and inside a named folder) is one case, and a
    // file whose name another file already took is named with its folders: none hides another.
    var claimedFiles: Set<String> = []
    var fileOfName: [String: String] = [:]
    func claim(_ name: String, of file: URL) -> String? {
      let path = file.standardizedFileURL.path
      guard claimedFiles.insert(path).inserted else { return nil }
      var unique = name
      var folders = Array(file.deletingLastPathComponent().pathComponents.filter { $0 != "/" }
        .dropLast(name.split(separator: "/").count - 1))
      var suffix = 1
      while let owner = fileOfName[unique], owner != path {
        if let folder = folders.popLast() {
          unique = folder + "/" + unique
        } else {
          suffix += 1
          unique = "\(name)~\(suffix)"
        }
      }
      fileOfName[unique] = path
      return unique
    }
    func claimDesign(_ file: URL) {
      let name = file.deletingPathExtension().lastPathComponent
      guard let unique = claim(name, of: file) else { return }
      found += designs(file).map { design in
        var design = design
        if unique != name, design.name.hasPrefix(name) {
          design.name = unique + design.name.dropFirst(name.count)
          design.testCase?.name = design.name
        }
        return design
      }
    }
    for path in paths {
      var isFolder: ObjCBool = false
      guard FileManager.default.fileExists(atPath: path.path, isDirectory: &isFolder) else {
        found.append(Found(name: path.lastPathComponent, file: path, error: "\(path.path): no such file or folder", files: [path]))
        continue
      }
      if isFolder.boolValue {
        let listing = (try? FileManager.default.contentsOfDirectory(atPath: path.path)) ?? []
        var designFiles: Set<String> = []
        for name in listing.sorted() where name.hasSuffix(".yaml") || name.hasSuffix(".yml") {
          let file = path.appendingPathComponent(name)
          // A design that stops parsing would look like a document (any file that does not
          // parse does); a file once seen as a design stays one.
          if isKnownDesign(file) || (!TableDocument.looksLikeTableDocument(file) && isDesign(file)) {
            designFiles.insert(file.standardizedFileURL.path)
            claimDesign(file)
          }
        }
        for var document in (try? SnapshotCheck.discover(in: path)) ?? [] {
          let file = document.document.standardizedFileURL.path
          guard !designFiles.contains(file), !readByOthers.contains(file),
            let name = claim(document.name, of: document.document)
          else { continue }
          document.name = name
          documents.append(document)
        }
      } else if !isKnownDesign(path), TableDocument.looksLikeTableDocument(path) {
        if let name = claim(path.deletingPathExtension().lastPathComponent, of: path) {
          documents.append(SnapshotCheck.Case(name: name, document: path))
        }
      } else {
        claimDesign(path)
      }
    }
    let families = fontFamilies
    for testCase in SnapshotCheck.expandingVariants(documents, fontFamilies: families, overriding: variants) {
      found.append(Found(name: testCase.name, file: testCase.document, testCase: testCase, files: [testCase.document]))
    }
    // A name two files still give (a design's `feed/preview-1` and a document of that
    // path, or a document named like another's variant, `a@dark.yaml`) is the first one's;
    // the later takes `~2`, so that neither hides the other.
    var fileOfCase: [String: URL] = [:]
    var named: [Found] = []
    for var entry in found {
      if let owner = fileOfCase[entry.name] {
        guard owner != entry.file else { continue }
        var number = 2
        while fileOfCase["\(entry.name)~\(number)"] != nil { number += 1 }
        entry.name = "\(entry.name)~\(number)"
        entry.testCase?.name = entry.name
      }
      fileOfCase[entry.name] = entry.file
      named.append(entry)
    }
    // By name, a case's variants in their matrix's order.
    let base = { (name: String) in name.split(separator: "@", maxSplits: 1).first.map(String.init) ?? name }
    return named.enumerated()
      .sorted { (base($0.element.name), $0.offset) < (base($1.element.name), $1.offset) }.map(\.element)
  }

  private func isKnownDesign(_ file: URL) -> Bool {
    let path = file.standardizedFileURL.path
    return state.withLock { $0.knownDesigns.contains(path) }
  }

  private func isDesign(_ file: URL) -> Bool {
    guard DesignCatalog.isDesignFile(file) else { return false }
    state.withLock { _ = $0.knownDesigns.insert(file.standardizedFileURL.path) }
    return true
  }

  /// The cases of one design file at every variant, or one entry with its error.
  private func designs(_ file: URL) -> [Found] {
    let name = file.deletingPathExtension().lastPathComponent
    let watched = [file] + (stylesheet.map { [$0] } ?? [])
    let stampsBeforeReading = Self.stamps(watched)
    let (loaded, _, lookedFor) = FilesRead.collecting {
      try SnapshotCheck.designCases(
        of: file, stylesheet: stylesheet, assets: assets ?? file.deletingLastPathComponent(), fontFamilies: fontFamilies)
    }
    do {
      let cases = try loaded.get()
      state.withLock { _ = $0.knownDesigns.insert(file.standardizedFileURL.path) }
      let matrix = variants.isEmpty ? [nil] : variants.variants.map { Optional($0) }
      return cases.flatMap { testCase in
        matrix.map { variant in
          var varied = testCase
          varied.variant = variant
          if let variant { varied.name = variant.fileName(testCase.name, hasExtension: false) }
          return Found(name: varied.name, file: file, testCase: varied, files: watched)
        }
      }
    } catch {
      // The cases the design had keep their last good images, under the error.
      let previous = state.withLock { state in
        state.order.filter { state.items[$0]?.entry.file == file.path && state.items[$0]?.entry.hasImage == true }
      }
      // Every file the load reached is watched, up to the one that failed (a stylesheet the
      // `--stylesheet` extends), each stamped before it was read.
      let reached = stampsBeforeReading.merging(lookedFor) { before, _ in before }
      return (previous.isEmpty ? [name] : previous).map {
        Found(name: $0, file: file, error: "\(error)", files: watched, stampsBeforeReading: reached)
      }
    }
  }

  private static func stamps(_ files: [URL]) -> [String: FileStamp] {
    Dictionary(files.map { ($0.standardizedFileURL.path, FileStamp($0.standardizedFileURL.path)) }, uniquingKeysWith: { first, _ in first })
  }
}
