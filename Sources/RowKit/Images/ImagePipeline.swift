import Foundation
import RowKitGraphics

/// Loads the images of image slots: one pipeline per process, shared by every render.
///
/// - Requests for one URL wait on one download, and requests for one URL at one slot size on
///   one decode (coalescing); work nobody waits for any more is cancelled.
/// - Decoded images, resampled for their slots, stay in memory within a byte budget, the
///   least recently used out first; downloaded bytes stay within a budget of their own, so a
///   second slot size does not download again.
/// - HTTP responses may be kept on disk, within a size and an age limit.
/// - A failed URL is remembered for a while and not asked again.
/// - At most ``Configuration/maximumConcurrentDownloads`` downloads run at once, each within
///   ``Configuration/requestTimeout``.
/// - Images are decoded from their headers first: one that claims more pixels than
///   ``Configuration/maximumPixels`` is refused before any allocation, and the images being
///   decoded at once hold no more than twice that many pixels together. JPEG decodes straight to
///   the smallest DCT scale that still covers the slot.
public final class ImagePipeline: Sendable {
  /// The pipeline's limits and settings.
  public struct Configuration: Sendable {
    /// Bytes of decoded images kept in memory.
    public var memoryBudget = 256 << 20
    /// Bytes of downloaded (still encoded) images kept in memory.
    public var dataBudget = 64 << 20
    /// The most downloads under way at once, and the most connections to one host.
    public var maximumConcurrentDownloads = 6
    /// Seconds a request may take, from asking to the last byte.
    public var requestTimeout = 10.0
    /// Seconds a failed URL is remembered.
    public var failureMemory = 60.0
    /// The most pixels an image may have, a larger one failing to decode; the images being
    /// decoded at once have at most twice as many together (the others wait their turn).
    public var maximumPixels = PNG.defaultMaximumPixels
    /// The largest HTTP body read, after content decoding. ``HTTPImageLoader`` stops a
    /// transfer as soon as its body passes it; a body from another loader is refused after.
    public var maximumDownloadBytes = 64 << 20
    /// Where HTTP responses are kept between runs; nil keeps none.
    public var diskCache: DiskCache.Configuration?

    /// The default settings.
    public init() {}
  }

  /// What the pipeline has done, for tests and diagnostics.
  public struct Statistics: Hashable, Sendable {
    /// HTTP requests sent.
    public var downloads = 0
    /// Images decoded.
    public var decodes = 0
    /// Requests answered from the decoded images in memory.
    public var memoryHits = 0
    /// Downloads avoided because the bytes were still in memory.
    public var dataHits = 0
    /// Downloads avoided because the disk cache had the bytes.
    public var diskHits = 0
    /// Requests that waited on a download or a decode another request started.
    public var coalesced = 0
    /// Requests failed at once because their URL failed recently.
    public var rememberedFailures = 0
    /// Downloads and decodes cancelled because nobody waited for them any more.
    public var cancelled = 0

    /// No work counted yet.
    public init() {}
  }

  /// The pipeline of this process.
  public static let shared = ImagePipeline()

  /// The pipeline's limits and settings.
  public let configuration: Configuration
  /// What requests share: the two memory caches, the remembered failures and the counts.
  private struct Memory {
    var images: MemoryCache<LoadedImage>
    var data: MemoryCache<[UInt8]>
    var failures: [String: (error: ImageLoadError, until: Double)] = [:]
    var counts = Statistics()
  }

  private let memory: Locked<Memory>
  /// Every local image file asked for, by its standardized path: what a render read, which
  /// `rowkit render` never writes an output over.
  private let localFiles = Locked<Set<String>>([])
  private let decodes = Coalescer<LoadedImage>()
  private let downloads = Coalescer<[UInt8]>()
  private let limiter: AsyncLimiter
  /// The pixels of the images being decoded at once, within two of the largest images
  /// (``Configuration/maximumPixels``): each decode holds its image's full size in memory for
  /// a moment, and with one decode per loading thread, eight jobs decoding 36-megapixel
  /// images at once held 1.75 GB. Two at once keep two cores decoding.
  private let decodingPixels: AsyncLimiter
  private let diskCache: (any ImageDataCaching)?
  private let loader: any ImageDataLoading
  /// The clock that request timeouts, remembered failures and render deadlines count in.
  public let clock: any ImageClock

  /// A pipeline; by default with ``HTTPImageLoader`` for the network, ``DiskCache`` when
  /// the configuration names one, and the monotonic clock. Tests give a scripted loader and a
  /// clock they move by hand.
  public init(
    configuration: Configuration = Configuration(), loader: (any ImageDataLoading)? = nil,
    cache: (any ImageDataCaching)? = nil, clock: any ImageClock = ContinuousImageClock()
  ) {
    self.configuration = configuration
    memory = Locked(
      Memory(images: MemoryCache(budget: configuration.memoryBudget), data: MemoryCache(budget: configuration.dataBudget)))
    limiter = AsyncLimiter(limit: configuration.maximumConcurrentDownloads)
    decodingPixels = AsyncLimiter(limit: 2 * configuration.maximumPixels)
    diskCache = cache ?? configuration.diskCache.map(DiskCache.init)
    self.loader =
      loader
      ?? HTTPImageLoader(
        timeout: configuration.requestTimeout, connectionsPerHost: configuration.maximumConcurrentDownloads,
        maximumBytes: configuration.maximumDownloadBytes)
    self.clock = clock
  }

  /// Every local image file the pipeline was asked for, found or not, by its standardized
  /// path.
  package var localFilesAskedFor: Set<String> {
    localFiles.withLock { $0 }
  }

  /// The bytes a render would load for `url` from the disk cache now, without the network;
  /// nil when the pipeline keeps no disk cache or it holds nothing fresh for `url`. The
  /// render cache trusts a downloaded image only as these bytes.
  public func diskCachedData(for url: URL) -> [UInt8]? {
    diskCache?.data(for: url)
  }

  /// What the pipeline has done so far.
  public var statistics: Statistics {
    var result = memory.withLock { $0.counts }
    result.coalesced = decodes.joined + downloads.joined
    result.cancelled = decodes.cancelled + downloads.cancelled
    return result
  }

  /// Downloads and decodes under way now; zero when every render is over.
  public var activeRequests: Int { decodes.activeCount + downloads.activeCount }

  /// Forgets every image, downloaded byte and remembered failure (not the disk cache).
  public func removeAll() {
    memory.withLock { memory in
      memory.images.removeAll()
      memory.data.removeAll()
      memory.failures = [:]
    }
  }

  // MARK: - Loading

  /// The image at `location`. With a `target`, the image comes back resampled to the pixels
  /// it covers there (a JPEG decoded at the smallest DCT scale that still covers the slot),
  /// once for every slot of that size.
  public func image(at location: ImageLocation, for target: ImageTarget? = nil) async -> Result<LoadedImage, ImageLoadError> {
    if case .file(let file) = location { localFiles.withLock { _ = $0.insert(file.standardizedFileURL.path) } }
    let url = location.key
    let (source, key) = Self.keys(location, target)
    let early: Result<LoadedImage, ImageLoadError>? = memory.withLock { memory in
      if let image = memory.images.value(for: key) {
        memory.counts.memoryHits += 1
        return .success(image)
      }
      if let failure = memory.failures[url], failure.until > clock.now {
        memory.counts.rememberedFailures += 1
        return .failure(failure.error)
      }
      return nil
    }
    if let early { return early }
    do {
      return .success(try await decodes.value(for: key) { [self] in
        let bytes = try await downloads.value(for: source) { [self] in try await self.bytes(of: location, key: source) }
        try Task.checkCancellation()
        let header = try ImageDecoder.size(of: bytes, maximumPixels: configuration.maximumPixels)
        let pixels = header.width * header.height
        try await decodingPixels.acquire(pixels)
        defer { decodingPixels.release(pixels) }
        let image = try Self.decode(bytes, header: header, for: target, maximumPixels: configuration.maximumPixels)
        memory.withLock { memory in
          memory.counts.decodes += 1
          memory.images.insert(image, cost: image.bitmap.pixels.count, for: key)
        }
        return image
      })
    } catch is CancellationError {
      return .failure(ImageLoadError("cancelled"))
    } catch {
      let failure = error as? ImageLoadError ?? ImageLoadError("\(error)")
      // A missing local file costs nothing to look for again, and may appear.
      if case .remote(let remote) = location, !Task.isCancelled {
        memory.withLock { $0.failures[url] = (failure, clock.now + configuration.failureMemory) }
        diskCache?.remove(for: remote)
      }
      return .failure(failure)
    }
  }

  /// The image at `location` if it is in memory now, without reading or downloading
  /// anything: what a render can still show once its deadline has passed.
  public func cachedImage(at location: ImageLocation, for target: ImageTarget? = nil) -> LoadedImage? {
    let key = Self.keys(location, target).image
    return memory.withLock { memory in
      guard let image = memory.images.value(for: key) else { return nil }
      memory.counts.memoryHits += 1
      return image
    }
  }

  /// The cache keys of the encoded bytes at `location` and of its image for `target`. A
  /// file's key carries its modification time and size, so an edited image (under
  /// `render --watch`) is read again while an unchanged one is not.
  private static func keys(_ location: ImageLocation, _ target: ImageTarget?) -> (source: String, image: String) {
    let source = location.key + (location.fileVersion.map { "@\($0)" } ?? "")
    return (source, source + (target.map { "#\($0)" } ?? ""))
  }

  /// Decodes `data`, whose header claims `header`, at the smallest decoder scale that covers
  /// the target, and resamples it to the pixels it covers there.
  static func decode(
    _ data: [UInt8], header: (width: Int, height: Int), for target: ImageTarget?, maximumPixels: Int
  ) throws -> LoadedImage {
    let bitmap = try ImageDecoder.decode(data, maximumPixels: maximumPixels, atLeast: target?.slotPixels)
    guard let target else { return LoadedImage(bitmap) }
    let rect = target.drawingRect(imagePixels: header)
    let grid = PixelGrid(scale: target.scale)
    let fitted = try bitmap.scaled(width: max(1, grid.pixels(rect.width)), height: max(1, grid.pixels(rect.height)))
    return LoadedImage(bitmap: fitted, originalWidth: header.width, originalHeight: header.height)
  }

  /// The encoded bytes at `location`: from memory, a file, the disk cache or the network.
  private func bytes(of location: ImageLocation, key: String) async throws -> [UInt8] {
    let cached = memory.withLock { memory in
      let bytes = memory.data.value(for: key)
      if bytes != nil { memory.counts.dataHits += 1 }
      return bytes
    }
    if let cached { return cached }
    let bytes: [UInt8]
    switch location {
    case .file(let file):
      do {
        bytes = try InputFile.read(file.path)
      } catch InputFile.Problem.missing {
        throw ImageLoadError("no readable file at \(file.path)")
      } catch {
        throw ImageLoadError("no readable file at \(file.path): \(error)")
      }
    case .remote(let url):
      // Only bytes that start as an image are kept or taken from the disk: a server's error
      // page sent as 200, or a response cut short, would otherwise fail every run until it
      // aged out. Bytes that pass here and still do not decode are removed in `image(at:for:)`.
      if let cached = diskCache?.data(for: url), startsAsAnImage(cached) {
        memory.withLock { $0.counts.diskHits += 1 }
        bytes = cached
      } else {
        try await limiter.acquire()
        defer { limiter.release() }
        try Task.checkCancellation()
        memory.withLock { $0.counts.downloads += 1 }
        bytes = try await download(url)
        if startsAsAnImage(bytes) { diskCache?.store(bytes, for: url) } else { diskCache?.remove(for: url) }
      }
    }
    memory.withLock { $0.data.insert(bytes, cost: bytes.count, for: key) }
    return bytes
  }

  private func startsAsAnImage(_ bytes: [UInt8]) -> Bool {
    (try? ImageDecoder.size(of: bytes, maximumPixels: configuration.maximumPixels)) != nil
  }

  private func download(_ url: URL) async throws -> [UInt8] {
    let (loader, clock, timeout) = (self.loader, self.clock, configuration.requestTimeout)
    let deadline = clock.now + timeout
    // The loader's own timeout may be an idle timeout; the race makes this a limit on the
    // whole request.
    return try await withThrowingTaskGroup(of: [UInt8].self) { group in
      group.addTask { try await loader.data(at: url) }
      group.addTask {
        try await clock.sleep(until: deadline)
        throw ImageLoadError("no answer within \(Self.seconds(timeout)) from \(url)")
      }
      defer { group.cancelAll() }
      guard let data = try await group.next() else { throw ImageLoadError("no response from \(url)") }
      guard data.count <= configuration.maximumDownloadBytes else {
        throw ImageLoadError(
          HTTPClient.bodyTooLargeMessage(url: url.absoluteString, limit: configuration.maximumDownloadBytes))
      }
      return data
    }
  }

  static func seconds(_ value: Double) -> String {
    "\(Bounds.format(value)) s"
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

  /// A file's modification time and size; nil for remote images and missing files.
  var fileVersion: String? {
    guard case .file(let url) = self,
      let attributes = try? FileManager.default.attributesOfItem(atPath: url.path),
      let date = attributes[.modificationDate] as? Date
    else { return nil }
    return "\(date.timeIntervalSince1970)-\((attributes[.size] as? Int) ?? 0)"
  }
}
