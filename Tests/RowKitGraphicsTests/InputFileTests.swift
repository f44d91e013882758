import Foundation
import RowKitTestSupport
import Testing

@testable import RowKitGraphics

/// Issue 24, item 9: the one check of every file RowKit reads. Only a regular file is read;
/// a FIFO is refused without being opened to wait (a reader's blocking open would wait for
/// a writer forever).
@Suite struct InputFileTests {
  @Test func onlyARegularFileIsRead() throws {
    let folder = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("file.yaml")
    try Data("bytes".utf8).write(to: file)
    let link = folder.appendingPathComponent("link.yaml")
    try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "file.yaml")
    let fifo = folder.appendingPathComponent("fifo.ttf")
    #expect(mkfifo(fifo.path, 0o600) == 0)
    let fifoLink = folder.appendingPathComponent("fifo-link.ttf")
    try FileManager.default.createSymbolicLink(atPath: fifoLink.path, withDestinationPath: "fifo.ttf")

    #expect(try InputFile.read(file.path) == Array("bytes".utf8))
    #expect(try InputFile.read(link.path) == Array("bytes".utf8))
    #expect(InputFile.problem(at: file.path) == nil)
    for (path, problem) in [
      (fifo.path, InputFile.Problem.notRegular("a FIFO")), (fifoLink.path, .notRegular("a FIFO")),
      (folder.path, .folder), ("/dev/null", .notRegular("a device")), (folder.appendingPathComponent("none").path, .missing),
      (file.appendingPathComponent("below").path, .missing),
    ] {
      #expect(InputFile.problem(at: path) == problem, "\(path)")
      #expect(throws: problem) { try InputFile.read(path) }
    }
    #expect("\(InputFile.Problem.notRegular("a FIFO"))" == "a FIFO, not a regular file")
    #expect(InputFile.Problem.notRegular("a FIFO").predicate == "is a FIFO, not a regular file")
    #expect(InputFile.Problem.missing.predicate == "does not exist")
  }

  /// A file larger than RowKit reads is refused by its size, before any memory is taken for
  /// it (a terabyte sparse file used to abort the process reserving room for it), and so is
  /// a file or a pipe that turns out longer than the limit as it is read.
  @Test func aFileOrAPipeLargerThanTheLimitIsRefused() throws {
    let folder = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let sparse = folder.appendingPathComponent("huge.png")
    #expect(FileManager.default.createFile(atPath: sparse.path, contents: nil))
    #expect(truncate(sparse.path, 1 << 40) == 0)
    #expect(throws: InputFile.Problem.tooLarge(limit: InputFile.maximumBytes)) { try InputFile.read(sparse.path) }
    #expect(InputFile.Problem.tooLarge(limit: 256 << 20).predicate == "is larger than the 256 MB RowKit reads")

    let small = folder.appendingPathComponent("small.yaml")
    try Data(repeating: 0x61, count: 100).write(to: small)
    #expect(try InputFile.read(small.path, maximumBytes: 100).count == 100)
    #expect(throws: InputFile.Problem.tooLarge(limit: 99)) { try InputFile.read(small.path, maximumBytes: 99) }

    var ends: [Int32] = [0, 0]
    #expect(pipe(&ends) == 0)
    defer { close(ends[0]) }
    let written = [UInt8](repeating: 0x62, count: 1000).withUnsafeBytes { write(ends[1], $0.baseAddress, $0.count) }
    close(ends[1])
    #expect(written == 1000)
    #expect(throws: InputFile.Problem.tooLarge(limit: 999)) { try InputFile.readAll(ends[0], expecting: 0, maximumBytes: 999) }
  }

  @Test func aFontFileThatIsAFIFOIsRefused() throws {
    let folder = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let fifo = folder.appendingPathComponent("brand.ttf")
    #expect(mkfifo(fifo.path, 0o600) == 0)
    #expect(throws: GraphicsError(.missingFont, "font file \(fifo.path) is a FIFO, not a regular file")) {
      try FontSet.families(ofFontFile: fifo.path)
    }
  }
}
