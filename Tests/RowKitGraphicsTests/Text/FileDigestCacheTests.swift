import Foundation
import RowKitTestSupport
import Testing

@testable import RowKitGraphics

/// Digests of RowKit's font files kept between processes: read back only while every file is
/// the one that was hashed.
@Suite struct FileDigestCacheTests {
  @Test func digestsAreKeptAndReadBackWhileTheFilesAreUnchanged() throws {
    let folder = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let root = folder.appendingPathComponent("cache").path
    let file = folder.appendingPathComponent("font.ttf").path
    try Data("first".utf8).write(to: URL(fileURLWithPath: file))
    let fonts = [TextEnvironment.standard.fontFiles[0].path, file]
    let expected = fonts.map { SHA256.hex(ofFileAt: $0) }

    #expect(FileDigestCache.sha256(ofFiles: fonts, cacheRoot: root) == expected)
    let kept = try FileManager.default.contentsOfDirectory(atPath: root)
    #expect(kept.count == 1 && kept[0].hasPrefix("digests-"), "\(kept)")
    // Read back: a digest written into the kept file is what comes out, proving it is read.
    let keptFile = root + "/" + kept[0]
    let marker = String(repeating: "a", count: 64)
    try JSONEncoder().encode([expected[0]!, marker]).write(to: URL(fileURLWithPath: keptFile))
    #expect(FileDigestCache.sha256(ofFiles: fonts, cacheRoot: root) == [expected[0], marker])

    // The same size, other bytes: another key, so the file is hashed again.
    try Data("other".utf8).write(to: URL(fileURLWithPath: file))
    #expect(FileDigestCache.sha256(ofFiles: fonts, cacheRoot: root) == [expected[0], SHA256.hex(ofFileAt: file)])
    #expect(SHA256.hex(ofFileAt: file) != expected[1])
  }

  @Test func aDamagedOrUnwritableCacheOnlyMeansHashingAgain() throws {
    let folder = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let root = folder.appendingPathComponent("cache").path
    let fonts = [TextEnvironment.standard.fontFiles[0].path]
    let expected = [SHA256.hex(ofFileAt: fonts[0])]
    _ = FileDigestCache.sha256(ofFiles: fonts, cacheRoot: root)
    let kept = root + "/" + (try FileManager.default.contentsOfDirectory(atPath: root))[0]
    for damage in ["not json", "[\"short\"]", "[]"] {
      try Data(damage.utf8).write(to: URL(fileURLWithPath: kept))
      #expect(FileDigestCache.sha256(ofFiles: fonts, cacheRoot: root) == expected, "\(damage)")
    }
    let blocked = folder.appendingPathComponent("file").path
    try Data().write(to: URL(fileURLWithPath: blocked))  // a file where the cache folder would be
    #expect(FileDigestCache.sha256(ofFiles: fonts, cacheRoot: blocked) == expected)
    // A file that cannot be read has no digest, and the set is not kept.
    let missing = folder.appendingPathComponent("missing.ttf").path
    #expect(FileDigestCache.sha256(ofFiles: [missing], cacheRoot: root) == [nil])
    #expect(try FileManager.default.contentsOfDirectory(atPath: root).filter { $0.contains(".partial-") }.isEmpty)
  }
}
