import Foundation
import RowKitTestSupport
import Testing

/// The fonts' cache folder (`$XDG_CACHE_HOME/rowkit`) as the machine may give it: whatever it
/// is, a render draws the same pixels and says nothing of fontconfig's.
@Suite struct FontCacheFolderTests {
  @Test func aCacheFolderFontconfigCannotUseChangesNothing() async throws {
    let folder = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let document = folder.appendingPathComponent("t.yaml")
    try "items: [{ type: text, text: Hello }]\n".write(to: document, atomically: true, encoding: .utf8)
    let sysroot = folder.appendingPathComponent("sysroot")
    try FileManager.default.createDirectory(at: sysroot, withIntermediateDirectories: true)
    // A home of the test's own: a cache folder refused must not move into the real one.
    let home = folder.appendingPathComponent("home").path
    let settings: [[String: String]] = [
      ["XDG_CACHE_HOME": folder.appendingPathComponent("plain").path, "HOME": home],
      // fontconfig reads the folder's name in an XML configuration, where a control character
      // cannot be written: it printed "not well-formed" twice at every run.
      ["XDG_CACHE_HOME": folder.appendingPathComponent("c\u{01}x").path, "HOME": home],
      // fontconfig looked for the folder of links under the system root, found no font in it,
      // and every command failed naming Inter as "not a font file fontconfig can read".
      ["XDG_CACHE_HOME": folder.appendingPathComponent("rooted").path, "FONTCONFIG_SYSROOT": sysroot.path, "HOME": home],
    ]
    var images: [Data] = []
    for (index, environment) in settings.enumerated() {
      let png = folder.appendingPathComponent("\(index).png")
      let run = try await CommandRunner.run(["render", document.path, "-o", png.path], environment: environment)
      #expect(run.status == 0 && run.stderr.isEmpty, "\(environment): \(run.stderr)")
      images.append(try Data(contentsOf: png))
    }
    #expect(images[1] == images[0] && images[2] == images[0])
    // The folder refused is no cache at all, not the home's.
    #expect(!FileManager.default.fileExists(atPath: home), "a refused XDG_CACHE_HOME moved the cache into HOME")
  }
}
