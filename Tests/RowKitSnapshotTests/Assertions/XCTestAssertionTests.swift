import RowKit
import RowKitGraphics
import RowKitSnapshot
import RowKitTestSupport
import XCTest

/// The same assertion from XCTest, which reports through XCTFail.
final class XCTestAssertionTests: XCTestCase {
  func testAMatchingSnapshotPassesUnderXCTest() async throws {
    let folder = try TestSupport.temporaryDirectory()
    let image = try CraftedImages.card()
    let first = ReferenceStore(root: folder, processEnvironment: [:])
    guard case .recorded = first.check(image, suite: "X", name: "card") else {
      return XCTFail("the reference was not recorded")
    }
    let second = ReferenceStore(root: folder, processEnvironment: [:])
    XCTAssertTrue(assertSnapshot(of: image, named: "card", suite: "X", store: second).passed)
  }

  func testRenderedRowsAreDeterministicUnderXCTest() async throws {
    let row = try await SnapshotRendering.row(RowKit.TextItem(text: "From XCTest"))
    XCTAssertEqual(row.width, 750)
  }
}
