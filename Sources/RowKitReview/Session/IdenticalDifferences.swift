import Foundation
import RowKitGraphics
import RowKitSnapshot

/// Failed cases whose pixel difference is the same: the same differing pixels, at the same
/// places from each image's own top-left corner, with the same colors in the reference and
/// the actual image. One change to a shared cell looks so in every case that shows it, even
/// when no layout sentence tells it (a color, an icon's pixels).
enum IdenticalDifferences {
  /// The groups of two or more failed cases of `report` (in `folder`) with the same pixel
  /// difference, in the report's order. A case whose images differ in size, are tiled, or
  /// cannot be read from inside the folder is in none.
  ///
  /// Both images of every failed case are decoded (4,000 PNGs for a report of 2,000
  /// failures), so the cases are shared out in one part per core, off the cooperative pool.
  static func groups(of report: SnapshotCheck.Report, in folder: URL) async -> [ReviewReport.Group] {
    let candidates = report.cases.filter { $0.status == .failed && $0.result?.sizeMismatch != true }
    let threads = max(1, min(ProcessInfo.processInfo.activeProcessorCount, candidates.count))
    let fingerprints = await withTaskGroup(of: [(Int, String?)].self) { group in
      for first in 0..<threads {
        group.addTask {
          await offCooperativePool {
            stride(from: first, to: candidates.count, by: threads).map { ($0, fingerprint(of: candidates[$0], in: folder)) }
          }
        }
      }
      var fingerprints = [String?](repeating: nil, count: candidates.count)
      for await part in group {
        for (index, fingerprint) in part { fingerprints[index] = fingerprint }
      }
      return fingerprints
    }
    var byDifference: [String: [String]] = [:]
    var order: [String] = []
    for (item, difference) in zip(candidates, fingerprints) {
      guard let difference else { continue }
      if byDifference[difference] == nil { order.append(difference) }
      byDifference[difference, default: []].append(item.name)
    }
    return order.compactMap { difference in
      let names = byDifference[difference]!
      return names.count > 1 ? ReviewReport.Group(kind: .identicalPixels, title: "have the same pixel difference", names: names) : nil
    }
  }

  /// SHA-256 of the case's size and differing pixels: each one's index and its colors in both
  /// images, as the files store them.
  static func fingerprint(of item: SnapshotCheck.CaseResult, in folder: URL) -> String? {
    guard let referencePath = item.reference, let actualPath = item.actual,
      let referenceURL = try? ReportFolder.file(referencePath, in: folder, what: "the reference image"),
      let actualURL = try? ReportFolder.file(actualPath, in: folder, what: "the actual image"),
      TiledPNG.files(of: referenceURL).count == 1, TiledPNG.files(of: actualURL).count == 1,
      let reference = try? PNG.decodeRGBA(InputFile.read(referenceURL.path)),
      let actual = try? PNG.decodeRGBA(InputFile.read(actualURL.path)),
      reference.width == actual.width, reference.height == actual.height
    else { return nil }
    return fingerprint(reference, actual)
  }

  /// SHA-256 of the pixels in which two images of one size differ, or nil when none do.
  static func fingerprint(_ reference: RGBAImage, _ actual: RGBAImage) -> String? {
    var message: [UInt8] = []
    for value in [reference.width, reference.height] { withUnsafeBytes(of: UInt32(value).littleEndian) { message += $0 } }
    let header = message.count
    reference.pixels.withUnsafeBytes { before in
      actual.pixels.withUnsafeBytes { after in
        let pixels = before.count / 4
        var pixel = 0
        // Two pixels at a time while they are equal, the usual case by far.
        while pixel < pixels {
          if pixel + 2 <= pixels
            && before.loadUnaligned(fromByteOffset: pixel * 4, as: UInt64.self)
              == after.loadUnaligned(fromByteOffset: pixel * 4, as: UInt64.self)
          {
            pixel += 2
            continue
          }
          let offset = pixel * 4
          if before.loadUnaligned(fromByteOffset: offset, as: UInt32.self) != after.loadUnaligned(fromByteOffset: offset, as: UInt32.self) {
            withUnsafeBytes(of: UInt32(pixel).littleEndian) { message += $0 }
            message += before[offset..<offset + 4]
            message += after[offset..<offset + 4]
          }
          pixel += 1
        }
      }
    }
    return message.count > header ? SHA256.hex(ofBuffer: message) : nil
  }
}
