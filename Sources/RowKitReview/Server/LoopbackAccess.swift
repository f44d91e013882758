import FlyingFox
import FlyingSocks
import RowKit
import Foundation
import RowKitGraphics

/// Who may talk to a server of RowKit's on 127.0.0.1: requests whose `Host` is the loopback
/// address and port (a page of another site that a DNS name rebinds to 127.0.0.1 sends its
/// own host), carrying the random token of the printed address (`?token=` or the
/// `X-RowKit-Token` header) where the request needs it.
final class LoopbackAccess: Sendable {
  /// The header that carries the token.
  static let tokenHeader = "X-RowKit-Token"

  /// The random token of the printed address.
  let token: String
  // Known once the socket listens (a port of 0 asks for a free one); until then every
  // request is refused, since its Host cannot be checked.
  let boundPort = Locked<UInt16?>(nil)
  /// Why the server stopped before it listened (a port in use), for ``waitUntilListening(_:)``.
  private let failure = Locked<String?>(nil)

  init() {
    var random = SystemRandomNumberGenerator()
    token = (0..<4).map { _ in
      let word = String(random.next() as UInt64, radix: 16)
      return String(repeating: "0", count: 16 - word.count) + word
    }.joined()
  }

  /// The refusal of `request` when its Host is not this server's loopback address.
  func refusalOfHost(_ request: HTTPRequest) -> HTTPResponse? {
    guard let port = boundPort.withLock({ $0 }) else { return Self.error(503, "starting") }
    let host = request.headers[.host] ?? ""
    guard host == "127.0.0.1:\(port)" || host == "localhost:\(port)" else {
      return Self.error(403, "the Host header must be 127.0.0.1:\(port) or localhost:\(port)")
    }
    return nil
  }

  /// The refusal of a read that a browser says comes from a page of another site
  /// (`Sec-Fetch-Site` other than `same-origin`, or `none` for an address typed in): such a
  /// page cannot read the pixels, but learns from an image that loads which cases a report
  /// has, and their sizes. Clients that send no such header (curl) are not refused.
  func refusalOfCrossSiteRead(_ request: HTTPRequest) -> HTTPResponse? {
    guard let site = request.headers[HTTPHeader("Sec-Fetch-Site")], site != "same-origin", site != "none" else { return nil }
    return Self.error(403, "this is shown on the review page itself, not on a page of another site (\(site))")
  }

  /// Whether `request` carries the token, in its header or its query.
  func isAuthorized(_ request: HTTPRequest) -> Bool {
    let given = request.headers[HTTPHeader(Self.tokenHeader)] ?? request.query.first { $0.name == "token" }?.value
    return given.map { ConstantTime.equal($0, token) } ?? false
  }

  /// The refusal of a request that changes files, unless it carries the token in its header
  /// and, when it says where it comes from, comes from this server's own page.
  ///
  /// Only the header counts: a page of another site cannot send a header of its own to this
  /// server without asking first (CORS), and the server never says yes, while a token in
  /// the address could be sent by any form or image of that site's, and stays in the
  /// browser's history. `Origin` is checked as well, for a browser that sends it.
  func refusalOfChange(_ request: HTTPRequest) -> HTTPResponse? {
    guard let given = request.headers[HTTPHeader(Self.tokenHeader)], ConstantTime.equal(given, token) else {
      return Self.error(403, "a change needs the token in the \(Self.tokenHeader) header")
    }
    if let origin = request.headers[HTTPHeader("Origin")] {
      let port = boundPort.withLock { $0 }.map(String.init) ?? ""
      guard origin == "http://127.0.0.1:\(port)" || origin == "http://localhost:\(port)" else {
        return Self.error(403, "a change must come from the review page itself, not from \(origin)")
      }
    }
    return nil
  }

  /// An HTTP server on 127.0.0.1:`port` (0: a free port) that answers with `respond`, which
  /// holds the routes alone, not the server that holds it.
  static func server(port: UInt16, respond: @escaping @Sendable (HTTPRequest) async -> HTTPResponse) throws -> HTTPServer {
    HTTPServer(
      address: try .inet(ip4: "127.0.0.1", port: port), timeout: 30, logger: .disabled,
      handler: ClosureHTTPHandler { request in await respond(request) })
  }

  /// Serves with `server` until the task is cancelled. An error that ends it, such as a port
  /// already in use, is kept for ``waitUntilListening(_:)`` to say at once.
  func run(_ server: HTTPServer, port: UInt16) async throws {
    do {
      try await server.run()
    } catch {
      let reason =
        if case .failed(_, let code, let message) = error as? SocketError {
          code == EADDRINUSE ? "port \(port) is in use: give another with --port, or 0 for a free one" : message
        } else {
          "\(error)"
        }
      failure.withLock { $0 = "cannot serve on 127.0.0.1:\(port): \(reason)" }
      throw ReviewError(failure.withLock { $0 }!)
    }
  }

  /// Waits until `server` listens, then knows its port (every request is refused until then)
  /// and returns its address with the token. A server that stopped first (``run(_:port:)``)
  /// is said at once, not after a timeout.
  func waitUntilListening(_ server: HTTPServer) async throws -> URL {
    var waited = 0
    while !(await server.isListening) {
      if let failure = failure.withLock({ $0 }) { throw ReviewError(failure) }
      guard waited < 30_000 else { throw ReviewError("the server did not listen within 30 s") }
      try await Task.sleep(for: .milliseconds(10))
      waited += 10
    }
    guard case .ip4(_, let port)? = await server.listeningAddress else { throw ReviewError("the server is not listening") }
    boundPort.withLock { $0 = port }
    return URL(string: "http://127.0.0.1:\(port)/?token=\(token)")!
  }

  static func json(_ status: Int, _ value: some Encodable) -> HTTPResponse {
    let body = (try? DeterministicJSON.bytes(value)) ?? Array(#"{"error":"cannot encode"}"#.utf8)
    return HTTPResponse(
      statusCode: HTTPStatusCode(status, phrase: status == 200 ? "OK" : "Error"),
      headers: [.contentType: "application/json", .cacheControl: "no-store"], body: Data(body))
  }

  static func error(_ status: Int, _ message: String) -> HTTPResponse {
    json(status, ["error": message])
  }

  /// The headers of a page of RowKit's: its own inline script and style, images and
  /// requests to this server only, never framed, no referrer sent.
  static let pageHeaders: HTTPHeaders = [
    .contentType: "text/html; charset=utf-8", .cacheControl: "no-store",
    HTTPHeader("Content-Security-Policy"):
      "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src 'self'; connect-src 'self'; frame-ancestors 'none'",
    HTTPHeader("Referrer-Policy"): "no-referrer",
  ]
}
