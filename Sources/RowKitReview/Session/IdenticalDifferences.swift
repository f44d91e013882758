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
  static func groups(of report: SnapshotCheck.Report, in folder: URL) -> [ReviewReport.Group] {
    var byDifference: [String: [String]] = [:]
    var order: [String] = []
    for item in report.cases where item.status == .failed && item.result?.sizeMismatch != true {
      guard let difference = fingerprint(of: item, in: folder) else { continue }
      if byDifference[difference] == nil { order.append(difference) }
      byDifference[difference, default: []].append(item.name)
    }
    return order.compactMap { difference in
      let names = byDifference[difference]!
      return names.count > 1 ? ReviewReport.Group(kind: .identicalPixels, title: "have the same pixel difference", names: names) : nil
    }
  }

  /// SHA-256 of the case's differing pixels: each one's index and its colors in both images.
  private static func fingerprint(of item: SnapshotCheck.CaseResult, in folder: URL) -> String? {
    guard let referencePath = item.reference, let actualPath = item.actual,
      let referenceURL = try? ReportFolder.file(referencePath, in: folder, what: "the reference image"),
      let actualURL = try? ReportFolder.file(actualPath, in: folder, what: "the actual image"),
      TiledPNG.files(of: referenceURL).count == 1, TiledPNG.files(of: actualURL).count == 1,
      let reference = try? PNG.decode(contentsOf: referenceURL), let actual = try? PNG.decode(contentsOf: actualURL),
      reference.width == actual.width, reference.height == actual.height, reference.pixels.count == actual.pixels.count
    else { return nil }
    var digest = SHA256()
    var size = [UInt8]()
    for value in [reference.width, reference.height] { withUnsafeBytes(of: UInt32(value).littleEndian) { size += $0 } }
    digest.update(size)
    var differing = 0
    reference.pixels.withUnsafeBufferPointer { before in
      actual.pixels.withUnsafeBufferPointer { after in
        var entry = [UInt8](repeating: 0, count: 12)
        var offset = 0
        while offset + 4 <= before.count {
          if before[offset] != after[offset] || before[offset + 1] != after[offset + 1] || before[offset + 2] != after[offset + 2]
            || before[offset + 3] != after[offset + 3]
          {
            let index = UInt32(offset / 4).littleEndian
            withUnsafeBytes(of: index) { for (position, byte) in $0.enumerated() { entry[position] = byte } }
            for position in 0..<4 {
              entry[4 + position] = before[offset + position]
              entry[8 + position] = after[offset + position]
            }
            digest.update(entry)
            differing += 1
          }
          offset += 4
        }
      }
    }
    guard differing > 0 else { return nil }
    return digest.finalize().map { String(format: "%02x", $0) }.joined()
  }
}
