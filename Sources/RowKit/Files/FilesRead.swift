import Foundation
import RowKitGraphics

/// The files a load looked for while ``collecting(_:)`` runs its body on the calling thread
/// (documents, stylesheets, designs and the font files they name), whether the body succeeds
/// or not: a file that is missing or cannot be read is listed too.
///
/// A load that succeeds lists its own files (a document's `dependencies`); one that fails
/// loses that list with it, and `rowkit preview` must still watch the files it reached, so
/// that fixing a stylesheet that was broken when first read renders its document again.
package final class FilesRead: Sendable {
  @TaskLocal private static var current: FilesRead?

  private let recorded = Locked<[URL]>([])

  private init() {}

  /// Runs `body`, and returns its result with every file it looked for, in the order first
  /// looked for.
  package static func collecting<T>(_ body: () throws -> T) -> (result: Result<T, any Error>, files: [URL]) {
    let files = FilesRead()
    let result = $current.withValue(files) { Result { try body() } }
    return (result, files.recorded.withLock { $0 })
  }

  /// Notes `url` as looked for, when a caller is collecting.
  static func note(_ url: URL) {
    guard let current else { return }
    let file = url.standardizedFileURL
    current.recorded.withLock { if !$0.contains(file) { $0.append(file) } }
  }
}
