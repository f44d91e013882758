import Foundation

/// Where an image slot's URL points, once resolved against the document and assets folders.
public enum ImageLocation: Hashable, Sendable {
  /// A file on this machine.
  case file(URL)
  /// An HTTP or HTTPS URL, downloaded.
  case remote(URL)
}

/// Resolves image URLs: `bundle://` under the assets folder, `documents://` and `cache://`
/// under their folders (as Three20's Documents and Caches; never outside them), `file://`,
/// `http://` and `https://`, and relative paths against the document's folder.
public struct ImageURLResolver: Hashable, Sendable {
  /// Where `bundle://` URLs resolve.
  public var assetsDirectory: URL
  /// Where relative paths resolve: the document's folder.
  public var baseDirectory: URL
  /// Where `documents://` and `cache://` URLs resolve; without one, such a URL is refused.
  public var documentsDirectory: URL?
  /// Where `cache://` URLs resolve; without one, such a URL is refused.
  public var cacheDirectory: URL?
  /// Whether every URL is refused: a render given no images, whose slots show their
  /// defaults wherever it runs (not the files of whatever folder it runs in).
  public private(set) var refusesEveryURL = false

  /// A resolver that refuses every URL.
  public static let refusingEveryURL: ImageURLResolver = {
    var resolver = ImageURLResolver(assetsDirectory: URL(fileURLWithPath: "/"), baseDirectory: URL(fileURLWithPath: "/"))
    resolver.refusesEveryURL = true
    return resolver
  }()

  /// A resolver for a document in `baseDirectory`, with its assets and, when given, its documents and cache folders.
  public init(assetsDirectory: URL, baseDirectory: URL, documentsDirectory: URL? = nil, cacheDirectory: URL? = nil) {
    self.assetsDirectory = ContainedPath.standardized(assetsDirectory)
    self.baseDirectory = ContainedPath.standardized(baseDirectory)
    self.documentsDirectory = documentsDirectory.map(ContainedPath.standardized)
    self.cacheDirectory = cacheDirectory.map(ContainedPath.standardized)
  }

  /// The schemes RowKit reads images from.
  public static let schemes = ["bundle", "documents", "cache", "file", "http", "https"]

  /// Resolves `string`, or explains why it cannot be an image URL.
  public func resolve(_ string: String) throws(ImageURLError) -> ImageLocation {
    guard !string.isEmpty else { throw ImageURLError("an image URL is empty") }
    if refusesEveryURL { throw ImageURLError("image '\(string)' is not loaded: this render was given no images") }
    if let range = string.range(of: "://") {
      let scheme = String(string[..<range.lowerBound]).lowercased()
      let rest = String(string[range.upperBound...])
      switch scheme {
      case "bundle":
        return .file(try Self.contained(rest, in: assetsDirectory, what: "bundle:// URL '\(string)'"))
      case "documents", "cache":
        guard let folder = scheme == "documents" ? documentsDirectory : cacheDirectory else {
          throw ImageURLError(
            "\(scheme):// URL '\(string)' needs a \(scheme) folder (the document's \(scheme): key, or --\(scheme)-dir)")
        }
        return .file(try Self.contained(rest, in: folder, what: "\(scheme):// URL '\(string)'", folderName: "\(scheme) folder"))
      case "file":
        guard rest.hasPrefix("/") else { throw ImageURLError("file:// URL '\(string)' needs an absolute path") }
        return .file(ContainedPath.standardized(URL(fileURLWithPath: rest)))
      case "http", "https":
        guard let url = URL(string: string), url.host != nil else { throw ImageURLError("'\(string)' is not a valid URL") }
        return .remote(url)
      default:
        throw ImageURLError(
          "image URL '\(string)' has the unknown scheme '\(scheme)://' (use \(Self.schemes.map { $0 + "://" }.joined(separator: ", ")) or a relative path)")
      }
    }
    // What a browser would load but RowKit does not is refused by name, not looked for as a
    // file (`no readable file at …/data:image/png;base64,…`).
    if string.hasPrefix("//") {
      throw ImageURLError("image URL '\(string)' has no scheme: write https:\(string) (or http:), or a path")
    }
    if let colon = string.firstIndex(of: ":"), Self.browserOnlySchemes.contains(string[..<colon].lowercased()) {
      throw ImageURLError(
        "image URL '\(string.prefix(40))\(string.count > 40 ? "…" : "")' is a \(string[..<colon].lowercased()): URL, which RowKit does not load "
          + "(use \(Self.schemes.map { $0 + "://" }.joined(separator: ", ")) or a relative path)")
    }
    if string.hasPrefix("/") { return .file(ContainedPath.standardized(URL(fileURLWithPath: string))) }
    return .file(ContainedPath.standardized(baseDirectory.appendingPathComponent(string)))
  }

  /// Schemes written without `//` that a browser loads or acts on, which RowKit does not.
  static let browserOnlySchemes: Set<String> = ["data", "blob", "javascript", "about", "mailto", "tel"]

  /// `relative` inside `root`; a path that climbs out of it is refused, whether by `..` or
  /// through a symbolic link.
  static func contained(
    _ relative: String, in root: URL, what: String, folderName: String = "assets folder"
  ) throws(ImageURLError) -> URL {
    var components: [String] = []
    for component in relative.split(separator: "/", omittingEmptySubsequences: true) {
      switch component {
      case ".": continue
      case "..":
        guard !components.isEmpty else { throw ImageURLError("\(what) escapes the \(folderName)") }
        components.removeLast()
      default: components.append(String(component))
      }
    }
    guard !components.isEmpty else { throw ImageURLError("\(what) names no file") }
    let url = components.reduce(root) { $0.appendingPathComponent($1) }
    guard ContainedPath.isInside(url, folder: root) else {
      throw ImageURLError("\(what) escapes the \(folderName) through a symbolic link")
    }
    return url
  }
}

/// An image URL that cannot be resolved, with the reason.
public struct ImageURLError: Error, Hashable, Sendable, CustomStringConvertible {
  /// Why the URL cannot be resolved.
  public var message: String

  /// An error explained by `message`.
  public init(_ message: String) {
    self.message = message
  }

  /// The ``message``.
  public var description: String { message }
}

/// The folders of Three20's `documents://` and `cache://` URLs.
public struct ImageFolders: Hashable, Sendable {
  /// Where `documents://` URLs resolve; nil refuses them.
  public var documents: URL?
  /// Where `cache://` URLs resolve; nil refuses them.
  public var cache: URL?

  /// The folders, each nil unless given.
  public init(documents: URL? = nil, cache: URL? = nil) {
    self.documents = documents
    self.cache = cache
  }
}

extension String {
  /// This text with the user information of every URL in it (`https://user:secret@host/…`,
  /// `https://token@host/…`) written as `***`: image URLs and the reasons they failed go to
  /// CI logs, reports and records committed beside references, where a secret must not.
  /// Only the part before the host counts: an `@` after `/`, `?` or `#` is the path's.
  package var passwordsHidden: String {
    guard contains("://") && contains("@") else { return self }
    return replacing(#/://[^/?#\s]*@/#) { _ in "://***@" }
  }
}
