import Foundation
import RowKitTestSupport
import Testing

@testable import RowKitGraphics

@Suite struct FontScanCacheTests {
  /// World text in the scripts the built-in fonts cover, with emoji: any difference in the
  /// fonts fontconfig offers shows up as a different glyph or fallback.
  let sample = "Ada Lovelace · Ελένη · Дмитрий · محمد · שָׁלוֹם · प्रिया · 王小明 · 山田 · 김민준 · ไทย · ሰላም · 👍🏽❤️🇯🇵"

  @Test func fontsReadThroughTheCacheMatchFontsScannedOneByOne() throws {
    let root = try TestSupport.temporaryDirectory().path
    let scanned = try FontSet(environment: .standard, cacheRoot: nil)
    let first = try FontSet(environment: .standard, cacheRoot: root)  // scans and writes the cache
    let second = try FontSet(environment: .standard, cacheRoot: root)  // reads it
    for cached in [first, second] {
      #expect(cached.files == scanned.files)
      #expect(cached.families == scanned.families)
      #expect(cached.fallbackFamilies == scanned.fallbackFamilies)
    }
    let cacheFiles = try FileManager.default.contentsOfDirectory(atPath: root + "/fontconfig")
    #expect(cacheFiles.contains { $0.hasSuffix(".cache-8") || $0.contains(".cache-") })

    let font = try #require(Font.parse("Inter 17"))
    let style = TextStyle(font: font, width: 320)
    var images: [[UInt8]] = []
    for set in [scanned, first, second] {
      let shaper = try TextShaper(fontSet: set)
      let layout = shaper.shape(sample, style: style)
      let canvas = try Canvas(pixelWidth: 640, pixelHeight: 400, scale: 2)
      canvas.clear(.white)
      canvas.draw(layout, at: Point(x: 0, y: 0), color: .black)
      images.append(try canvas.bitmap().pixels)
      #expect(shaper.fontRuns(sample, font: font).map(\.family) == (try TextShaper(fontSet: scanned)).fontRuns(sample, font: font).map(\.family))
    }
    // The sample really is drawn, by many fonts: equal images are not two blank canvases.
    #expect(images[0].contains { $0 < 128 })
    let families = Set(try TextShaper(fontSet: scanned).fontRuns(sample, font: font).compactMap(\.family))
    #expect(families.count >= 6, "\(families)")
    #expect(images[1] == images[0])
    #expect(images[2] == images[0])
  }

  /// A brand font is drawn from a copy of its bytes that never changes: FreeType maps the
  /// file it reads, and a live preview crashed (in HarfBuzz, reading the mapping) when the
  /// brand font was written over in place; one replaced by a rename went on being drawn as
  /// it was. The copy keeps the file's name, as layout records name it.
  @Test func aBrandFontIsDrawnFromACopyThatNeverChanges() throws {
    let folder = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let root = folder.appendingPathComponent("cache").path
    let font = folder.appendingPathComponent("brand.ttf")
    let regular = try Data(contentsOf: URL(fileURLWithPath: "/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf"))
    let bold = try Data(contentsOf: URL(fileURLWithPath: "/usr/share/fonts/truetype/dejavu/DejaVuSerif-Bold.ttf"))
    try regular.write(to: font)
    var environment = TextEnvironment.standard
    environment.fontFiles.append(TextEnvironment.FontFile(path: font.path))
    let keyBefore = environment.loadKey
    let copy = try #require(FontScanCache.snapshot(ofFontFile: font.path, in: root))
    #expect(URL(fileURLWithPath: copy).lastPathComponent == "brand.ttf")
    #expect(FileManager.default.contents(atPath: copy) == regular)
    #expect(FontScanCache.snapshot(ofFontFile: font.path, in: root) == copy, "made once")
    let set = try FontSet(environment: environment, cacheRoot: root)
    #expect(set.files.last?.path == font.path, "named by its own path")
    #expect(set.families.contains("DejaVu Serif"))
    // Written over in place (the same file, other bytes): the copy drawn so far keeps its
    // bytes, the new bytes get a copy of their own, and the environment's stamp moves.
    try bold.write(to: font)
    #expect(FileManager.default.contents(atPath: copy) == regular)
    let boldCopy = try #require(FontScanCache.snapshot(ofFontFile: font.path, in: root))
    #expect(boldCopy != copy && FileManager.default.contents(atPath: boldCopy) == bold)
    #expect(environment.loadKey != keyBefore)
  }

  @Test func aFolderOfLinksIsMadeOnceAndNamesEachFileByItsIndex() throws {
    let root = try TestSupport.temporaryDirectory().path
    let paths = TextEnvironment.standard.fontFiles.prefix(3).map(\.path)
    let folder = try #require(FontScanCache.linkFolder(for: paths, in: root))
    #expect(try #require(FontScanCache.linkFolder(for: paths, in: root)).path == folder.path)
    // fontconfig's cache folder is there before fontconfig looks: made by fontconfig, two
    // processes of a cold cache raced for it, and the loser printed "No writable cache
    // directories" (a test of `rowkit` output saw that line on a fresh clone).
    var isFolder: ObjCBool = false
    #expect(FileManager.default.fileExists(atPath: folder.fontconfigCache, isDirectory: &isFolder) && isFolder.boolValue)
    let links = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    #expect(links.count == 3)
    for (index, link) in links.enumerated() {
      #expect(folder.fileIndex(ofLink: folder.path + "/" + link) == index)
      #expect(try FileManager.default.destinationOfSymbolicLink(atPath: folder.path + "/" + link) == paths[index])
    }
    // Nothing half-made stays behind.
    #expect(try FileManager.default.contentsOfDirectory(atPath: root).filter { $0.contains(".partial-") }.isEmpty)
    #expect(folder.fileIndex(ofLink: "/elsewhere/0001-Font.ttf") == nil)
  }

  @Test func aChangedFontFileGetsAFolderOfItsOwn() throws {
    let root = try TestSupport.temporaryDirectory().path
    let copy = try TestSupport.temporaryDirectory().appendingPathComponent("Brand.otf").path
    try FileManager.default.copyItem(atPath: TextEnvironment.standard.fontFiles[0].path, toPath: copy)
    let before = try #require(FontScanCache.linkFolder(for: [copy], in: root))
    try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 1_000_000)], ofItemAtPath: copy)
    let after = try #require(FontScanCache.linkFolder(for: [copy], in: root))
    #expect(before.path != after.path)
  }

  /// A folder of links that lost one (a cache restored in part) made every command fail,
  /// naming a built-in font as "not a font file fontconfig can read", until the cache was
  /// deleted by hand. The files are scanned one by one instead, and the lost link is made
  /// again; nothing is taken away, since other processes may draw through the folder.
  @Test func aDamagedFolderOfLinksFallsBackToScanningEachFile() throws {
    let root = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: root) }
    let scanned = try FontSet(environment: .standard, cacheRoot: nil)
    _ = try FontSet(environment: .standard, cacheRoot: root.path)
    let folder = try #require(FontScanCache.linkFolder(for: TextEnvironment.standard.fontFiles.map(\.path), in: root.path))
    let links = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    try FileManager.default.removeItem(atPath: folder.path + "/" + links[0])
    let damaged = try FontSet(environment: .standard, cacheRoot: root.path)
    #expect(damaged.files == scanned.files && damaged.families == scanned.families)
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == links, "the lost link is made again")
    let remade = try FontSet(environment: .standard, cacheRoot: root.path)
    #expect(remade.files == scanned.files && remade.families == scanned.families)
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == links)
  }

  /// A half-made folder is left where a process ended while making it; the next process
  /// takes away those of processes that have ended an hour ago or more (a process of another
  /// container, whose number this one cannot see, makes one in well under a second), and
  /// only RowKit's own.
  @Test func halfMadeFoldersOfEndedProcessesAreTakenAway() async throws {
    let root = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: root) }
    let ended = try await CommandRunner.runProgram(URL(fileURLWithPath: "/bin/sh"), ["-c", "echo $$"])
    let endedID = try #require(Int32(ended.stdout.trimmingCharacters(in: .whitespacesAndNewlines)))
    let names = [
      "fonts-0123.partial-\(endedID)-A1B2", "brand-4567.partial-\(endedID)-C3D4", "fonts-0123.partial-\(getpid())-E5F6",
      "notes.partial-\(endedID)-G7H8", "fonts-0123.partial-\(endedID)-I9J0",
    ]
    for (index, name) in names.enumerated() {
      let url = root.appendingPathComponent(name)
      try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
      if index < 4 { try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-7200)], ofItemAtPath: url.path) }
    }
    _ = try #require(FontScanCache.linkFolder(for: [TextEnvironment.standard.fontFiles[0].path], in: root.path))
    let left = Set(try FileManager.default.contentsOfDirectory(atPath: root.path))
    #expect(!left.contains(names[0]) && !left.contains(names[1]))
    #expect(left.contains(names[2]), "this process is still running")
    #expect(left.contains(names[3]), "not a folder of RowKit's")
    #expect(left.contains(names[4]), "made in the last hour")
  }

  /// Brand fonts' copies and files of digests unused for 30 days are taken away (a brand font
  /// saved a hundred times under a live preview left a hundred copies); each use keeps its
  /// own, and a cache restored with old modification times (its files made when restored)
  /// is not taken for unused.
  @Test func copiesAndDigestsUnusedForAMonthAreTakenAway() throws {
    let root = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: root) }
    let hex = { (digit: Character) in String(repeating: digit, count: 32) }
    let old = Date().addingTimeInterval(-FontScanCache.unusedLifetime - 3600)
    let names = ["brand-\(hex("a"))", "digests-\(hex("c")).json", "brand-notes", "digests-mine.json"]
    for name in names {
      let url = root.appendingPathComponent(name)
      if name.hasSuffix(".json") { try Data("[]".utf8).write(to: url) } else { try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true) }
      // As an archive restores them: modified long ago, made now.
      try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: url.path)
    }
    FontScanCache.tidy(root.path)
    #expect(Set(try FileManager.default.contentsOfDirectory(atPath: root.path)) == Set(names), "restored, not unused")

    // A use marks the copy or file.
    let marked = root.appendingPathComponent(names[1]).path
    FontScanCache.markUsed(marked)
    let modified = try #require(try FileManager.default.attributesOfItem(atPath: marked)[.modificationDate] as? Date)
    #expect(modified > old.addingTimeInterval(3600))

    // A month and more on, RowKit's own are taken away, and no one else's.
    FontScanCache.tidy(root.path, now: Date().addingTimeInterval(FontScanCache.unusedLifetime + 3600))
    #expect(Set(try FileManager.default.contentsOfDirectory(atPath: root.path)) == [names[2], names[3]])
  }

  @Test func anUnwritableCacheFallsBackToScanningEachFile() throws {
    let root = try TestSupport.temporaryDirectory()
    let blocked = root.appendingPathComponent("file")
    try Data().write(to: blocked)  // a file where the cache folder would be
    #expect(FontScanCache.linkFolder(for: [TextEnvironment.standard.fontFiles[0].path], in: blocked.path) == nil)
    let set = try FontSet(environment: .standard, cacheRoot: blocked.path)
    #expect(set.files == (try FontSet(environment: .standard, cacheRoot: nil)).files)
  }

  @Test func brandFontsAreScannedEachTimeAndNeverCached() throws {
    let root = try TestSupport.temporaryDirectory().path
    let brand = try TestSupport.temporaryDirectory().appendingPathComponent("Brand.otf").path
    try FileManager.default.copyItem(atPath: TextEnvironment.standard.fontFiles[0].path, toPath: brand)
    var environment = TextEnvironment.standard
    environment.fontFiles.append(TextEnvironment.FontFile(path: brand))
    let set = try FontSet(environment: environment, cacheRoot: root)
    #expect(set.files.last?.path == brand)
    #expect(set.files.last?.families == ["Inter"])
    let folders = try FileManager.default.contentsOfDirectory(atPath: root).filter { $0.hasPrefix("fonts-") }
    #expect(folders.count == 1)
    let links = try FileManager.default.contentsOfDirectory(atPath: root + "/" + folders[0])
    #expect(links.count == TextEnvironment.standard.fontFiles.count)
    #expect(!links.contains { $0.hasSuffix("Brand.otf") })
  }

  @Test func aFileThatIsNotAFontIsRefusedWithItsPath() throws {
    let root = try TestSupport.temporaryDirectory().path
    let notAFont = try TestSupport.temporaryDirectory().appendingPathComponent("Broken.ttf")
    try Data("not a font".utf8).write(to: notAFont)
    var environment = TextEnvironment.standard
    environment.fontFiles.append(TextEnvironment.FontFile(path: notAFont.path))
    #expect {
      try FontSet(environment: environment, cacheRoot: root)
    } throws: { error in
      "\(error)".contains("Broken.ttf") && "\(error)".contains("not a font file")
    }
  }
}
