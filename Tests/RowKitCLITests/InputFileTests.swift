import Foundation
import RowKitTestSupport
import Testing

/// A FIFO that can never hang a test: a writer thread opens it and closes it at once, so
/// that a reader that opens it (which would wait for a writer forever) sees it empty.
/// ``release()`` lets that writer go when nobody read.
final class TestFIFO: Sendable {
  let url: URL

  init(at url: URL) throws {
    self.url = url
    guard mkfifo(url.path, 0o600) == 0 else { throw CocoaError(.fileWriteUnknown) }
    let path = url.path
    Thread {
      let descriptor = open(path, O_WRONLY)
      if descriptor >= 0 { close(descriptor) }
    }.start()
  }

  /// Opens the FIFO for reading without waiting, which lets the waiting writer through.
  func release() {
    let descriptor = open(url.path, O_RDONLY | O_NONBLOCK)
    if descriptor >= 0 { close(descriptor) }
  }
}

/// Issue 24, item 9: a FIFO as a font file hung `rowkit` forever. Every file RowKit reads
/// (fonts, documents, stylesheets, designs, images, the images `diff` compares) must be a
/// regular file; anything else is refused with a message naming it, never opened to wait.
@Suite struct InputFileTests {
  /// Runs `arguments` in a folder holding `files` and a FIFO named `fifo`, and returns the
  /// result.
  func run(_ arguments: [String], files: [String: String] = [:], fifo: String) async throws -> CommandRunner.Result {
    let folder = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    for (name, text) in files {
      let url = folder.appendingPathComponent(name)
      try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try text.write(to: url, atomically: true, encoding: .utf8)
    }
    let pipe = try TestFIFO(at: folder.appendingPathComponent(fifo))
    defer { pipe.release() }
    return try await CommandRunner.run(arguments, in: folder)
  }

  @Test func aFIFOAsADocumentsFontIsRefused() async throws {
    let result = try await run(
      ["render", "table.yaml", "-o", "out.png"],
      files: ["table.yaml": "fonts: [fifo.ttf]\nitems: [{ type: text, text: Hi }]\n"], fifo: "fifo.ttf")
    #expect(result.status == 2)
    #expect(result.stderr.contains("font file 'fifo.ttf' is a FIFO, not a regular file"), "\(result.stderr)")
  }

  @Test func aFIFOInTheFontsFolderIsRefused() async throws {
    for arguments in [["render", "table.yaml", "-o", "out.png", "--fonts", "brand"], ["fonts", "--fonts", "brand"]] {
      let result = try await run(
        arguments, files: ["table.yaml": "items: [{ type: text, text: Hi }]\n", "brand/readme.txt": "fonts"],
        fifo: "brand/fifo.ttf")
      #expect(result.status == 2, "\(arguments)")
      #expect(result.stderr.contains("brand/fifo.ttf is a FIFO, not a regular file"), "\(arguments): \(result.stderr)")
    }
    // A file named as the folder is said to be one, not to be missing.
    let file = try await run(
      ["render", "table.yaml", "-o", "out.png", "--fonts", "table.yaml"], files: ["table.yaml": "items: [{ type: text, text: Hi }]\n"], fifo: "unread")
    #expect(file.status == 2 && file.stderr.contains("--fonts: ") && file.stderr.contains("table.yaml is a file, not a folder of font files"), "\(file.stderr)")
    // catalog --styles draws no brand fonts, and took any path.
    let missing = try await CommandRunner.run(["catalog", "--styles", "-o", "/dev/null", "--fonts", "/nonexistent/fonts"])
    #expect(missing.status == 2 && missing.stderr.contains("--fonts: the folder /nonexistent/fonts does not exist"), "\(missing.stderr)")
  }

  @Test func everyOtherInputRefusesAFIFO() async throws {
    let cases: [(arguments: [String], files: [String: String], fifo: String, expected: String)] = [
      (["render", "fifo.yaml", "-o", "out.png"], [:], "fifo.yaml", "fifo.yaml: a FIFO, not a regular file"),
      (["measure", "table.yaml"], ["table.yaml": "stylesheet: fifo.yaml\nitems: [{ type: text, text: Hi }]\n"],
       "fifo.yaml", "stylesheet file 'fifo.yaml' is a FIFO, not a regular file"),
      (["lint", "table.yaml"], ["table.yaml": "cells: { Person: fifo.yaml }\nitems: [{ type: Person }]\n"],
       "fifo.yaml", "design file 'fifo.yaml' is a FIFO, not a regular file"),
      (["diff", "fifo.png", "fifo.png"], [:], "fifo.png", "fifo.png: a FIFO, not a regular file"),
    ]
    for (arguments, files, fifo, expected) in cases {
      let result = try await run(arguments, files: files, fifo: fifo)
      #expect(result.status == 2, "\(arguments): \(result.stderr)")
      #expect(result.stderr.contains(expected), "\(arguments): \(result.stderr)")
    }
  }

  /// An image that is a FIFO fails as any unreadable image does: the warning says why, and
  /// that the slot (an item with no default) is left empty.
  @Test func aFIFOAsAnImageIsNotRead() async throws {
    let result = try await run(
      ["render", "table.yaml", "-o", "out.png"],
      files: ["table.yaml": "items: [{ type: image, text: Hi, imageURL: \"bundle://fifo.png\" }]\n"], fifo: "fifo.png")
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stderr.contains("fifo.png: a FIFO, not a regular file), the slot is left empty"), "\(result.stderr)")
  }
}
