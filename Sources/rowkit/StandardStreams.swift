import Foundation
import RowKit
import RowKitGraphics

/// Every byte `rowkit` writes to standard output and standard error goes through here.
///
/// Foundation's `FileHandle.write(_:)` stops the program when a write fails (a full disk, a
/// closed descriptor), and `print` drops what a full standard output refuses without a word.
/// Here every write uses the throwing `write(contentsOf:)`, and a failure is remembered:
/// ``exit(_:)`` then ends with status 2, with a message on standard error when standard
/// output failed, silently when standard error did (there is nowhere left to say it).
enum StandardStreams {
  /// Why standard output failed, once it did; nothing more is written to it then. Locked
  /// (as is ``errorFailed``): the progress bar writes from the render's threads, the command
  /// from its task. A lock each, so that a slow reader of one stream holds up no writer of
  /// the other.
  private static let outputFailure = Locked<String?>(nil)
  private static let errorFailed = Locked(false)

  /// Makes sure descriptors 0, 1 and 2 are open before anything else opens a file. A closed
  /// one would be the next file opened, and what rowkit prints would land in that file
  /// (a PNG it is writing, say). Standard input is put on /dev/null (an empty document);
  /// standard output and error on the root folder, opened for reading, so that every write
  /// fails and is reported, and reopening /dev/stdout fails too.
  static func claimClosedDescriptors() {
    for descriptor in [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO] where fcntl(descriptor, F_GETFD) == -1 && errno == EBADF {
      let placeholder =
        descriptor == STDIN_FILENO ? open("/dev/null", O_RDONLY) : open("/", O_RDONLY | O_DIRECTORY)
      guard placeholder >= 0 else { continue }
      if placeholder != descriptor {
        dup2(placeholder, descriptor)
        close(placeholder)
      }
    }
  }

  /// Writes `bytes` to standard output; throws, naming standard output, when it cannot.
  /// For what the command was asked for (a PNG, a manifest): the caller stops there.
  static func write(_ bytes: some DataProtocol) throws {
    let failure: String? = outputFailure.withLock { failure in
      if let failure { return failure }
      do {
        try FileHandle.standardOutput.write(contentsOf: bytes)
        return nil
      } catch {
        failure = reason(error)
        return failure
      }
    }
    if let failure { throw StandardOutputError(reason: failure) }
  }

  /// Standard output could not be written; ``exit(_:)`` says so.
  struct StandardOutputError: Error, CustomStringConvertible {
    var reason: String
    var description: String { "cannot write to standard output: \(reason)" }
  }

  /// Writes `line` and a newline to standard output, its control characters escaped (see
  /// ``writeError(_:)-(String)``). A failure ends the command with status 2 at its exit;
  /// what comes after it is dropped.
  static func print(_ line: String) {
    try? write(Data((line.controlCharactersEscaped + "\n").utf8))
  }

  /// Writes `text` to standard error (a message ends with its own newline). Its control
  /// characters but newlines and tabs are written as escapes: a message quotes documents
  /// and reports, which come from anyone, and the terminal must not act on what they hold.
  /// A failure ends the command with status 2 at its exit.
  static func writeError(_ text: String) {
    writeError(Data(text.controlCharactersEscaped.utf8))
  }

  /// Writes `bytes` to standard error as they are: for RowKit's own control of the terminal
  /// (the progress bar's line); messages go through ``writeError(_:)-(String)``.
  static func writeError(_ bytes: Data) {
    errorFailed.withLock { failed in
      guard !failed else { return }
      do {
        try FileHandle.standardError.write(contentsOf: bytes)
      } catch {
        failed = true
      }
    }
  }

  /// Ends the process with `status`, or with 2 when standard output or standard error could
  /// not be written: then the command did not do all it was asked to.
  static func exit(_ status: Int32) -> Never {
    StopSignals.parkIfStopping()
    // Nothing is buffered: every write above went to the descriptor at once, and its
    // failure is known here.
    var status = status
    if let failure = outputFailure.withLock({ $0 }) {
      writeError("rowkit: error: \(StandardOutputError(reason: failure))\n")
      status = 2
    }
    if errorFailed.withLock({ $0 }) { status = 2 }
    Foundation.exit(status)
  }

  /// The system's reason for a failed write: `No space left on device`.
  private static func reason(_ error: Error) -> String {
    let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError
    if let underlying, underlying.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(underlying.code))) }
    return error.localizedDescription
  }
}
