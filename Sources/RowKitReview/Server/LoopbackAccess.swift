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
  /// holds the routes alone, not the server that holds it. A connection that waits
  /// `idleSeconds` for its client (silent, or a request sent a byte at a time) is closed.
  static func server(
    port: UInt16, idleSeconds: Double, respond: @escaping @Sendable (HTTPRequest) async -> HTTPResponse
  ) throws -> HTTPServer {
    HTTPServer(
      address: try .inet(ip4: "127.0.0.1", port: port), timeout: 30,
      pool: IdleClosingSocketPool(HTTPServer.defaultPool(), idleSeconds: idleSeconds), logger: .disabled,
      handler: ClosureHTTPHandler { request in await respond(request) })
  }

  /// How long a connection may keep the server waiting before it is closed.
  static let idleSeconds: Double = 30

  /// The server now serving: ``run(port:idleSeconds:respond:)`` makes another when one stops.
  private let current = Locked<HTTPServer?>(nil)

  /// Serves on 127.0.0.1:`port` with `respond` until the task is cancelled. An error that
  /// ends it before it listens, such as a port already in use, is kept for
  /// ``waitUntilListening()`` to say at once. Once listening, a server stopped by running out
  /// of files (a local process opening connection after connection) is started again on the
  /// same port after a pause: its connections were closed with it, and the page goes on.
  func run(
    port: UInt16, idleSeconds: Double = idleSeconds, respond: @escaping @Sendable (HTTPRequest) async -> HTTPResponse
  ) async throws {
    Self.raiseOpenFileLimit()
    // Restarts in a row, each within a minute of the last: a leak or a machine out of files
    // would restart for good, dropping every page's connection each second, so it ends.
    var quickRestarts = 0
    while true {
      let listeningPort = boundPort.withLock { $0 }
      let server = try Self.server(port: listeningPort ?? port, idleSeconds: idleSeconds, respond: respond)
      current.withLock { $0 = server }
      let started = ContinuousClock.now
      do {
        try await server.run()
        return
      } catch {
        let code: Int32? = if case .failed(_, let code, _) = error as? SocketError { code } else { nil }
        if boundPort.withLock({ $0 }) != nil, code == EMFILE || code == ENFILE {
          quickRestarts = ContinuousClock.now - started < .seconds(60) ? quickRestarts + 1 : 1
          if quickRestarts < Self.maximumQuickRestarts {
            try await Task.sleep(for: .seconds(1))
            continue
          }
        }
        if Task.isCancelled { throw error }
        let reason =
          if code == EADDRINUSE {
            "port \(listeningPort ?? port) is in use: give another with --port, or 0 for a free one"
          } else if case .failed(_, _, let message) = error as? SocketError {
            message
          } else {
            "\(error)"
          }
        failure.withLock { $0 = "cannot serve on 127.0.0.1:\(listeningPort ?? port): \(reason)" }
        throw ReviewError(failure.withLock { $0 }!)
      }
    }
  }

  /// How many times in a row the server starts again after running out of files, each
  /// within a minute of the last, before it stops with the error.
  static let maximumQuickRestarts = 10

  /// Raises this process's limit of open files to the most it may have: each connection
  /// holds one, and the usual 1,024 let a local process fill them with idle connections.
  private static func raiseOpenFileLimit() {
    var limit = rlimit()
    guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur < limit.rlim_max else { return }
    limit.rlim_cur = limit.rlim_max
    _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
  }

  /// Waits until the server listens, then knows its port (every request is refused until
  /// then) and returns its address with the token. A server that stopped first
  /// (``run(port:idleSeconds:respond:)``) is said at once, not after a timeout.
  func waitUntilListening() async throws -> URL {
    var waited = 0
    while true {
      if let server = current.withLock({ $0 }), await server.isListening {
        guard case .ip4(_, let port)? = await server.listeningAddress else { throw ReviewError("the server is not listening") }
        boundPort.withLock { $0 = port }
        return URL(string: "http://127.0.0.1:\(port)/?token=\(token)")!
      }
      if let failure = failure.withLock({ $0 }) { throw ReviewError(failure) }
      guard waited < 30_000 else { throw ReviewError("the server did not listen within 30 s") }
      try await Task.sleep(for: .milliseconds(10))
      waited += 10
    }
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

/// Closes a connection whose client keeps it waiting: each wait of a connection for its
/// client to send ends after `idleSeconds`, so that idle and half-sent requests cannot hold
/// the server's files. Waits to write are not timed: a client reading a large image slowly
/// (a review through a tunnel) is still receiving, though one wait for room in the socket's
/// buffer can take longer than that. The listening socket waits as long as it must.
struct IdleClosingSocketPool: AsyncSocketPool {
  let pool: any AsyncSocketPool
  let idleSeconds: Double

  init(_ pool: some AsyncSocketPool, idleSeconds: Double) {
    self.pool = pool
    self.idleSeconds = idleSeconds
  }

  func prepare() async throws { try await pool.prepare() }

  func run() async throws { try await pool.run() }

  func suspendSocket(_ socket: Socket, untilReadyFor events: Socket.Events) async throws {
    if events.contains(.write) || Self.isListening(socket) { return try await pool.suspendSocket(socket, untilReadyFor: events) }
    let pool = self.pool
    let idle = idleSeconds
    try await withThrowingTaskGroup(of: Bool.self) { group in
      group.addTask {
        try await pool.suspendSocket(socket, untilReadyFor: events)
        return true
      }
      group.addTask {
        try await Task.sleep(for: .seconds(idle))
        return false
      }
      let ready = try await group.next() ?? false
      group.cancelAll()
      if !ready { throw SocketError.disconnected }
    }
  }

  /// Whether `socket` listens for connections (its accept waits are not timed).
  private static func isListening(_ socket: Socket) -> Bool {
    var listening: Int32 = 0
    var size = socklen_t(MemoryLayout<Int32>.size)
    return getsockopt(socket.file.rawValue, SOL_SOCKET, SO_ACCEPTCONN, &listening, &size) == 0 && listening != 0
  }
}
