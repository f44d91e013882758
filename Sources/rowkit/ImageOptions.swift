import ArgumentParser
import Foundation
import RowKit

/// How long a render waits for its images: the flags of every subcommand that renders
/// documents, `preview` included.
struct ImageWaitOptions: ParsableArguments {
  @Option(help: ArgumentHelp("Seconds one image request may take, \(FlagRange.timeout.text).", valueName: "seconds"))
  var timeout: Double = ImagePipeline.Configuration().requestTimeout

  @Option(help: ArgumentHelp(
    "Seconds a render waits for all its images, \(FlagRange.deadline.text); slots still loading then show defaults.",
    valueName: "seconds"))
  var deadline: Double = TableRenderer.defaultImageDeadline

  func validate() throws {
    try FlagRange.timeout.check(timeout)
    try FlagRange.deadline.check(deadline)
  }
}

/// The flags that control how images load, shared by the subcommands that render documents.
struct ImageOptions: ParsableArguments {
  @OptionGroup var waits: ImageWaitOptions

  var timeout: Double { waits.timeout }
  var deadline: Double { waits.deadline }

  @Option(help: ArgumentHelp("Most image downloads at once, \(FlagRange.downloads.text).", valueName: "n"))
  var downloads: Int = ImagePipeline.Configuration().maximumConcurrentDownloads

  @Option(help: ArgumentHelp("Keep HTTP images in this folder between runs.", valueName: "dir"))
  var httpCache: String?

  @Option(help: ArgumentHelp("Size limit of --http-cache, \(FlagRange.httpCacheSize.text).", valueName: "MB"))
  var httpCacheSize: Int = 100

  @Option(help: ArgumentHelp(
    "Seconds an image in --http-cache stays fresh, \(FlagRange.httpCacheAge.text).", valueName: "seconds"))
  var httpCacheAge: Double = 24 * 3600

  @Option(help: ArgumentHelp("Where documents:// URLs resolve (overrides the document's documents: key).", valueName: "dir"))
  var documentsDir: String?

  @Option(help: ArgumentHelp("Where cache:// URLs resolve (overrides the document's cache: key).", valueName: "dir"))
  var cacheDir: String?

  func validate() throws {
    try FlagRange.downloads.check(downloads)
    try FlagRange.httpCacheSize.check(httpCacheSize)
    try FlagRange.httpCacheAge.check(httpCacheAge)
    for (flag, path) in [("--documents-dir", documentsDir), ("--cache-dir", cacheDir)] {
      guard let path else { continue }
      var isDirectory: ObjCBool = false
      guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
        throw ValidationError("\(flag) \(path): no such folder")
      }
    }
    // A missing folder is made; something else under its name would leave every render
    // without a cache, silently.
    var isDirectory: ObjCBool = false
    if let httpCache, FileManager.default.fileExists(atPath: httpCache, isDirectory: &isDirectory), !isDirectory.boolValue {
      throw ValidationError("--http-cache \(httpCache): a file is there, not a folder for the cache")
    }
    if let httpCache, let file = OutputWriter.nonFolderOnTheWay(to: URL(fileURLWithPath: httpCache)) {
      throw ValidationError("--http-cache \(httpCache): \(file.path) is a file, so the cache's folder cannot be made")
    }
  }

  var folders: ImageFolders {
    ImageFolders(
      documents: documentsDir.map { URL(fileURLWithPath: $0) }, cache: cacheDir.map { URL(fileURLWithPath: $0) })
  }

  /// The process's one image pipeline, configured by these flags.
  func makePipeline() -> ImagePipeline {
    var configuration = ImagePipeline.Configuration()
    configuration.requestTimeout = timeout
    configuration.maximumConcurrentDownloads = downloads
    configuration.diskCache = httpCache.map {
      DiskCache.Configuration(
        directory: URL(fileURLWithPath: $0), maximumBytes: httpCacheSize * 1_048_576, maximumAge: httpCacheAge)
    }
    return ImagePipeline(configuration: configuration)
  }
}
