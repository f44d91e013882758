import Foundation
import RowKit
import RowKitGraphics
import RowKitTestSupport
import Testing

@testable import RowKitSnapshot

@Suite struct ReferenceStoreTests {
  let image: Bitmap
  let changed: Bitmap
  init() throws {
    image = try CraftedImages.card()
    changed = CraftedImages.block(image, x: 10, y: 10, width: 3, height: 3, .white)
  }

  func store(ci: Bool = false, record: String? = nil) throws -> (ReferenceStore, URL) {
    let folder = try TestSupport.temporaryDirectory()
    var environment: [String: String] = [:]
    if ci { environment["CI"] = "true" }
    if let record { environment["ROWKIT_RECORD"] = record }
    let store = ReferenceStore(
      root: folder.appendingPathComponent("Snapshots"), artifactsRoot: folder.appendingPathComponent("artifacts"),
      processEnvironment: environment)
    return (store, folder)
  }

  func files(_ folder: URL) -> [String] {
    (FileManager.default.enumerator(atPath: folder.path)?.allObjects as? [String] ?? []).sorted()
  }

  @Test func referencesNoCheckClaimedAreOrphansInTheCheckedSuites() throws {
    let (store, folder) = try store()
    defer { try? FileManager.default.removeItem(at: folder) }
    let recorder = ReferenceStore(root: store.root, artifactsRoot: store.artifactsRoot, processEnvironment: [:])
    for (suite, name) in [("Cells", "card"), ("Cells", "renamed-away"), ("Other", "kept"), ("Cells/Nested", "deep")] {
      _ = recorder.check(image, suite: suite, name: name)
    }
    // A later run checks only Cells/card: Cells' other reference is left behind.
    #expect(store.check(image, suite: "Cells", name: "card").passed)
    #expect(store.unclaimedReferences() == ["Cells/renamed-away.png"])
    #expect(store.unclaimedReferences(checkedSuitesOnly: false) == ["Cells/Nested/deep.png", "Cells/renamed-away.png", "Other/kept.png"])
    #expect(store.orphanedReferences(keeping: ["Cells/card", "Other/kept"]) == ["Cells/Nested/deep.png", "Cells/renamed-away.png"])
    try store.removeReferences(["Cells/Nested/deep.png"])
    #expect(!FileManager.default.fileExists(atPath: store.root.appendingPathComponent("Cells/Nested").path), "the emptied folder goes too")
    #expect(FileManager.default.fileExists(atPath: store.root.appendingPathComponent("Cells/card.png").path))
  }

  /// Issue 24, item 5: a committed `Snapshots/linked -> ../victim` (or a reference, or the
  /// fingerprint, that is such a link) is never written or deleted through, by recording
  /// (the assertions' path) or by pruning; a link that stays inside the references is fine.
  @Test func recordingAndPruningNeverGoThroughALinkOutOfTheReferences() async throws {
    let (store, folder) = try store()
    defer { try? FileManager.default.removeItem(at: folder) }
    let victim = folder.appendingPathComponent("victim")
    try FileManager.default.createDirectory(at: victim, withIntermediateDirectories: true)
    try FileManager.default.createDirectory(at: store.root.appendingPathComponent("Cells"), withIntermediateDirectories: true)
    try Data(PNG.encode(image)).write(to: victim.appendingPathComponent("old.png"))
    let link = { (name: String, target: String) in
      try FileManager.default.createSymbolicLink(atPath: store.root.appendingPathComponent(name).path, withDestinationPath: target)
    }
    try link("linked", "../victim")
    try link("alias", "Cells")
    let rendered = image
    for mode in [RecordMode.all, .missing, .failed] {
      let recorder = ReferenceStore(root: store.root, artifactsRoot: store.artifactsRoot, processEnvironment: [:])
      let outcome = try await recorder.check(suite: "linked", name: "card", record: mode) { rendered }
      guard case .error(let message) = outcome else {
        Issue.record("--record \(mode): expected a refusal, got \(outcome)")
        continue
      }
      #expect(message.contains("linked/card.png leads out of the references folder"), "\(message)")
    }
    #expect(files(victim) == ["old.png"])
    #expect(throws: SnapshotError.self) { try store.removeReferences(["Cells/none.png", "linked/old.png"]) }
    #expect(files(victim) == ["old.png"], "nothing deleted through the link")

    let inside = try await store.check(suite: "alias", name: "card") { rendered }
    guard case .recorded = inside else {
      Issue.record("a link inside the references is followed: \(inside)")
      return
    }
    #expect(FileManager.default.fileExists(atPath: store.root.appendingPathComponent("Cells/card.png").path))

    // The fingerprint as a link out: nothing is recorded, not even the reference.
    let fresh = folder.appendingPathComponent("Fresh")
    try FileManager.default.createDirectory(at: fresh, withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(
      atPath: fresh.appendingPathComponent("environment.json").path, withDestinationPath: "../victim/environment.json")
    let freshStore = ReferenceStore(root: fresh, artifactsRoot: store.artifactsRoot, processEnvironment: [:])
    guard case .error(let message) = freshStore.check(image, suite: "", name: "card") else {
      Issue.record("a fingerprint link out of the references was written through")
      return
    }
    #expect(message.contains("environment.json leads out of the references folder"), "\(message)")
    #expect(files(victim) == ["old.png"] && files(fresh) == ["environment.json"])
  }

  /// A reference (or a tile of one) that is a link out of the references is never read: a
  /// pull request's references are its own, and the diff, the composite and the copy in its
  /// CI run's report would carry the pixels of any PNG on the machine.
  @Test func aReferenceThatLeadsOutOfTheFolderIsNeverRead() async throws {
    let (store, folder) = try store()
    defer { try? FileManager.default.removeItem(at: folder) }
    let outside = folder.appendingPathComponent("secret.png")
    try Data(PNG.encode(changed)).write(to: outside)
    let cells = store.root.appendingPathComponent("Cells")
    try FileManager.default.createDirectory(at: cells, withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(atPath: cells.appendingPathComponent("card.png").path, withDestinationPath: outside.path)
    try Data(PNG.encode(image)).write(to: cells.appendingPathComponent("tiled.png"))
    try FileManager.default.createSymbolicLink(atPath: cells.appendingPathComponent("tiled+2.png").path, withDestinationPath: "../../secret.png")
    for name in ["card", "tiled"] {
      for mode in [RecordMode.never, .missing, .failed] {
        let checker = ReferenceStore(root: store.root, artifactsRoot: store.artifactsRoot, processEnvironment: [:])
        let outcome = try await checker.check(suite: "Cells", name: name, record: mode) { image }
        guard case .error(let message) = outcome else {
          Issue.record("\(name), --record \(mode): expected a refusal, got \(outcome)")
          continue
        }
        #expect(message.contains("leads out of the references folder") && message.hasSuffix("nothing is read through it"), "\(message)")
      }
    }
    #expect(files(store.artifactsRoot).allSatisfy { !$0.hasSuffix(".png") }, "no diff, composite or copy: \(files(store.artifactsRoot))")
    #expect(try Data(contentsOf: outside) == Data(PNG.encode(changed)), "the file outside is left as it was")
  }

  @Test func twoSuitesGetTheirOwnDefaultArtifactFolders() {
    let one = ReferenceStore.defaultArtifactsRoot(for: URL(fileURLWithPath: "/a/Snapshots"))
    let two = ReferenceStore.defaultArtifactsRoot(for: URL(fileURLWithPath: "/b/Snapshots"))
    #expect(one != two)
    #expect(one.lastPathComponent.hasPrefix("Snapshots-") && one.deletingLastPathComponent().lastPathComponent == "rowkit-snapshot-artifacts")
    #expect(one == ReferenceStore.defaultArtifactsRoot(for: URL(fileURLWithPath: "/a/Snapshots/")))
  }

  @Test func aMissingReferenceIsRecordedAndTheCheckFails() throws {
    let (store, _) = try store()
    let outcome = store.check(image, suite: "Cells", name: "card")
    guard case .recorded(let path, _) = outcome else {
      Issue.record("expected a recording, got \(outcome)")
      return
    }
    #expect(!outcome.passed)
    #expect(try PNG.decode(contentsOf: URL(fileURLWithPath: path)) == image)
    #expect(FileManager.default.fileExists(atPath: store.root.appendingPathComponent("environment.json").path))
  }

  @Test func underCIAMissingReferenceFailsAndNothingIsWritten() throws {
    let (store, _) = try store(ci: true, record: "all")
    for mode in [nil, RecordMode.all, .missing, .failed] {
      let outcome = store.check(image, suite: "Cells", name: "card-\(mode?.rawValue ?? "default")", record: mode)
      guard case .failed(let message, _, _) = outcome else {
        Issue.record("expected a failure, got \(outcome)")
        continue
      }
      #expect(message.contains("no reference") && message.contains("CI is set"))
    }
    #expect(!FileManager.default.fileExists(atPath: store.root.path), "nothing is written to the reference folder")
  }

  @Test func aMatchingReferencePassesAndAChangeLeavesArtifacts() throws {
    let (store, _) = try store()
    _ = store.check(image, suite: "Cells", name: "card")
    let second = ReferenceStore(root: store.root, artifactsRoot: store.artifactsRoot, processEnvironment: [:])
    #expect(second.check(image, suite: "Cells", name: "card").passed)
    let third = ReferenceStore(root: store.root, artifactsRoot: store.artifactsRoot, processEnvironment: [:])
    let outcome = third.check(changed, suite: "Cells", name: "card")
    guard case .failed(let message, let result, let artifacts?) = outcome else {
      Issue.record("expected a failure with artifacts, got \(outcome)")
      return
    }
    #expect(result?.differentPixels == 9)
    #expect(message.contains("9 of 3072 pixels differ") && message.contains(artifacts.composite))
    for path in [artifacts.reference!, artifacts.actual, artifacts.diff!, artifacts.composite, artifacts.result] {
      #expect(FileManager.default.fileExists(atPath: path), "\(path)")
    }
    let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: artifacts.result))) as! [String: Any]
    let numbers = json["result"] as! [String: Any]
    #expect(numbers["differentPixels"] as? Int == 9)
    #expect((numbers["changedBox"] as? [String: Int]) == ["x": 10, "y": 10, "width": 3, "height": 3])
    #expect(try PNG.decode(contentsOf: store.referenceURL(suite: "Cells", name: "card")) == image, "a failure never rewrites")
  }

  @Test func failedModeRewritesOnlyFailingReferences() throws {
    let (store, _) = try store()
    _ = store.check(image, suite: "S", name: "same")
    _ = store.check(image, suite: "S", name: "changes")
    let url = try store.referenceURL(suite: "S", name: "same")
    let before = try FileManager.default.attributesOfItem(atPath: url.path)[.modificationDate] as! Date
    Thread.sleep(forTimeInterval: 0.02)
    let again = ReferenceStore(root: store.root, processEnvironment: ["ROWKIT_RECORD": "failed"])
    #expect(again.check(image, suite: "S", name: "same").passed)
    let rewritten = again.check(changed, suite: "S", name: "changes")
    guard case .recorded = rewritten else {
      Issue.record("the failing reference was not rewritten: \(rewritten)")
      return
    }
    #expect(try FileManager.default.attributesOfItem(atPath: url.path)[.modificationDate] as! Date == before)
    #expect(try PNG.decode(contentsOf: store.referenceURL(suite: "S", name: "changes")) == changed)
  }

  @Test func allModeLeavesUnchangedFilesUntouched() throws {
    let (store, _) = try store()
    _ = store.check(image, suite: "S", name: "same")
    let url = try store.referenceURL(suite: "S", name: "same")
    let before = try FileManager.default.attributesOfItem(atPath: url.path)
    Thread.sleep(forTimeInterval: 0.02)
    let again = ReferenceStore(root: store.root, processEnvironment: [:])
    #expect(again.check(image, suite: "S", name: "same", record: .all).passed)
    let after = try FileManager.default.attributesOfItem(atPath: url.path)
    #expect(after[.modificationDate] as? Date == before[.modificationDate] as? Date)
    #expect(after[.systemFileNumber] as? Int == before[.systemFileNumber] as? Int)
    let third = ReferenceStore(root: store.root, processEnvironment: [:])
    guard case .recorded = third.check(changed, suite: "S", name: "same", record: .all) else {
      Issue.record("changed pixels were not re-recorded")
      return
    }
  }

  @Test func namesAreExplicitSafeAndUsedOnce() throws {
    let (store, _) = try store()
    _ = store.check(image, suite: "S", name: "one")
    guard case .error(let message) = store.check(image, suite: "S", name: "one") else {
      Issue.record("a duplicate name was accepted")
      return
    }
    #expect(message.contains("checked twice"))
    for (suite, name) in [("S", "../escape"), ("S", "a b"), ("../S", "x"), ("S", "")] {
      guard case .error = store.check(image, suite: suite, name: name) else {
        Issue.record("'\(suite)/\(name)' was accepted")
        continue
      }
    }
  }

  @Test func aReferenceThatDoesNotDecodeFails() throws {
    let (store, _) = try store()
    let url = try store.referenceURL(suite: "S", name: "broken")
    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data("not a png".utf8).write(to: url)
    guard case .failed(let message, _, let artifacts) = store.check(image, suite: "S", name: "broken") else {
      Issue.record("a broken reference passed")
      return
    }
    #expect(message.contains("S/broken: the reference cannot be compared: \(url.path): not a PNG file (no PNG signature)"), "\(message)")
    // Kept for review and accept: the actual image, and the reference's bytes as they are.
    #expect(try artifacts.map { try PNG.decode(contentsOf: URL(fileURLWithPath: $0.actual)) } == image)
    #expect(try artifacts?.reference.map { try Data(contentsOf: URL(fileURLWithPath: $0)) } == Data("not a png".utf8))
  }

  @Test func anotherEnvironmentGivesOneMessageInsteadOfPixelFailures() throws {
    let (store, _) = try store()
    _ = store.check(image, suite: "S", name: "a")
    _ = store.check(image, suite: "S", name: "b")
    var fingerprint = try #require(try store.storedFingerprint())
    fingerprint.libraries.pango = "1.54.0"
    fingerprint.fonts[0].sha256 = "0000"
    try Data(fingerprint.jsonBytes()).write(to: store.root.appendingPathComponent("environment.json"))
    let later = ReferenceStore(root: store.root, processEnvironment: [:])
    guard case .environmentMismatch(let first) = later.check(changed, suite: "S", name: "a"),
      case .environmentMismatch(let second) = later.check(changed, suite: "S", name: "b")
    else {
      Issue.record("the environment mismatch was not reported")
      return
    }
    #expect(first.contains("pango 1.54.0 → \(LibraryVersions.current.pango)"))
    #expect(first.contains("font Inter-Regular.otf changed"))
    #expect(second.contains("see the first snapshot failure"))
  }

  @Test func theFingerprintNamesTheLibrariesAndFonts() {
    let fingerprint = EnvironmentFingerprint.current()
    #expect(fingerprint.libraries.cairo.hasPrefix("1."))
    #expect(fingerprint.fonts.count == TextEnvironment.standard.fontFiles.count)
    #expect(fingerprint.fonts.allSatisfy { $0.sha256.count == 64 })
    #expect(fingerprint.differences(from: fingerprint).isEmpty)
  }

  /// The image decoders are part of the environment too; a fingerprint written before they
  /// were kept still matches on everything else.
  @Test func theFingerprintNamesTheImageDecodersAndOldOnesWithoutThemStillMatch() throws {
    let fingerprint = EnvironmentFingerprint.current()
    #expect(fingerprint.libraries.libjpegTurbo?.hasPrefix("2.") == true)
    #expect(fingerprint.libraries.libwebp?.hasPrefix("1.") == true)
    var newer = fingerprint
    newer.libraries.libwebp = "9.9.9"
    #expect(fingerprint.differences(from: newer) == ["libwebp \(fingerprint.libraries.libwebp!) → 9.9.9"])
    var json = try JSONSerialization.jsonObject(with: JSONEncoder().encode(fingerprint)) as! [String: Any]
    var libraries = json["libraries"] as! [String: Any]
    libraries["libjpegTurbo"] = nil
    libraries["libwebp"] = nil
    json["libraries"] = libraries
    let old = try JSONDecoder().decode(EnvironmentFingerprint.self, from: JSONSerialization.data(withJSONObject: json))
    #expect(old.libraries.libwebp == nil)
    #expect(fingerprint.differences(from: old).isEmpty)
  }

  @Test func recordModesComeFromTheEnvironment() {
    #expect(RecordMode.effective(environment: [:]) == .missing)
    #expect(RecordMode.effective(environment: ["ROWKIT_RECORD": "all"]) == .all)
    #expect(RecordMode.effective(.failed, environment: ["ROWKIT_RECORD": "all"]) == .failed)
    #expect(RecordMode.effective(.all, environment: ["CI": "true"]) == .never)
    #expect(RecordMode.effective(.all, environment: ["CI": "false"]) == .all)
    #expect(RecordMode.environmentProblem([:]) == nil)
    #expect(RecordMode.environmentProblem(["ROWKIT_RECORD": ""]) == nil)
    #expect(RecordMode.environmentProblem(["ROWKIT_RECORD": "Failed"]) == nil)
    #expect(RecordMode.environmentProblem(["ROWKIT_RECORD": "alll"]) == "ROWKIT_RECORD=alll is not a record mode (never, missing, failed, all)")
  }
}

@Suite struct SHA256Tests {
  @Test func matchesKnownDigests() {
    #expect(SHA256.hex([UInt8]()) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    #expect(SHA256.hex(Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    #expect(
      SHA256.hex(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
        == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
  }
}
