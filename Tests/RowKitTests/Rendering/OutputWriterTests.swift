import Foundation
import RowKitTestSupport
import Testing

@testable import RowKit

/// `OutputWriter` puts files in place atomically, and never replaces a symbolic link, a FIFO
/// or a device with a regular file (issue 16).
@Suite struct OutputWriterTests {
  let bytes: [UInt8] = Array("new".utf8)

  @Test func aRegularFileIsReplacedAtomically() throws {
    let folder = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("out.png")
    try Data("old".utf8).write(to: file)
    try OutputWriter.write(bytes, to: file)
    #expect(try Data(contentsOf: file) == Data(bytes))
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["out.png"])
  }

  /// A file of this user's keeps its permissions when replaced, but never a set-ID or sticky
  /// bit: the new file is this user's, and a setuid file rewritten by root must not stay
  /// setuid.
  @Test func aReplacedFileKeepsItsPermissionsButNoSetIDBits() throws {
    let folder = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("out.png")
    for (before, after) in [(0o640, 0o640), (0o600, 0o600), (0o4755, 0o755), (0o6711, 0o711), (0o1644, 0o644)] {
      try Data("old".utf8).write(to: file)
      #expect(chmod(file.path, mode_t(before)) == 0)
      try OutputWriter.write(bytes, to: file)
      #expect(try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int == after, "\(String(before, radix: 8))")
      try FileManager.default.removeItem(at: file)
    }
  }

  @Test func aSymbolicLinkKeepsPointingAtItsWrittenTarget() throws {
    let folder = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let fm = FileManager.default
    try Data("old".utf8).write(to: folder.appendingPathComponent("target.png"))
    try fm.createSymbolicLink(atPath: folder.appendingPathComponent("link.png").path, withDestinationPath: "target.png")
    // A chain of links, and a dangling one (its target is created).
    try fm.createSymbolicLink(atPath: folder.appendingPathComponent("chain.png").path, withDestinationPath: "link.png")
    try fm.createSymbolicLink(atPath: folder.appendingPathComponent("dangling.png").path, withDestinationPath: "new.png")
    for name in ["link.png", "chain.png"] {
      try Data("old".utf8).write(to: folder.appendingPathComponent("target.png"))
      try OutputWriter.write(bytes, to: folder.appendingPathComponent(name))
      #expect(try Data(contentsOf: folder.appendingPathComponent("target.png")) == Data(bytes), "\(name)")
    }
    try OutputWriter.write(bytes, to: folder.appendingPathComponent("dangling.png"))
    #expect(try Data(contentsOf: folder.appendingPathComponent("new.png")) == Data(bytes))
    #expect(try fm.destinationOfSymbolicLink(atPath: folder.appendingPathComponent("link.png").path) == "target.png")
    #expect(try fm.destinationOfSymbolicLink(atPath: folder.appendingPathComponent("chain.png").path) == "link.png")
    #expect(try fm.destinationOfSymbolicLink(atPath: folder.appendingPathComponent("dangling.png").path) == "new.png")
    #expect(try fm.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".tmp") }.isEmpty)
  }

  /// /dev/shm is a tmpfs; where the test folder is on another file system, the link's target
  /// cannot be renamed onto and is written beside itself first.
  @Test func aLinkToAnotherFileSystemIsWrittenThere() throws {
    let folder = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let target = URL(fileURLWithPath: "/dev/shm/rowkit-output-\(UUID().uuidString).png")
    defer { try? FileManager.default.removeItem(at: target) }
    try #require(FileManager.default.isWritableFile(atPath: "/dev/shm"), "Debian mounts a tmpfs at /dev/shm")
    let link = folder.appendingPathComponent("link.png")
    try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: target.path)
    try OutputWriter.write(bytes, to: link)
    #expect(try Data(contentsOf: target) == Data(bytes))
    #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == target.path)
    let strays = try FileManager.default.contentsOfDirectory(atPath: "/dev/shm").filter { $0.hasPrefix(".rowkit-output-") }
    #expect(strays.isEmpty)
  }

  @Test func aDeviceIsWrittenThrough() throws {
    let folder = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let link = folder.appendingPathComponent("null.png")
    try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "/dev/null")
    try OutputWriter.write(bytes, to: link)
    var info = stat()
    #expect(stat("/dev/null", &info) == 0 && info.st_mode & S_IFMT == S_IFCHR)
    #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == "/dev/null")
  }

  /// Issue 24, item 8: a commit whose last step fails (the CLI writes standard output and
  /// devices there) puts every file back as it was: replaced files get their old contents,
  /// new files and folders go, and nothing temporary stays.
  @Test func aFailedCommitPutsEveryFileBack() throws {
    let folder = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let old = folder.appendingPathComponent("old.png")
    let rows = folder.appendingPathComponent("rows")
    try FileManager.default.createDirectory(at: rows, withIntermediateDirectories: true)
    try Data("old".utf8).write(to: old)
    try Data("old row".utf8).write(to: rows.appendingPathComponent("r0.png"))
    struct LastStepFailed: Error {}
    let files = AtomicFiles()
    try files.stage(bytes, as: old)
    try files.stage(bytes, as: folder.appendingPathComponent("new.png"))
    let staged = try files.folder(for: rows)
    try Data(bytes).write(to: staged.appendingPathComponent("r0.png"))
    try Data(bytes).write(to: staged.appendingPathComponent("r1.png"))
    let newRows = try files.folder(for: folder.appendingPathComponent("made/for/rows"))
    try Data(bytes).write(to: newRows.appendingPathComponent("r0.png"))
    var finished = false
    #expect(throws: LastStepFailed.self) {
      try files.commit {
        // Everything is in place when the last step runs.
        #expect(try Data(contentsOf: old) == Data(bytes))
        #expect(try Data(contentsOf: rows.appendingPathComponent("r1.png")) == Data(bytes))
        finished = true
        throw LastStepFailed()
      }
    }
    #expect(finished)
    #expect(try Data(contentsOf: old) == Data("old".utf8))
    #expect(try Data(contentsOf: rows.appendingPathComponent("r0.png")) == Data("old row".utf8))
    #expect(try FileManager.default.contentsOfDirectory(atPath: rows.path) == ["r0.png"])
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["old.png", "rows"])
  }

  @Test func aCommitLeavesNoBackupBehind() throws {
    let folder = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("out.png")
    try Data("old".utf8).write(to: file)
    let files = AtomicFiles()
    try files.stage(bytes, as: file)
    try files.stage(bytes, as: folder.appendingPathComponent("second.png"))
    try files.commit()
    #expect(try Data(contentsOf: file) == Data(bytes))
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["out.png", "second.png"])
  }

  /// Item 17 (f): a file in a missing folder is named with the folder, whatever writes it.
  @Test func aMissingFolderIsNamed() throws {
    let folder = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("missing/out.json")
    #expect {
      try OutputWriter.write(bytes, to: file)
    } throws: { error in
      "\(error)" == "cannot write \(file.path): the folder \(folder.path)/missing does not exist"
    }
  }

  /// A folder where a file should go is refused, and left as it is.
  @Test func aFolderIsNeverReplaced() throws {
    let folder = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let inTheWay = folder.appendingPathComponent("out.png")
    try FileManager.default.createDirectory(at: inTheWay, withIntermediateDirectories: true)
    try Data("kept".utf8).write(to: inTheWay.appendingPathComponent("file"))
    #expect {
      try OutputWriter.write(bytes, to: inTheWay)
    } throws: { error in
      "\(error)" == "cannot write \(inTheWay.path): a folder is there"
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["out.png"])
    #expect(try Data(contentsOf: inTheWay.appendingPathComponent("file")) == Data("kept".utf8))
  }

  /// A device is written after every file, and a failing one takes the files back; its
  /// bytes waited in the temporary folder, never beside it in /dev.
  @Test func aDeviceComesLastAndItsFailureTakesTheFilesBack() throws {
    let folder = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let files = AtomicFiles()
    try files.stage(bytes, as: URL(fileURLWithPath: "/dev/full"))
    try files.stage(bytes, as: folder.appendingPathComponent("out.png"))
    #expect(throws: OutputError.self) { try files.commit() }
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    #expect(try FileManager.default.contentsOfDirectory(atPath: "/dev").allSatisfy { !$0.hasPrefix(".full.") })
  }
}
