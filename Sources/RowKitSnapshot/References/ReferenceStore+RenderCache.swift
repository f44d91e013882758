import Foundation
import RowKit
import RowKitGraphics

extension ReferenceStore {
  /// The render cache's file beside the reference for `suite`/`name` (``CaseInputs``).
  public func inputsURL(suite: String, name: String) throws -> URL {
    CaseInputs.url(besidePNG: try referenceURL(suite: suite, name: name))
  }

  /// The inputs stored beside the reference, or nil: none, unreadable, of another version,
  /// or reached through a link out of the references (then the case simply renders).
  func storedInputs(suite: String, name: String) -> CaseInputs? {
    guard let url = try? confined(inputsURL(suite: suite, name: name)),
      let data = FileManager.default.contents(atPath: url.path)
    else { return nil }
    return CaseInputs.decode([UInt8](data))
  }

  /// Writes `inputs` atomically beside the reference, never through a link out of the references.
  func writeInputs(_ inputs: CaseInputs, suite: String, name: String) throws {
    let url = try confined(inputsURL(suite: suite, name: name))
    try OutputWriter.createFolder(url.deletingLastPathComponent())
    try OutputWriter.write(inputs.jsonBytes(), to: url)
  }
}
