import Foundation

/// One bad-input fixture of `Tests/Fixtures/bad-input` (listed in its `cases.json`): a table
/// document, a stylesheet or a cell design file that a decoder refuses for a structural reason
/// (an unknown key, a value of the wrong type, a missing required key, a bad enum value, a
/// number out of bounds). The Swift tests check that the decoder refuses each one where
/// `keyPath` says; `scripts/check-schemas.py` checks that the JSON Schema refuses it too.
public struct BadInputFixture: Decodable, Sendable, CustomStringConvertible {
  public enum Kind: String, Decodable, Sendable {
    case tableDocument = "table-document"
    case stylesheet
    case cellDesign = "cell-design"
  }

  /// The file's path under `Tests/Fixtures/bad-input`.
  public var file: String
  /// The schema it is checked against, and so which decoder reads it.
  public var schema: Kind
  /// Which kind of structural mistake it is.
  public var why: String
  /// The key path the decoder's error names (empty: the whole file).
  public var keyPath: String
  /// Text the decoder's one-line error must contain.
  public var expect: [String]
  /// Why the schema cannot refuse it, for the few it cannot judge.
  public var schemaCannotTell: String?

  public var url: URL { BadInputFixture.folder.appendingPathComponent(file) }
  public var description: String { file }

  public static var folder: URL { TestSupport.repositoryRoot.appendingPathComponent("Tests/Fixtures/bad-input") }

  /// Every fixture `cases.json` lists.
  public static let all: [BadInputFixture] = {
    let url = folder.appendingPathComponent("cases.json")
    do {
      return try JSONDecoder().decode([BadInputFixture].self, from: Data(contentsOf: url))
    } catch {
      fatalError("cannot read \(url.path): \(error)")
    }
  }()

  public static func all(_ kind: Kind) -> [BadInputFixture] { all.filter { $0.schema == kind } }
}
