import Foundation
import RowKit
import RowKitGraphics
import RowKitTestSupport
import Testing

@testable import RowKitSnapshot
import RowKitSnapshotAssertions

@Suite struct AssertSnapshotTests {
  @Test func aMismatchRecordsAnIssueWithTheNumbers() throws {
    let folder = try TestSupport.temporaryDirectory()
    let image = try CraftedImages.card()
    let store = ReferenceStore(root: folder, artifactsRoot: folder.appendingPathComponent("artifacts"), processEnvironment: [:])
    withKnownIssue {
      assertSnapshot(of: image, named: "card", suite: "S", store: store)
    } matching: { issue in
      issue.description.contains("recorded")
    }
    let again = ReferenceStore(root: folder, artifactsRoot: folder.appendingPathComponent("artifacts"), processEnvironment: [:])
    #expect(assertSnapshot(of: image, named: "card", suite: "S", store: again).passed)
    let third = ReferenceStore(root: folder, artifactsRoot: folder.appendingPathComponent("artifacts"), processEnvironment: [:])
    withKnownIssue {
      assertSnapshot(of: CraftedImages.painting(image, [(1, 1)], .black), named: "card", suite: "S", store: third)
    } matching: { issue in
      issue.description.contains("1 of 3072 pixels differ")
    }
  }

  @Test func renderingIsCheckedTwiceForDeterminism() async throws {
    nonisolated(unsafe) var calls = 0
    await #expect(throws: SnapshotError.self) {
      _ = try await SnapshotRendering.twice {
        calls += 1
        return Bitmap(width: 2, height: 2, color: calls == 1 ? .white : .black)
      }
    }
    #expect(calls == 2)
    let table = ListDataSource(items: [TextItem(text: "Deterministic"), SubtitleItem(text: "Twice", subtitle: "the same")])
    let image = try await SnapshotRendering.table(table)
    #expect(image.width == 750)
    let row = try await SnapshotRendering.row(TextItem(text: "One row"))
    #expect(row.height == 88)
  }
}
