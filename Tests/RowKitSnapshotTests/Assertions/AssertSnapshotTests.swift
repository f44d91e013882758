import Foundation
import RowKit
import RowKitGraphics
import RowKitTestSupport
import Testing

@testable import RowKitSnapshot
@testable import RowKitSnapshotAssertions

@Suite struct AssertSnapshotTests {
  /// A test file's name is its references' folder, made one the references' rules take: an
  /// extension's `+`, a space or an accent no longer fails every assertion of the file.
  @Test func theDefaultSuiteIsTheFileNameAsAFolderName() {
    #expect(SnapshotConfiguration.suite(for: "AppTests/SettingsRowTests.swift") == "SettingsRowTests")
    #expect(SnapshotConfiguration.suite(for: "AppTests/SettingsRow+Snapshots.swift") == "SettingsRow-Snapshots")
    #expect(SnapshotConfiguration.suite(for: "AppTests/ÜbersichtTests.swift") == "UbersichtTests")
    #expect(SnapshotConfiguration.suite(for: "AppTests/Cells Tests.swift") == "Cells-Tests")
    #expect(SnapshotConfiguration.suite(for: "AppTests/..swift") == "Snapshots")
    // Files of other scripts keep folders of their own.
    #expect(SnapshotConfiguration.suite(for: "AppTests/設定.swift") == "U8A2D-U5B9A")
    #expect(SnapshotConfiguration.suite(for: "AppTests/一覧Tests.swift") == "U4E00-U89A7Tests")
    for fileID in ["A/SettingsRow+Snapshots.swift", "A/ÜbersichtTests.swift", "A/表.swift"] {
      #expect(throws: Never.self) { try ReferenceStore.validate(suite: SnapshotConfiguration.suite(for: fileID), name: "n") }
    }
  }

  /// Two checks of one name fail the second, naming where both are: with tests in parallel
  /// either may come first, and the message is all a reader has to find the other.
  @Test func aNameCheckedTwiceNamesBothPlaces() async throws {
    let folder = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let image = try CraftedImages.card()
    let store = ReferenceStore(root: folder, artifactsRoot: folder.appendingPathComponent("artifacts"), processEnvironment: [:])
    await withKnownIssue {
      await assertSnapshot(of: image, as: .image, named: "twice", suite: "S", store: store)
    } matching: { issue in issue.description.contains("recorded") }
    let firstLine = #line - 2
    await withKnownIssue {
      await assertSnapshot(of: image, as: .image, named: "twice", suite: "S", store: store)
    } matching: { issue in
      issue.description.contains("snapshot S/twice is checked twice in one run (first at RowKitSnapshotTests/AssertSnapshotTests.swift:\(firstLine), again at RowKitSnapshotTests/AssertSnapshotTests.swift:\(firstLine + 4))")
    }
  }

  /// How to take an intended change follows the assertion's own mode, under CI too.
  @Test func theAcceptHintNamesTheModeTheAssertionReads() {
    #expect(acceptHint(record: nil, environment: [:]).contains("run the test again with ROWKIT_RECORD=failed"))
    #expect(acceptHint(record: .never, environment: [:]).contains("pass record: .failed to this assertion"))
    let underCI = acceptHint(record: .never, environment: ["CI": "true"])
    #expect(underCI.contains("where CI is not set") && underCI.contains("pass record: .failed to this assertion"), "\(underCI)")
    #expect(!underCI.contains("ROWKIT_RECORD"), "\(underCI)")
    #expect(acceptHint(record: .failed, environment: ["CI": "true"]).contains("where CI is not set (nothing is recorded under CI), run the test once to record it,"))
    #expect(acceptHint(record: nil, environment: ["CI": "true"]).contains("where CI is not set (nothing is recorded under CI), run the test again with ROWKIT_RECORD=failed"))
  }

  @Test func aMismatchRecordsAnIssueWithTheNumbers() async throws {
    let folder = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let image = try CraftedImages.card()
    let store = ReferenceStore(root: folder, artifactsRoot: folder.appendingPathComponent("artifacts"), processEnvironment: [:])
    await withKnownIssue {
      await assertSnapshot(of: image, as: .image, named: "card", suite: "S", store: store)
    } matching: { issue in
      issue.description.contains("recorded")
    }
    let again = ReferenceStore(root: folder, artifactsRoot: folder.appendingPathComponent("artifacts"), processEnvironment: [:])
    #expect(await assertSnapshot(of: image, as: .image, named: "card", suite: "S", store: again).passed)
    let third = ReferenceStore(root: folder, artifactsRoot: folder.appendingPathComponent("artifacts"), processEnvironment: [:])
    await withKnownIssue {
      await assertSnapshot(of: CraftedImages.painting(image, [(1, 1)], .black), as: .image, named: "card", suite: "S", store: third)
    } matching: { issue in
      // The numbers, then how to take the change when it is intended.
      issue.description.contains("1 of 3072 pixels differ")
        && issue.description.contains("if the change is intended, run the test again with ROWKIT_RECORD=failed to record it,")
    }
    // A recording says nothing of accepting.
    await withKnownIssue {
      await assertSnapshot(of: image, as: .image, named: "other", suite: "S", store: third)
    } matching: { issue in
      issue.description.contains("recorded") && !issue.description.contains("ROWKIT_RECORD")
    }
  }

  /// A failure's images stay for review; once the case passes (or is recorded again) they
  /// go, since they show a failure that is no more. A file of the user's there stays.
  @Test func aPassingCaseTakesItsOldFailureImagesAway() async throws {
    let folder = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let artifacts = folder.appendingPathComponent("artifacts")
    func store() -> ReferenceStore { ReferenceStore(root: folder.appendingPathComponent("refs"), artifactsRoot: artifacts, processEnvironment: [:]) }
    let image = try CraftedImages.card()
    _ = try await store().check(suite: "S", name: "card") { image }
    let changed = CraftedImages.painting(image, [(2, 2)], .black)
    guard case .failed = try await store().check(suite: "S", name: "card", record: .never, render: { changed }) else {
      Issue.record("the change passed")
      return
    }
    let caseFolder = artifacts.appendingPathComponent("S/card")
    #expect(Set(try FileManager.default.contentsOfDirectory(atPath: caseFolder.path)).isSuperset(of: ["actual.png", "diff.png", "composite.png", "reference.png", "result.json"]))
    try Data("mine".utf8).write(to: caseFolder.appendingPathComponent("notes.txt"))
    #expect(try await store().check(suite: "S", name: "card", record: .never, render: { image }).passed)
    #expect(try FileManager.default.contentsOfDirectory(atPath: caseFolder.path) == ["notes.txt"])
    try FileManager.default.removeItem(at: caseFolder.appendingPathComponent("notes.txt"))
    // Failed again, then recorded again: the folder goes with its images.
    _ = try await store().check(suite: "S", name: "card", record: .never, render: { changed })
    guard case .recorded = try await store().check(suite: "S", name: "card", record: .failed, render: { changed }) else {
      Issue.record("not recorded")
      return
    }
    #expect(!FileManager.default.fileExists(atPath: caseFolder.path))

    // Only what RowKit wrote goes: without its result.json, files of those names are the
    // user's (a folder given to --artifacts holds anything), and nothing is removed through
    // a link out of the artifacts folder.
    let other = artifacts.appendingPathComponent("S/other")
    try FileManager.default.createDirectory(at: other, withIntermediateDirectories: true)
    try Data("my photo".utf8).write(to: other.appendingPathComponent("reference.png"))
    _ = try await store().check(suite: "S", name: "other") { image }
    #expect(try await store().check(suite: "S", name: "other", record: .never, render: { image }).passed)
    #expect(try Data(contentsOf: other.appendingPathComponent("reference.png")) == Data("my photo".utf8))
    let victim = folder.appendingPathComponent("victim")
    try FileManager.default.createDirectory(at: victim.appendingPathComponent("card"), withIntermediateDirectories: true)
    // The reference is `changed` now: `image` fails.
    guard case .failed = try await store().check(suite: "S", name: "card", record: .never, render: { image }) else {
      Issue.record("the change passed")
      return
    }
    // The failure's own files, moved out of the artifacts folder, and a link left in their place.
    try FileManager.default.removeItem(at: victim.appendingPathComponent("card"))
    try FileManager.default.moveItem(at: caseFolder, to: victim.appendingPathComponent("card"))
    try FileManager.default.removeItem(at: artifacts.appendingPathComponent("S"))
    try FileManager.default.createDirectory(at: artifacts, withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(at: artifacts.appendingPathComponent("S"), withDestinationURL: victim)
    #expect(try await store().check(suite: "S", name: "card", record: .never, render: { changed }).passed)
    #expect(FileManager.default.fileExists(atPath: victim.appendingPathComponent("card/actual.png").path), "nothing through a link")
    #expect(FileManager.default.fileExists(atPath: victim.appendingPathComponent("card/result.json").path))

    // A failure writes never through a link planted under one of its names (the file it led
    // to keeps its bytes), and first takes away an earlier failure's files, so that its
    // result.json names all there is.
    try FileManager.default.removeItem(at: artifacts.appendingPathComponent("S"))
    let planted = folder.appendingPathComponent("planted.png")
    try Data("keep".utf8).write(to: planted)
    try FileManager.default.createDirectory(at: caseFolder, withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(at: caseFolder.appendingPathComponent("actual.png"), withDestinationURL: planted)
    guard case .failed = try await store().check(suite: "S", name: "card", record: .never, render: { image }) else {
      Issue.record("the change passed")
      return
    }
    #expect(try Data(contentsOf: planted) == Data("keep".utf8))
    var info = stat()
    #expect(lstat(caseFolder.appendingPathComponent("actual.png").path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG)
    // The references folder moved away: the next failure (no reference, so fewer files)
    // leaves none of the earlier one's behind.
    let references = folder.appendingPathComponent("refs")
    try FileManager.default.moveItem(at: references, to: folder.appendingPathComponent("refs-aside"))
    _ = try await store().check(suite: "S", name: "card", record: .never, render: { image })
    #expect(Set(try FileManager.default.contentsOfDirectory(atPath: caseFolder.path)) == ["actual.png", "composite.png", "result.json"])
    try FileManager.default.moveItem(at: folder.appendingPathComponent("refs-aside"), to: references)
    // The artifacts folder moved too (a renamed checkout): its result.json names the old
    // place, and the files still go, by their names, once the case passes.
    _ = try await store().check(suite: "S", name: "card", record: .never, render: { image })
    let moved = folder.appendingPathComponent("artifacts-moved")
    try FileManager.default.moveItem(at: artifacts, to: moved)
    let movedStore = ReferenceStore(root: references, artifactsRoot: moved, processEnvironment: [:])
    #expect(try await movedStore.check(suite: "S", name: "card", record: .never, render: { changed }).passed)
    #expect(!FileManager.default.fileExists(atPath: moved.appendingPathComponent("S/card").path))
  }

  /// A render equal to its reference is rendered once; recording, or a difference, renders
  /// a second time.
  @Test func aRenderMatchingItsReferenceIsRenderedOnce() async throws {
    let folder = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let image = try CraftedImages.card()
    // A strategy is Sendable: its render counts through a lock.
    let renders = Locked(0)
    let counting = ImageSnapshotting<Bitmap>.image.pullback { (image: Bitmap) in
      renders.withLock { $0 += 1 }
      return image
    }
    let recorded = try await ReferenceStore(root: folder, processEnvironment: [:])
      .check(image, as: counting, suite: "S", name: "card")
    guard case .recorded = recorded else { Issue.record("not recorded: \(recorded)"); return }
    #expect(renders.withLock { $0 } == 2, "recording renders twice, to prove the render reproducible")
    renders.withLock { $0 = 0 }
    #expect(try await ReferenceStore(root: folder, processEnvironment: [:]).check(image, as: counting, suite: "S", name: "card").passed)
    #expect(renders.withLock { $0 } == 1, "a render identical to its reference is proven reproducible by it")
    renders.withLock { $0 = 0 }
    let changed = CraftedImages.painting(image, [(2, 2)], .black)
    let outcome = try await ReferenceStore(root: folder, artifactsRoot: folder.appendingPathComponent("artifacts"), processEnvironment: [:])
      .check(changed, as: counting, suite: "S", name: "card")
    guard case .failed = outcome else { Issue.record("expected a failure: \(outcome)"); return }
    #expect(renders.withLock { $0 } == 2, "a difference is rendered again, to tell a flaky render from a change")
  }

  /// A cell that draws something else each time it lays out: its renders differ, and the
  /// check says so instead of recording or comparing either.
  @Test(arguments: [false, true]) func anUnstableCellFailsAsNotDeterministic(withReference: Bool) async throws {
    let folder = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let strategy = ImageSnapshotting<UnstableItem>.row(mapping: UnstableItem.mapping)
    if withReference {
      // A reference unlike any render: the first render differs, so it is rendered again.
      try FileManager.default.createDirectory(at: folder.appendingPathComponent("S"), withIntermediateDirectories: true)
      try Data(PNG.encode(Bitmap(width: 750, height: 88, color: .white))).write(to: folder.appendingPathComponent("S/unstable.png"))
    }
    let outcome = try await ReferenceStore(root: folder, artifactsRoot: folder.appendingPathComponent("artifacts"), processEnvironment: [:])
      .check(UnstableItem(), as: strategy, suite: "S", name: "unstable")
    guard case .error(let message) = outcome else { Issue.record("expected an error: \(outcome)"); return }
    #expect(message.contains("rendering is not deterministic: two renders differ"), "\(message)")
    #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("S/unstable.png").path) == withReference)
  }

  /// A reference recorded with a failed image's default, or with the fallback cell, records a
  /// mistake: the strategies refuse such a render, naming the row, unless allowed.
  @Test func aFailedImageOrTheFallbackCellFailsUnlessAllowed() async throws {
    let broken = ImageItem(text: "Broken", imageURL: "bundle://no-such-image.png")
    let images = SnapshotImages.files(assets: FileManager.default.temporaryDirectory)
    await #expect {
      _ = try await ImageSnapshotting<ImageItem>.row(images: images).render(broken)
    } throws: { error in
      // Named, and told what to do about a failed image only.
      "\(error)".contains("the render: row 0 (s0-r0): image bundle://no-such-image.png failed")
        && "\(error)".contains("give the images (images: .files(assets:) or .bitmaps(_:)), or pass allowing: .failedImages")
        && !"\(error)".contains("fallbackCells")
    }
    let allowed = try await ImageSnapshotting<ImageItem>.row(images: images, allowing: .failedImages).render(broken)
    #expect(allowed.height > 0)
    // With no images (the default), a slot never loads a file, wherever the test runs: the
    // render used to read relative and bundle:// URLs from the working folder.
    let folder = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let png = folder.appendingPathComponent("there.png")
    try Data(PNG.encode(try Canvas(pixelWidth: 4, pixelHeight: 4, scale: 1).bitmap())).write(to: png)
    for url in ["file://" + png.path, png.path] {
      await #expect {
        _ = try await ImageSnapshotting<ImageItem>.row().render(ImageItem(text: "There", imageURL: url))
      } throws: { error in
        "\(error)".contains("image \(url) failed (image '\(url)' is not loaded: this render was given no images)")
      }
    }
    let withFiles = try await ImageSnapshotting<ImageItem>.row(images: .files(assets: folder)).render(ImageItem(text: "There", imageURL: "bundle://there.png"))
    #expect(withFiles.height > 0)

    let unmapped = ListDataSource(items: [UnmappedItem()], cellMapping: CellMapping())
    await #expect {
      _ = try await ImageSnapshotting<ListDataSource>.table().render(unmapped)
    } throws: { error in
      "\(error)".contains("no cell is mapped to its UnmappedItem item; the fallback cell drew it")
        && "\(error)".contains("map a cell to the item's type (CellMapping.register(_:for:)), or pass allowing: .fallbackCells")
        && !"\(error)".contains("failedImages")
    }
    _ = try await ImageSnapshotting<ListDataSource>.table(allowing: .fallbackCells).render(unmapped)
  }

  @Test func strategiesRenderRowsAndTables() async throws {
    let table = ListDataSource(items: [TextItem(text: "Deterministic"), SubtitleItem(text: "Twice", subtitle: "the same")])
    let image = try await ImageSnapshotting<ListDataSource>.table().render(table)
    #expect(image.width == 750)
    let row = try await ImageSnapshotting<TextItem>.row().render(TextItem(text: "One row"))
    #expect(row.height == 88)
  }

  /// A strategy is `Sendable`: one made once (as a `static let` would be) renders in tasks
  /// that run at once, and each gets the image a lone render gets.
  @Test func oneStrategyRendersInConcurrentTasks() async throws {
    let strategy = ImageSnapshotting<TextItem>.row()
    let alone = try await strategy.render(TextItem(text: "Row 0"))
    let images = try await withThrowingTaskGroup(of: (Int, Bitmap).self) { group in
      for index in 0..<3 {
        group.addTask { (index, try await strategy.render(TextItem(text: "Row \(index)"))) }
      }
      return try await group.reduce(into: [Int: Bitmap]()) { $0[$1.0] = $1.1 }
    }
    #expect(images.count == 3)
    #expect(images[0] == alone)
    #expect(images[1] != alone && images[1]?.height == 88)
  }
}

/// An item no layout cache can hold (it equals nothing, itself included), drawn by a cell
/// whose fill changes at every layout.
struct UnstableItem: TableItem {
  static func == (left: UnstableItem, right: UnstableItem) -> Bool { false }
  func hash(into hasher: inout Hasher) { hasher.combine(UUID()) }

  static let layouts = Locked(0)

  static var mapping: CellMapping {
    var mapping = CellMapping()
    mapping.register(
      ClosureCell<UnstableItem>(name: "UnstableCell") { _, context in
        let count = layouts.withLock { count in
          count += 1
          return count
        }
        // Each layout a shade of its own: two renders never match, whatever other tests
        // laid out in between.
        let shade = Double(count % 200) / 200
        return RowLayout(
          cellName: "UnstableCell", size: Size(width: context.cellWidth, height: 44), labels: [], images: [],
          decorations: [.fill(frame: Rect(x: 10, y: 10, width: 20, height: 20), color: Color(red: shade, green: 0, blue: 0))])
      }, for: UnstableItem.self)
    return mapping
  }
}

/// An item no cell is mapped to.
struct UnmappedItem: TableItem {}
