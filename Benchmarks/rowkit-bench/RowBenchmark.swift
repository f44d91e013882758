import Foundation
import RowKit
import RowKitGraphics

/// Subtitle rows with varied, deterministic text: some subtitles wrap to two lines. With
/// `cjk`, the words are Chinese, Japanese and Korean, drawn by the Noto Sans CJK fallback.
func subtitleRows(_ count: Int, cjk: Bool = false) -> ListDataSource {
  let latin = ["table", "row", "cell", "item", "image", "layout", "Pango", "Cairo", "Three20", "section",
               "header", "label", "subtitle", "render", "measure", "paint", "pixel", "scale"]
  let han = ["表格", "行", "单元格", "项目", "图像", "布局", "渲染", "测量", "绘制", "像素", "東京", "서울",
             "日本語", "文字", "標題", "副标题", "한국어", "ひらがな"]
  let words = cjk ? han : latin
  var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
  func next() -> Int {
    seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
    return Int(seed >> 33)
  }
  func phrase(_ length: Int) -> String { (0..<length).map { _ in words[next() % words.count] }.joined(separator: " ") }
  return ListDataSource(items: (0..<count).map { index in
    SubtitleItem(
      text: "\(index + 1). " + phrase(2 + next() % 3).capitalized, subtitle: phrase(4 + next() % 12),
      options: ItemOptions(url: "app://row/\(index)"))
  })
}

/// The same rows as a table document (YAML), for `rowkit render`.
func subtitleRowsDocument(_ count: Int) -> String {
  func quoted(_ text: String) -> String { "\"" + text.replacingOccurrences(of: "\"", with: "\\\"") + "\"" }
  var lines = ["table: { width: 375, scale: 2, style: plain }", "items:"]
  for case let item as SubtitleItem in subtitleRows(count).items {
    lines.append(
      "  - { type: subtitle, text: \(quoted(item.text)), subtitle: \(quoted(item.subtitle ?? "")), url: \(quoted(item.options.url ?? "")) }")
  }
  return lines.joined(separator: "\n") + "\n"
}

/// Measures `rowCount` subtitle rows, then renders them to one streamed table PNG on one
/// worker and on `jobs` workers, `repeats` times each, and prints rows per second.
func rowBenchmark(rowCount: Int, repeats: Int, jobs: Int, cjk: Bool = false) async throws {
  let source = subtitleRows(rowCount, cjk: cjk)
  if cjk { print("CJK subtitle rows (Noto Sans CJK through the fallback)") }
  let configuration = TableConfiguration(width: 375, scale: 2)
  let shaper = try TextEnvironment.standard.makeShaper()
  let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rowkit-bench-\(getpid())")
  try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)

  var measureTimes: [Double] = []
  var tableHeight = 0.0
  for _ in 0..<repeats {
    let engine = TableLayoutEngine(configuration: configuration, stylesheet: .default, shaper: shaper)
    measureTimes.append(try await seconds { tableHeight = try engine.layout(source).size.height })
  }
  var timesByWorkers: [Int: [Double]] = [:]
  var firstOutput: [UInt8]?
  var differingRuns = 0
  var report: TableRenderer.Report?
  let pools = Dictionary(uniqueKeysWithValues: Set([1, jobs]).map { ($0, RenderPool(workers: $0)) })
  // Runs alternate between the worker counts, so a machine that slows down or speeds up
  // during the benchmark affects both alike.
  for run in 0..<repeats {
    for workers in Set([1, jobs]).sorted() {
      var renderer = TableRenderer(configuration: configuration)
      renderer.pool = pools[workers]!
      let output = folder.appendingPathComponent("table-\(workers)-\(run).png")
      timesByWorkers[workers, default: []].append(try await seconds {
        report = try await renderer.render(source, to: .init(table: output))
      })
      let bytes = try [UInt8](Data(contentsOf: output))
      if firstOutput == nil { firstOutput = bytes }
      if bytes != firstOutput {
        differingRuns += 1
        print("run \(run + 1) with \(workers) worker(s) differs from the first run; kept at \(output.path)")
      } else {
        try FileManager.default.removeItem(at: output)
      }
    }
  }

  warnIfDebug()
  print(
    "rowkit-bench: \(rowCount) subtitle rows, 375 pt wide at scale 2, \(String(format: "%.0f", tableHeight)) pt tall, "
      + "\(ProcessInfo.processInfo.activeProcessorCount) cores")
  printRate("measure only:                      ", measureTimes, count: rowCount, unit: "rows")
  for (workers, times) in timesByWorkers.sorted(by: { $0.key < $1.key }) {
    printRate("measure + paint + PNG, \(workers) worker\(workers == 1 ? " " : "s"):", times, count: rowCount, unit: "rows")
  }
  if jobs > 1, let one = timesByWorkers[1], let many = timesByWorkers[jobs] {
    func median(_ times: [Double]) -> Double { times.sorted()[times.count / 2] }
    print(String(
      format: "speed-up with %d workers:           %.2f× (best against best), %.2f× (median against median)", jobs,
      one.min()! / many.min()!, median(one) / median(many)))
  }
  print(
    "output:                             "
      + (differingRuns == 0 ? "all \(timesByWorkers.values.map(\.count).reduce(0, +)) runs byte for byte the same" : "\(differingRuns) run(s) DIFFER"))
  if let report {
    print(String(
      format: "table PNG:                          %.1f MB, %d pixels tall, %d tile(s)", Double(report.pngBytes) / 1_048_576,
      report.heightPixels, report.tiles))
    print("layout cache:                       \(report.cacheHits) hits, \(report.cacheMisses) misses")
  }
  print(String(format: "peak memory (max RSS):              %.1f MB", peakMemoryMB()))
  if differingRuns == 0 { try? FileManager.default.removeItem(at: folder) }
}

/// Renders `rowCount` subtitle rows once, streamed into one table PNG, and prints the time
/// and the process's peak memory: run it in a fresh process for a true peak.
func streamBenchmark(rowCount: Int, jobs: Int, cacheCapacity: Int?) async throws {
  let source = subtitleRows(rowCount)
  var renderer = TableRenderer(configuration: TableConfiguration(width: 375, scale: 2))
  renderer.pool = cacheCapacity.map { RenderPool(workers: jobs, layoutCacheCapacity: $0) } ?? RenderPool(workers: jobs)
  let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rowkit-bench-\(getpid())")
  try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(at: folder) }
  let memoryBefore = peakMemoryMB()
  var report: TableRenderer.Report?
  let time = try await seconds {
    report = try await renderer.render(source, to: .init(table: folder.appendingPathComponent("table.png")))
  }
  warnIfDebug()
  print("rowkit-bench stream: \(rowCount) subtitle rows, 375 pt wide at scale 2, \(jobs) worker(s)")
  printRate("measure + paint + PNG, streamed:", [time], count: rowCount, unit: "rows")
  if let report {
    print(String(
      format: "table PNG:                       %.1f MB, %d pixels tall, %d tile(s)", Double(report.pngBytes) / 1_048_576,
      report.heightPixels, report.tiles))
  }
  print(String(format: "peak memory (max RSS):           %.1f MB (%.1f MB before rendering, with the items)", peakMemoryMB(), memoryBefore))
}
