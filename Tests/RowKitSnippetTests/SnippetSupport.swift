import Foundation

/// Removes a file a documentation snippet wrote, relative to the package (the working folder
/// of `swift test`): the snippets show real paths, and the tests leave nothing behind.
func removeSnippetOutput(_ path: String) {
  try? FileManager.default.removeItem(atPath: path)
}
