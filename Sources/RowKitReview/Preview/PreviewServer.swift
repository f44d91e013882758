import FlyingFox
import FlyingSocks
import Foundation
import RowKit
import RowKitGraphics

/// The HTTP server of `rowkit preview`: a page of every case of a ``PreviewCatalog`` that
/// updates itself, through server-sent events, when a render changes.
///
/// Like the review server it listens on 127.0.0.1 only, checks every request's `Host`, and
/// needs the printed address's token on every request (in the query: an `EventSource` and an
/// `<img>` cannot send headers). It changes nothing on disk.
///
/// Endpoints: `GET /?token=` the page; `GET /api/catalog` the entries; `GET /events` the event
/// stream (`event: change`, data the catalog's version, whenever an entry changed); `GET
/// /image?case=NAME&v=VERSION` a case's last good PNG, by the case's name, never a path.
package final class PreviewServer: Sendable {
  private let routes: PreviewRoutes
  private let port: UInt16
  private let idleSeconds: Double

  /// A server of `catalog` on 127.0.0.1:`port` (0: a free port); `title` names what is
  /// previewed on the page. A connection that keeps it waiting `idleSeconds` is closed.
  package init(catalog: PreviewCatalog, port: UInt16 = 0, title: String, idleSeconds: Double = LoopbackAccess.idleSeconds) throws {
    let routes = PreviewRoutes(catalog: catalog, title: title)
    self.routes = routes
    self.port = port
    self.idleSeconds = idleSeconds
  }

  /// Serves until the task is cancelled.
  package func run() async throws {
    let routes = routes
    try await routes.access.run(port: port, idleSeconds: idleSeconds) { request in await routes.respond(to: request) }
  }

  /// Waits until the server listens, and returns its address with the token.
  package func waitUntilListening() async throws -> URL {
    try await routes.access.waitUntilListening()
  }
}

private final class PreviewRoutes: Sendable {
  let catalog: PreviewCatalog
  let access = LoopbackAccess()
  private let page: [UInt8]

  init(catalog: PreviewCatalog, title: String) {
    self.catalog = catalog
    page = Array(PreviewPage.html(title: title).utf8)
  }

  func respond(to request: HTTPRequest) async -> HTTPResponse {
    if let refusal = access.refusalOfHost(request) { return refusal }
    guard request.method == .GET else { return LoopbackAccess.error(405, "only GET") }
    // Browsers ask for it unprompted, without the token; the page has none.
    if request.target.path(percentEncoded: true) == "/favicon.ico" { return HTTPResponse(statusCode: .noContent) }
    guard access.isAuthorized(request) else {
      return LoopbackAccess.error(403, "open the address rowkit preview printed, with its token")
    }
    switch request.target.path(percentEncoded: true) {
    case "/", "/index.html":
      return HTTPResponse(statusCode: .ok, headers: LoopbackAccess.pageHeaders, body: Data(page))
    case "/api/catalog":
      struct Catalog: Encodable {
        var version: Int
        var entries: [PreviewCatalog.Entry]
      }
      return LoopbackAccess.json(200, Catalog(version: catalog.version, entries: catalog.entries))
    case "/events":
      return HTTPResponse(
        statusCode: .ok,
        headers: [.contentType: "text/event-stream", .cacheControl: "no-store"],
        body: HTTPBodySequence(from: PreviewEvents(catalog: catalog)))
    case "/image":
      // As review's images: the token is in the address, which another site's page may have.
      if let refusal = access.refusalOfCrossSiteRead(request) { return refusal }
      guard let name = request.query.first(where: { $0.name == "case" })?.value, let png = catalog.image(of: name) else {
        return LoopbackAccess.error(404, "no image of that case")
      }
      // An image is named by its case and version: the same address is always the same bytes.
      return HTTPResponse(
        statusCode: .ok, headers: [.contentType: "image/png", .cacheControl: "private, max-age=3600"], body: Data(png))
    default:
      return LoopbackAccess.error(404, "no such page")
    }
  }
}

/// The event stream of one open page: an event each time the catalog's version moves, and a
/// comment every 15 s so that a page that went away is noticed by the failed write.
private struct PreviewEvents: AsyncBufferedSequence {
  typealias Element = UInt8
  let catalog: PreviewCatalog

  func makeAsyncIterator() -> Iterator { Iterator(catalog: catalog) }

  struct Iterator: AsyncBufferedIteratorProtocol {
    typealias Buffer = [UInt8]
    let catalog: PreviewCatalog
    private var sent: Int?
    private var pending: [UInt8] = []
    private var lastWrite = ContinuousClock.now

    init(catalog: PreviewCatalog) {
      self.catalog = catalog
    }

    mutating func next() async throws -> UInt8? {
      try await nextBuffer(suggested: 1)?.first
    }

    mutating func nextBuffer(suggested count: Int) async throws -> [UInt8]? {
      if pending.isEmpty { pending = try await nextEvent() }
      let chunk = Array(pending.prefix(Swift.max(1, count)))
      pending.removeFirst(chunk.count)
      return chunk
    }

    private mutating func nextEvent() async throws -> [UInt8] {
      let clock = ContinuousClock()
      while true {
        let version = catalog.version
        if version != sent {
          // The first event tells the page the version it has, and how soon to reconnect.
          let retry = sent == nil ? "retry: 500\n" : ""
          sent = version
          lastWrite = clock.now
          return Array("\(retry)event: change\ndata: \(version)\n\n".utf8)
        }
        if lastWrite.duration(to: clock.now) > .seconds(15) {
          lastWrite = clock.now
          return Array(": still here\n\n".utf8)
        }
        // A look at a number under a lock, 50 times a second, while the page is open.
        try await Task.sleep(for: .milliseconds(20))
      }
    }
  }
}
