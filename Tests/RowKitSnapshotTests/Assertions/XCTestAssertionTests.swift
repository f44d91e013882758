import RowKit
import RowKitGraphics
import RowKitSnapshot
import RowKitSnapshotAssertions
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
    let outcome = await assertSnapshot(of: image, as: .image, named: "card", suite: "X", store: second)
    XCTAssertTrue(outcome.passed)
  }

  /// A row rendered for a snapshot is the row's own height at scale 2, the same pixels each
  /// time, and checks against the reference it recorded. (The failing path reports through
  /// XCTFail, which swift-corelibs-xctest cannot expect, so AssertSnapshotTests covers it
  /// under Swift Testing.)
  func testRenderedRowsAreDeterministicUnderXCTest() async throws {
    let item = RowKit.TextItem(text: "From XCTest")
    let row = try await ImageSnapshotting<RowKit.TextItem>.row().render(item)
    XCTAssertEqual(row.width, 750)
    XCTAssertEqual(row.height, 88, "a 44-point text row at scale 2")
    let again = try await ImageSnapshotting<RowKit.TextItem>.row().render(item)
    XCTAssertEqual(row, again)
    let folder = try TestSupport.temporaryDirectory()
    guard case .recorded = ReferenceStore(root: folder, processEnvironment: [:]).check(row, suite: "X", name: "row") else {
      return XCTFail("the reference was not recorded")
    }
    let outcome = await assertSnapshot(
      of: item, as: .row(), named: "row", suite: "X", store: ReferenceStore(root: folder, processEnvironment: [:]))
    XCTAssertTrue(outcome.passed)
  }
}
