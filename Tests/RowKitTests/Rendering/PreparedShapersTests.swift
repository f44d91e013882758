import Foundation
import RowKitGraphics
import RowKitTestSupport
import Testing

@testable import RowKit

/// `RenderPool.prepare`: the workers make their shapers ahead of the render, one after the
/// other (as the CLI has them do while it decodes the document), and the render then uses
/// those shapers.
@Suite struct PreparedShapersTests {
  @Test func everyWorkerMakesItsShaperAheadAndTheRenderUsesIt() async throws {
    let pool = RenderPool(workers: 2)
    pool.prepare(.standard)
    // A worker runs its jobs in order, and the first worker queues the second's preparation
    // before its own job ends: these counts are read after both prepared shapers.
    #expect(try await pool.shaperCount() == 2)
    #expect(try await pool.shapeCount() == 0, "made, not yet used")
    let document = try TableDocument.load(
      TestSupport.assets.appendingPathComponent("Samples/features.yaml"),
      fontFamilies: TextEnvironment.standard.fontSet().families)
    #expect(document.textEnvironment == .standard)
    let rendered = try await document.render(with: document.makeRenderer(pool: pool))
    #expect(rendered.labelsShaped > 0)
    #expect(try await pool.shaperCount() == 2, "the render made no shaper of its own")
    // Preparing again finds the shapers made.
    pool.prepare(.standard)
    #expect(try await pool.shaperCount() == 2)
  }

  @Test func aPreparationThatFailsLeavesTheFailureToTheRender() async throws {
    var missing = TextEnvironment.standard
    missing.fontFiles.append(.init(path: "/nonexistent/Brand.otf", debianPackage: nil))
    let pool = RenderPool(workers: 2)
    pool.prepare(missing)
    #expect(try await pool.shaperCount() == 0)
    // The workers go on with the next jobs.
    #expect(try await pool.run { 41 + 1 } == 42)
    let document = try TableDocument.load(
      TestSupport.assets.appendingPathComponent("Samples/features.yaml"),
      fontFamilies: TextEnvironment.standard.fontSet().families)
    _ = try await document.render(with: document.makeRenderer(pool: pool))
    #expect(try await pool.shaperCount() == 2)
  }
}
