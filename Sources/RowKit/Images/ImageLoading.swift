import Foundation
import Synchronization

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

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
    let wait = deadline - now
    if wait > 0 { try await Task.sleep(for: .seconds(wait)) }
  }
}

/// HTTP(S) through URLSession: the pipeline's default loader.
///
/// The session is made by the first download: making one starts libcurl and its TLS
/// library, some milliseconds that a render of local images, the usual case, never needs.
public final class URLSessionImageLoader: ImageDataLoading {
  private let session = Mutex<URLSession?>(nil)
  private let timeout: Double
  private let connectionsPerHost: Int

  /// A loader whose session times out a little after `timeout` seconds (the pipeline holds
  /// the exact limit) and keeps at most `connectionsPerHost` connections to a host.
  public init(timeout: Double, connectionsPerHost: Int) {
    self.timeout = timeout
    self.connectionsPerHost = max(1, connectionsPerHost)
  }

  deinit {
    session.withLock { $0?.invalidateAndCancel() }
  }

  private var madeSession: URLSession {
    session.withLock { session in
      if let session { return session }
      let configuration = URLSessionConfiguration.ephemeral
      // NB: FoundationNetworking truncates timeouts to whole seconds (0.5 s times out at
      // once), so URLSession gets a looser one and the pipeline enforces the exact limit.
      let looseTimeout = timeout.rounded(.up) + 1
      configuration.timeoutIntervalForRequest = looseTimeout
      configuration.timeoutIntervalForResource = looseTimeout
      configuration.httpMaximumConnectionsPerHost = connectionsPerHost
      configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
      let made = URLSession(configuration: configuration)
      session = made
      return made
    }
  }

  /// The body of a successful (2xx) response to a GET of `url`; throws for any other status.
  public func data(at url: URL) async throws -> [UInt8] {
    var request = URLRequest(url: url)
    request.timeoutInterval = timeout.rounded(.up) + 1
    do {
      let (data, response) = try await madeSession.data(for: request)
      guard let http = response as? HTTPURLResponse else { throw ImageLoadError("no HTTP response from \(url)") }
      guard (200..<300).contains(http.statusCode) else { throw ImageLoadError("HTTP \(http.statusCode) from \(url)") }
      return [UInt8](data)
    } catch let error as URLError where error.code == .cancelled {
      throw CancellationError()
    } catch let error as URLError {
      throw ImageLoadError("\(url): \(error.localizedDescription) (URL error \(error.code.rawValue))")
    }
  }
}

extension DiskCache: ImageDataCaching {}
