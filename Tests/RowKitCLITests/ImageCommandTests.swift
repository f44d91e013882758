import Foundation
import RowKitGraphics
import RowKitTestSupport
import Testing

/// `rowkit render` loading images over HTTP from a server on loopback, and from the
/// documents:// and cache:// folders.
@Suite struct ImageCommandTests {
  static let png = try! PNG.encode(Bitmap(width: 40, height: 40, color: Color(r: 200, g: 60, b: 60)))

  func server() throws -> LoopbackHTTPServer {
    try LoopbackHTTPServer(routes: [
      "/a.png": .ok(contentType: "image/png", body: Self.png),
      "/missing.png": .status(404),
      "/slow.png": .delayed(60, contentType: "image/png", body: Self.png),
      "/hang/*": .hang,
    ])
  }

  /// A document of image rows, one per URL, with a default image from the assets.
  func document(_ urls: [String], in folder: URL, extra: String = "") throws -> URL {
    let items = urls.map { "  - { type: image, text: \"\($0)\", imageURL: \"\($0)\", defaultImage: bundle://images/placeholder.png }" }
    let url = folder.appendingPathComponent("table.yaml")
    try Data("assets: \(TestSupport.assets.path)\n\(extra)items:\n\(items.joined(separator: "\n"))\n".utf8).write(to: url)
    return url
  }

  func manifestImages(_ url: URL) throws -> [[String: Any]] {
    let manifest = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as! [String: Any]
    return (manifest["rows"] as! [[String: Any]]).map { ($0["images"] as! [[String: Any]])[0] }
  }

  @Test func renderReportsEveryImageStateInTheManifest() async throws {
    let server = try server()
    defer { server.stop() }
    let folder = try TestSupport.temporaryDirectory()
    let documents = folder.appendingPathComponent("Documents")
    try FileManager.default.createDirectory(at: documents, withIntermediateDirectories: true)
    try Data(Self.png).write(to: documents.appendingPathComponent("saved.png"))
    let table = try document(
      [server.url("/a.png"), server.url("/missing.png"), server.url("/slow.png"), "documents://saved.png", "cache://gone.png"],
      in: folder, extra: "cache: .\n")
    let manifest = folder.appendingPathComponent("table.json")
    let result = try await CommandRunner.run([
      "render", table.path, "-o", folder.appendingPathComponent("table.png").path, "--manifest", manifest.path,
      "--timeout", "2", "--documents-dir", documents.path,
    ])
    #expect(result.status == 0, "\(result.stderr)")
    // The slow image would take a minute; its reason shows that --timeout 2 ended it.
    let images = try manifestImages(manifest)
    #expect(images.map { $0["state"] as? String } == ["loaded", "failed", "failed", "loaded", "failed"])
    #expect((images[1]["reason"] as? String)?.contains("HTTP 404") == true)
    #expect((images[2]["reason"] as? String)?.contains("no answer within 2 s") == true)
    #expect((images[4]["reason"] as? String)?.contains("no readable file") == true)
    #expect(images[0]["imageSize"] as? [Int] == [40, 40])
    #expect(server.requests("/a.png") == 1)
  }

  @Test func placeholdersNeverTouchTheNetwork() async throws {
    let server = try server()
    defer { server.stop() }
    let folder = try TestSupport.temporaryDirectory()
    let table = try document([server.url("/a.png"), server.url("/missing.png")], in: folder)
    let manifest = folder.appendingPathComponent("table.json")
    let result = try await CommandRunner.run(["render", table.path, "--manifest", manifest.path, "--placeholders"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(try manifestImages(manifest).allSatisfy { $0["state"] as? String == "default" && $0["imageSize"] != nil })
    #expect(server.totalRequests == 0)
  }

  /// Issue 25: without a loadable libcurl a remote image fails like any other, with a reason
  /// naming the library tried, and the render goes on with the default image.
  @Test func aMissingLibcurlFailsTheRemoteImageWithTheLibraryTried() async throws {
    let server = try server()
    defer { server.stop() }
    let folder = try TestSupport.temporaryDirectory()
    let table = try document([server.url("/a.png")], in: folder)
    let manifest = folder.appendingPathComponent("table.json")
    let result = try await CommandRunner.run(
      ["render", table.path, "-o", folder.appendingPathComponent("table.png").path, "--manifest", manifest.path],
      environment: ["ROWKIT_LIBCURL": "libcurl-absent.so.9"])
    #expect(result.status == 0, "\(result.stderr)")
    let image = try manifestImages(manifest)[0]
    #expect(image["state"] as? String == "failed")
    let reason = image["reason"] as? String ?? ""
    #expect(reason.contains("cannot load libcurl"), "\(reason)")
    #expect(reason.contains("libcurl-absent.so.9: "), "\(reason)")
    #expect(reason.contains("ROWKIT_LIBCURL"), "\(reason)")
    #expect(result.stderr.contains("libcurl-absent.so.9"), "the warning names the library: \(result.stderr)")
    #expect(server.totalRequests == 0)
  }

  @Test func theHTTPCacheServesASecondRun() async throws {
    let server = try server()
    defer { server.stop() }
    let folder = try TestSupport.temporaryDirectory()
    let table = try document([server.url("/a.png")], in: folder)
    let cache = folder.appendingPathComponent("http-cache")
    for _ in 0..<2 {
      let result = try await CommandRunner.run([
        "render", table.path, "--manifest", folder.appendingPathComponent("m.json").path, "--http-cache", cache.path,
      ])
      #expect(result.status == 0, "\(result.stderr)")
      #expect(try manifestImages(folder.appendingPathComponent("m.json"))[0]["state"] as? String == "loaded")
    }
    #expect(server.requests("/a.png") == 1, "the second run asked the server again")
    let noCache = try await CommandRunner.run(["render", table.path, "--manifest", folder.appendingPathComponent("m.json").path])
    #expect(noCache.status == 0)
    #expect(server.requests("/a.png") == 2)
  }

  @Test func aThousandImagesFromAServerThatNeverAnswersEndAtTheDeadline() async throws {
    let server = try server()
    defer { server.stop() }
    let folder = try TestSupport.temporaryDirectory()
    let table = try document((0..<1000).map { server.url("/hang/\($0)") }, in: folder)
    let manifest = folder.appendingPathComponent("table.json")
    let output = folder.appendingPathComponent("table.png")
    let result = try await CommandRunner.run(["render", table.path, "-o", output.path, "--manifest", manifest.path, "--deadline", "3"])
    let elapsed = result.seconds
    #expect(result.status == 0, "\(result.stderr)")
    // The render waited for its deadline; every image's reason below shows that the deadline,
    // not a request timeout, ended it. (The render loads its rows in four chunks;
    // ImagePipelineTests shows the deadline is the whole render's, not a chunk's.)
    #expect(elapsed >= 3, "rowkit render took \(elapsed) s against a 3 s deadline")
    let images = try manifestImages(manifest)
    #expect(images.count == 1000)
    #expect(images.allSatisfy {
      $0["state"] as? String == "failed" && $0["reason"] as? String == "not loaded within the render's 3 s deadline"
    })
    #expect(try PNG.header([UInt8](Data(contentsOf: output))).height > 32767, "one PNG, taller than a Cairo surface")
  }
}
