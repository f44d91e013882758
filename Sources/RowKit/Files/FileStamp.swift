import Foundation

/// How a file is now, as far as a change to it shows: its modification time, size, inode and
/// status-change time (an editor that saves by renaming gives a new inode). A missing file
/// has a stamp of its own, which its creation changes.
package struct FileStamp: Equatable, Sendable {
  var parts: [Int]

  package init(_ path: String) {
    var info = stat()
    guard stat(path, &info) == 0 else {
      parts = []
      return
    }
    parts = [
      info.st_mtim.tv_sec, info.st_mtim.tv_nsec, Int(info.st_size), Int(info.st_ino), info.st_ctim.tv_sec, info.st_ctim.tv_nsec,
    ]
  }
}
