import Foundation
import RowKitGraphics

/// The files a load looked for while ``collecting(_:)`` runs its body on the calling thread
/// (documents, stylesheets, designs and the font files they name; a `--fonts` folder and the
/// font files in it), whether the body succeeds or not, each with its stamp from just before
/// it was read: a file that is missing or cannot be read is listed too.
///
/// A load that succeeds lists its own files (a document's `dependencies`); one that fails
/// loses that list with it, and `rowkit preview` and `rowkit render --watch` must still watch
/// the files it reached, so that fixing a stylesheet that was broken when first read renders
/// its document again. The stamps are taken as each file is looked for, before it is read: a
/// save while the load runs is then seen at the next look, never taken for what was read.
package final class FilesRead: Sendable {
  @TaskLocal private static var current: FilesRead?

  private let recorded = Locked<(files: [URL], stamps: [String: FileStamp])>(([], [:]))

  private init() {}

  /// Runs `body`, and returns its result with every file it looked for, in the order first
  /// looked for, and each file's stamp (by its path) from before it was read.
  package static func collecting<T>(
    _ body: () throws -> T
  ) -> (result: Result<T, any Error>, files: [URL], stamps: [String: FileStamp]) {
    let files = FilesRead()
    let result = $current.withValue(files) { Result { try body() } }
    let (looked, stamps) = files.recorded.withLock { ($0.files, $0.stamps) }
    return (result, looked, stamps)
  }

  /// Notes `url` as looked for, when a caller is collecting.
  static func note(_ url: URL) {
    guard let current else { return }
    let file = ContainedPath.standardized(url)
    current.recorded.withLock { recorded in
      guard recorded.stamps[file.path] == nil else { return }
      recorded.files.append(file)
      recorded.stamps[file.path] = FileStamp(file.path)
    }
  }
}
