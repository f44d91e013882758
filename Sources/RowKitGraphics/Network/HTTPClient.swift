internal import CCurl
import Foundation

/// HTTP(S) GET requests over libcurl, which is loaded when the first request is made.
///
/// RowKit used URLSession before; FoundationNetworking links libcurl and its ~25 libraries into
/// every `rowkit` process, and loading them took 7 to 9 of `rowkit --help`'s 22 ms. A render
/// of local images, the usual case, now never loads them.
///
/// All transfers of a client share one libcurl multi handle, driven by one thread of the
/// client's own (started by the first request, ended when the client is released), so the
/// callers' threads, Swift's cooperative pool among them, never wait on the network.
/// Connections are kept and reused between requests to a host.
///
/// The state shared between threads here is in `Locked` values, the one lock type of RowKit.
package final class HTTPClient: Sendable {
  /// A response: the status code and the body.
  package struct Response: Sendable {
    /// The HTTP status code of the last response (after redirects).
    package var status: Int
    /// The response body, decoded from any content encoding libcurl supports.
    package var body: [UInt8]
  }

  private let settings: TransferSettings
  private let engine = Locked<TransferEngine?>(nil)

  /// A client whose transfers fail after `timeout` seconds, keeping at most
  /// `connectionsPerHost` connections to a host and refusing bodies larger than
  /// `maximumBodySize` bytes.
  ///
  /// The limit holds while the body arrives, counted after content decoding (a gzip body is
  /// counted as it inflates): a transfer ends as soon as it passes the limit, and before any
  /// of the body comes when the response's Content-Length is over it. A refused body costs at
  /// most the limit and one of libcurl's buffers, however large it is.
  package init(timeout: Double, connectionsPerHost: Int, maximumBodySize: Int = 256 << 20) {
    settings = TransferSettings(
      timeoutMilliseconds: Self.milliseconds(timeout), connectionsPerHost: max(1, connectionsPerHost),
      maximumBodySize: maximumBodySize)
  }

  deinit {
    engine.withLock { $0?.stop() }
  }

  /// `timeout` in whole milliseconds, at least 1 and at most libcurl's longest (a `long` of
  /// milliseconds, kept to 32 bits): converting any number of seconds to an `Int` would
  /// stop the program for a timeout of 1e16 s.
  static func milliseconds(_ timeout: Double) -> Int {
    let milliseconds = (timeout * 1000).rounded(.up)
    guard milliseconds.isFinite || milliseconds > 0 else { return 1 }
    return Int(min(max(1, milliseconds), Double(Int32.max)))
  }

  /// Why a body was refused: `url` sends more than `limit` bytes. The image pipeline says the
  /// same of a body over its limit, whichever loader fetched it.
  package static func bodyTooLargeMessage(url: String, limit: Int) -> String {
    "\(url): the body is larger than the limit of \(limit) bytes"
  }

  /// The engine, once a request has started it. Its thread holds it until the thread ends,
  /// so a weak reference to it going nil tells a test that the thread has ended.
  var startedEngine: AnyObject? { engine.withLock { $0 } }

  /// The response to a GET of `url` (http or https; redirects followed), whatever its status.
  /// Throws a ``GraphicsError`` of kind `.download` when there is no response, and
  /// `CancellationError` at once when the calling task is cancelled.
  package func get(_ url: String) async throws -> Response {
    let engine = try engine.withLock { engine in
      if let running = engine { return running }
      let started = TransferEngine(library: try Curl.library.get(), settings: settings)
      engine = started
      return started
    }
    let transfer = Transfer(url: url)
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        transfer.attach(continuation)
        engine.submit(transfer)
      }
    } onCancel: {
      transfer.finish(.failure(CancellationError()))
      engine.wake()
    }
  }
}

private struct TransferSettings: Sendable {
  var timeoutMilliseconds: Int
  var connectionsPerHost: Int
  var maximumBodySize: Int
}

/// libcurl's functions, loaded once per process and never unloaded. The library is found by
/// its known names, not linked, and checked before use: a missing or too old libcurl fails
/// each download with a message saying what was tried, never the process.
///
/// `@unchecked Sendable` is safe: `functions` is a constant of C function pointers, which stay
/// valid because the library is never closed.
final class Curl: @unchecked Sendable {
  /// The names Debian's libcurl packages install the same API under: built with OpenSSL
  /// (`libcurl4`), GnuTLS (`libcurl3-gnutls`) and NSS (`libcurl3-nss`, older releases).
  static let knownNames = ["libcurl.so.4", "libcurl-gnutls.so.4", "libcurl-nss.so.4"]
  /// The environment variable that names the library to load instead (a name or a path).
  static let overrideVariable = "ROWKIT_LIBCURL"
  /// 7.85.0 added `CURLOPT_PROTOCOLS_STR`, the newest call made here (Debian 12 has 7.88).
  static let minimumVersion: (number: UInt32, name: String) = (0x07_55_00, "7.85.0")

  static let library = load(candidates: candidates(in: ProcessInfo.processInfo.environment))

  /// The libraries to try, in order: the one `ROWKIT_LIBCURL` names, or every known name.
  static func candidates(in environment: [String: String]) -> [String] {
    if let chosen = environment[overrideVariable], !chosen.isEmpty { return [chosen] }
    return knownNames
  }

  /// The first of `candidates` that loads, has every function and is new enough; or an error
  /// naming each one tried and why it was not used.
  static func load(candidates: [String]) -> Result<Curl, GraphicsError> {
    var refusals: [String] = []
    for name in candidates {
      do throws(GraphicsError) {
        return .success(try Curl(file: name))
      } catch {
        refusals.append("\(name): \(error.message)")
      }
    }
    return .failure(
      GraphicsError(
        .download,
        "cannot load libcurl for HTTP downloads (tried \(refusals.joined(separator: "; "))); "
          + "install Debian's libcurl4, or name the library in \(overrideVariable)"))
  }

  let functions: ccurl_functions
  /// The loaded library's version, as libcurl reports it (`7.88.1`).
  let version: String

  private init(file: String) throws(GraphicsError) {
    var loaded = ccurl_functions()
    if let failure = ccurl_load(file, &loaded) {
      throw GraphicsError(.download, String(cString: failure))
    }
    functions = loaded
    guard let info = withUnsafePointer(to: functions, ccurl_version_info) else {
      throw GraphicsError(.download, "it reports no version")
    }
    version = info.pointee.version.map { String(cString: $0) } ?? "unknown"
    guard UInt32(info.pointee.version_num) >= Self.minimumVersion.number else {
      throw GraphicsError(.download, "version \(version) is older than \(Self.minimumVersion.name)")
    }
    guard functions.global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK else {
      throw GraphicsError(.download, "it failed to initialise")
    }
  }

  func message(_ code: CURLcode) -> String {
    functions.easy_strerror(code).map { String(cString: $0) } ?? "curl error \(code.rawValue)"
  }

  /// libcurl's words for a multi handle's result, and its number.
  func message(_ code: CURLMcode) -> String {
    (functions.multi_strerror(code).map { String(cString: $0) } ?? "unknown") + " (curl multi error \(code.rawValue))"
  }

  func setOption(_ handle: UnsafeMutableRawPointer, _ option: CURLoption, _ value: Int) -> CURLcode {
    withUnsafePointer(to: functions) { ccurl_setopt_long($0, handle, option, value) }
  }

  /// libcurl copies the string: it need not outlive the call.
  func setOption(_ handle: UnsafeMutableRawPointer, _ option: CURLoption, _ value: String) -> CURLcode {
    withUnsafePointer(to: functions) { curl in value.withCString { ccurl_setopt_pointer(curl, handle, option, $0) } }
  }

  func setOption(_ handle: UnsafeMutableRawPointer, _ option: CURLoption, bytes value: Int) -> CURLcode {
    withUnsafePointer(to: functions) { ccurl_setopt_offset($0, handle, option, curl_off_t(value)) }
  }

  func setOption(_ handle: UnsafeMutableRawPointer, _ option: CURLoption, _ value: UnsafeRawPointer) -> CURLcode {
    withUnsafePointer(to: functions) { ccurl_setopt_pointer($0, handle, option, value) }
  }

  func setBodyReceiver(_ handle: UnsafeMutableRawPointer, _ receiver: ccurl_write_callback, context: UnsafeMutableRawPointer) -> CURLcode {
    withUnsafePointer(to: functions) { ccurl_setopt_write($0, handle, receiver, context) }
  }

  func responseCode(_ handle: UnsafeMutableRawPointer) -> Int {
    withUnsafePointer(to: functions) { ccurl_response_code($0, handle) }
  }

  func setMultiOption(_ multi: UnsafeMutableRawPointer, _ option: CURLMoption, _ value: Int) -> CURLMcode {
    withUnsafePointer(to: functions) { ccurl_multi_setopt_long($0, multi, option, value) }
  }
}

/// One request and the caller waiting for it. Whoever finishes it first (the network thread
/// with a response or an error, the caller's cancellation, the client's end) resumes the
/// caller; later finishes do nothing.
///
private final class Transfer: Sendable {
  private struct State {
    var continuation: CheckedContinuation<HTTPClient.Response, any Error>?
    var outcome: Result<HTTPClient.Response, any Error>?
  }

  let url: String
  private let state = Locked(State())

  init(url: String) {
    self.url = url
  }

  var isFinished: Bool { state.withLock { $0.outcome != nil } }

  /// Hands the caller's continuation over; resumes it at once if the transfer has already
  /// finished (cancelled before it started).
  func attach(_ continuation: CheckedContinuation<HTTPClient.Response, any Error>) {
    let finished = state.withLock { state in
      if state.outcome == nil { state.continuation = continuation }
      return state.outcome
    }
    if let finished { continuation.resume(with: finished) }
  }

  func finish(_ outcome: Result<HTTPClient.Response, any Error>) {
    let waiting = state.withLock { state -> CheckedContinuation<HTTPClient.Response, any Error>? in
      guard state.outcome == nil else { return nil }
      state.outcome = outcome
      defer { state.continuation = nil }
      return state.continuation
    }
    waiting?.resume(with: outcome)
  }
}

/// The multi handle and the thread that drives it. Other threads only queue transfers and
/// wake the thread; every libcurl call but `curl_multi_wakeup` is made on the thread.
///
/// Other threads pass the multi handle only to `curl_multi_wakeup`, the one multi call
/// libcurl allows from any thread, and only under the state's lock, so the thread cannot free
/// the handle under them (it clears `multi` under the lock first).
private final class TransferEngine: Sendable {
  private struct State {
    var pending: [Transfer] = []
    var stopping = false
    var multi: UnsafeMutableRawPointer?
  }

  private let library: Curl
  private let state = Locked(State())

  init(library: Curl, settings: TransferSettings) {
    self.library = library
    startThread { [self] in
      nameCurrentThread("rowkit-http")
      guard let loop = TransferLoop(library: library, settings: settings, engine: self) else {
        let failure = GraphicsError(.download, "libcurl could not make a transfer handle")
        for transfer in detach() { transfer.finish(.failure(failure)) }
        return
      }
      loop.run()
    }
  }

  func submit(_ transfer: Transfer) {
    let accepted = state.withLock { state in
      guard !state.stopping else { return false }
      state.pending.append(transfer)
      wake(state)
      return true
    }
    if !accepted { transfer.finish(.failure(CancellationError())) }
  }

  func wake() {
    state.withLock { wake($0) }
  }

  func stop() {
    state.withLock { state in
      state.stopping = true
      wake(state)
    }
  }

  /// Called with the state's lock held, so that the thread cannot free the handle meanwhile.
  private func wake(_ state: State) {
    if let multi = state.multi { _ = library.functions.multi_wakeup(multi) }
  }

  /// Called by the thread once its handle is ready for wake-ups.
  fileprivate func attach(_ multi: UnsafeMutableRawPointer) {
    state.withLock { $0.multi = multi }
  }

  /// The transfers queued since the last call, and whether the client has gone.
  fileprivate func takePending() -> (transfers: [Transfer], stopping: Bool) {
    state.withLock { state in
      defer { state.pending.removeAll() }
      return (state.pending, state.stopping)
    }
  }

  /// Called by the thread as it ends: from now on nobody wakes the handle, and transfers
  /// submitted later are refused. Returns the transfers still queued.
  fileprivate func detach() -> [Transfer] {
    state.withLock { state in
      state.multi = nil
      state.stopping = true
      defer { state.pending.removeAll() }
      return state.pending
    }
  }
}

/// The network thread's own state: the multi handle and the transfers in flight. Never
/// shared with another thread.
private final class TransferLoop {
  private let library: Curl
  private let multi: UnsafeMutableRawPointer
  private let settings: TransferSettings
  private let engine: TransferEngine
  private var active: [UnsafeMutableRawPointer: ActiveTransfer] = [:]

  init?(library: Curl, settings: TransferSettings, engine: TransferEngine) {
    guard let multi = library.functions.multi_init() else { return nil }
    self.library = library
    self.multi = multi
    self.settings = settings
    self.engine = engine
    _ = library.setMultiOption(multi, CURLMOPT_MAX_HOST_CONNECTIONS, settings.connectionsPerHost)
    engine.attach(multi)
  }

  deinit {
    for handle in active.keys { _ = library.functions.multi_remove_handle(multi, handle) }
    active.removeAll()
    _ = library.functions.multi_cleanup(multi)
  }

  func run() {
    var unstarted: [Transfer] = []
    while true {
      let (transfers, stopping) = engine.takePending()
      if stopping {
        unstarted = transfers
        break
      }
      for transfer in transfers where !transfer.isFinished { start(transfer) }
      // A cancelled caller has been resumed already; its transfer only needs to go.
      for (handle, entry) in active where entry.transfer.isFinished { remove(handle) }
      var running: Int32 = 0
      let performed = library.functions.multi_perform(multi, &running)
      if performed != CURLM_OK { failActive("libcurl could not go on with the transfers: \(library.message(performed))") }
      collectFinished()
      // libcurl shortens the wait to its own next timer; a wake-up from another thread ends
      // it early. An idle client sleeps until then.
      let polled = library.functions.multi_poll(multi, nil, 0, active.isEmpty ? 60_000 : 1_000, nil)
      if polled != CURLM_OK { failActive("libcurl could not wait for the network: \(library.message(polled))") }
    }
    let ended = GraphicsError(.download, "the HTTP client was released before the transfer ended")
    for transfer in active.values.map(\.transfer) + unstarted + engine.detach() { transfer.finish(.failure(ended)) }
  }

  private func start(_ transfer: Transfer) {
    guard let started = ActiveTransfer(transfer: transfer, library: library, maximumBodySize: settings.maximumBodySize) else {
      transfer.finish(.failure(GraphicsError(.download, "\(transfer.url): libcurl could not make a transfer handle")))
      return
    }
    let handle = started.handle
    let setup = [
      library.setOption(handle, CURLOPT_URL, transfer.url),
      library.setOption(handle, CURLOPT_PROTOCOLS_STR, "http,https"),
      library.setOption(handle, CURLOPT_REDIR_PROTOCOLS_STR, "http,https"),
      // Any encoding libcurl can decode: the body handed back is always decoded.
      library.setOption(handle, CURLOPT_ACCEPT_ENCODING, ""),
      library.setOption(handle, CURLOPT_USERAGENT, "RowKit"),
      library.setOption(handle, CURLOPT_ERRORBUFFER, UnsafeRawPointer(started.errorBuffer)),
      library.setOption(handle, CURLOPT_FOLLOWLOCATION, 1),
      library.setOption(handle, CURLOPT_MAXREDIRS, 10),
      // Signals are process-wide; libcurl must not use them for timeouts in a threaded program.
      library.setOption(handle, CURLOPT_NOSIGNAL, 1),
      library.setOption(handle, CURLOPT_TIMEOUT_MS, settings.timeoutMilliseconds),
      // A Content-Length over the limit ends the transfer before the body comes; a body
      // without one is stopped by `receive` as it passes the limit.
      library.setOption(handle, CURLOPT_MAXFILESIZE_LARGE, bytes: settings.maximumBodySize),
      library.setBodyReceiver(handle, ActiveTransfer.receive, context: Unmanaged.passUnretained(started).toOpaque()),
    ]
    if let failed = setup.first(where: { $0 != CURLE_OK }) {
      transfer.finish(.failure(GraphicsError(.download, "\(transfer.url): \(library.message(failed))")))
      return
    }
    let added = library.functions.multi_add_handle(multi, handle)
    guard added == CURLM_OK else {
      transfer.finish(.failure(GraphicsError(.download, "\(transfer.url): libcurl refused the transfer: \(library.message(added))")))
      return
    }
    active[handle] = started
  }

  /// Ends every transfer in flight with `reason`: the multi handle failed, and none of them
  /// would ever finish otherwise.
  private func failActive(_ reason: String) {
    for (handle, entry) in active {
      remove(handle)
      entry.transfer.finish(.failure(GraphicsError(.download, "\(entry.transfer.url): \(reason)")))
    }
  }

  private func remove(_ handle: UnsafeMutableRawPointer) {
    _ = library.functions.multi_remove_handle(multi, handle)
    active[handle] = nil
  }

  private func collectFinished() {
    var queued: Int32 = 0
    while let message = library.functions.multi_info_read(multi, &queued) {
      var handle: UnsafeMutableRawPointer?
      var result = CURLE_OK
      guard ccurl_message_done(message, &handle, &result) != 0, let handle, let finished = active[handle] else { continue }
      let status = library.responseCode(handle)
      remove(handle)
      finished.transfer.finish(finished.outcome(result: result, status: status))
    }
  }
}

/// A transfer in flight: its easy handle, error buffer and the body received so far.
private final class ActiveTransfer {
  let transfer: Transfer
  let handle: UnsafeMutableRawPointer
  let errorBuffer: UnsafeMutablePointer<CChar>
  private let library: Curl
  private let maximumBodySize: Int
  private var body: [UInt8] = []
  private var bodyTooLarge = false

  init?(transfer: Transfer, library: Curl, maximumBodySize: Int) {
    guard let handle = library.functions.easy_init() else { return nil }
    self.transfer = transfer
    self.library = library
    self.maximumBodySize = maximumBodySize
    self.handle = handle
    errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE))
    errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
  }

  deinit {
    library.functions.easy_cleanup(handle)
    errorBuffer.deallocate()
  }

  /// libcurl's body callback, given the body after content decoding; `context` is the
  /// transfer. Returning less than it was given ends the transfer.
  static let receive: ccurl_write_callback = { data, size, count, context in
    let transfer = Unmanaged<ActiveTransfer>.fromOpaque(context!).takeUnretainedValue()
    let bytes = size * count
    guard let data, transfer.body.count + bytes <= transfer.maximumBodySize else {
      transfer.bodyTooLarge = bytes > 0
      return 0
    }
    transfer.body.append(contentsOf: UnsafeRawBufferPointer(start: data, count: bytes))
    return bytes
  }

  func outcome(result: CURLcode, status: Int) -> Result<HTTPClient.Response, any Error> {
    if bodyTooLarge || result == CURLE_FILESIZE_EXCEEDED {
      return .failure(GraphicsError(.download, HTTPClient.bodyTooLargeMessage(url: transfer.url, limit: maximumBodySize)))
    }
    guard result == CURLE_OK else {
      let detail = String(cString: errorBuffer)
      let reason = detail.isEmpty ? library.message(result) : detail
      return .failure(GraphicsError(.download, "\(transfer.url): \(reason) (curl error \(result.rawValue))"))
    }
    return .success(HTTPClient.Response(status: status, body: body))
  }
}
