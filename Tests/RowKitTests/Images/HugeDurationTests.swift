import Foundation
import Testing

@testable import RowKit

/// Issue 24, item 6: numbers of seconds from a configuration are never converted in a way
/// that traps (`--deadline 1e19` with a remote image stopped the program).
@Suite struct HugeDurationTests {
  @Test func anyNumberOfSecondsIsNamed() {
    #expect(ImagePipeline.seconds(30) == "30 s")
    #expect(ImagePipeline.seconds(0.5) == "0.5 s")
    #expect(ImagePipeline.seconds(1e19) == "1e+19 s")
    #expect(ImagePipeline.seconds(.infinity) == "inf s")
  }

  /// A sleep toward a deadline centuries away starts, and ends when its task is cancelled.
  @Test func aSleepTowardAFarDeadlineCanBeCancelled() async {
    let clock = ContinuousImageClock()
    let sleeper = Task { try await clock.sleep(until: 1e30) }
    sleeper.cancel()
    let result = await sleeper.result
    #expect(throws: CancellationError.self) { try result.get() }
  }
}
