import Foundation
import RowKitGraphics

/// The images a table's slots show, keyed by row and slot.
public struct ResolvedImages: Sendable {
  var slots: [SlotKey: SlotImage] = [:]

  struct SlotKey: Hashable, Sendable {
    var section: Int
    var row: Int
    var slot: Int
  }

  /// No images yet.
  public init() {}

  /// The image of slot `slot` of a row, or nil when none was resolved for it.
  public func image(section: Int, row: Int, slot: Int) -> SlotImage? {
    slots[SlotKey(section: section, row: row, slot: slot)]
  }

  /// One row's slots with their keys, as a loader takes them.
  static func keyed(_ rowSlots: [ImageSlot], section: Int, row: Int) -> [(SlotKey, ImageSlot)] {
    rowSlots.enumerated().map { (SlotKey(section: section, row: row, slot: $0.offset), $0.element) }
  }
}

/// Loads what a set of image slots show: each distinct image once per slot size, all at
/// once, through the pipeline, until the render's deadline.
///
/// One loader serves one render, however many times it is asked: the deadline counts from
/// the loader's creation, so a render that loads its rows chunk by chunk waits at most the
/// deadline in all, not per chunk. Once it has passed, slots show what the pipeline holds in
/// memory and nothing new is waited for.
///
/// The deadline is for the network only. Local images (`bundle://`, `file://`, `documents://`,
/// `cache://`, relative paths) and default images are always read, whatever the clock says:
/// on a busy machine a render that gave up on a local PNG would paint its default instead,
/// and the *complete* policy's promise (the same PNG for the same input) would hold only on
/// an idle machine.
struct SlotImageLoader: Sendable {
  let resolver: ImageURLResolver
  let pipeline: ImagePipeline
  /// Seconds to wait for every image in total.
  let deadline: Double
  /// Images drawn by code, by URL.
  let preloaded: [String: Bitmap]
  /// When waiting ends, on the pipeline's clock.
  let expiry: Double

  init(resolver: ImageURLResolver, pipeline: ImagePipeline, deadline: Double, preloaded: [String: Bitmap]) {
    self.resolver = resolver
    self.pipeline = pipeline
    self.deadline = deadline
    self.preloaded = preloaded
    expiry = pipeline.clock.now + max(0, deadline)
  }

  nonisolated(nonsending) func load(
    _ slots: [(ResolvedImages.SlotKey, ImageSlot)], scale: Double, policy: ImagePolicy
  ) async throws -> ResolvedImages {
    // Each distinct image is asked for once per slot size, however many slots show it.
    var mainRequests: [String: ImageRequest] = [:]
    var defaultRequests: [String: ImageRequest] = [:]
    var plans: [
      (key: ResolvedImages.SlotKey, slot: ImageSlot, main: String?, fallback: String?, error: String?, fallbackError: String?)
    ] = []
    func request(_ url: String, for slot: ImageSlot, isDefault: Bool) -> (id: String?, error: String?) {
      if preloaded[url] != nil { return ("preloaded:" + url, nil) }
      let location: ImageLocation
      do {
        location = try resolver.resolve(url)
      } catch {
        return (nil, error.message)
      }
      // A default stands in when the network fails, so it is never fetched from it.
      if isDefault, case .remote = location { return (nil, "a default image is never downloaded; give a local file") }
      let target = ImageTarget(slot, scale: scale)
      let id = location.key + (target.map { "#\($0)" } ?? "")
      let request = ImageRequest(location: location, target: target)
      if isDefault { defaultRequests[id] = request } else { mainRequests[id] = request }
      return (id, nil)
    }
    for (key, slot) in slots {
      let fallback = slot.defaultURL.map { request($0, for: slot, isDefault: true) }
      var main: (id: String?, error: String?) = (nil, nil)
      if let url = slot.url, policy == .complete { main = request(url, for: slot, isDefault: false) }
      plans.append((key, slot, main.id, fallback?.id, main.error, fallback?.error))
    }
    var results: [String: Result<LoadedImage, ImageLoadError>] = [:]
    for (id, bitmap) in preloaded { results["preloaded:" + id] = .success(LoadedImage(bitmap)) }
    let remote = mainRequests.filter { if case .remote = $0.value.location { true } else { false } }
    let local = mainRequests.filter { if case .remote = $0.value.location { false } else { true } }
    results.merge(await load(remote, until: expiry)) { $1 }
    results.merge(await load(local.merging(defaultRequests) { a, _ in a }, until: nil)) { $1 }
    var resolved = ResolvedImages()
    for plan in plans {
      let fallback = plan.fallback.flatMap { try? results[$0]?.get() }
      // A default that cannot be shown is said, never left as a silently empty slot.
      var fallbackError = plan.fallbackError
      if let id = plan.fallback, case .failure(let error)? = results[id] { fallbackError = error.message }
      var defaultProblem: String?
      if let defaultURL = plan.slot.defaultURL, let fallbackError {
        defaultProblem = "its default \(defaultURL) cannot be shown either (\(fallbackError))"
      }
      func failed(_ reason: String) -> SlotImage {
        SlotImage(image: fallback, state: .failed, reason: defaultProblem.map { "\(reason); \($0)" } ?? reason)
      }
      var image: SlotImage
      if let main = plan.main {
        switch results[main] {
        case .success(let loaded): image = SlotImage(image: loaded, state: .loaded)
        case .failure(let error): image = failed(error.message)
        case nil: image = failed("not loaded within the render's \(ImagePipeline.seconds(deadline)) deadline")
        }
      } else if let error = plan.error {
        image = failed(error)
      } else if let defaultURL = plan.slot.defaultURL, let fallbackError {
        // Still the default's state: no image was asked for, so none failed (a strict render
        // and a check pass as before), but the reason is kept and warned about.
        image = SlotImage(image: nil, state: .default, reason: "the default image \(defaultURL) cannot be shown (\(fallbackError))")
      } else {
        image = SlotImage(image: fallback, state: .default)
      }
      try image.fit(plan.slot, scale: scale)
      resolved.slots[plan.key] = image
    }
    return resolved
  }

  struct ImageRequest: Sendable {
    var location: ImageLocation
    var target: ImageTarget?
  }

  /// Loads every request at once, until `expiry` (nil: until all are done); requests still
  /// running then are cancelled and missing from the result. Past the expiry, only images
  /// already in memory are returned.
  nonisolated(nonsending) private func load(
    _ requests: [String: ImageRequest], until expiry: Double?
  ) async -> [String: Result<LoadedImage, ImageLoadError>] {
    var results: [String: Result<LoadedImage, ImageLoadError>] = [:]
    guard !requests.isEmpty else { return results }
    let pipeline = self.pipeline
    let clock = pipeline.clock
    if let expiry, expiry <= clock.now {
      for (id, request) in requests {
        if let image = pipeline.cachedImage(at: request.location, for: request.target) { results[id] = .success(image) }
      }
      return results
    }
    await withTaskGroup(of: (String, Result<LoadedImage, ImageLoadError>)?.self) { group in
      for (id, request) in requests {
        group.addTask { (id, await pipeline.image(at: request.location, for: request.target)) }
      }
      if let expiry {
        group.addTask {
          try? await clock.sleep(until: expiry)
          return nil
        }
      }
      var remaining = requests.count
      while remaining > 0, let next = await group.next() {
        guard let (id, result) = next else { break }  // The deadline passed.
        results[id] = result
        remaining -= 1
      }
      group.cancelAll()
    }
    return results
  }
}
