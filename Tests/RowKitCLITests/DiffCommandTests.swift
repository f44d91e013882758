import Foundation
import RowKitGraphics
import RowKitSnapshot
import RowKitTestSupport
import Testing

/// `rowkit diff` on crafted images: every exit status, every tolerance flag, PNG, JPEG and
/// WebP, alpha and sizes that differ. Each test's folder is removed when the test ends.
@Suite final class DiffCommandTests: Sendable {
  let folder: URL
  let base: URL

  init() throws {
    folder = try TestSupport.temporaryDirectory()
    base = folder.appendingPathComponent("base.png")
    try save(CraftedImages.card(), "base.png")
  }

  deinit {
    try? FileManager.default.removeItem(at: folder)
  }

  @discardableResult
  func save(_ bitmap: Bitmap, _ name: String) throws -> String {
    try write(PNG.encode(bitmap), name)
  }

  @discardableResult
  func write(_ bytes: [UInt8], _ name: String) throws -> String {
    let url = folder.appendingPathComponent(name)
    try Data(bytes).write(to: url)
    return url.path
  }

  func diff(_ other: String, _ flags: [String] = []) async throws -> CommandRunner.Result {
    try await CommandRunner.run(["diff", base.path, other] + flags)
  }

  func json(_ result: CommandRunner.Result) throws -> [String: Any] {
    try #require(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
  }

  /// The diff image and the composite are written together or not at all: a composite
  /// that cannot be written (a full device, a folder in the way) leaves no diff image, no
  /// temporary file beside either (nor in /dev), and an error naming it; the two options
  /// may not name one file.
  @Test func itsImagesAreWrittenTogetherOrNotAtAll() async throws {
    let other = try save(CraftedImages.block(CraftedImages.card(), x: 3, y: 3, width: 4, height: 4, .black), "other.png")
    let diffImage = folder.appendingPathComponent("diff.png")
    let inTheWay = folder.appendingPathComponent("in-the-way")
    try FileManager.default.createDirectory(at: inTheWay, withIntermediateDirectories: true)
    func strays(_ path: String) throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: path).filter { $0.hasSuffix(".tmp") } }
    for composite in ["/dev/full", inTheWay.path] {
      let failed = try await diff(other, ["-o", diffImage.path, "--composite", composite])
      #expect(failed.status == 2 && failed.stderr.contains("cannot write \(composite)"), "\(composite): \(failed.stderr)")
      #expect(!FileManager.default.fileExists(atPath: diffImage.path), "\(composite): the diff image was written alone")
      #expect(try strays(folder.path).isEmpty && strays("/dev").isEmpty && strays(FileManager.default.temporaryDirectory.path).filter { $0.hasPrefix(".full.") }.isEmpty)
    }
    let same = try await diff(other, ["-o", diffImage.path, "--composite", folder.appendingPathComponent("./diff.png").path])
    #expect(same.status == 2 && same.stderr.contains("-o and --composite name the same file"), "\(same.stderr)")
    let link = folder.appendingPathComponent("link.png")
    try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "diff.png")
    let linked = try await diff(other, ["-o", diffImage.path, "--composite", link.path])
    #expect(linked.status == 2 && linked.stderr.contains("-o and --composite name the same file"), "\(linked.stderr)")
    try FileManager.default.removeItem(at: link)
    let written = try await diff(other, ["-o", diffImage.path, "--composite", folder.appendingPathComponent("composite.png").path])
    #expect(written.status == 1, "\(written.stderr)")
    #expect(FileManager.default.fileExists(atPath: diffImage.path))
  }

  @Test func identicalImagesExitZero() async throws {
    let result = try await diff(base.path)
    #expect(result.status == 0)
    #expect(result.stdout == "identical (64×48, 3072 pixels)\n")
  }

  /// Byte-identical files are only checked, not decoded: the report must be the one a full
  /// comparison of the same pixels gives, and a damaged file must still fail.
  @Test func byteIdenticalFilesReportWhatTheSamePixelsInOtherBytesReport() async throws {
    let copy = try write([UInt8](Data(contentsOf: base)), "copy.png")
    let recompressed = try write(PNG.encode(CraftedImages.card(), compression: .small), "recompressed.png")
    #expect(try Data(contentsOf: URL(fileURLWithPath: recompressed)) != Data(contentsOf: base), "other bytes")
    for flags in [["--json"], ["--json", "--threshold", "0.2", "--max-diff-pixels", "3"], []] {
      let identical = try await diff(copy, flags)
      let samePixels = try await diff(recompressed, flags)
      #expect(identical.status == 0 && samePixels.status == 0)
      #expect(identical.stdout == samePixels.stdout, "\(flags)")
    }
    var truncated = try PNG.encode(CraftedImages.card())
    truncated.removeLast(truncated.count / 2)
    let cut = try write(truncated, "cut.png")
    let damaged = try await CommandRunner.run(["diff", cut, cut])
    #expect(damaged.status == 2 && damaged.stderr.contains("cut.png: PNG data is damaged"), "\(damaged.stderr)")
  }

  @Test func onePixelChangedExitsOneUnlessAllowed() async throws {
    let image = try CraftedImages.card()
    let changed = try save(CraftedImages.painting(image, [(5, 5)], .black), "one.png")
    let strict = try await diff(changed)
    #expect(strict.status == 1)
    #expect(strict.stdout.hasPrefix("1 of 3072 pixels differ (0.0326%), 0 allowed; largest cluster 1 pixels at x 5–5, y 5–5"))
    #expect(try await diff(changed, ["--max-diff-pixels", "1"]).status == 0)
    #expect(try await diff(changed, ["--max-diff-ratio", "0.001"]).status == 0)
    #expect(try await diff(changed, ["--max-diff-ratio", "0.0001"]).status == 1)
    #expect(try await diff(changed, ["--ignore", "4,4,2,2"]).status == 0)
  }

  @Test func quietPrintsNothingAndTellsByItsStatus() async throws {
    let changed = try save(CraftedImages.painting(try CraftedImages.card(), [(5, 5)], .black), "one.png")
    let same = try await diff(base.path, ["-q"])
    #expect(same.status == 0 && same.stdout.isEmpty && same.stderr.isEmpty)
    let different = try await diff(changed, ["--quiet"])
    #expect(different.status == 1 && different.stdout.isEmpty)
    #expect(try await diff(changed, ["-q", "--max-diff-pixels", "1"]).status == 0)
    #expect(try await diff(changed, ["-q", "--json"]).status == 2)
  }

  @Test func aBlockFailsTheClusterLimitWhileTheCountPasses() async throws {
    let image = try CraftedImages.card()
    let block = try save(CraftedImages.block(image, x: 10, y: 36, width: 5, height: 5, .black), "block.png")
    #expect(try await diff(block, ["--max-diff-pixels", "100"]).status == 0)
    let clustered = try await diff(block, ["--max-diff-pixels", "100", "--max-cluster-pixels", "10"])
    #expect(clustered.status == 1)
    #expect(clustered.stdout.contains("largest cluster 25 pixels at x 10–14, y 36–40 (limit 10)"))
  }

  @Test func antialiasingAndThresholdFlags() async throws {
    // Shifted by a fifth of a pixel, every changed pixel is one pixelmatch's detector calls
    // antialiasing.
    let shifted = try save(CraftedImages.card(shift: 0.2), "shifted.png")
    #expect(try await diff(shifted).status == 1)
    let ignored = try await diff(shifted, ["--ignore-antialiasing"])
    #expect(ignored.status == 0)
    #expect(ignored.stdout.contains("antialiasing pixels ignored"))
    let image = try CraftedImages.card()
    let faint = try save(CraftedImages.painting(image, [(1, 1)], Color(r: 252, g: 252, b: 252)), "faint.png")
    #expect(try await diff(faint).status == 1)
    #expect(try await diff(faint, ["--threshold", "0.1"]).status == 0)
  }

  @Test func aSizeChangeIsReportedOnTheCanvasOfBoth() async throws {
    // 64×48 against 70×40: a 70×48 canvas. Only the reference covers rows 40–47 of columns
    // 0–63 (512 pixels), only the actual columns 64–69 of rows 0–39 (240 pixels).
    let bigger = try save(CraftedImages.card(width: 70, height: 40), "bigger.png")
    let diffURL = folder.appendingPathComponent("size-diff.png")
    let result = try await diff(bigger, ["--max-diff-pixels", "1000000", "-o", diffURL.path])
    #expect(result.status == 1)
    #expect(
      result.stdout.hasPrefix("sizes differ: reference 64×48, actual 70×40; "), "\(result.stdout)")
    #expect(result.stdout.contains("pixels of the 70×48 canvas differ"))
    #expect(result.stdout.contains("752 covered by only one image"))
    let numbers = try json(try await diff(bigger, ["--json"]))
    #expect(numbers["status"] as? String == "sizeMismatch")
    #expect(numbers["sizeMismatch"] as? Bool == true)
    #expect(numbers["referenceSize"] as? [String: Int] == ["width": 64, "height": 48])
    #expect(numbers["actualSize"] as? [String: Int] == ["width": 70, "height": 40])
    #expect(numbers["canvasSize"] as? [String: Int] == ["width": 70, "height": 48])
    #expect(numbers["totalPixels"] as? Int == 3360)
    #expect(numbers["onlyOneImagePixels"] as? Int == 752)
    #expect((numbers["differentPixels"] as? Int ?? 0) >= 752)
    let picture = try PNG.decode(contentsOf: diffURL)
    #expect(picture.width == 70 && picture.height == 48)
    #expect(picture.color(x: 66, y: 1) == Color(r: 255, g: 0, b: 255), "the actual's extra columns are striped")
    #expect(picture.color(x: 1, y: 42) == Color(r: 255, g: 0, b: 255), "the reference's extra rows are striped")
    #expect(picture.color(x: 67, y: 45) == Color(r: 128, g: 128, b: 128), "the corner no image covers")
  }

  @Test func alphaChangesCountAndInvisibleOnesDoNot() async throws {
    func plain(_ pixel: [UInt8]) -> RGBAImage {
      RGBAImage(width: 6, height: 4, pixels: Array([[UInt8]](repeating: pixel, count: 24).joined()))
    }
    let white = try write(CraftedPNG.rgba(plain([255, 255, 255, 255])), "white.png")
    let clear = try write(CraftedPNG.rgba(plain([0, 0, 0, 0])), "clear.png")
    let clearRed = try write(CraftedPNG.rgba(plain([255, 0, 0, 0])), "clear-red.png")
    let faintA = try write(CraftedPNG.rgba(plain([10, 20, 30, 1])), "faint-a.png")
    let faintB = try write(CraftedPNG.rgba(plain([100, 110, 120, 1])), "faint-b.png")
    let opaqueVsClear = try await CommandRunner.run(["diff", white, clear, "--json"])
    #expect(opaqueVsClear.status == 1)
    #expect(try json(opaqueVsClear)["differentPixels"] as? Int == 24)
    let clearVsClear = try await CommandRunner.run(["diff", clear, clearRed])
    #expect(clearVsClear.status == 0, "fully transparent pixels of any color are equal: \(clearVsClear.stdout)")
    let premultipliedAlike = try await CommandRunner.run(["diff", faintA, faintB, "--json"])
    #expect(premultipliedAlike.status == 1)
    #expect(try json(premultipliedAlike)["differentPixels"] as? Int == 24)
  }

  @Test func jpegAndWebPPairs() async throws {
    let card = try CraftedImages.card()
    let blocked = CraftedImages.block(card, x: 10, y: 36, width: 5, height: 5, .black)
    // WebP, lossless: the same pixels as the PNG, so the same counts.
    let webp = try write(WebP.encodeLossless(card), "card.webp")
    let webpBlocked = try write(WebP.encodeLossless(blocked), "blocked.webp")
    #expect(try await CommandRunner.run(["diff", base.path, webp]).stdout == "identical (64×48, 3072 pixels)\n")
    let webpPair = try await CommandRunner.run(["diff", webp, webpBlocked, "--json"])
    #expect(webpPair.status == 1)
    #expect(try json(webpPair)["differentPixels"] as? Int == 25)
    // JPEG: a file against itself, and against its changed copy.
    let jpeg = try write(JPEG.encode(card, quality: 92), "card.jpg")
    let jpegBlocked = try write(JPEG.encode(blocked, quality: 92), "blocked.jpg")
    #expect(try await CommandRunner.run(["diff", jpeg, jpeg]).status == 0)
    let jpegPair = try await CommandRunner.run(["diff", jpeg, jpegBlocked, "--threshold", "0.1", "--json"])
    #expect(jpegPair.status == 1)
    let numbers = try json(jpegPair)
    #expect((numbers["differentPixels"] as? Int ?? 0) >= 25)
    let box = try #require(numbers["changedBox"] as? [String: Int])
    #expect(box["x"]! <= 10 && box["y"]! <= 36 && box["x"]! + box["width"]! >= 15 && box["y"]! + box["height"]! >= 41)
    // Formats are told apart by their bytes, not their names.
    let disguised = try write(WebP.encodeLossless(card), "card-webp.png")
    #expect(try await diff(disguised).status == 0)
  }

  @Test func unreadableInputExitsTwoAndWritesNothing() async throws {
    let text = folder.appendingPathComponent("notes.png")
    try Data("not a png".utf8).write(to: text)
    let output = folder.appendingPathComponent("diff.png")
    let notPNG = try await diff(text.path, ["-o", output.path])
    #expect(notPNG.status == 2)
    #expect(notPNG.stderr == "rowkit: error: \(text.path): not an image (neither PNG, JPEG nor WebP)\n")
    #expect(!FileManager.default.fileExists(atPath: output.path), "no partial output")
    let missing = try await diff(folder.appendingPathComponent("missing.png").path)
    #expect(missing.status == 2 && missing.stderr.contains("missing.png: no such file"))
    var truncated = try PNG.encode(CraftedImages.card())
    truncated.removeLast(truncated.count / 2)
    #expect(try await diff(save(Bitmap(width: 1, height: 1, color: .white), "x.png")).status == 1)
    let cut = try write(truncated, "truncated.png")
    let damaged = try await diff(cut)
    #expect(damaged.status == 2 && damaged.stderr.contains("truncated.png: PNG data is damaged"), "\(damaged.stderr)")
    var jpeg = try JPEG.encode(CraftedImages.card())
    jpeg.removeLast(jpeg.count / 3)
    let cutJPEG = try write(jpeg, "cut.jpg")
    let damagedJPEG = try await CommandRunner.run(["diff", cutJPEG, cutJPEG])
    #expect(damagedJPEG.status == 2 && damagedJPEG.stderr.contains("cut.jpg: JPEG data is damaged"), "\(damagedJPEG.stderr)")
    #expect(try await diff(base.path, ["--threshold", "3"]).status == 2)
    #expect(try await diff(base.path, ["--ignore", "1,2,3"]).status == 2)
  }

  /// Stopped by a signal while it draws, diff leaves nothing: the diff image's temporary
  /// tiles, written beside it as the images are compared, were left behind.
  @Test func aStopWhileTheDiffIsDrawnLeavesNothing() async throws {
    let (width, height) = (8000, 5001)
    let (a, b) = (folder.appendingPathComponent("stop-a.png"), folder.appendingPathComponent("stop-b.png"))
    // The first rows are the same, so the diff image's first tile is begun at once; every
    // row after them differs, so the run goes on long after that, and the stop comes in it
    // however loaded the machine is.
    let (light, dark) = ([UInt8](repeating: 230, count: width * 3), [UInt8](repeating: 40, count: width * 3))
    try CraftedPNG.large(width: width, height: height, to: a) { _ in light }
    try CraftedPNG.large(width: width, height: height, to: b) { y in y < 1200 ? light : dark }
    let output = folder.appendingPathComponent("out")
    try FileManager.default.createDirectory(at: output, withIntermediateDirectories: false)
    let process = Process()
    process.executableURL = CommandRunner.binary
    process.arguments = ["diff", a.path, b.path, "-o", output.appendingPathComponent("d.png").path]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.runWithNoSignalBlocked()
    defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
    // 120 s: a bound far above any machine's need, not a speed figure.
    let drawing = await TestSupport.secondsUntil(within: 120) {
      ((try? FileManager.default.contentsOfDirectory(atPath: output.path)) ?? []).contains { $0.hasSuffix(".tmp") }
    }
    try #require(drawing != nil, "the diff image was never begun")
    kill(process.processIdentifier, SIGTERM)
    let end = await TestSupport.end(of: process)
    #expect(end?.reason == .uncaughtSignal && end?.status == SIGTERM, "\(String(describing: end))")
    #expect(try FileManager.default.contentsOfDirectory(atPath: output.path) == [])
  }

  /// Neither output may be one of the images compared (both were overwritten), and two small
  /// files whose canvas would be a trillion pixels are refused before a pixel is read (the
  /// comparison ran for hours).
  @Test func itsOutputsAreNeverItsImagesNorItsCanvasEndless() async throws {
    let other = try save(Bitmap(width: 4, height: 4, color: .white), "other.png")
    let (baseBytes, otherBytes) = (try Data(contentsOf: base), try Data(contentsOf: URL(fileURLWithPath: other)))
    let link = folder.appendingPathComponent("link.png")
    try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: other)
    for (flags, refusal) in [
      (["-o", base.path], "-o \(base.path) is the image \(base.path), which diff compares"),
      (["--composite", other], "--composite \(other) is the image \(other), which diff compares"),
      (["-o", link.path], "-o \(link.path) is the image \(other), which diff compares"),
    ] {
      let result = try await diff(other, flags)
      #expect(result.status == 2 && result.stderr.contains(refusal), "\(flags): \(result.stderr)")
    }
    #expect(try Data(contentsOf: base) == baseBytes && Data(contentsOf: URL(fileURLWithPath: other)) == otherBytes)

    let wide = try save(Bitmap(width: 1_000_000, height: 1, color: .white), "wide.png")
    let tall = try save(Bitmap(width: 1, height: 1_000_001, color: .white), "tall.png")
    let endless = try await CommandRunner.run(["diff", wide, tall, "-o", folder.appendingPathComponent("d.png").path])
    #expect(endless.status == 2, "\(endless.stdout)")
    #expect(
      endless.stderr.contains("the images are 1000000×1 and 1×1000001 pixels: comparing them takes a canvas of 1000000×1000001, "
        + "more than 40000000 pixels and more than twice the larger image"), "\(endless.stderr)")
    #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("d.png").path))
  }

  /// The diff image and the composite are drawn and written strip by strip now: for a pair
  /// of a normal size they are the bytes the whole images gave, and the numbers the same.
  @Test func aNormalPairGivesTheDiffAndCompositeBytesOfTheWholeImages() async throws {
    let first = try CraftedImages.card(width: 300, height: 200)
    let second = CraftedImages.block(try CraftedImages.card(width: 300, height: 200, shift: 0.4), x: 100, y: 150, width: 20, height: 9, .black)
    let (a, b) = (try save(first, "normal-a.png"), try save(second, "normal-b.png"))
    let (diffURL, compositeURL) = (folder.appendingPathComponent("normal-diff.png"), folder.appendingPathComponent("normal-composite.png"))
    let result = try await CommandRunner.run(["diff", a, b, "--json", "-o", diffURL.path, "--composite", compositeURL.path])
    #expect(result.status == 1)
    let (reference, actual) = (RGBAImage(first), RGBAImage(second))
    let whole = ImageComparison.compare(reference, actual)
    #expect(try json(result)["differentPixels"] as? Int == whole.result.differentPixels)
    #expect(try json(result)["antialiasedPixels"] as? Int == whole.result.antialiasedPixels)
    let diff = DiffImage.make(whole, reference: reference, actual: actual)
    #expect(try [UInt8](Data(contentsOf: diffURL)) == PNG.encode(diff))
    #expect(try [UInt8](Data(contentsOf: compositeURL)) == PNG.encode(DiffImage.composite([reference.bitmap, diff, actual.bitmap])))
  }

  /// 8000 × 5001 pixels, more than an image decoded whole may have: PNGs are compared a
  /// strip at a time, so the pair is compared, exactly, in little memory.
  @Test func aLargePairIsComparedStripByStrip() async throws {
    let (width, height) = (8000, 5001)
    let light = [UInt8](repeating: 230, count: width * 3)
    let stripe = [UInt8](repeating: 40, count: width * 3)
    func row(_ y: Int) -> [UInt8] { y % 97 < 3 ? stripe : light }
    let (a, b) = (folder.appendingPathComponent("large-a.png"), folder.appendingPathComponent("large-b.png"))
    try CraftedPNG.large(width: width, height: height, to: a, row: row)
    try CraftedPNG.large(width: width, height: height, to: b) { y in
      var line = row(y)
      if (4990..<5001).contains(y) { line.replaceSubrange(3 * 7000..<(3 * 7050), with: repeatElement(0, count: 150)) }
      return line
    }
    #expect(width * height > PNG.defaultMaximumPixels)
    let result = try await CommandRunner.run(["diff", a.path, b.path, "--json"])
    #expect(result.status == 1, "\(result.stderr)")
    let numbers = try json(result)
    #expect(numbers["differentPixels"] as? Int == 550)
    #expect((numbers["changedBox"] as? [String: Int]) == ["x": 7000, "y": 4990, "width": 50, "height": 11])
    #expect((numbers["largestCluster"] as? [String: Any])?["pixels"] as? Int == 550)
    #expect(try await CommandRunner.run(["diff", a.path, b.path, "-q"]).status == 1)
  }

  @Test func writesTheDiffCompositeAndJSON() async throws {
    let image = try CraftedImages.card()
    let changed = try save(CraftedImages.block(image, x: 0, y: 0, width: 3, height: 3, .black), "changed.png")
    let diffURL = folder.appendingPathComponent("diff.png")
    let compositeURL = folder.appendingPathComponent("composite.png")
    let result = try await diff(changed, ["-o", diffURL.path, "--composite", compositeURL.path, "--json"])
    #expect(result.status == 1)
    let numbers = try json(result)
    #expect(numbers["differentPixels"] as? Int == 9)
    #expect(numbers["status"] as? String == "different")
    #expect(numbers["sizeMismatch"] as? Bool == false)
    let diffImage = try PNG.decode(contentsOf: diffURL)
    #expect(diffImage.color(x: 1, y: 1) == Color(r: 255, g: 0, b: 0))
    #expect(try PNG.decode(contentsOf: compositeURL).width == 64 * 3 + 16)
  }
}

/// `rowkit check`: record modes, CI, sharding, reports and the environment guard.
@Suite struct CheckCommandTests {
  /// A folder of three small table documents plus a stylesheet that is not a case.
  func documents() throws -> URL {
    let folder = try TestSupport.temporaryDirectory()
    let tables = folder.appendingPathComponent("tables")
    try FileManager.default.createDirectory(at: tables.appendingPathComponent("nested"), withIntermediateDirectories: true)
    try Data("items:\n  - { type: text, text: One }\n".utf8).write(to: tables.appendingPathComponent("one.yaml"))
    try Data("items:\n  - { type: subtitle, text: Two, subtitle: Sub }\n".utf8).write(to: tables.appendingPathComponent("two.yaml"))
    try Data(#"{"items": [{"type": "caption", "text": "Three", "caption": "3"}]}"#.utf8)
      .write(to: tables.appendingPathComponent("nested/three.json"))
    try Data("vars: { textColor: \"#FF0000\" }\n".utf8).write(to: tables.appendingPathComponent("theme.yaml"))
    return folder
  }

  func check(_ folder: URL, _ flags: [String] = [], ci: Bool = false) async throws -> CommandRunner.Result {
    try await CommandRunner.run(
      ["check", "tables", "--snapshots", "refs"] + flags, in: folder,
      environment: ["CI": ci ? "true" : "", "ROWKIT_RECORD": ""])
  }

  /// Cases run side by side on the workers, but the output, the report and the exit status
  /// are the same for any number of jobs: recording, passing, a changed case and a bad one.
  @Test func oneJobAndTwoJobsGiveTheSameOutputReportAndStatus() async throws {
    let folder = try documents()
    defer { try? FileManager.default.removeItem(at: folder) }
    let tables = folder.appendingPathComponent("tables")
    for index in 0..<12 {
      try Data("items:\n  - { type: subtitle, text: Case \(index), subtitle: \(String(repeating: "word ", count: index)) }\n".utf8)
        .write(to: tables.appendingPathComponent("case-\(index).yaml"))
    }
    try Data("items:\n  - { type: text, txt: bad }\n".utf8).write(to: tables.appendingPathComponent("bad.yaml"))
    func run(jobs: Int) async throws -> (CommandRunner.Result, Data) {
      try? FileManager.default.removeItem(at: folder.appendingPathComponent("report"))
      let result = try await check(folder, ["--jobs", "\(jobs)", "--report", "report"])
      // Each case's time is the one thing two runs do not share.
      let report = try String(contentsOf: folder.appendingPathComponent("report/report.json"), encoding: .utf8)
      #expect(report.contains(#""seconds" : "#))
      return (result, Data(report.replacingOccurrences(of: #"\n *"seconds" : [0-9.e+-]+,"#, with: "", options: .regularExpression).utf8))
    }
    // Recording: both runs see no references (the first run's are removed in between).
    let (recordOne, recordOneReport) = try await run(jobs: 1)
    try FileManager.default.removeItem(at: folder.appendingPathComponent("refs"))
    let (recordTwo, recordTwoReport) = try await run(jobs: 2)
    #expect(recordOne.status == 2 && recordTwo.status == 2, "a bad document is bad input")
    #expect(recordOne.stdout == recordTwo.stdout && recordOne.stderr == recordTwo.stderr)
    #expect(recordOneReport == recordTwoReport)
    // One case changes: checked against the recorded references.
    try Data("items:\n  - { type: subtitle, text: Case 3 changed, subtitle: x }\n".utf8)
      .write(to: tables.appendingPathComponent("case-3.yaml"))
    let (one, oneReport) = try await run(jobs: 1)
    let (two, twoReport) = try await run(jobs: 2)
    #expect(one.status == 2 && two.status == 2)
    #expect(one.stdout == two.stdout && one.stderr == two.stderr)
    #expect(one.stdout.contains("FAILED case-3") && one.stdout.contains("PASSED case-4"), "\(one.stdout)")
    #expect(oneReport == twoReport)
  }

  @Test func underCIAMissingReferenceFailsAndNothingIsWritten() async throws {
    let folder = try documents()
    defer { try? FileManager.default.removeItem(at: folder) }
    let result = try await check(folder, ["--record", "all"], ci: true)
    #expect(result.status == 1)
    #expect(result.stdout.contains("3 cases: 0 passed, 0 failed, 0 new, 3 missing, 0 errors"))
    #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("refs").path))
  }

  @Test func recordsMissingReferencesThenPasses() async throws {
    let folder = try documents()
    defer { try? FileManager.default.removeItem(at: folder) }
    let first = try await check(folder)
    #expect(first.status == 1)
    #expect(first.stdout.contains("3 cases: 0 passed, 0 failed, 3 new"))
    for path in ["refs/one.png", "refs/two.png", "refs/nested/three.png", "refs/environment.json"] {
      #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent(path).path), "\(path)")
    }
    #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("refs/theme.png").path))
    let second = try await check(folder, ci: true)
    #expect(second.status == 0, "\(second.stdout)")
    #expect(second.stdout.contains("3 cases: 3 passed"))
  }

  @Test func aChangedDocumentFailsWithAReport() async throws {
    let folder = try documents()
    defer { try? FileManager.default.removeItem(at: folder) }
    _ = try await check(folder)
    try Data("items:\n  - { type: text, text: Changed }\n".utf8).write(to: folder.appendingPathComponent("tables/one.yaml"))
    let result = try await check(folder, ["--report", "report"], ci: true)
    #expect(result.status == 1, "\(result.stderr)")
    #expect(result.stdout.contains("FAILED one:"))
    let report = try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent("report/report.json"))) as! [String: Any]
    let summary = report["summary"] as! [String: Int]
    #expect(summary == ["total": 3, "passed": 2, "cached": 2, "failed": 1, "new": 0, "missing": 0, "errors": 0, "orphans": 0])
    let cases = report["cases"] as! [[String: Any]]
    let failed = try #require(cases.first { $0["status"] as? String == "failed" })
    for key in ["reference", "actual", "diff", "composite"] {
      let path = try #require(failed[key] as? String, "\(key)")
      #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("report").appendingPathComponent(path).path))
    }
    let passed = try #require(cases.first { $0["status"] as? String == "passed" })
    #expect(passed["reference"] is String)
    #expect((failed["result"] as? [String: Any])?["differentPixels"] as? Int ?? 0 > 0)
  }

  /// A table larger than what a check keeps in memory (8 megapixels; here 130 rows, 750 ×
  /// some 11,400 pixels) is compared strip by strip as it renders: passed when unchanged,
  /// and when a row changed, its report's actual image is the render of the changed table,
  /// rebuilt from the reference's rows for the part that matched.
  @Test func aTableLargerThanACheckKeepsInMemoryIsCheckedStripByStrip() async throws {
    let folder = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let tables = folder.appendingPathComponent("tables")
    try FileManager.default.createDirectory(at: tables, withIntermediateDirectories: true)
    func write(changing row: Int?) throws {
      let items = (1...130).map { "  - { type: subtitle, text: \($0 == row ? "Changed" : "Row \($0)"), subtitle: Subtitle }" }
      try Data(("items:\n" + items.joined(separator: "\n") + "\n").utf8).write(to: tables.appendingPathComponent("long.yaml"))
    }
    try write(changing: nil)
    #expect(try await check(folder).status == 1, "recorded")
    let passed = try await check(folder)
    #expect(passed.status == 0 && passed.stdout.contains("1 passed"), "\(passed.stdout)")
    try write(changing: 120)
    let failed = try await check(folder, ["--report", "report"], ci: true)
    #expect(failed.status == 1 && failed.stdout.contains("FAILED long:"), "\(failed.stdout)")
    let rendered = folder.appendingPathComponent("rendered.png")
    #expect(try await CommandRunner.run(["render", tables.appendingPathComponent("long.yaml").path, "-o", rendered.path]).status == 0)
    let actual = folder.appendingPathComponent("report/cases/long/actual.png")
    let same = try await CommandRunner.run(["diff", rendered.path, actual.path])
    #expect(same.status == 0, "\(same.stdout)\(same.stderr)")
    #expect(try PNG.header(contentsOf: actual).height * 750 > 1 << 23)
  }

  @Test func aSizeChangeIsAFailureWithItsNumbersOnTheReviewPage() async throws {
    let folder = try documents()
    defer { try? FileManager.default.removeItem(at: folder) }
    _ = try await check(folder)
    // A second row makes the table taller than its reference.
    try Data("items:\n  - { type: text, text: One }\n  - { type: text, text: More }\n".utf8)
      .write(to: folder.appendingPathComponent("tables/one.yaml"))
    let result = try await check(folder, ["--report", "report"], ci: true)
    #expect(result.status == 1)
    #expect(result.stdout.contains("FAILED one: sizes differ: reference "), "\(result.stdout)")
    let report = try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent("report/report.json"))) as! [String: Any]
    let failed = try #require((report["cases"] as! [[String: Any]]).first { $0["status"] as? String == "failed" })
    let numbers = try #require(failed["result"] as? [String: Any])
    #expect(numbers["sizeMismatch"] as? Bool == true && numbers["status"] as? String == "sizeMismatch")
    let reference = try #require(numbers["referenceSize"] as? [String: Int])
    let actual = try #require(numbers["actualSize"] as? [String: Int])
    #expect(reference["width"] == actual["width"] && reference["height"]! < actual["height"]!)
    let onlyOne = try #require(numbers["onlyOneImagePixels"] as? Int)
    #expect(onlyOne == actual["width"]! * (actual["height"]! - reference["height"]!))
    #expect(numbers["differentPixels"] as? Int ?? 0 >= onlyOne)
    let diff = try #require(failed["diff"] as? String, "a size change has a diff image too")
    let picture = try PNG.decode(contentsOf: folder.appendingPathComponent("report").appendingPathComponent(diff))
    #expect(picture.width == actual["width"] && picture.height == actual["height"])
    let page = try String(contentsOf: folder.appendingPathComponent("report/index.html"), encoding: .utf8)
    #expect(page.contains(#"<dl class="numbers" data-size-mismatch="true">"#))
    #expect(page.contains("reference \(reference["width"]!)×\(reference["height"]!), actual \(actual["width"]!)×\(actual["height"]!)"))
    #expect(page.contains("<dt>only one image covers</dt><dd class=\"different\">\(onlyOne) px</dd>"))
  }

  @Test func shardsSplitTheSuiteWithoutOverlap() async throws {
    let folder = try documents()
    defer { try? FileManager.default.removeItem(at: folder) }
    _ = try await check(folder)
    var names: [String] = []
    for shard in ["1/2", "2/2"] {
      let result = try await check(folder, ["--shard", shard], ci: true)
      #expect(result.status == 0)
      names += result.stdout.split(separator: "\n").filter { $0.hasPrefix("PASSED") }.map(String.init)
    }
    #expect(names.sorted() == ["PASSED nested/three (cached)", "PASSED one (cached)", "PASSED two (cached)"])
    #expect(try await check(folder, ["--shard", "3/2"]).status == 2)
    // A count past the cap (a typo, or a hostile CI matrix) is refused before any plan is made.
    let tooMany = try await check(folder, ["--shard", "1/1000000000000", "--shard-by", "cost", "--timings", "refs"])
    #expect(tooMany.status == 2 && tooMany.stderr.contains("a suite is split into at most 1000 shards"), "\(tooMany.stderr)")
  }

  @Test func anotherEnvironmentGivesOneMessage() async throws {
    let folder = try documents()
    defer { try? FileManager.default.removeItem(at: folder) }
    _ = try await check(folder)
    let url = folder.appendingPathComponent("refs/environment.json")
    var json = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as! [String: Any]
    var libraries = json["libraries"] as! [String: String]
    libraries["cairo"] = "1.18.0"
    json["libraries"] = libraries
    try JSONSerialization.data(withJSONObject: json).write(to: url)
    let result = try await check(folder, ci: true)
    #expect(result.status == 1)
    #expect(result.stderr.split(separator: "\n").count == 1)
    #expect(result.stderr.contains("recorded in another environment (cairo 1.18.0 → "))
    #expect(!result.stdout.contains("FAILED"))
  }

  @Test func anUnknownRecordModeInTheEnvironmentIsRefused() async throws {
    let folder = try documents()
    defer { try? FileManager.default.removeItem(at: folder) }
    let result = try await CommandRunner.run(
      ["check", "tables", "--snapshots", "refs"], in: folder, environment: ["CI": "", "ROWKIT_RECORD": "bogus"])
    #expect(result.status == 2)
    #expect(result.stderr.contains("ROWKIT_RECORD=bogus is not a record mode"), "\(result.stderr)")
    #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("refs").path), "a typo started recording")
  }

  @Test func aBadDocumentExitsTwo() async throws {
    let folder = try documents()
    defer { try? FileManager.default.removeItem(at: folder) }
    _ = try await check(folder)
    try Data("items:\n  - { type: txt, text: Bad }\n".utf8).write(to: folder.appendingPathComponent("tables/one.yaml"))
    let result = try await check(folder, ci: true)
    #expect(result.status == 2)
    // The reason is printed once, on stderr; the listing names the case.
    #expect(result.stdout.contains("ERROR one\n") && !result.stdout.contains("one.yaml:2:"), "\(result.stdout)")
    let errors = result.stderr.split(separator: "\n")
    #expect(errors.count == 1 && errors[0].contains("one.yaml:2:") && errors[0].contains("unknown item type"), "\(result.stderr)")
  }
}
