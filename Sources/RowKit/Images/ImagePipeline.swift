import Foundation
import RowKitGraphics

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Loads the images of image slots: one pipeline per process, shared by every render.
///
/// - Requests for the same image wait on one download and one decode (coalescing), and a
///   request nobody waits for any more is cancelled.
/// - Decoded images stay in memory within a byte budget, least recently used out first.
/// - HTTP responses may be kept on disk, within a size and an age limit.
/// - A failed URL is remembered for a while and not asked again.
/// - At most ``Configuration/maximumConcurrentDownloads`` downloads run at once, each within
///   ``Configuration/requestTimeout``.
/// - Images are decoded from their headers first: one that claims more pixels than
///   ``Configuration/maximumPixels`` is refused before any allocation. JPEG decodes straight
///   to the smallest DCT scale that still covers the slot.
public final class ImagePipeline: @unchecked Sendable {
  public struct Configuration: Sendable {
    /// Bytes of decoded images kept in memory.
    public var memoryBudget = 256 << 20
    public var maximumConcurrentDownloads = 6
    /// Seconds a request may take; at most 10 by default.
    public var requestTimeout = 10.0
    /// Seconds a failed URL is remembered.
    public var failureMemory = 60.0
    public var maximumPixels = PNG.defaultMaximumPixels
    /// The largest HTTP body read.
    public var maximumDownloadBytes = 64 << 20
    /// Where HTTP responses are kept between runs; nil keeps none.
    public var diskCache: DiskCache.Configuration?

    public init() {}
  }

  /// What the pipeline has done, for tests and diagnostics.
  public struct Statistics: Hashable, Sendable {
    public var downloads = 0
    public var decodes = 0
    public var memoryHits = 0
    public var diskHits = 0
    public var coalesced = 0
    public var rememberedFailures = 0
    public var cancelled = 0
  }

  /// The pipeline of this process.
  public static let shared = ImagePipeline()

  public let configuration: Configuration
  private let lock = NSLock()
  private var memory = MemoryCache()
  private var failures: [String: (error: ImageLoadError, until: Date)] = [:]
  private var inFlight: [String: SharedTask] = [:]
  private var stats = Statistics()
  private let limiter: AsyncLimiter
  private let diskCache: DiskCache?
  private let session: URLSession

  public init(configuration: Configuration = Configuration()) {
    self.configuration = configuration
    limiter = AsyncLimiter(limit: max(1, configuration.maximumConcurrentDownloads))
    diskCache = configuration.diskCache.map(DiskCache.init)
    let sessionConfiguration = URLSessionConfiguration.ephemeral
    sessionConfiguration.timeoutIntervalForRequest = configuration.requestTimeout
    sessionConfiguration.timeoutIntervalForResource = configuration.requestTimeout
    sessionConfiguration.httpMaximumConnectionsPerHost = max(1, configuration.maximumConcurrentDownloads)
    sessionConfiguration.requestCachePolicy = .reloadIgnoringLocalCacheData
    session = URLSession(configuration: sessionConfiguration)
  }

  deinit {
    session.invalidateAndCancel()
  }

  public var statistics: Statistics { lock.withLock { stats } }

  /// Requests being worked on now; zero when every render is over.
  public var activeRequests: Int { lock.withLock { inFlight.count } }

  /// Forgets every decoded image and remembered failure (not the disk cache).
  public func removeAll() {
    lock.withLock {
      memory = MemoryCache()
      failures = [:]
    }
  }

  // MARK: - Loading

  /// The image at `location`. With `atLeast`, a JPEG may be decoded smaller, but never
  /// below that many pixels in either direction.
  public func image(at location: ImageLocation, atLeast target: (width: Int, height: Int)? = nil) async -> Result<Bitmap, ImageLoadError> {
    let url = location.key
    let key = target.map { "\(url)#\($0.width)x\($0.height)" } ?? url
    let shared: SharedTask = lock.withLock {
      if let image = memory.image(for: key) {
        stats.memoryHits += 1
        return SharedTask(result: .success(image))
      }
      if let failure = failures[url], failure.until > Date() {
        stats.rememberedFailures += 1
        return SharedTask(result: .failure(failure.error))
      }
      if let existing = inFlight[key] {
        stats.coalesced += 1
        existing.waiters += 1
        return existing
      }
      let task = SharedTask(result: nil)
      task.waiters = 1
      task.task = Task.detached { [self] in await self.load(location, key: key, url: url, target: target) }
      inFlight[key] = task
      return task
    }
    if let result = shared.result { return result }
    return await withTaskCancellationHandler {
      await shared.task!.value
    } onCancel: {
      // The last waiter to leave cancels the work; others keep it going.
      let cancel = lock.withLock { () -> Bool in
        shared.waiters -= 1
        guard shared.waiters == 0, inFlight[key] === shared else { return false }
        inFlight[key] = nil
        stats.cancelled += 1
        return true
      }
      if cancel { shared.task?.cancel() }
    }
  }

  private func load(_ location: ImageLocation, key: String, url: String, target: (width: Int, height: Int)?) async -> Result<Bitmap, ImageLoadError> {
    let result: Result<Bitmap, ImageLoadError>
    do {
      let data = try await bytes(of: location)
      try Task.checkCancellation()
      let bitmap = try ImageDecoder.decode(data, maximumPixels: configuration.maximumPixels, atLeast: target)
      lock.withLock { stats.decodes += 1 }
      result = .success(bitmap)
    } catch is CancellationError {
      result = .failure(ImageLoadError("cancelled"))
    } catch let error as ImageLoadError {
      result = .failure(error)
    } catch {
      result = .failure(ImageLoadError("\(error)"))
    }
    lock.withLock {
      if inFlight[key]?.task != nil, Task.isCancelled == false {
        switch result {
        case .success(let bitmap): memory.insert(bitmap, for: key, budget: configuration.memoryBudget)
        case .failure(let error): failures[url] = (error, Date().addingTimeInterval(configuration.failureMemory))
        }
      }
      inFlight[key] = nil
    }
    return result
  }

  private func bytes(of location: ImageLocation) async throws -> [UInt8] {
    switch location {
    case .file(let file):
      guard let data = FileManager.default.contents(atPath: file.path) else {
        throw ImageLoadError("no readable file at \(file.path)")
      }
      return [UInt8](data)
    case .remote(let url):
      if let cached = diskCache?.data(for: url) {
        lock.withLock { stats.diskHits += 1 }
        return cached
      }
      try await limiter.acquire()
      defer { Task { await limiter.release() } }
      lock.withLock { stats.downloads += 1 }
      let data = try await download(url)
      diskCache?.store(data, for: url)
      return data
    }
  }

  private func download(_ url: URL) async throws -> [UInt8] {
    var request = URLRequest(url: url)
    request.timeoutInterval = configuration.requestTimeout
    let prepared = request
    let timeout = configuration.requestTimeout
    // URLSession's timeout is an idle timeout; the race makes it a limit on the whole request.
    return try await withThrowingTaskGroup(of: [UInt8].self) { group in
      group.addTask { [session] in
        let (data, response) = try await session.data(for: prepared)
        guard let http = response as? HTTPURLResponse else { throw ImageLoadError("no HTTP response from \(url)") }
        guard (200..<300).contains(http.statusCode) else {
          throw ImageLoadError("HTTP \(http.statusCode) from \(url)")
        }
        return [UInt8](data)
      }
      group.addTask {
        try await Task.sleep(nanoseconds: UInt64(timeout * 1e9))
        throw ImageLoadError("no answer within \(Self.seconds(timeout)) from \(url)")
      }
      defer { group.cancelAll() }
      do {
        guard let data = try await group.next() else { throw ImageLoadError("no response from \(url)") }
        guard data.count <= configuration.maximumDownloadBytes else {
          throw ImageLoadError("\(url) sent \(data.count) bytes, more than \(configuration.maximumDownloadBytes)")
        }
        return data
      } catch let error as URLError where error.code == .cancelled {
        throw CancellationError()
      } catch let error as URLError {
        throw ImageLoadError("\(url): \(error.localizedDescription) (URL error \(error.code.rawValue))")
      }
    }
  }

  static func seconds(_ value: Double) -> String {
    value.rounded() == value ? "\(Int(value)) s" : "\(value) s"
  }

  // MARK: - Parts

  /// Work shared by everyone waiting for one image.
  final class SharedTask: @unchecked Sendable {
    var result: Result<Bitmap, ImageLoadError>?
    var task: Task<Result<Bitmap, ImageLoadError>, Never>?
    var waiters = 0

    init(result: Result<Bitmap, ImageLoadError>?) {
      self.result = result
    }
  }

  /// Decoded images by key, least recently used first out.
  struct MemoryCache {
    private var images: [String: (bitmap: Bitmap, use: Int)] = [:]
    private var bytes = 0
    private var clock = 0

    mutating func image(for key: String) -> Bitmap? {
      guard let entry = images[key] else { return nil }
      clock += 1
      images[key] = (entry.bitmap, clock)
      return entry.bitmap
    }

    mutating func insert(_ bitmap: Bitmap, for key: String, budget: Int) {
      let size = bitmap.pixels.count
      guard size <= budget else { return }
      clock += 1
      if let old = images[key] { bytes -= old.bitmap.pixels.count }
      images[key] = (bitmap, clock)
      bytes += size
      while bytes > budget, let oldest = images.min(by: { $0.value.use < $1.value.use }) {
        bytes -= oldest.value.bitmap.pixels.count
        images[oldest.key] = nil
      }
    }
  }
}

extension ImageLocation {
  /// The cache key: the file path or the remote URL.
  var key: String {
    switch self {
    case .file(let url): return url.path
    case .remote(let url): return url.absoluteString
    }
  }
}

/// Lets at most `limit` holders in at once; waiters leave the queue when cancelled.
actor AsyncLimiter {
  private let limit: Int
  private var running = 0
  private var waiting: [(id: UUID, continuation: CheckedContinuation<Void, any Error>)] = []

  init(limit: Int) {
    self.limit = limit
  }

  func acquire() async throws {
    try Task.checkCancellation()
    if running < limit {
      running += 1
      return
    }
    let id = UUID()
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        waiting.append((id, continuation))
      }
    } onCancel: {
      Task { await self.cancel(id) }
    }
  }

  func release() {
    if waiting.isEmpty {
      running -= 1
    } else {
      waiting.removeFirst().continuation.resume()
    }
  }

  private func cancel(_ id: UUID) {
    guard let index = waiting.firstIndex(where: { $0.id == id }) else { return }
    waiting.remove(at: index).continuation.resume(throwing: CancellationError())
  }
}

/// HTTP responses kept on disk, one file per URL (named by its SHA-256), within a size and
/// an age limit. The oldest files go first when the cache is full.
public final class DiskCache: @unchecked Sendable {
  public struct Configuration: Sendable {
    public var directory: URL
    public var maximumBytes: Int
    /// Seconds a response stays fresh.
    public var maximumAge: Double

    public init(directory: URL, maximumBytes: Int = 100 << 20, maximumAge: Double = 24 * 3600) {
      self.directory = directory
      self.maximumBytes = maximumBytes
      self.maximumAge = maximumAge
    }
  }

  public let configuration: Configuration
  private let lock = NSLock()

  public init(_ configuration: Configuration) {
    self.configuration = configuration
    try? FileManager.default.createDirectory(at: configuration.directory, withIntermediateDirectories: true)
  }

  func file(for url: URL) -> URL {
    configuration.directory.appendingPathComponent(SHA256.hex(Array(url.absoluteString.utf8)))
  }

  /// The stored response, if it is younger than the age limit.
  public func data(for url: URL) -> [UInt8]? {
    let file = file(for: url)
    guard let attributes = try? FileManager.default.attributesOfItem(atPath: file.path),
      let date = attributes[.modificationDate] as? Date, Date().timeIntervalSince(date) <= configuration.maximumAge,
      let data = FileManager.default.contents(atPath: file.path)
    else { return nil }
    return [UInt8](data)
  }

  public func store(_ data: [UInt8], for url: URL) {
    guard data.count <= configuration.maximumBytes else { return }
    lock.withLock {
      try? OutputWriter.write(data, to: file(for: url))
      trim()
    }
  }

  /// Deletes the oldest files until the cache fits its size limit.
  private func trim() {
    let keys: [URLResourceKey] = [.contentModificationDateKey, .fileSizeKey]
    guard let files = try? FileManager.default.contentsOfDirectory(
      at: configuration.directory, includingPropertiesForKeys: keys)
    else { return }
    var entries = files.compactMap { file -> (URL, Date, Int)? in
      guard let values = try? file.resourceValues(forKeys: Set(keys)) else { return nil }
      return (file, values.contentModificationDate ?? .distantPast, values.fileSize ?? 0)
    }
    var total = entries.reduce(0) { $0 + $1.2 }
    entries.sort { $0.1 < $1.1 }
    for (file, _, size) in entries where total > configuration.maximumBytes {
      try? FileManager.default.removeItem(at: file)
      total -= size
    }
  }
}
