import Foundation
import RowKit
import RowKitGraphics

/// A 1024×768 photo-like picture, different for every `index`: a gradient sky, a sun, hills
/// and fine stripes, so that neither codec gets flat areas for free.
func generatedPhoto(_ index: Int) throws -> Bitmap {
  let canvas = try Canvas(pixelWidth: 1024, pixelHeight: 768, scale: 1)
  let all = Rect(x: 0, y: 0, width: 1024, height: 768)
  let hue = Double(index % 10) / 10
  canvas.fill(
    .rect(all),
    gradient: .vertical(
      all, from: Color(red: 0.3 + 0.6 * hue, green: 0.6, blue: 0.95 - 0.5 * hue), to: Color(red: 0.95, green: 0.85, blue: 0.6)))
  canvas.fill(.circle(center: Point(x: 200 + Double(index * 37 % 600), y: 220), radius: 90), color: Color(r: 255, g: 214, b: 90))
  for stripe in 0..<96 {
    let y = 420 + Double(stripe) * 3.6
    canvas.fill(
      Rect(x: 0, y: y, width: 1024, height: 1.8),
      color: Color(red: 0.2, green: 0.45 + 0.004 * Double((stripe * 7 + index) % 40), blue: 0.25, alpha: 0.8))
  }
  var hills = Path()
  hills.move(to: Point(x: 0, y: 560))
  hills.curve(
    to: Point(x: 1024, y: 520), control1: Point(x: 300, y: 400 + Double(index % 7) * 20), control2: Point(x: 700, y: 700))
  hills.line(to: Point(x: 1024, y: 768))
  hills.line(to: Point(x: 0, y: 768))
  hills.close()
  canvas.fill(hills, color: Color(r: 60, g: 130, b: 70, a: 0.9))
  return try canvas.bitmap()
}

/// Loads `slots` image slots that show `files` distinct generated images (half JPEG, half
/// PNG), through a fresh pipeline each run, and prints images decoded and scaled per second.
func imageBenchmark(slots: Int, files: Int, repeats: Int) async throws {
  let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rowkit-image-bench-\(getpid())")
  try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(at: folder) }

  var names: [String] = []
  var encodedBytes = 0
  let generation = try await seconds {
    for index in 0..<files {
      let photo = try generatedPhoto(index)
      let (name, data) = index % 2 == 0 ? ("photo\(index).jpg", try JPEG.encode(photo, quality: 85)) : ("photo\(index).png", try PNG.encode(photo))
      try Data(data).write(to: folder.appendingPathComponent(name))
      names.append(name)
      encodedBytes += data.count
    }
  }

  // Image rows: a 50-point slot at scale 2 is 100×100 device pixels.
  let items = (0..<slots).map { ImageItem(text: "Slot \($0)", imageURL: names[$0 % names.count]) }
  let source = ListDataSource(items: items)
  let resolver = ImageURLResolver(assetsDirectory: folder, baseDirectory: folder)
  let shaper = try TextEnvironment.standard.makeShaper()

  var coldTimes: [Double] = []
  var warmTimes: [Double] = []
  var statistics = ImagePipeline.Statistics()
  var loaded = 0
  for _ in 0..<repeats {
    let pipeline = ImagePipeline()
    let renderer = TableRenderer(imageResolver: resolver, pipeline: pipeline)
    let table = try TableLayoutEngine(configuration: renderer.configuration, stylesheet: .default, shaper: shaper).layout(source)
    var images = ResolvedImages()
    coldTimes.append(try await seconds { images = try await renderer.loadImages(for: table) })
    statistics = pipeline.statistics
    loaded = table.rows.filter { images.image(section: $0.section, row: $0.row, slot: 0)?.state == .loaded }.count
    warmTimes.append(try await seconds { _ = try await renderer.loadImages(for: table) })
  }
  guard loaded == slots else {
    print("error: only \(loaded) of \(slots) slots loaded")
    exit(1)
  }

  // One request at a time through a fresh pipeline: the cost of one image of each format.
  let target = ImageTarget(slotSize: Size(width: 50, height: 50), contentMode: .aspectFill, scale: 2)
  func serial(_ suffix: String) async throws -> (count: Int, seconds: Double) {
    let files = names.filter { $0.hasSuffix(suffix) }.map { ImageLocation.file(folder.appendingPathComponent($0)) }
    var best = Double.infinity
    for _ in 0..<3 {
      let pipeline = ImagePipeline()
      best = min(best, try await seconds { for file in files { _ = try await pipeline.image(at: file, for: target).get() } })
    }
    return (files.count, best)
  }
  let serialJPEG = try await serial(".jpg")
  let serialPNG = try await serial(".png")

  // What DCT scaling saves: JPEG decoded straight to 256×192, or decoded whole, then resampled.
  let jpegs = try names.filter { $0.hasSuffix(".jpg") }.map { [UInt8](try Data(contentsOf: folder.appendingPathComponent($0))) }
  func decodeAndScale(dctScaling: Bool) async throws -> Double {
    var best = Double.infinity
    for _ in 0..<3 {
      best = min(best, try await seconds {
        for data in jpegs {
          let bitmap = try JPEG.decode(data, atLeast: dctScaling ? (100, 100) : nil)
          _ = try bitmap.scaled(width: 133, height: 100)
        }
      })
    }
    return best
  }
  let withDCT = try await decodeAndScale(dctScaling: true)
  let withoutDCT = try await decodeAndScale(dctScaling: false)

  warnIfDebug()
  print(
    "rowkit-bench images: \(slots) slots (50×50 pt at scale 2) over \(files) generated 1024×768 files "
      + "(\(serialJPEG.count) JPEG, \(serialPNG.count) PNG, \(String(format: "%.1f", Double(encodedBytes) / 1_048_576)) MB; "
      + "made in \(String(format: "%.1f", generation)) s), \(ProcessInfo.processInfo.activeProcessorCount) cores")
  printRate("cold pipeline, slots:           ", coldTimes, count: slots, unit: "slots")
  printRate("cold pipeline, decoded+scaled:  ", coldTimes, count: statistics.decodes, unit: "images")
  printRate("warm pipeline (memory cache):   ", warmTimes, count: slots, unit: "slots")
  print(
    "per cold run: \(statistics.decodes) decodes for \(slots) slots (the renderer asks once per image and slot size), "
      + "\(statistics.memoryHits) memory hits")
  print(String(format: "one at a time, JPEG:             %7.0f images/s", Double(serialJPEG.count) / serialJPEG.seconds))
  print(String(format: "one at a time, PNG:              %7.0f images/s", Double(serialPNG.count) / serialPNG.seconds))
  print(String(format: "JPEG decode+scale, DCT scaling:  %7.0f images/s", Double(jpegs.count) / withDCT))
  print(String(format: "JPEG decode+scale, full decode:  %7.0f images/s", Double(jpegs.count) / withoutDCT))
  print(String(format: "peak memory (max RSS):           %.1f MB", peakMemoryMB()))
}
