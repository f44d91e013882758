import Foundation
import RowKitGraphics

/// Fetches the bytes at a remote image URL: the pipeline's one way to the network, so that
/// tests can script answers (and silences) instead of running servers and waiting.
public protocol ImageDataLoading: Sendable {
  /// The body at `url`, or an ``ImageLoadError`` saying why there is none. The pipeline
  /// enforces its own timeout around this call and cancels the task when nobody waits any
  /// more; an implementation should end promptly when cancelled.
  func data(at url: URL) async throws -> [UInt8]
}

/// Keeps downloaded bytes between runs. ``DiskCache`` is the real one.
public protocol ImageDataCaching: Sendable {
  /// The bytes kept for `url`, if they are still fresh.
  func data(for url: URL) -> [UInt8]?
  /// Keeps the downloaded bytes of `url` for later runs.
  func store(_ data: [UInt8], for url: URL)
  /// Forgets the bytes kept for `url`: they did not decode, and a later run should download
  /// them again rather than fail on them until they age out.
  func remove(for url: URL)
}

extension ImageDataCaching {
  /// Forgets nothing: a cache that cannot remove an entry lets it age out.
  public func remove(for url: URL) {}
}

/// The time that render deadlines and request timeouts count in, in seconds from an
/// arbitrary origin. The real one is the monotonic clock; tests use one they move by hand,
/// so that a 30-second deadline is tested without waiting 30 seconds.
public protocol ImageClock: Sendable {
  /// The current time, in seconds from the clock's origin.
  var now: Double { get }
  /// Returns once `now` has reached `deadline`; throws when the task is cancelled first.
  func sleep(until deadline: Double) async throws
}

/// The monotonic clock (`ContinuousClock`).
public struct ContinuousImageClock: ImageClock {
  private static let origin = ContinuousClock.now

  /// The monotonic clock.
  public init() {}

  /// Seconds since the process first asked this clock for the time.
  public var now: Double {
    let elapsed = ContinuousClock.now - Self.origin
    return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
  }

  /// Sleeps until ``now`` reaches `deadline`; throws when the task is cancelled first.
  public func sleep(until deadline: Double) async throws {
    // A day at a time: a Duration of any number of seconds would overflow (a deadline of
    // 1e30 s stops the program).
    while case let wait = deadline - now, wait > 0 {
      try await Task.sleep(for: .seconds(min(wait, 86_400)))
    }
  }
}

/// HTTP(S) through RowKitGraphics' `HTTPClient` (libcurl, loaded at the first download): the pipeline's
/// default loader.
public final class HTTPImageLoader: ImageDataLoading {
  private let client: HTTPClient

  /// A loader whose transfers time out a little after `timeout` seconds (the pipeline holds
  /// the exact limit and names it in its message), that keeps at most `connectionsPerHost`
  /// connections to a host, and that stops receiving a body as soon as it passes
  /// `maximumBytes` (decoded bytes: a gzip body counts as it inflates), or at once when its
  /// Content-Length is over it.
  public init(timeout: Double, connectionsPerHost: Int, maximumBytes: Int = ImagePipeline.Configuration().maximumDownloadBytes) {
    client = HTTPClient(timeout: timeout + 1, connectionsPerHost: connectionsPerHost, maximumBodySize: maximumBytes)
  }

  /// The body of a successful (2xx) response to a GET of `url`; throws for any other status.
  public func data(at url: URL) async throws -> [UInt8] {
    let response: HTTPClient.Response
    do {
      response = try await client.get(url.absoluteString)
    } catch let error as GraphicsError {
      throw ImageLoadError(error.message)
    }
    guard (200..<300).contains(response.status) else { throw ImageLoadError("HTTP \(response.status) from \(url)") }
    return response.body
  }
}

extension DiskCache: ImageDataCaching {}
