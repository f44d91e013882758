import Foundation

/// Seconds `body` takes, on the monotonic clock.
func seconds(_ body: () async throws -> Void) async rethrows -> Double {
  let start = DispatchTime.now().uptimeNanoseconds
  try await body()
  return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

/// The process's peak resident memory so far.
func peakMemoryMB() -> Double {
  var usage = rusage()
  getrusage(RUSAGE_SELF.rawValue, &usage)
  return Double(usage.ru_maxrss) / 1024
}

/// One line: rate per second at the best run, with the best and median times.
func printRate(_ label: String, _ times: [Double], count: Int, unit: String) {
  let best = times.min()!
  let median = times.sorted()[times.count / 2]
  print(String(
    format: "%@ %7.0f %@/s  (best %.3f s, median %.3f s for %d %@, %d runs)",
    label, Double(count) / best, unit, best, median, count, unit, times.count))
}

/// Warns when the figures come from a debug build.
func warnIfDebug() {
  #if DEBUG
    print("warning: a debug build; run `swift run -c release rowkit-bench` for real figures")
  #endif
}
