import FlyingFox
import FlyingSocks
import Foundation
import RowKit
import RowKitGraphics
import RowKitSnapshot

/// The HTTP server of `rowkit review`: the report's review page with buttons and keys, its
/// case images, and the JSON API the page drives.
///
/// It listens on 127.0.0.1 only. Every request must carry a `Host` of `127.0.0.1:PORT` or
/// `localhost:PORT` (a page of another site that a DNS name rebinds to this address sends its
/// own host); the page, the state and every change need the random token of the printed
/// address (`?token=` on the page, the `X-RowKit-Token` header on the API); changes are
/// POSTs that take the token in that header alone (no other site's page can send it without
/// a preflight that the server never allows) and, with an `Origin`, only the server's own.
/// A request names cases by their names in the report, never a path.
///
/// Endpoints: `GET /?token=` the page; `GET /cases/…` the report's images; `GET /api/state`;
/// `POST /api/accept`, `/api/reject` with `{"cases": [names]}` or `{"group": index}`, and
/// `POST /api/undo`. Each answers with the state, or `{"error": …}` and a 4xx status.
package final class ReviewServer: Sendable {
  /// The header the page's requests carry the token in.
  package static let tokenHeader = LoopbackAccess.tokenHeader
  /// The largest case image served: a tile of RowKit's tallest (32 million pixels) is tens
  /// of megabytes as a PNG.
  package static let maximumImageBytes = 128 << 20

  private let routes: ReviewRoutes
  private let port: UInt16

  /// A server of `session` on 127.0.0.1:`port` (0: a free port). `reportPath` is how the
  /// page names the report folder in the commands it shows; the page holds the first
  /// `casesShownAtOnce` cases as HTML and adds the others once they show.
  package init(
    session: ReviewSession, port: UInt16 = 0, reportPath: String, casesShownAtOnce: Int = ReviewReport.casesShownAtOnce
  ) throws {
    let routes = ReviewRoutes(session: session, reportPath: reportPath, casesShownAtOnce: casesShownAtOnce)
    self.routes = routes
    self.port = port
  }

  /// The random token of the printed address.
  package var token: String { routes.access.token }

  /// Serves until the task is cancelled.
  package func run() async throws {
    let routes = routes
    try await routes.access.run(port: port) { request in await routes.respond(to: request) }
  }

  /// Waits until the server listens, and returns its address with the token.
  package func waitUntilListening() async throws -> URL {
    try await routes.access.waitUntilListening()
  }
}

/// What the server answers to each request (see ``ReviewServer``).
private final class ReviewRoutes: Sendable {
  let session: ReviewSession
  let access = LoopbackAccess()
  private let page: [UInt8]

  init(session: ReviewSession, reportPath: String, casesShownAtOnce: Int) {
    self.session = session
    let storedPage = (try? InputFile.read(session.reportFolder.appendingPathComponent(ReportFolder.pageFile).path)) ?? []
    // The page is made again from report.json (checked as the report is), never served from
    // the folder's own index.html, which could hold any script; only whether it left the
    // passed cases out is read from it.
    let omitsPassedCases = storedPage.contains(Array(#"id="omitted""#.utf8))
    page = Array(
      ReviewReport.html(
        for: session.report, reportPath: reportPath, onlyFailures: omitsPassedCases,
        servedScript: ReviewPageScript.source, onlyNearView: true, shownAtOnce: casesShownAtOnce
      ).utf8)
  }

  // MARK: - Requests

  func respond(to request: HTTPRequest) async -> HTTPResponse {
    if let refusal = access.refusalOfHost(request) { return refusal }
    // The path as sent, before any decoding: it is compared whole, or checked part by part.
    let path = request.target.path(percentEncoded: true)
    let authorized = access.isAuthorized(request)
    switch (request.method, path) {
    case (.GET, "/"), (.GET, "/index.html"):
      guard authorized else { return Self.error(403, "open the address rowkit review printed, with its token") }
      return HTTPResponse(statusCode: .ok, headers: LoopbackAccess.pageHeaders, body: Data(page))
    case (.GET, "/api/state"):
      guard authorized else { return Self.error(403, "the token is missing or wrong") }
      return await offCooperativePool { self.state(entry: nil) }
    case (.POST, "/api/accept"), (.POST, "/api/reject"), (.POST, "/api/undo"):
      if let refusal = access.refusalOfChange(request) { return refusal }
      // Refused by its length before it is read: a body of hundreds of megabytes was held
      // whole in memory first. One without a length is read a chunk at a time, up to the limit.
      let tooLarge = Self.error(413, "the body is over 1 MiB; an action names cases, a group or an entry")
      if let length = request.bodySequence.count, length > 1 << 20 { return tooLarge }
      var body = Data()
      do {
        for try await chunk in request.bodySequence {
          body += chunk
          if body.count > 1 << 20 { return tooLarge }
        }
      } catch {
        return Self.error(400, "the body cannot be read")
      }
      let received = body
      return await offCooperativePool { self.change(path, body: received) }
    case (.GET, "/favicon.ico"):
      // Browsers ask for it unprompted; the page has none, and a 404 would show as an error
      // in the browser's console.
      return HTTPResponse(statusCode: .noContent)
    case (.GET, _) where path.hasPrefix("/\(ReportFolder.casesFolder)/"):
      if let refusal = access.refusalOfCrossSiteRead(request) { return refusal }
      return await offCooperativePool { self.caseFile(path) }
    case (.GET, "/api/accept"), (.GET, "/api/reject"), (.GET, "/api/undo"), (.POST, "/"), (.POST, "/index.html"), (.POST, "/api/state"):
      return Self.error(405, "\(path) takes \(path.hasPrefix("/api/") && path != "/api/state" ? "POST" : "GET") only")
    case (.GET, _), (.POST, _):
      return Self.error(404, "no such page")
    default:
      return Self.error(405, "only GET and POST")
    }
  }

  /// An accept, reject or undo, from the JSON body of its request.
  private func change(_ path: String, body: Data) -> HTTPResponse {
    struct Body: Decodable {
      var cases: [String]?
      var group: Int?
      /// For an undo: the entry the page showed as the one undo takes back.
      var undoes: Int?
    }
    do {
      let request: Body
      do {
        request = body.isEmpty ? Body() : try JSONDecoder().decode(Body.self, from: body)
      } catch {
        throw ReviewError(
          path == "/api/undo" ? #"the body is not {} or {"undoes": entry}"# : #"the body is not {"cases": [names]} or {"group": index}"#)
      }
      let entry: ReviewLog.Entry
      switch path {
      case "/api/accept": entry = try session.accept(request.cases ?? [], group: request.group)
      case "/api/reject": entry = try session.reject(request.cases ?? [], group: request.group)
      default: entry = try session.undo(expecting: request.undoes)
      }
      return state(entry: entry)
    } catch let error as ReviewError {
      return Self.error(error.status, error.description)
    } catch let error as SnapshotError {
      // The references refused the change as they stand (a link out of the folder, a file
      // of another kind): a conflict with the files, not a fault of the server.
      return Self.error(409, error.description)
    } catch {
      return Self.error(500, "\(error)")
    }
  }

  /// An image of the report, by its path under `cases/`: a plain path inside the folder,
  /// after percent-decoding, reached without following a link.
  private func caseFile(_ path: String) -> HTTPResponse {
    let relative = String(path.dropFirst())
    guard let decoded = relative.removingPercentEncoding, ReportFolder.isContainedPath(decoded),
      decoded.hasSuffix(".png")
    else { return Self.error(404, "not an image of the report") }
    guard let url = try? ReportFolder.file(decoded, in: session.reportFolder, what: "the image") else {
      return Self.error(404, "not an image of the report")
    }
    // Opened once, never through a link nor waiting for a FIFO's writer (the file may have
    // been swapped since it was checked), checked as the file opened, and read here, off the
    // cooperative pool: never more than an image of RowKit's is (a sparse file of a
    // gigabyte, asked for twice at once, took two).
    let descriptor = open(url.path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
    guard descriptor >= 0 else { return Self.error(404, "not an image of the report") }
    let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
    var info = stat()
    guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return Self.error(404, "not an image of the report") }
    guard info.st_size <= ReviewServer.maximumImageBytes else {
      return Self.error(413, "\(decoded): \(info.st_size) bytes, more than an image of a report is (\(ReviewServer.maximumImageBytes >> 20) MB)")
    }
    guard let data = try? handle.readToEnd() else { return Self.error(404, "not an image of the report") }
    return HTTPResponse(statusCode: .ok, headers: [.contentType: "image/png", .cacheControl: "no-store"], body: data)
  }

  /// What the page shows: each reviewable case's review, the progress, the groups and what
  /// undo would take back.
  private func state(entry: ReviewLog.Entry?) -> HTTPResponse {
    struct Group: Encodable {
      var index: Int
      var kind: String
      var title: String
      var names: [String]
    }
    struct State: Encodable {
      var reviewable: [String]
      var reviewed: Int
      var cases: [String: String]
      var groups: [Group]
      var undo: String?
      /// The entry undo takes back, which the page sends with its undo.
      var undoes: Int?
      var ci: Bool
      var entry: ReviewLog.Entry?
      /// How many entries the log holds: the log only grows, so a page shows no state older
      /// than the one it shows (an answer to an earlier request that came late).
      var entries: Int
    }
    // The log as it is on disk: another review of the same report may have acted since. A
    // report replaced by another check is said, as an action would say it: the page must
    // not offer an undo that cannot be done.
    let log: ReviewLog
    do {
      log = try session.refreshedLog()
    } catch let error as ReviewError {
      return Self.error(error.status, error.description)
    } catch {
      return Self.error(500, "\(error)")
    }
    let reviewable = session.reviewable
    let reviews = log.reviews.filter { reviewable.contains($0.key) }.mapValues { $0 == .accept ? "accepted" : "rejected" }
    let undo = log.nextUndo.map { entry in
      "\(entry.action.rawValue) " + (entry.group.map { "\(entry.cases.count) cases (\($0))" } ?? entry.cases.joined(separator: ", "))
    }
    let state = State(
      reviewable: reviewable, reviewed: reviews.count, cases: reviews,
      groups: session.groups.enumerated().map { Group(index: $0, kind: $1.kind.rawValue, title: $1.title, names: $1.names) },
      undo: undo, undoes: log.nextUndo?.id, ci: session.refusesChanges, entry: entry, entries: log.entries.count)
    return Self.json(200, state)
  }

  // MARK: - Helpers

  private static func json(_ status: Int, _ value: some Encodable) -> HTTPResponse {
    LoopbackAccess.json(status, value)
  }

  private static func error(_ status: Int, _ message: String) -> HTTPResponse {
    LoopbackAccess.error(status, message)
  }
}
