import Foundation
import RowKitGraphics
import RowKitTestSupport
import Testing

@testable import RowKit

/// The structural bad-input fixtures of `Tests/Fixtures/bad-input`: each decoder refuses each
/// of its fixtures, naming the fixture, the key path `cases.json` gives and the expected text.
/// `scripts/check-schemas.py` (run by `scripts/test.sh`) checks that the JSON Schemas refuse
/// the same files, so the decoders and the schemas cannot drift apart.
@Suite struct BadInputFixtureTests {
  let families = ["Inter"]

  @Test(arguments: BadInputFixture.all)
  func theDecoderRefusesEachFixture(_ fixture: BadInputFixture) throws {
    do {
      switch fixture.schema {
      case .tableDocument: _ = try TableDocument.load(fixture.url, fontFamilies: families)
      case .stylesheet: _ = try Stylesheet.load(contentsOf: fixture.url, fontFamilies: families)
      case .cellDesign: _ = try DesignTemplate.load(contentsOf: fixture.url, fontFamilies: families)
      }
      Issue.record("\(fixture.file) loaded")
    } catch let error as DocumentError {
      #expect(error.file.hasSuffix(fixture.file), "\(error)")
      #expect(error.line > 0, "\(error)")
      #expect(error.keyPath == fixture.keyPath, "\(error)")
      for text in fixture.expect {
        #expect(error.description.contains(text), "'\(text)' missing from: \(error)")
      }
    }
  }

  @Test func everyFixtureIsListedOnce() throws {
    let listed = BadInputFixture.all.map(\.file)
    #expect(Set(listed).count == listed.count, "a fixture is listed twice")
    let folder = BadInputFixture.folder
    var onDisk: [String] = []
    for kind in try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() where kind != "cases.json" {
      for name in try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent(kind).path) {
        onDisk.append("\(kind)/\(name)")
      }
    }
    #expect(Set(onDisk) == Set(listed))
    #expect(BadInputFixture.all(.tableDocument).count > 0 && BadInputFixture.all(.stylesheet).count > 0)
    #expect(BadInputFixture.all(.cellDesign).count > 0)
  }
}
