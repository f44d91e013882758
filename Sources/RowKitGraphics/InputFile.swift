import Foundation

/// The one check every file RowKit reads from outside goes through: documents, stylesheets,
/// cell design files, font files, images and the images `rowkit diff` compares.
///
/// Only a regular file is read, symbolic links followed. A FIFO would make the read wait
/// until some other program wrote to it, forever if none does; a device may never end; a
/// folder or a socket is no file at all.
public enum InputFile {
  /// Why a path cannot be read as an input file.
  public enum Problem: Error, Hashable, Sendable, CustomStringConvertible {
    /// Nothing is there (or a folder on the way is missing).
    case missing
    /// A folder is there.
    case folder
    /// Something that is not a regular file: a FIFO, a device or a socket, named.
    case notRegular(String)
    /// The file is there and cannot be opened or read; the system's reason.
    case unreadable(String)
    /// The file (or standard input) holds more than RowKit reads: `limit` bytes.
    case tooLarge(limit: Int)

    /// The problem after a path and a colon: `no such file`, `a FIFO, not a regular file`.
    public var description: String {
      switch self {
      case .missing: return "no such file"
      case .folder: return "a folder, not a file"
      case .notRegular(let kind): return "\(kind), not a regular file"
      case .unreadable(let reason): return "cannot be read (\(reason))"
      case .tooLarge(let limit): return "larger than the \(limit >> 20) MB RowKit reads"
      }
    }

    /// The problem after a path as the subject: `does not exist`, `is a FIFO, not a regular
    /// file`, `cannot be read (Permission denied)`.
    public var predicate: String {
      switch self {
      case .missing: return "does not exist"
      case .folder, .notRegular, .tooLarge: return "is \(description)"
      case .unreadable: return description
      }
    }
  }

  /// What is wrong with reading the file at `path`, or nil for a regular file (at the end of
  /// any symbolic links). For files handed to a library by path (fontconfig opens font
  /// files itself); ``read(_:maximumBytes:)`` checks the file it opened instead.
  public static func problem(at path: String) -> Problem? {
    var info = stat()
    guard stat(path, &info) == 0 else { return problem(errno: errno) }
    return problem(mode: info.st_mode)
  }

  /// The most bytes RowKit reads of one input file, or of standard input: far more than any
  /// document, stylesheet, design or image it draws (a reference too tall for one PNG is
  /// kept as tiles), and little enough that a huge or sparse file is refused by name rather
  /// than read into memory until the process dies.
  public static let maximumBytes = 256 << 20

  /// The bytes of the regular file at `path`, at most `maximumBytes`.
  ///
  /// The file is opened without waiting (opening a FIFO for reading waits for a writer) and
  /// the opened file is checked, so nothing can swap a FIFO in between check and read.
  public static func read(_ path: String, maximumBytes: Int = maximumBytes) throws(Problem) -> [UInt8] {
    let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
    guard descriptor >= 0 else { throw problem(errno: errno) }
    defer { close(descriptor) }
    var info = stat()
    guard fstat(descriptor, &info) == 0 else { throw .unreadable(String(cString: strerror(errno))) }
    if let problem = problem(mode: info.st_mode) { throw problem }
    guard info.st_size <= maximumBytes else { throw .tooLarge(limit: maximumBytes) }
    return try readAll(descriptor, expecting: Int(info.st_size), maximumBytes: maximumBytes)
  }

  /// What standard input holds, to its end, at most `maximumBytes`: a document piped in.
  public static func readStandardInput(maximumBytes: Int = maximumBytes) throws(Problem) -> [UInt8] {
    try readAll(STDIN_FILENO, expecting: 0, maximumBytes: maximumBytes)
  }

  /// Reads `descriptor` to its end, refusing more than `maximumBytes` (a file may grow
  /// after its size was read, and a pipe has none).
  static func readAll(_ descriptor: Int32, expecting size: Int, maximumBytes: Int) throws(Problem) -> [UInt8] {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(min(max(size, 0), maximumBytes))
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
      if count < 0 && errno == EINTR { continue }
      guard count >= 0 else { throw .unreadable(String(cString: strerror(errno))) }
      if count == 0 { return bytes }
      guard bytes.count + count <= maximumBytes else { throw .tooLarge(limit: maximumBytes) }
      bytes += chunk[..<count]
    }
  }

  private static func problem(errno code: Int32) -> Problem {
    code == ENOENT || code == ENOTDIR ? .missing : .unreadable(String(cString: strerror(code)))
  }

  private static func problem(mode: mode_t) -> Problem? {
    switch mode & S_IFMT {
    case S_IFREG: return nil
    case S_IFDIR: return .folder
    case S_IFIFO: return .notRegular("a FIFO")
    case S_IFSOCK: return .notRegular("a socket")
    case S_IFCHR, S_IFBLK: return .notRegular("a device")
    default: return .notRegular("a special file")
    }
  }
}
