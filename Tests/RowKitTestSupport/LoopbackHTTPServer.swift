import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A small HTTP/1.1 server on 127.0.0.1 for image tests: it serves canned responses by path,
/// counts the requests for each path, and can answer slowly, cut a body short, or never
/// answer at all. One thread per connection; `stop()` closes every socket, so a request left
/// hanging ends too.
public final class LoopbackHTTPServer: @unchecked Sendable {
  public enum Response: Sendable {
    /// 200 with the body.
    case ok(contentType: String, body: [UInt8])
    /// The status with a short text body.
    case status(Int)
    /// The body after `delay` seconds, unless the client leaves first.
    case delayed(Double, contentType: String, body: [UInt8])
    /// A Content-Length of the whole body, then only its first `sent` bytes, then the
    /// connection closes.
    case truncated(contentType: String, body: [UInt8], sent: Int)
    /// 302 to `location` (a path on this server or a whole URL).
    case redirect(String)
    /// Reads the request and never answers; the connection stays open until the client
    /// closes it or the server stops.
    case hang
    /// A body sent in two parts: the head (with `Content-Encoding` if `encoding` is given,
    /// and a Content-Length of the whole body if `declaresLength`, else the body ends when
    /// the connection closes), then `first`, then, unless the client closes the connection
    /// within a long wait, `rest`. ``streamedBody(_:)`` tells how much of it was sent.
    case streamed(contentType: String, encoding: String?, declaresLength: Bool, first: [UInt8], rest: [UInt8])
  }

  /// How much of a `.streamed` body went out before the connection ended.
  public struct StreamedBody: Hashable, Sendable {
    /// Bytes of the body sent.
    public var sent: Int
    /// Bytes the whole body has.
    public var total: Int
  }

  public let port: UInt16
  private let listener: Int32
  private let lock = NSLock()
  private var routes: [String: Response]
  private var counts: [String: Int] = [:]
  private var connections: Set<Int32> = []
  private var streamed: [String: StreamedBody] = [:]
  private var stopped = false
  /// False once the accept thread has closed the listener: its number may be another's now.
  private var listening = true

  /// Starts listening on a free port of 127.0.0.1.
  public init(routes: [String: Response]) throws {
    self.routes = routes
    let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard socket >= 0 else { throw ServerError("socket() failed: errno \(errno)") }
    var yes: Int32 = 1
    setsockopt(socket, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = 0
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard bound == 0, listen(socket, 512) == 0 else {
      close(socket)
      throw ServerError("bind/listen failed: errno \(errno)")
    }
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) }
    }
    listener = socket
    port = UInt16(bigEndian: address.sin_port)
    let thread = Thread { [self] in acceptLoop() }
    thread.name = "LoopbackHTTPServer.accept"
    thread.start()
  }

  deinit {
    stop()
  }

  /// The URL of `path` on this server.
  public func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

  /// How many requests asked for `path` (a path ending in * counts every path it begins).
  public func requests(_ path: String) -> Int {
    lock.withLock {
      guard path.hasSuffix("*") else { return counts[path, default: 0] }
      return counts.filter { $0.key.hasPrefix(path.dropLast()) }.values.reduce(0, +)
    }
  }

  /// Every request so far.
  public var totalRequests: Int { lock.withLock { counts.values.reduce(0, +) } }

  /// Connections open now (including requests that hang).
  public var openConnections: Int { lock.withLock { connections.count } }

  public func setRoute(_ path: String, _ response: Response) { lock.withLock { routes[path] = response } }

  /// How much of the last `.streamed` body of `path` was sent, once its connection has ended
  /// or all of it is out; nil before.
  public func streamedBody(_ path: String) -> StreamedBody? { lock.withLock { streamed[path] } }

  /// Stops listening and ends every connection.
  ///
  /// Sockets are shut down here, never closed: the accept thread closes the listener once its
  /// `accept` fails, and each connection's thread closes its socket, under the lock. A number
  /// closed here could be reused at once by another test's socket in this process while those
  /// threads still used it: the accept thread then took another server's connection and
  /// closed it, and a test's download got an empty reply (curl error 52) in full runs.
  public func stop() {
    lock.withLock {
      guard !stopped else { return }
      stopped = true
      if listening { shutdown(listener, Int32(SHUT_RDWR)) }
      for socket in connections { shutdown(socket, Int32(SHUT_RDWR)) }
    }
  }

  /// Waits until `seconds` pass (forever if nil); false if the client closed the connection
  /// or the server stopped first.
  private func wait(_ seconds: Double?, on client: Int32) -> Bool {
    let end = seconds.map { Date().addingTimeInterval($0) }
    while end.map({ Date() < $0 }) ?? true {
      if lock.withLock({ stopped }) { return false }
      var descriptor = pollfd(fd: client, events: Int16(POLLIN), revents: 0)
      if poll(&descriptor, 1, 50) > 0 {
        var byte: UInt8 = 0
        // Readable with nothing to read: the client hung up. A wake-up with no data yet
        // (EAGAIN) or a signal (EINTR) is not a hang-up: on a loaded machine, taking one for
        // a hang-up closed a request meant to hang, and the client saw an empty reply.
        let peeked = recv(client, &byte, 1, Int32(MSG_PEEK) | Int32(MSG_DONTWAIT))
        if peeked == 0 { return false }
        if peeked < 0 {
          if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { continue }
          return false
        }
        // A pipelined request: leave it for later and keep waiting without spinning.
        Thread.sleep(forTimeInterval: 0.05)
      }
    }
    return true
  }

  private func acceptLoop() {
    defer {
      lock.withLock {
        listening = false
        close(listener)
      }
    }
    while true {
      let client = accept(listener, nil, nil)
      if client < 0 {
        // A client that gave up before its connection was taken is no reason to stop.
        if errno == EINTR || errno == ECONNABORTED { continue }
        return
      }
      let accepted = lock.withLock { () -> Bool in
        guard !stopped else { return false }
        connections.insert(client)
        return true
      }
      guard accepted else {
        close(client)
        return
      }
      let thread = Thread { [self] in
        serve(client)
        // Closed under the lock: `stop` shuts down only sockets still in the set.
        lock.withLock {
          _ = connections.remove(client)
          close(client)
        }
      }
      thread.name = "LoopbackHTTPServer.connection"
      thread.start()
    }
  }

  /// Answers requests on one connection until the client closes it.
  private func serve(_ client: Int32) {
    var buffer: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while true {
      guard let end = Self.headerEnd(buffer) else {
        let count = read(client, &chunk, chunk.count)
        guard count > 0 else { return }
        buffer += chunk[0..<count]
        continue
      }
      let head = String(decoding: buffer[0..<end], as: UTF8.self)
      buffer.removeFirst(end + 4)
      let parts = head.split(separator: "\r\n").first?.split(separator: " ") ?? []
      let path = parts.count > 1 ? String(parts[1]) : "/"
      let response = lock.withLock { () -> Response in
        counts[path, default: 0] += 1
        // A route ending in * answers every path it begins.
        let prefixed = routes.first { $0.key.hasSuffix("*") && path.hasPrefix($0.key.dropLast()) }?.value
        return routes[path] ?? prefixed ?? .status(404)
      }
      guard answer(response, for: path, on: client) else { return }
    }
  }

  /// Sends `response`; false when the connection must close after it.
  private func answer(_ response: Response, for path: String, on client: Int32) -> Bool {
    switch response {
    case .ok(let type, let body):
      return send(Self.head(200, type: type, length: body.count) + body, to: client)
    case .status(let code):
      let body = Array("status \(code)\n".utf8)
      return send(Self.head(code, type: "text/plain", length: body.count) + body, to: client)
    case .delayed(let seconds, let type, let body):
      guard wait(seconds, on: client) else { return false }
      return send(Self.head(200, type: type, length: body.count) + body, to: client)
    case .truncated(let type, let body, let sent):
      _ = send(Self.head(200, type: type, length: body.count) + body.prefix(sent), to: client)
      return false
    case .redirect(let location):
      let target = location.hasPrefix("/") ? url(location) : location
      return send(Self.head(302, type: "text/plain", length: 0, extra: "Location: \(target)\r\n"), to: client)
    case .hang:
      _ = wait(nil, on: client)
      return false
    case .streamed(let type, let encoding, let declaresLength, let first, let rest):
      let total = first.count + rest.count
      var head = "HTTP/1.1 200 OK\r\nContent-Type: \(type)\r\n"
      if let encoding { head += "Content-Encoding: \(encoding)\r\n" }
      head += declaresLength ? "Content-Length: \(total)\r\nConnection: keep-alive\r\n\r\n" : "Connection: close\r\n\r\n"
      var sent = 0
      if send(Array(head.utf8), to: client), send(first, to: client) {
        sent = first.count
        // The client has all it needs to stop; the rest goes out only if it does not.
        if rest.isEmpty || (wait(600, on: client) && send(rest, to: client)) { sent = total }
      }
      lock.withLock { streamed[path] = StreamedBody(sent: sent, total: total) }
      return declaresLength && sent == total
    }
  }

  private func send(_ bytes: [UInt8], to client: Int32) -> Bool {
    var offset = 0
    while offset < bytes.count {
      let written = bytes[offset...].withUnsafeBytes { Glibc.send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
      guard written > 0 else { return false }
      offset += written
    }
    return true
  }

  private static func head(_ status: Int, type: String, length: Int, extra: String = "") -> [UInt8] {
    let reason = [200: "OK", 302: "Found", 404: "Not Found", 500: "Internal Server Error"][status] ?? "Status"
    return Array(
      "HTTP/1.1 \(status) \(reason)\r\nContent-Type: \(type)\r\nContent-Length: \(length)\r\n\(extra)Connection: keep-alive\r\n\r\n"
        .utf8)
  }

  private static func headerEnd(_ buffer: [UInt8]) -> Int? {
    guard buffer.count >= 4 else { return nil }
    for index in 0...(buffer.count - 4)
    where buffer[index] == 13 && buffer[index + 1] == 10 && buffer[index + 2] == 13 && buffer[index + 3] == 10 {
      return index
    }
    return nil
  }

  public struct ServerError: Error, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
  }
}
