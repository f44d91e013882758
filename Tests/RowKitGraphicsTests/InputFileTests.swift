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
