import CCurl
import Foundation
import RowKitTestSupport
import Testing

@testable import RowKitGraphics

/// HTTPClient against a loopback server: answers, statuses, redirects, failures and
/// cancellation. Waits are bounded far above what the machine needs (`eventually`), never
/// timed.
@Suite struct HTTPClientTests {
  static let body = Array("a body of some bytes".utf8)

  func server() throws -> LoopbackHTTPServer {
    try LoopbackHTTPServer(routes: [
      "/ok": .ok(contentType: "text/plain", body: Self.body),
      "/moved": .redirect("/ok"),
      "/loop": .redirect("/loop"),
      "/missing": .status(404),
      "/large": .ok(contentType: "application/octet-stream", body: [UInt8](repeating: 7, count: 100_000)),
      "/truncated": .truncated(contentType: "text/plain", body: Self.body, sent: 4),
      "/hang": .hang,
    ])
  }

  /// Issue 24, item 6: libcurl's timeout is a number of milliseconds; any number of seconds
  /// converts, none traps.
  @Test func anyTimeoutConvertsToMilliseconds() {
    #expect(HTTPClient.milliseconds(2.5) == 2500)
    #expect(HTTPClient.milliseconds(0) == 1)
    #expect(HTTPClient.milliseconds(1e16) == Int(Int32.max))
    #expect(HTTPClient.milliseconds(.infinity) == Int(Int32.max))
    #expect(HTTPClient.milliseconds(.nan) == 1)
    #expect(HTTPClient.milliseconds(-5) == 1)
  }

  @Test func libcurlIsLookedForByItsKnownNamesOrTheOneTheEnvironmentNames() {
    #expect(Curl.candidates(in: [:]) == ["libcurl.so.4", "libcurl-gnutls.so.4", "libcurl-nss.so.4"])
    #expect(Curl.candidates(in: ["ROWKIT_LIBCURL": "/opt/curl/lib/libcurl.so"]) == ["/opt/curl/lib/libcurl.so"])
    #expect(Curl.candidates(in: ["ROWKIT_LIBCURL": ""]) == Curl.knownNames)
  }

  @Test func aLibcurlThatCannotBeUsedIsAnErrorNamingEveryLibraryTried() {
    // zlib loads but is not libcurl; the other name does not exist.
    guard case .failure(let error) = Curl.load(candidates: ["libcurl-absent.so.9", "libz.so.1"]) else {
      Issue.record("a library that is not libcurl was used")
      return
    }
    #expect(error.kind == .download)
    #expect(error.message.hasPrefix("cannot load libcurl for HTTP downloads (tried libcurl-absent.so.9: "), "\(error.message)")
    #expect(error.message.contains("; libz.so.1: not libcurl: it has no curl_global_init)"), "\(error.message)")
    #expect(error.message.hasSuffix("install Debian's libcurl4, or name the library in ROWKIT_LIBCURL"))
  }

  @Test func theFirstUsableLibcurlIsLoadedAndItsVersionChecked() throws {
    let curl = try Curl.load(candidates: ["libcurl-absent.so.9"] + Curl.knownNames).get()
    let parts = curl.version.split(separator: ".").compactMap { Int($0.prefix { $0.isNumber }) }
    #expect(parts.count >= 2, "\(curl.version)")
    #expect(parts.lexicographicallyPrecedes([7, 85]) == false, "libcurl \(curl.version) is older than 7.85")
  }

  /// libcurl's results become words in one place: a transfer's and the multi handle's.
  @Test func libcurlResultsAreToldInLibcurlsWordsWithTheirNumbers() throws {
    let curl = try Curl.load(candidates: Curl.knownNames).get()
    #expect(curl.message(CURLM_BAD_HANDLE) == "Invalid multi handle (curl multi error 1)")
    #expect(curl.message(CURLE_COULDNT_CONNECT) == "Couldn't connect to server")
  }

  @Test func aGetReturnsTheStatusAndTheBody() async throws {
    let server = try server()
    defer { server.stop() }
    let client = HTTPClient(timeout: 60, connectionsPerHost: 2)
    let response = try await client.get(server.url("/ok"))
    #expect(response.status == 200)
    #expect(response.body == Self.body)
    let missing = try await client.get(server.url("/missing"))
    #expect(missing.status == 404)
    #expect(String(decoding: missing.body, as: UTF8.self) == "status 404\n")
  }

  @Test func redirectsAreFollowedUpToALimit() async throws {
    let server = try server()
    defer { server.stop() }
    let client = HTTPClient(timeout: 60, connectionsPerHost: 2)
    let response = try await client.get(server.url("/moved"))
    #expect(response.status == 200 && response.body == Self.body)
    #expect(server.requests("/moved") == 1 && server.requests("/ok") == 1)
    let error = await #expect(throws: GraphicsError.self) { try await client.get(server.url("/loop")) }
    #expect(error?.kind == .download)
    #expect(error?.message.contains(server.url("/loop")) == true)
    #expect(error?.message.contains("curl error 47") == true, "\(error?.message ?? "")")
    #expect(server.requests("/loop") == 11)
  }

  @Test func manyRequestsAtOnceEachGetTheirOwnAnswer() async throws {
    let server = try server()
    defer { server.stop() }
    let client = HTTPClient(timeout: 60, connectionsPerHost: 3)
    let paths = (0..<40).map { ["/ok", "/missing", "/large", "/moved"][$0 % 4] }
    let statuses = try await withThrowingTaskGroup(of: (Int, Int, Int).self) { group in
      for (index, path) in paths.enumerated() {
        group.addTask {
          let response = try await client.get(server.url(path))
          return (index, response.status, response.body.count)
        }
      }
      return try await group.reduce(into: [Int: (Int, Int)]()) { $0[$1.0] = ($1.1, $1.2) }
    }
    for (index, path) in paths.enumerated() {
      let expected = ["/ok": (200, Self.body.count), "/moved": (200, Self.body.count), "/missing": (404, 11), "/large": (200, 100_000)][path]!
      #expect(statuses[index]! == expected, "\(path)")
    }
  }

  @Test func failuresNameTheURLAndTheReason() async throws {
    let server = try server()
    let client = HTTPClient(timeout: 60, connectionsPerHost: 2)
    let truncated = await #expect(throws: GraphicsError.self) { try await client.get(server.url("/truncated")) }
    #expect(truncated?.message.hasPrefix(server.url("/truncated") + ": ") == true)
    let closedPort = server.url("/ok")
    server.stop()
    let refused = await #expect(throws: GraphicsError.self) { try await client.get(closedPort) }
    #expect(refused?.kind == .download)
    #expect(refused?.message.contains("curl error 7") == true, "\(refused?.message ?? "")")
    let scheme = await #expect(throws: GraphicsError.self) { try await client.get("ftp://127.0.0.1/file.png") }
    #expect(scheme?.message.contains("ftp://127.0.0.1/file.png") == true)
  }

  @Test func aBodyOverTheLimitIsRefused() async throws {
    let server = try server()
    defer { server.stop() }
    let client = HTTPClient(timeout: 60, connectionsPerHost: 2, maximumBodySize: 50_000)
    let error = await #expect(throws: GraphicsError.self) { try await client.get(server.url("/large")) }
    #expect(error?.message == "\(server.url("/large")): the body is larger than the limit of 50000 bytes")
    #expect(try await client.get(server.url("/ok")).body == Self.body)
  }

  /// Issue 24: six 250 MB bodies took 1.6 GB although images over 64 MB are refused. A body
  /// is now stopped as it passes the limit; the server sees the connection close before it
  /// could send the rest.
  static let limit = 1 << 20

  @Test func aBodyWithoutALengthIsStoppedAsSoonAsItPassesTheLimit() async throws {
    let server = try LoopbackHTTPServer(routes: [
      "/endless": .streamed(
        contentType: "application/octet-stream", encoding: nil, declaresLength: false,
        first: [UInt8](repeating: 1, count: Self.limit + 100_000), rest: [UInt8](repeating: 2, count: 8 << 20))
    ])
    defer { server.stop() }
    let client = HTTPClient(timeout: 600, connectionsPerHost: 2, maximumBodySize: Self.limit)
    let error = await #expect(throws: GraphicsError.self) { try await client.get(server.url("/endless")) }
    #expect(error?.message == "\(server.url("/endless")): the body is larger than the limit of 1048576 bytes")
    #expect(await eventually(within: 600) { server.streamedBody("/endless") != nil })
    let body = try #require(server.streamedBody("/endless"))
    #expect(body.sent == Self.limit + 100_000, "the transfer ended before the rest of the body was sent")
    #expect(body.sent < body.total)
  }

  @Test func aContentLengthOverTheLimitIsRefusedBeforeTheBody() async throws {
    let server = try LoopbackHTTPServer(routes: [
      "/declared": .streamed(
        contentType: "image/png", encoding: nil, declaresLength: true, first: [],
        rest: [UInt8](repeating: 3, count: Self.limit + 1))
    ])
    defer { server.stop() }
    let client = HTTPClient(timeout: 600, connectionsPerHost: 2, maximumBodySize: Self.limit)
    let error = await #expect(throws: GraphicsError.self) { try await client.get(server.url("/declared")) }
    #expect(error?.message == "\(server.url("/declared")): the body is larger than the limit of 1048576 bytes")
    #expect(await eventually(within: 600) { server.streamedBody("/declared") != nil })
    #expect(server.streamedBody("/declared")?.sent == 0, "no byte of the body was sent")
  }

  @Test func aGzipBodyCountsItsBytesAsItInflates() async throws {
    // 8 MB of zeros in about 50 KB: the Content-Length is far under the limit.
    let bomb = GzipOfZeros.stream(inflatingTo: 8 << 20)
    let split = GzipOfZeros.prefixLength(inflatingTo: 2 * Self.limit)
    let small = GzipOfZeros.stream(inflatingTo: 300_000)
    let server = try LoopbackHTTPServer(routes: [
      "/bomb": .streamed(
        contentType: "image/png", encoding: "gzip", declaresLength: true, first: Array(bomb[..<split]),
        rest: Array(bomb[split...])),
      "/small": .streamed(contentType: "image/png", encoding: "gzip", declaresLength: true, first: small, rest: []),
    ])
    defer { server.stop() }
    let client = HTTPClient(timeout: 600, connectionsPerHost: 2, maximumBodySize: Self.limit)
    // The stream is sound: under the limit, it arrives decoded.
    let decoded = try await client.get(server.url("/small"))
    #expect(decoded.body.count == 300_000 && decoded.body.allSatisfy { $0 == 0 })
    #expect(small.count < 3_000)

    let error = await #expect(throws: GraphicsError.self) { try await client.get(server.url("/bomb")) }
    #expect(error?.message == "\(server.url("/bomb")): the body is larger than the limit of 1048576 bytes")
    #expect(await eventually(within: 600) { server.streamedBody("/bomb") != nil })
    let body = try #require(server.streamedBody("/bomb"))
    #expect(body.sent == split && body.sent < body.total, "the transfer ended while the body still inflated")
  }

  @Test func theTimeoutEndsATransferNobodyAnswers() async throws {
    let server = try server()
    defer { server.stop() }
    let client = HTTPClient(timeout: 0.2, connectionsPerHost: 2)
    let error = await #expect(throws: GraphicsError.self) { try await client.get(server.url("/hang")) }
    #expect(error?.message.contains("curl error 28") == true, "\(error?.message ?? "")")
    #expect(await eventually(within: 300) { server.openConnections == 0 })
  }

  @Test func cancellingTheCallerEndsTheTransferAndClosesItsConnection() async throws {
    let server = try server()
    defer { server.stop() }
    let client = HTTPClient(timeout: 3600, connectionsPerHost: 2)
    let request = Task { try await client.get(server.url("/hang")) }
    #expect(await eventually(within: 300) { server.requests("/hang") == 1 })
    request.cancel()
    await #expect(throws: CancellationError.self) { try await request.value }
    #expect(await eventually(within: 300) { server.openConnections == 0 })
    // The client still works after a cancellation.
    #expect(try await client.get(server.url("/ok")).status == 200)
  }

  @Test func aTaskCancelledBeforeItAsksNeverReachesTheServer() async throws {
    let server = try server()
    defer { server.stop() }
    let client = HTTPClient(timeout: 3600, connectionsPerHost: 2)
    let request = Task {
      withUnsafeCurrentTask { $0?.cancel() }
      return try await client.get(server.url("/ok"))
    }
    await #expect(throws: CancellationError.self) { try await request.value }
    #expect(try await client.get(server.url("/missing")).status == 404)
    #expect(server.requests("/ok") == 0)
  }

  @Test func aReleasedClientEndsItsThread() async throws {
    let server = try server()
    defer { server.stop() }
    var client: HTTPClient? = HTTPClient(timeout: 60, connectionsPerHost: 2)
    #expect(client?.startedEngine == nil, "a client starts its thread with the first request, not before")
    #expect(try await client?.get(server.url("/ok")).status == 200)
    weak let engine = client?.startedEngine
    #expect(engine != nil)
    client = nil
    // The thread holds the engine until it ends.
    #expect(await eventually(within: 300) { engine == nil })
    #expect(await eventually(within: 300) { server.openConnections == 0 })
  }
}
