import Foundation
import RowKit
import RowKitGraphics

/// The SHA-256 of files read during one check, each file read once however many cases
/// share it (a stylesheet, a brand font, an image), and where their links lead.
final class FileDigests: Sendable {
  private let digests = Locked<[String: String]>([:])
  private let targets = Locked<[String: String?]>([:])

  /// What `make` gives for `path`, worked out once a check: where a path's links lead, as
  /// the cache stores it (every case of a suite names the same stylesheets and folders).
  func target(of path: String, _ make: () -> String?) -> String? {
    if let known = targets.withLock({ $0[path] }) { return known }
    let target = make()
    targets.withLock { $0[path] = .some(target) }
    return target
  }

  /// The hex SHA-256 of the file at `path`, or ``CaseInputs/missingFile``.
  func sha256(ofFileAt path: String) -> String {
    if let known = digests.withLock({ $0[path] }) { return known }
    let digest = Self.sha256(ofRegularFileAt: path) ?? CaseInputs.missingFile
    digests.withLock { $0[path] = digest }
    return digest
  }

  /// The hex SHA-256 of the regular file at `path`; nil for anything else. Stored paths come
  /// from committed files, which a pull request may change: a FIFO or a device named there
  /// must not make the check wait forever.
  static func sha256(ofRegularFileAt path: String) -> String? {
    guard InputFile.problem(at: path) == nil else { return nil }
    return SHA256.hex(ofFileAt: path)
  }
}

/// What the render cache needs to know about a check: where relative paths start, the
/// environment, the check's settings and how downloaded images are kept.
struct RenderCache: Sendable {
  /// The checked folder: stored paths are relative to it when inside it.
  let folder: URL
  /// The hex SHA-256 of the environment fingerprint the check renders in.
  var environment: String
  /// Digests of the files this check has read.
  var digests = FileDigests()
  /// Where downloaded images come from.
  var pipeline: ImagePipeline
  /// `folder`'s path, standardized once: every case's stored paths are resolved against it.
  private let folderPath: String
  /// `folder` with its links followed: where inputs' links lead is stored relative to it, so
  /// that a checkout reached through a link (a home folder on another disk) stores what one
  /// reached directly does.
  private let resolvedFolder: URL

  /// The folder every stored file must lie in (after its links) to be read; nil for any.
  ///
  /// Inputs files come from the repository, which a pull request may change: a path in one
  /// that leads elsewhere (`/etc/shadow`, `../../../home`, a link out) would have the check
  /// hash that file and say whether it exists or matches a guess. Such a file is never read,
  /// and its case renders.
  let boundary: URL?
  /// ``boundary`` with its links followed, once: every input of every case is checked in it.
  private let resolvedBoundary: String?

  init(folder: URL, boundary: URL? = nil, environment: String, pipeline: ImagePipeline) {
    self.folder = folder
    self.boundary = boundary
    resolvedBoundary = boundary.flatMap { ContainedPath.resolved($0) }
    self.environment = environment
    self.pipeline = pipeline
    folderPath = ContainedPath.standardized(folder).path
    resolvedFolder = URL(fileURLWithPath: ContainedPath.resolved(folder) ?? folderPath)
  }

  /// The project a check of the folder `checked` against `references` reads from: the Git
  /// work tree that holds `checked` (the folder with `.git`, as in a pull request's CI run);
  /// outside one, the folder that holds both `checked` and `references`, or `checked` itself
  /// when they share no folder but the root. A project's documents, styles, fonts, images
  /// and references are inside it; a file outside it is one no inputs file needs to name.
  static func boundary(checked: URL, references: URL) -> URL {
    let checked = checked.standardizedFileURL
    var folder = checked
    while true {
      var info = stat()
      if lstat(folder.appendingPathComponent(".git").path, &info) == 0 { return folder }
      let parent = folder.deletingLastPathComponent()
      guard parent.path != folder.path else { break }
      folder = parent
    }
    let (a, b) = (checked.pathComponents, references.standardizedFileURL.pathComponents)
    let shared = zip(a, b).prefix { $0 == $1 }.count
    guard shared > 1 else { return checked }
    return URL(fileURLWithPath: NSString.path(withComponents: Array(a.prefix(shared))))
  }

  /// The hex SHA-256 of the reference at `png` (its tiles in order for a tall one), read
  /// anew each time: a reference recorded during the check must not hash as the old one.
  static func referenceDigest(_ png: URL) -> String? {
    let files = TiledPNG.files(of: png)
    guard !files.isEmpty else { return nil }
    if files.count == 1 { return FileDigests.sha256(ofRegularFileAt: files[0].path) }
    var bytes: [UInt8] = []
    for file in files {
      guard let tile = try? InputFile.read(file.path) else { return nil }
      bytes += tile
    }
    return SHA256.hex(ofBuffer: bytes)
  }

  /// What is at `path` as a file of `kind` is read: a folder's mark, a file's SHA-256.
  private func digest(_ path: String, kind: CaseInputs.File.Kind) -> String {
    guard kind == .folder else { return digests.sha256(ofFileAt: path) }
    var isFolder: ObjCBool = false
    return FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) && isFolder.boolValue
      ? CaseInputs.folder : CaseInputs.missingFile
  }

  /// Where `path`'s links lead, stored relative to the checked folder with its own links
  /// followed; nil when that is where `path` itself is stored (no link inside the project).
  private func target(of path: String) -> String? {
    digests.target(of: path) {
      let target = storedPath(ContainedPath.resolved(URL(fileURLWithPath: path)) ?? path, base: resolvedFolder)
      return target == storedPath(path) ? nil : target
    }
  }

  /// Why a render of the case of `document` could now differ from what `stored` proves, one
  /// phrase each (`stylesheet Styles/app.yaml changed`); empty when nothing that decides the
  /// render or its reference changed, and the case passes without rendering.
  func changes(since stored: CaseInputs, document: URL, reference: URL, settings: [String]) -> [String] {
    var changes: [String] = []
    // Inputs copied beside another case's reference prove nothing of this one.
    let documentPath = storedPath(ContainedPath.standardized(document).path)
    if !stored.files.contains(where: { $0.kind == .document && $0.path == documentPath }) {
      changes.append("the inputs are not of \(documentPath)")
    }
    if stored.renderCode != CaseInputs.currentRenderCode { changes.append("render code changed") }
    if stored.environment != environment { changes.append("environment changed") }
    if stored.settings != settings {
      let added = settings.filter { !stored.settings.contains($0) }
      let removed = stored.settings.filter { !settings.contains($0) }
      changes.append("settings changed (" + (removed.map { "was \($0)" } + added.map { "now \($0)" }).joined(separator: ", ") + ")")
    }
    switch Self.referenceDigest(reference) {
    case nil: changes.append("reference \(reference.lastPathComponent) is missing")
    case stored.reference: break
    default: changes.append("reference \(reference.lastPathComponent) changed")
    }
    for file in stored.files {
      let path = absolutePath(file.path)
      if let boundary, !(resolvedBoundary.map { ContainedPath.isInside(URL(fileURLWithPath: path), resolvedFolder: $0) } ?? false) {
        changes.append("\(file.kind.rawValue) \(file.path) is outside \(boundary.path), so it is not read")
        continue
      }
      if target(of: path) != file.target {
        changes.append("\(file.kind.rawValue) \(file.path) leads elsewhere through its links")
        continue
      }
      let now = digest(path, kind: file.kind)
      guard now != file.sha256 else { continue }
      let what = now == CaseInputs.missingFile ? "is missing" : file.sha256 == CaseInputs.missingFile ? "appeared" : "changed"
      changes.append("\(file.kind.rawValue) \(file.path) \(what)")
    }
    for download in stored.downloads {
      guard let url = URL(string: download.url), let bytes = pipeline.diskCachedData(for: url) else {
        changes.append("image \(download.url) is not in the image cache")
        continue
      }
      if SHA256.hex(ofBuffer: bytes) != download.sha256 { changes.append("image \(download.url) changed") }
    }
    return changes
  }

  /// The inputs of a render of `document` that showed the rows of `manifest` and matched the
  /// reference at `reference` pixel for pixel; nil when they cannot be told exactly: a
  /// downloaded image the image cache does not hold, a download that failed (a timeout is no
  /// outcome of the inputs; a local file that is missing or damaged is, and is named), or a
  /// file changed since `renderStart` (the render may have read it as it was before). The
  /// case then always renders.
  func inputs(
    of document: TableDocument, manifest: Manifest, otherFiles: [URL], reference: URL, settings: [String],
    renderStart: Date? = nil, recordedReference: Bool = false
  ) -> CaseInputs? {
    let resolver = document.imageResolver
    let failedDownload = manifest.rows.contains { row in
      row.images.contains { image in
        guard image.state == .failed, let url = image.url, case .remote? = try? resolver.resolve(url) else { return false }
        return true
      }
    }
    guard !failedDownload, let referenceDigest = Self.referenceDigest(reference) else { return nil }
    func standardized(_ url: URL) -> String { ContainedPath.standardized(url).path }
    let fontPaths = Set((document.fonts + document.stylesheet.fonts).map { standardized($0.file) })
    let designPaths = Set(document.designs.values.map { standardized(URL(fileURLWithPath: $0.file)) })
    let documentPath = standardized(document.file)
    var files: [CaseInputs.File] = []
    var seen: Set<String> = []
    var modified: [Date] = []
    func add(_ url: URL, _ kind: CaseInputs.File.Kind? = nil) {
      let path = standardized(url)
      guard seen.insert(path).inserted else { return }
      let kind = kind ?? (path == documentPath ? .document : fontPaths.contains(path) ? .font : designPaths.contains(path) ? .design : .stylesheet)
      // A folder's time changes with what is added to it (the references, beside a document):
      // only files are read by the render.
      // Its time before its bytes: a save between the two shows in the time.
      if kind != .folder, renderStart != nil { modified += Self.changeDates(path) }
      files.append(CaseInputs.File(kind: kind, path: storedPath(path), sha256: digest(path, kind: kind), target: target(of: path)))
    }
    add(document.file, .document)
    document.dependencies.forEach { add($0) }
    otherFiles.forEach { add($0) }
    fontPaths.forEach { add(URL(fileURLWithPath: $0), .font) }
    // The folders the document names must still be there for it to load. One outside the
    // project is never read back (see `boundary`), so it is not named.
    for folder in [document.assetsDirectory, document.imageFolders.documents, document.imageFolders.cache].compactMap({ $0 })
    where boundary == nil || resolvedBoundary.map({ ContainedPath.isInside(folder, resolvedFolder: $0) }) == true {
      add(folder, .folder)
    }
    var downloads: [String: CaseInputs.Download] = [:]
    for location in manifest.rows.flatMap({ $0.imageLocations(resolver: resolver) }) {
      switch location {
      case .file(let url):
        add(url, .image)
      case .remote(let url):
        guard let bytes = pipeline.diskCachedData(for: url) else { return nil }
        downloads[url.absoluteString] = CaseInputs.Download(url: url.absoluteString, sha256: SHA256.hex(ofBuffer: bytes))
      }
    }
    // The reference too: one replaced while the case was compared (a checkout, an accept, a
    // second check recording) was compared as it was before, not as it is hashed here. One
    // this case recorded is the render's own image.
    if renderStart != nil, !recordedReference {
      for tile in TiledPNG.files(of: reference) { modified += Self.changeDates(tile.path) }
    }
    // A file changed between the render's start and now (after every file was hashed) may
    // have been read by the render as it was before. A time past now is a file's own (copied,
    // unpacked), not a save during the render: files are known by their bytes, and such a
    // file keeps its proof. (The file system's clock may lag the process's by a tick, so a
    // save in the render's first milliseconds can go unseen; opening the window earlier would
    // take the proof from files saved just before a check, as every test and editor does. A
    // wall clock set back during the render leaves no window to look in.)
    let now = Date()
    if let renderStart, renderStart <= now, modified.contains(where: { (renderStart...now).contains($0) }) { return nil }
    return CaseInputs(
      reference: referenceDigest, renderCode: CaseInputs.currentRenderCode, environment: environment,
      settings: settings, files: files, downloads: Array(downloads.values))
  }

  /// When the file at `path` last changed, to the nanosecond the file system keeps: its
  /// modification time and its status change time, which no copy that keeps times
  /// (`cp -p`, `rsync -t`, `tar x`) can set back, so a file so replaced during the render
  /// shows too, whatever time it was given (an earlier one, or one past now).
  private static func changeDates(_ path: String) -> [Date] {
    var info = stat()
    guard stat(path, &info) == 0 else { return [] }
    return [info.st_mtim, info.st_ctim].map { Date(timeIntervalSince1970: Double($0.tv_sec) + Double($0.tv_nsec) / 1e9) }
  }

  /// `path` as stored: relative to the checked folder (`../Styles/app.yaml` for a file
  /// beside it), so that clones of a repository in other places agree; absolute when the
  /// two share no folder but the root (a system font).
  func storedPath(_ path: String, base: URL? = nil) -> String {
    let base = (base ?? URL(fileURLWithPath: folderPath)).pathComponents
    let target = ContainedPath.standardized(URL(fileURLWithPath: path)).pathComponents
    var shared = 0
    while shared < base.count, shared < target.count, base[shared] == target[shared] { shared += 1 }
    guard shared > 1 else { return path }
    let relative = (Array(repeating: "..", count: base.count - shared) + target[shared...]).joined(separator: "/")
    return relative.isEmpty ? "." : relative
  }

  /// A stored path as a path on this machine.
  private func absolutePath(_ stored: String) -> String {
    guard !stored.hasPrefix("/") else { return stored }
    return ContainedPath.standardized(URL(fileURLWithPath: folderPath + "/" + stored)).path
  }
}
