import Foundation
import RowKit
import RowKitGraphics
import RowKitSnapshot
import SnapshotTesting

/// A RowKit render as swift-snapshot-testing stores and compares it: a PNG file on disk, the
/// decoded pixels in memory, and the environment it was rendered in.
public struct RowKitImage: Sendable {
  /// The pixels, or nil when the render failed or the file could not be read.
  public var bitmap: Bitmap?
  /// Why there are no pixels.
  public var problem: String?
  /// The environment a reference was recorded in, read from its PNG; nil for a fresh render
  /// and for references recorded without one.
  public var recordedIn: EnvironmentFingerprint?

  /// The `tEXt` keyword under which the reference PNG carries its environment.
  public static let environmentKeyword = "RowKit-Environment"

  /// A fresh render.
  public init(bitmap: Bitmap) {
    self.bitmap = bitmap
  }

  /// A render that failed.
  public init(problem: String) {
    self.problem = problem
  }

  /// The PNG file: the pixels, and this process's environment fingerprint in a `tEXt` chunk.
  /// A failed render is written as its message, so that a recorded failure is never taken for
  /// an image.
  public func pngData() -> Data {
    guard let bitmap else { return Data((problem ?? "no image").utf8) }
    do {
      let png = try PNG.encode(bitmap)
      let fingerprint = try EnvironmentFingerprint.current().jsonBytes()
      return Data(PNG.inserting(text: fingerprint, keyword: Self.environmentKeyword, into: png))
    } catch {
      return Data("RowKit could not encode the render: \(error)".utf8)
    }
  }

  /// Reads a reference file written by ``pngData()`` (or any PNG).
  public init(pngData data: Data) {
    let bytes = [UInt8](data)
    do {
      bitmap = try PNG.decode(bytes)
      if let json = PNG.text(keyword: Self.environmentKeyword, in: bytes) {
        recordedIn = try? JSONDecoder().decode(EnvironmentFingerprint.self, from: Data(json))
      }
    } catch {
      let text = String(decoding: bytes.prefix(300), as: UTF8.self)
      problem = "the reference is not a PNG RowKit can read (\(error)): \(text)"
    }
  }
}

extension Diffing where Value == RowKitImage {
  /// RowKit's comparison behind swift-snapshot-testing: PNG files on disk, pixels compared by
  /// `ImageComparison` within `options`, its one-line summary as the failure message, and
  /// the environment the reference was recorded in named when it differs from this one.
  public static func rowkit(options: ComparisonOptions = .exact) -> Diffing<RowKitImage> {
    .diff(
      toData: { $0.pngData() },
      fromData: { RowKitImage(pngData: $0) },
      diffV2: { reference, actual in
        guard let referenceBitmap = reference.bitmap else { return ("RowKit: \(reference.problem ?? "no reference")", []) }
        guard let actualBitmap = actual.bitmap else { return ("RowKit: the render failed: \(actual.problem ?? "")", []) }
        if let problem = options.problem { return ("RowKit: \(problem)", []) }
        let outcome = ImageComparison.compare(referenceBitmap, actualBitmap, options: options)
        guard !outcome.result.passed else { return nil }
        var message = "RowKit: \(outcome.result.summary)"
        if let recordedIn = reference.recordedIn {
          let differences = recordedIn.differences(from: .current())
          if !differences.isEmpty {
            message += "; the reference was recorded in another environment (\(differences.joined(separator: ", "))): "
              + "render where it was recorded, or record it again and review the change"
          }
        }
        let diff = DiffImage.make(outcome, reference: RGBAImage(referenceBitmap), actual: RGBAImage(actualBitmap))
        let attachments = (try? PNG.encode(diff)).map { [DiffAttachment.data(Data($0), name: "difference.png")] } ?? []
        return (message, attachments)
      })
  }
}

extension Snapshotting where Format == RowKitImage {
  /// A strategy that renders with RowKit's own strategy `strategy` (from `RowKitSnapshot`).
  /// The render runs on the RowKit runtime's loading executor, not on Swift's cooperative
  /// pool: swift-snapshot-testing waits for a snapshot by blocking the test's thread, and on a
  /// two-core machine two tests blocked that way would hold the whole pool.
  public static func rowkit(
    _ strategy: ImageSnapshotting<Value>, options: ComparisonOptions = .exact
  ) -> Snapshotting<Value, RowKitImage> {
    let render = strategy.render
    return Snapshotting(pathExtension: "png", diffing: .rowkit(options: options)) { value in
      onRowKitRuntime(
        { RowKitImage(bitmap: try await render(value)) },
        failure: { RowKitImage(problem: "RowKit could not render the snapshot: \($0)") })
    }
  }
}

extension Snapshotting where Value: TableItem, Format == RowKitImage {
  /// One item's row, `width` points wide, compared by RowKit (see ``Diffing/rowkit(options:)``).
  public static func rowkit(
    width: Double = 375, scale: Double = 2, style: TableStyle = .plain, mapping: CellMapping = CellMapping(),
    stylesheet: Stylesheet = .default, images: SnapshotImages = .none, options: ComparisonOptions = .exact
  ) -> Snapshotting<Value, RowKitImage> {
    let configuration = TableConfiguration(width: width, scale: scale, style: style)
    return .rowkit(
      .row(mapping: mapping, configuration: configuration, stylesheet: stylesheet, images: images), options: options)
  }
}

extension Snapshotting where Value: TableDataSource, Format == RowKitImage {
  /// The whole table, `width` points wide, compared by RowKit (see ``Diffing/rowkit(options:)``).
  public static func rowkit(
    width: Double = 375, scale: Double = 2, style: TableStyle = .plain, stylesheet: Stylesheet = .default,
    images: SnapshotImages = .none, options: ComparisonOptions = .exact
  ) -> Snapshotting<Value, RowKitImage> {
    let configuration = TableConfiguration(width: width, scale: scale, style: style)
    return .rowkit(.table(configuration: configuration, stylesheet: stylesheet, images: images), options: options)
  }
}

/// `work`'s result, for swift-snapshot-testing's callback API. The work runs on the RowKit
/// runtime's executor, not on Swift's cooperative pool: swift-snapshot-testing waits for a
/// snapshot by blocking the test's thread, and on a two-core machine two tests blocked that
/// way would hold the whole pool.
func onRowKitRuntime<Format>(
  _ work: @escaping () async throws -> Format, failure: @escaping (any Error) -> Format
) -> Async<Format> {
  // The callback API predates Sendable: it hands the work over and waits for the callback,
  // touching neither until then.
  let handOver = UncheckedSendable((work: work, failure: failure))
  return Async { callback in
    let callback = UncheckedSendable(callback)
    // The one way from this callback API into async code is a task of its own. It is not
    // left running: it ends by calling the callback, which swift-snapshot-testing waits for.
    Task(executorPreference: RowKitRuntime.shared.taskExecutor) {
      do {
        callback.value(try await handOver.value.work())
      } catch {
        callback.value(handOver.value.failure(error))
      }
    }
  }
}

/// A value handed across an API that predates `Sendable` and guarantees one owner at a time.
struct UncheckedSendable<Wrapped>: @unchecked Sendable {
  var value: Wrapped
  init(_ value: Wrapped) { self.value = value }
}
