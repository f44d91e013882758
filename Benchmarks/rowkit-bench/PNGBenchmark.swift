import Foundation
import RowKit
import RowKitGraphics

/// Paints the top of a subtitle table on one 32767-pixel surface (Cairo's tallest) and
/// encodes it with RowKit's writer, fast and small, and with cairo's own PNG writer:
/// throughput and size on the same pixels.
func pngBenchmark(repeats: Int) async throws {
  var renderer = TableRenderer(configuration: TableConfiguration(width: 375, scale: 2))
  renderer.maximumTilePixels = Canvas.maximumPixelSide
  let bitmap = try await renderer.render(subtitleRows(300)).tiles[0].bitmap
  let canvas = try Canvas(pixelWidth: bitmap.width, pixelHeight: bitmap.height, scale: 1)
  canvas.blit(bitmap, at: Point(x: 0, y: 0))
  let megapixels = Double(bitmap.width * bitmap.height) / 1e6

  var results: [(String, [Double], Int)] = []
  for (name, encode) in [
    ("RowKit, fast (ISA-L level 0)", { try PNG.encode(bitmap, compression: .fast) }),
    ("RowKit, small (zlib level 9)", { try PNG.encode(bitmap, compression: .small) }),
    ("cairo_surface_write_to_png", { try canvas.cairoPNG() }),
  ] as [(String, () throws -> [UInt8])] {
    var times: [Double] = []
    var bytes = 0
    for _ in 0..<repeats {
      times.append(try await seconds { bytes = try encode().count })
    }
    results.append((name, times, bytes))
  }
  warnIfDebug()
  print(String(format: "rowkit-bench png: one %d×%d surface of subtitle rows (%.1f megapixels), best of %d", bitmap.width, bitmap.height, megapixels, repeats))
  let cairoTime = results.last!.1.min()!
  for (name, times, bytes) in results {
    let best = times.min()!
    print(String(
      format: "  %@ %7.1f ms  %5.0f megapixels/s  %5.2f MB  (%.1f× cairo's speed)", name.padding(toLength: 30, withPad: " ", startingAt: 0),
      best * 1000, megapixels / best, Double(bytes) / 1_048_576, cairoTime / best))
  }
}
