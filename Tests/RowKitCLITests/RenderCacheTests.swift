import Foundation
import RowKitGraphics
import RowKitTestSupport
import Testing

/// `rowkit check` passing cases whose inputs are unchanged without rendering them, and
/// rendering exactly the cases an input change reaches (`CaseInputs`).
@Suite struct RenderCacheTests {
  /// A suite in which each case reads inputs of one kind that no other case reads.
  private struct Suite {
    let folder: URL
    var docs: URL { folder.appendingPathComponent("docs") }
    var refs: URL { folder.appendingPathComponent("refs") }

    init() throws {
      folder = try TestSupport.temporaryDirectory("renderCache")
      let files: [String: String] = [
        "docs/plain.yaml": "items: [{ type: text, text: Plain }]\n",
        "docs/styled.yaml": "stylesheet: ../styles/app.yaml\nitems: [{ type: text, text: Styled }]\n",
        "docs/child.yaml": "stylesheet: ../styles/child.yaml\nitems: [{ type: text, text: Child }]\n",
        "docs/designed.yaml": """
          cells: { Card: ../designs/card.yaml }
          items: [{ type: Card, title: Designed }]

          """,
        "docs/pictured.yaml": """
          assets: ..
          items: [{ type: subtitle, text: Pictured, subtitle: An image, imageURL: bundle://images/a.png }]

          """,
        "docs/branded.yaml": "stylesheet: ../styles/brand.yaml\nitems: [{ type: text, text: Branded }]\n",
        "docs/varied.yaml": "variants: { appearance: [light, dark] }\nitems: [{ type: text, text: Varied }]\n",
        "styles/app.yaml": "extends: default\nvars: { textColor: \"#000000\" }\n",
        "styles/base.yaml": "extends: default\nvars: { textColor: \"#000000\" }\n",
        "styles/child.yaml": "extends: base.yaml\n",
        "styles/brand.yaml": "extends: default\nfonts: [../fonts/brand.ttf]\nvars: { tableFont: \"Noto Serif 17\" }\n",
        "designs/card.yaml": """
          padding: [10, 12, 10, 12]
          body:
            label: { bind: title, font: "Inter 17", color: "#000000", name: title }

          """,
      ]
      for (path, text) in files {
        let url = folder.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: url, atomically: true, encoding: .utf8)
      }
      try FileManager.default.createDirectory(at: folder.appendingPathComponent("images"), withIntermediateDirectories: true)
      try FileManager.default.createDirectory(at: folder.appendingPathComponent("fonts"), withIntermediateDirectories: true)
      try Data(Self.solidPNG([200, 30, 30, 255])).write(to: folder.appendingPathComponent("images/a.png"))
      try FileManager.default.copyItem(
        atPath: "/usr/share/fonts/truetype/noto/NotoSerif-Regular.ttf", toPath: folder.appendingPathComponent("fonts/brand.ttf").path)
    }

    /// An 8 × 8 PNG of one color.
    static func solidPNG(_ rgba: [UInt8]) -> [UInt8] {
      CraftedPNG.make(width: 8, height: 8, colorType: 6, depth: 8, samples: Array(repeating: rgba.map(Int.init), count: 64).flatMap { $0 })
    }

    /// Runs `rowkit check` with the cache explained, CI set unless `recording`.
    func check(_ extra: [String] = [], recording: Bool = false) async throws -> CommandRunner.Result {
      try await CommandRunner.run(
        ["check", docs.path, "--snapshots", refs.path, "--explain-cache"] + extra,
        environment: ["CI": recording ? "" : "true"])
    }

    func replace(_ path: String, _ old: String, _ new: String) throws {
      let url = folder.appendingPathComponent(path)
      let text = try String(contentsOf: url, encoding: .utf8)
      #expect(text.contains(old), "\(path) holds \(old)")
      try text.replacingOccurrences(of: old, with: new).write(to: url, atomically: true, encoding: .utf8)
    }
  }

  /// The cases the listing shows as rendered (with their status), and those passed cached.
  private static func outcomes(_ output: String) -> (rendered: [String: String], cached: Set<String>) {
    var rendered: [String: String] = [:]
    var cached: Set<String> = []
    for line in output.split(separator: "\n").map(String.init) {
      let words = line.split(separator: " ").map(String.init)
      guard words.count >= 2, ["PASSED", "FAILED", "NEW", "MISSING", "ERROR"].contains(words[0]) else { continue }
      let name = words[1].hasSuffix(":") ? String(words[1].dropLast()) : words[1]
      if line.hasSuffix("(cached)") { cached.insert(name) } else { rendered[name] = words[0] }
    }
    return (rendered, cached)
  }

  static let allCases: Set<String> = ["plain", "styled", "child", "designed", "pictured", "branded", "varied@light", "varied@dark"]

  @Test func onlyTheCasesAnInputReachesRenderAndAChangeInEachFails() async throws {
    let suite = try Suite()
    defer { try? FileManager.default.removeItem(at: suite.folder) }
    let recorded = try await suite.check(["--record", "missing"], recording: true)
    #expect(recorded.stdout.contains("8 cases: 0 passed, 0 failed, 8 new"), "\(recorded.stdout)\(recorded.stderr)")
    for name in Self.allCases {
      #expect(FileManager.default.fileExists(atPath: suite.refs.appendingPathComponent("\(name).inputs.json").path), "\(name)")
    }

    let unchanged = try await suite.check()
    #expect(unchanged.status == 0, "\(unchanged.stdout)\(unchanged.stderr)")
    #expect(unchanged.stdout.contains("8 cases: 8 passed (8 cached)"), "\(unchanged.stdout)")

    // Each change is a real pixel change that only one case can see; it must render and fail.
    let changes: [(name: String, file: String, old: String, new: String, reason: String)] = [
      ("plain", "docs/plain.yaml", "Plain", "Plainer", "document plain.yaml changed"),
      ("styled", "styles/app.yaml", "#000000", "#0000FF", "stylesheet ../styles/app.yaml changed"),
      ("child", "styles/base.yaml", "#000000", "#00AA00", "stylesheet ../styles/base.yaml changed"),
      ("designed", "designs/card.yaml", "#000000", "#FF0000", "design ../designs/card.yaml changed"),
      ("varied@dark", "docs/varied.yaml", "Varied", "Varied!", "document varied.yaml changed"),
    ]
    for change in changes {
      let url = suite.folder.appendingPathComponent(change.file)
      let original = try Data(contentsOf: url)
      try suite.replace(change.file, change.old, change.new)
      let run = try await suite.check()
      let (rendered, cached) = Self.outcomes(run.stdout)
      let expected: Set<String> = change.name == "varied@dark" ? ["varied@light", "varied@dark"] : [change.name]
      #expect(Set(rendered.keys) == expected, "\(change.file): \(run.stdout)")
      #expect(expected.allSatisfy { rendered[$0] == "FAILED" }, "\(change.file): \(run.stdout)")
      #expect(cached == Self.allCases.subtracting(expected), "\(change.file): \(run.stdout)")
      #expect(run.stdout.contains("  rendered: \(change.reason)"), "\(change.file): \(run.stdout)")
      #expect(run.status == 1)
      try original.write(to: url)
    }

    // An image's bytes.
    let image = suite.folder.appendingPathComponent("images/a.png")
    let imageBytes = try Data(contentsOf: image)
    try Data(Suite.solidPNG([30, 30, 200, 255])).write(to: image)
    var run = try await suite.check()
    #expect(Self.outcomes(run.stdout).rendered == ["pictured": "FAILED"], "\(run.stdout)")
    #expect(run.stdout.contains("  rendered: image ../images/a.png changed"), "\(run.stdout)")
    try imageBytes.write(to: image)

    // A brand font file: the same family, another face.
    let font = suite.folder.appendingPathComponent("fonts/brand.ttf")
    let fontBytes = try Data(contentsOf: font)
    try Data(contentsOf: URL(fileURLWithPath: "/usr/share/fonts/truetype/noto/NotoSerif-Bold.ttf")).write(to: font)
    run = try await suite.check()
    #expect(Self.outcomes(run.stdout).rendered == ["branded": "FAILED"], "\(run.stdout)")
    #expect(run.stdout.contains("  rendered: font ../fonts/brand.ttf changed"), "\(run.stdout)")
    try fontBytes.write(to: font)

    // Back as recorded, and a file touched without a change to its bytes: nothing renders.
    let stylesheet = suite.folder.appendingPathComponent("styles/app.yaml")
    try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: 3600)], ofItemAtPath: stylesheet.path)
    run = try await suite.check()
    #expect(run.stdout.contains("8 cases: 8 passed (8 cached)"), "\(run.stdout)")
  }

  @Test func settingsTheRenderCodeAndTheEnvironmentRenderEveryCaseTheyReach() async throws {
    let suite = try Suite()
    defer { try? FileManager.default.removeItem(at: suite.folder) }
    _ = try await suite.check(["--record", "missing"], recording: true)

    // A check flag that changes outcomes: --strict makes a missing glyph an error.
    var run = try await suite.check(["--strict"])
    #expect(Set(Self.outcomes(run.stdout).rendered.keys) == Self.allCases, "\(run.stdout)")
    #expect(run.stdout.contains("  rendered: settings changed (now strict)"), "\(run.stdout)")
    #expect(run.status == 0, "the renders still match: \(run.stdout)")

    // The render code: a stored digest of other drawing code renders its case.
    let inputs = suite.refs.appendingPathComponent("plain.inputs.json")
    let stored = try String(contentsOf: inputs, encoding: .utf8)
    let code = try #require(stored.range(of: #""renderCode" : "[0-9a-f]{64}""#, options: .regularExpression))
    try stored.replacingCharacters(in: code, with: #""renderCode" : "\#(String(repeating: "0", count: 64))""#)
      .write(to: inputs, atomically: true, encoding: .utf8)
    run = try await suite.check()
    #expect(Self.outcomes(run.stdout).rendered == ["plain": "PASSED"], "\(run.stdout)")
    #expect(run.stdout.contains("  rendered: render code changed"), "\(run.stdout)")

    // A reference replaced by hand (another image of the same size): the case renders and fails.
    let plain = suite.refs.appendingPathComponent("plain.png")
    try Data(contentsOf: suite.refs.appendingPathComponent("child.png")).write(to: plain)
    run = try await suite.check()
    #expect(Self.outcomes(run.stdout).rendered["plain"] == "FAILED", "\(run.stdout)")
    #expect(run.stdout.contains("reference plain.png changed"), "\(run.stdout)")
    // One taken away is said to be missing, not changed.
    try FileManager.default.removeItem(at: plain)
    run = try await suite.check()
    #expect(Self.outcomes(run.stdout).rendered["plain"] == "MISSING", "\(run.stdout)")
    #expect(run.stdout.contains("reference plain.png is missing"), "\(run.stdout)")

    // The environment fingerprint (a Noto font file's digest, here): every case renders, as
    // references of another environment are compared, never passed from the cache.
    let environment = suite.refs.appendingPathComponent("environment.json")
    let fingerprint = try String(contentsOf: environment, encoding: .utf8)
    let digest = try #require(fingerprint.range(of: #""sha256" : "[0-9a-f]{64}""#, options: .regularExpression))
    try fingerprint.replacingCharacters(in: digest, with: #""sha256" : "\#(String(repeating: "1", count: 64))""#)
      .write(to: environment, atomically: true, encoding: .utf8)
    run = try await suite.check()
    #expect(Self.outcomes(run.stdout).cached.isEmpty, "\(run.stdout)")
    #expect(run.status == 1)
  }

  /// A change of a case's inputs that changes no pixel (a space after the text) passes, and
  /// its reference's layout record is made again: kept as it was, it told that old change at
  /// every later failure of the case.
  @Test func aPassWhoseInputsChangedRefreshesItsLayoutRecord() async throws {
    let suite = try Suite()
    defer { try? FileManager.default.removeItem(at: suite.folder) }
    _ = try await suite.check(["--record", "missing"], recording: true)
    try suite.replace("docs/plain.yaml", "text: Plain }", "text: \"Plain \" }")
    let passed = try await suite.check(recording: true)
    #expect(Self.outcomes(passed.stdout).rendered["plain"] == "PASSED", "\(passed.stdout)")
    let record = try String(contentsOf: suite.refs.appendingPathComponent("plain.layout.json"), encoding: .utf8)
    #expect(record.contains("\"Plain \""), "the record tells the inputs the reference now stands for")

    try suite.replace("docs/plain.yaml", "\"Plain \"", "Plainer")
    let failed = try await suite.check()
    #expect(failed.stdout.contains("s0-r0 text \"Plain \" → \"Plainer\""), "\(failed.stdout)")

    // A pass within a tolerance is not the reference's picture: its record stays.
    let before = try String(contentsOf: suite.refs.appendingPathComponent("plain.layout.json"), encoding: .utf8)
    try suite.replace("docs/plain.yaml", "Plainer", "Plainer.")
    let tolerated = try await suite.check(["--max-diff-pixels", "100000"], recording: true)
    #expect(Self.outcomes(tolerated.stdout).rendered["plain"] == "PASSED", "\(tolerated.stdout)")
    #expect(try String(contentsOf: suite.refs.appendingPathComponent("plain.layout.json"), encoding: .utf8) == before)
    // Nor is a record written where there was none.
    try FileManager.default.removeItem(at: suite.refs.appendingPathComponent("plain.layout.json"))
    _ = try await suite.check(["--max-diff-pixels", "100000"], recording: true)
    #expect(!FileManager.default.fileExists(atPath: suite.refs.appendingPathComponent("plain.layout.json").path))
    try Data(before.utf8).write(to: suite.refs.appendingPathComponent("plain.layout.json"))
    try suite.replace("docs/plain.yaml", "Plainer.", "Plainer")

    // Under CI, where nothing is written, the record stays as it is.
    try suite.replace("docs/plain.yaml", "Plainer", "\"Plain  \"")
    _ = try await suite.check()
    #expect(try String(contentsOf: suite.refs.appendingPathComponent("plain.layout.json"), encoding: .utf8) == record)
  }

  @Test func noCacheRendersEverythingAndWritesNothing() async throws {
    let suite = try Suite()
    defer { try? FileManager.default.removeItem(at: suite.folder) }
    _ = try await CommandRunner.run(
      ["check", suite.docs.path, "--snapshots", suite.refs.path, "--record", "missing", "--no-cache"], environment: ["CI": ""])
    #expect(!FileManager.default.fileExists(atPath: suite.refs.appendingPathComponent("plain.inputs.json").path))
    let run = try await CommandRunner.run(
      ["check", suite.docs.path, "--snapshots", suite.refs.path, "--no-cache"], environment: ["CI": "true"])
    #expect(run.stdout.contains("8 cases: 8 passed,"), "\(run.stdout)")
    #expect(Self.outcomes(run.stdout).cached.isEmpty)
    let both = try await CommandRunner.run(
      ["check", suite.docs.path, "--snapshots", suite.refs.path, "--no-cache", "--explain-cache"], environment: ["CI": "true"])
    #expect(both.status == 2, "\(both.stderr)")
  }

  @Test func aHostileInputsFileCannotMakeTheCheckWaitOrPass() async throws {
    let suite = try Suite()
    defer { try? FileManager.default.removeItem(at: suite.folder) }
    _ = try await suite.check(["--record", "missing"], recording: true)
    // A committed inputs file may name any path: a FIFO would block a read forever.
    let fifo = suite.folder.appendingPathComponent("fifo")
    #expect(mkfifo(fifo.path, 0o600) == 0)
    let inputs = suite.refs.appendingPathComponent("plain.inputs.json")
    let stored = try String(contentsOf: inputs, encoding: .utf8)
    try stored.replacingOccurrences(of: #""path" : "plain.yaml""#, with: #""path" : "../fifo""#)
      .write(to: inputs, atomically: true, encoding: .utf8)
    var run = try await suite.check()
    #expect(Self.outcomes(run.stdout).rendered == ["plain": "PASSED"], "\(run.stdout)")
    #expect(run.stdout.contains("  rendered: the inputs are not of plain.yaml; document ../fifo is missing"), "\(run.stdout)")
    // Not JSON at all: the case renders.
    try "{ not json".write(to: inputs, atomically: true, encoding: .utf8)
    run = try await suite.check()
    #expect(Self.outcomes(run.stdout).rendered == ["plain": "PASSED"], "\(run.stdout)")
    #expect(run.stdout.contains("  rendered: no stored inputs"), "\(run.stdout)")
    // A FIFO where the inputs file goes is not waited on either: the case renders, and
    // outside CI, where the inputs would be written, nothing is written into it.
    try FileManager.default.removeItem(at: inputs)
    #expect(mkfifo(inputs.path, 0o600) == 0)
    run = try await suite.check()
    #expect(Self.outcomes(run.stdout).rendered == ["plain": "PASSED"], "\(run.stdout)")
    #expect(run.stdout.contains("  rendered: no stored inputs"), "\(run.stdout)")
    run = try await suite.check(recording: true)
    #expect(Self.outcomes(run.stdout).rendered == ["plain": "PASSED"], "\(run.stdout)")
    #expect(run.stderr.contains("plain.inputs.json is not a file RowKit wrote (a FIFO)"), "\(run.stderr)")
  }

  @Test func aDownloadedImageIsTrustedOnlyAsTheImageCacheHoldsIt() async throws {
    let folder = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let red = try PNG.encode(Bitmap(width: 40, height: 40, color: Color(r: 200, g: 60, b: 60)))
    let blue = try PNG.encode(Bitmap(width: 40, height: 40, color: Color(r: 60, g: 60, b: 200)))
    let server = try LoopbackHTTPServer(routes: ["/a.png": .ok(contentType: "image/png", body: red)])
    defer { server.stop() }
    let docs = folder.appendingPathComponent("docs")
    try FileManager.default.createDirectory(at: docs, withIntermediateDirectories: true)
    try "items: [{ type: image, text: Remote, imageURL: \"\(server.url("/a.png"))\" }]\n"
      .write(to: docs.appendingPathComponent("remote.yaml"), atomically: true, encoding: .utf8)
    let refs = folder.appendingPathComponent("refs").path
    let cache = folder.appendingPathComponent("http").path
    func check(_ extra: [String], ci: Bool = true) async throws -> CommandRunner.Result {
      try await CommandRunner.run(["check", docs.path, "--snapshots", refs, "--explain-cache"] + extra, environment: ["CI": ci ? "true" : ""])
    }
    let recorded = try await check(["--record", "missing", "--http-cache", cache], ci: false)
    #expect(recorded.stdout.contains("1 new"), "\(recorded.stdout)\(recorded.stderr)")
    let inputs = try String(contentsOf: folder.appendingPathComponent("refs/remote.inputs.json"), encoding: .utf8)
    #expect(inputs.contains(server.url("/a.png")), "\(inputs)")

    // The image cache holds the bytes the reference was drawn from: nothing is downloaded.
    let before = server.requests("/a.png")
    var run = try await check(["--http-cache", cache])
    #expect(run.stdout.contains("1 passed (1 cached)"), "\(run.stdout)")
    #expect(server.requests("/a.png") == before)
    // Without the image cache, a new download could differ: the case renders.
    run = try await check([])
    #expect(run.stdout.contains("  rendered: image \(server.url("/a.png")) is not in the image cache"), "\(run.stdout)")
    #expect(run.status == 0)
    // The server's image changed and the cache's copy expired: the case renders and fails.
    server.setRoute("/a.png", .ok(contentType: "image/png", body: blue))
    run = try await check(["--http-cache", cache, "--http-cache-age", "0"])
    #expect(run.stdout.contains("FAILED remote"), "\(run.stdout)")
  }

  /// A case passed from the cache is one a render would pass too: a link retargeted, an
  /// image reached through a link out of its folder, a folder the document names removed,
  /// inputs copied from another case, a reference linked out of the references, a name
  /// checked twice: each renders, and fails or errs as the render does. Found by an audit,
  /// each of these passed from the cache before.
  @Test func aCachedPassIsNeverOneARenderWouldNotGive() async throws {
    let folder = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let manager = FileManager.default
    for sub in ["docs", "styles", "assets", "other", "out"] {
      try manager.createDirectory(at: folder.appendingPathComponent(sub), withIntermediateDirectories: true)
    }
    func write(_ path: String, _ text: String) throws {
      try text.write(to: folder.appendingPathComponent(path), atomically: true, encoding: .utf8)
    }
    try write("styles/light.yaml", "extends: default\nvars: { backgroundColor: \"#FFDDDD\" }\n")
    try write("styles/dark.yaml", "extends: default\nvars: { backgroundColor: \"#2222AA\" }\n")
    try manager.createSymbolicLink(atPath: folder.appendingPathComponent("styles/current.yaml").path, withDestinationPath: "light.yaml")
    let picture = Suite.solidPNG([200, 30, 30, 255])
    try Data(picture).write(to: folder.appendingPathComponent("assets/x.png"))
    try Data(picture).write(to: folder.appendingPathComponent("other/x.png"))
    try write("docs/linked.yaml", "stylesheet: ../styles/current.yaml\nitems: [{ type: text, text: Linked }]\n")
    try write("docs/bundled.yaml", "assets: ../assets\nitems: [{ type: image, text: Bundled, imageURL: \"bundle://x.png\" }]\n")
    try write("docs/plain.yaml", "items: [{ type: text, text: Plain }]\n")
    try write("docs/varied.yaml", "variants: { width: [320] }\nitems: [{ type: text, text: Varied }]\n")
    let refs = folder.appendingPathComponent("refs")
    func check(_ extra: [String] = [], ci: Bool = true) async throws -> CommandRunner.Result {
      try await CommandRunner.run(
        ["check", "docs", "--snapshots", "refs", "--explain-cache"] + extra, in: folder, environment: ["CI": ci ? "true" : ""])
    }
    let recorded = try await check(["--record", "missing"], ci: false)
    #expect(recorded.stdout.contains("4 cases: 0 passed, 0 failed, 4 new"), "\(recorded.stdout)\(recorded.stderr)")
    #expect(try await check().stdout.contains("4 cases: 4 passed (4 cached)"))
    // The same checkout reached through a link (a home folder elsewhere) stores and finds the
    // same inputs: nothing renders, and nothing is rewritten.
    let linked = folder.deletingLastPathComponent().appendingPathComponent(folder.lastPathComponent + "-link")
    try manager.createSymbolicLink(atPath: linked.path, withDestinationPath: folder.path)
    defer { try? manager.removeItem(at: linked) }
    let throughLink = try await CommandRunner.run(
      ["check", linked.appendingPathComponent("docs").path, "--snapshots", linked.appendingPathComponent("refs").path, "--explain-cache"],
      environment: ["CI": ""])
    #expect(throughLink.stdout.contains("4 cases: 4 passed (4 cached)"), "\(throughLink.stdout)\(throughLink.stderr)")

    // The stylesheet's link retargeted: the same path, another file.
    let link = folder.appendingPathComponent("styles/current.yaml").path
    try manager.removeItem(atPath: link)
    try manager.createSymbolicLink(atPath: link, withDestinationPath: "dark.yaml")
    var run = try await check()
    #expect(Self.outcomes(run.stdout).rendered == ["linked": "FAILED"], "\(run.stdout)")
    #expect(run.stdout.contains("  rendered: stylesheet ../styles/current.yaml leads elsewhere through its links"), "\(run.stdout)")
    try manager.removeItem(atPath: link)
    try manager.createSymbolicLink(atPath: link, withDestinationPath: "light.yaml")

    // The image replaced by a link to the same bytes out of the assets folder: refused.
    let image = folder.appendingPathComponent("assets/x.png")
    try manager.removeItem(at: image)
    try manager.createSymbolicLink(atPath: image.path, withDestinationPath: "../other/x.png")
    run = try await check()
    #expect(Self.outcomes(run.stdout).rendered == ["bundled": "ERROR"], "\(run.stdout)")
    #expect(run.status == 2 && run.stderr.contains("escapes the assets folder through a symbolic link"), "\(run.stderr)")
    try manager.removeItem(at: image)
    try Data(picture).write(to: image)

    // The assets folder gone: the document no longer loads.
    try manager.moveItem(at: folder.appendingPathComponent("assets"), to: folder.appendingPathComponent("assets-away"))
    run = try await check()
    #expect(Self.outcomes(run.stdout).rendered == ["bundled": "ERROR"], "\(run.stdout)")
    #expect(run.stderr.contains("does not exist"), "\(run.stderr)")
    try manager.moveItem(at: folder.appendingPathComponent("assets-away"), to: folder.appendingPathComponent("assets"))

    // Another case's reference and inputs copied beside a new document prove nothing of it.
    try write("docs/copy.yaml", "items: [{ type: text, text: Goodbye }]\n")
    for suffix in [".png", ".layout.json", ".inputs.json"] {
      try manager.copyItem(at: refs.appendingPathComponent("plain" + suffix), to: refs.appendingPathComponent("copy" + suffix))
    }
    run = try await check()
    #expect(Self.outcomes(run.stdout).rendered == ["copy": "FAILED"], "\(run.stdout)")
    #expect(run.stdout.contains("  rendered: the inputs are not of copy.yaml"), "\(run.stdout)")
    try manager.removeItem(at: folder.appendingPathComponent("docs/copy.yaml"))
    for suffix in [".png", ".layout.json", ".inputs.json"] { try manager.removeItem(at: refs.appendingPathComponent("copy" + suffix)) }

    // A reference moved out of the references and linked back: refused, never copied out.
    try manager.moveItem(at: refs.appendingPathComponent("plain.png"), to: folder.appendingPathComponent("out/plain.png"))
    try manager.createSymbolicLink(atPath: refs.appendingPathComponent("plain.png").path, withDestinationPath: "../out/plain.png")
    run = try await check()
    #expect(Self.outcomes(run.stdout).rendered == ["plain": "ERROR"], "\(run.stdout)")
    #expect(run.stderr.contains("leads out of the references folder"), "\(run.stderr)")
    try manager.removeItem(at: refs.appendingPathComponent("plain.png"))
    try manager.moveItem(at: folder.appendingPathComponent("out/plain.png"), to: refs.appendingPathComponent("plain.png"))

    // A document named as a variant of another: the name is checked twice, cached or not.
    try write("docs/varied@320pt.yaml", "items: [{ type: text, text: Varied }]\n")
    run = try await check()
    #expect(run.status == 2 && run.stderr.contains("is checked twice in one run"), "\(run.stdout)\(run.stderr)")
    try manager.removeItem(at: folder.appendingPathComponent("docs/varied@320pt.yaml"))

    // Re-recording everything renders everything: nothing passes from the cache.
    run = try await check(["--record", "all"], ci: false)
    #expect(Self.outcomes(run.stdout).cached.isEmpty && run.status == 0, "\(run.stdout)")
    #expect(try await check().stdout.contains("4 cases: 4 passed (4 cached)"))
  }

  /// A stylesheet that extends `../base.yaml` from a folder reached through a link reads the
  /// file the link's folder holds, and the inputs name that file: a change to it renders the
  /// case. The inputs named `Styles/base.yaml`, a file never read, and the change passed.
  @Test func aStylesheetExtendedThroughALinkedFolderIsTheFileTheInputsName() async throws {
    let folder = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let manager = FileManager.default
    func write(_ path: String, _ text: String) throws {
      let url = folder.appendingPathComponent(path)
      try manager.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try text.write(to: url, atomically: true, encoding: .utf8)
    }
    try write("vendor/theme/base.yaml", "vars: { textColor: \"#C00000\" }\n")
    try write("vendor/theme/v2/app.yaml", "extends: ../base.yaml\n")
    try manager.createDirectory(at: folder.appendingPathComponent("Styles"), withIntermediateDirectories: true)
    try manager.createSymbolicLink(atPath: folder.appendingPathComponent("Styles/current").path, withDestinationPath: "../vendor/theme/v2")
    try write("docs/themed.yaml", "stylesheet: ../Styles/current/app.yaml\nitems: [{ type: text, text: Themed }]\n")
    func check(ci: Bool) async throws -> CommandRunner.Result {
      try await CommandRunner.run(
        ["check", "docs", "--snapshots", "refs", "--explain-cache"], in: folder, environment: ["CI": ci ? "true" : ""])
    }
    let recorded = try await check(ci: false)
    #expect(recorded.stdout.contains("1 new"), "\(recorded.stdout)\(recorded.stderr)")
    let inputs = try String(contentsOf: folder.appendingPathComponent("refs/themed.inputs.json"), encoding: .utf8)
    #expect(inputs.contains("vendor/theme/base.yaml") && !inputs.contains("Styles/base.yaml"), "\(inputs)")
    #expect(try await check(ci: true).stdout.contains("1 passed (1 cached)"))
    try write("vendor/theme/base.yaml", "vars: { textColor: \"#0000C0\" }\n")
    let changed = try await check(ci: true)
    #expect(Self.outcomes(changed.stdout).rendered == ["themed": "FAILED"], "\(changed.stdout)")
    #expect(changed.stdout.contains("base.yaml changed"), "\(changed.stdout)")
  }

  /// A clone of the project in another place passes from the cache too: paths in the
  /// settings (`--fonts` here) are stored relative to the checked folder, as the files are.
  @Test func aCloneElsewhereIsPassedFromTheCache() async throws {
    let suite = try Suite()
    defer { try? FileManager.default.removeItem(at: suite.folder) }
    let clone = suite.folder.deletingLastPathComponent().appendingPathComponent(suite.folder.lastPathComponent + "-clone")
    defer { try? FileManager.default.removeItem(at: clone) }
    func check(in folder: URL, ci: Bool) async throws -> CommandRunner.Result {
      try await CommandRunner.run(
        ["check", "docs", "--snapshots", "refs", "--fonts", "fonts", "--explain-cache"], in: folder,
        environment: ["CI": ci ? "true" : ""])
    }
    let recorded = try await check(in: suite.folder, ci: false)
    #expect(recorded.stdout.contains("8 new"), "\(recorded.stdout)\(recorded.stderr)")
    try FileManager.default.copyItem(at: suite.folder, to: clone)
    let cloned = try await check(in: clone, ci: true)
    #expect(cloned.stdout.contains("8 cases: 8 passed (8 cached)"), "\(cloned.stdout)\(cloned.stderr)")
  }

  /// A table longer than a check keeps a layout record of passes from the cache (it used
  /// to render every time, waiting for a record it never gets); and a cached case whose
  /// reference lost its record is counted in the note that says so, as a rendered one is.
  @Test func layoutRecordsAndTheCache() async throws {
    let folder = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let docs = folder.appendingPathComponent("docs")
    try FileManager.default.createDirectory(at: docs, withIntermediateDirectories: true)
    let rows = (0...2_000).map { "  - { type: text, text: Row \($0) }" }.joined(separator: "\n")
    try "table: { width: 200, scale: 1 }\nitems:\n\(rows)\n".write(to: docs.appendingPathComponent("long.yaml"), atomically: true, encoding: .utf8)
    try "items: [{ type: text, text: Short }]\n".write(to: docs.appendingPathComponent("short.yaml"), atomically: true, encoding: .utf8)
    func check(ci: Bool) async throws -> CommandRunner.Result {
      try await CommandRunner.run(["check", "docs", "--snapshots", "refs", "--explain-cache"], in: folder, environment: ["CI": ci ? "true" : ""])
    }
    let recorded = try await check(ci: false)
    #expect(recorded.stdout.contains("2 new"), "\(recorded.stdout)\(recorded.stderr)")
    let refs = folder.appendingPathComponent("refs")
    #expect(!FileManager.default.fileExists(atPath: refs.appendingPathComponent("long.layout.json").path))
    let local = try await check(ci: false)
    #expect(local.stdout.contains("2 cases: 2 passed (2 cached)"), "\(local.stdout)")
    try FileManager.default.removeItem(at: refs.appendingPathComponent("short.layout.json"))
    let ci = try await check(ci: true)
    #expect(ci.stdout.contains("2 cases: 2 passed (2 cached)"), "\(ci.stdout)")
    #expect(ci.stderr.contains("1 reference has no layout record"), "\(ci.stderr)")
  }

  /// A render whose image failed (a server that never answers, past the deadline) keeps no
  /// inputs: the failure is no outcome of the inputs, and must not pass from the cache.
  @Test func aRenderWithAFailedImageKeepsNoInputs() async throws {
    let folder = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let server = try LoopbackHTTPServer(routes: ["/hang/*": .hang])
    defer { server.stop() }
    let docs = folder.appendingPathComponent("docs")
    try FileManager.default.createDirectory(at: docs, withIntermediateDirectories: true)
    try "lint: { off: [imageFailed] }\nitems: [{ type: image, text: Remote, imageURL: \"\(server.url("/hang/a.png"))\" }]\n"
      .write(to: docs.appendingPathComponent("remote.yaml"), atomically: true, encoding: .utf8)
    let run = try await CommandRunner.run(
      ["check", "docs", "--snapshots", "refs", "--record", "missing", "--deadline", "0.2", "--lint-off", "imageFailed"], in: folder,
      environment: ["CI": ""])
    #expect(run.stdout.contains("NEW remote"), "\(run.stdout)\(run.stderr)")
    #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("refs/remote.inputs.json").path))
  }
}
