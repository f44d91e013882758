import Foundation
import RowKit
import RowKitGraphics

extension SnapshotCheck {
  /// Processes of RowKit's own that check a share of a suite's cases beside the process that
  /// runs the check: `rowkit check --jobs N` starts N − 1 of them.
  ///
  /// Every text call of a process goes through one lock (Cairo 1.16's font caches are not safe
  /// from two threads at once; see Contributing.md), so two render workers of one process take
  /// turns at text and check a suite about 1.4 times as fast as one. Each process has a lock of
  /// its own: processes side by side keep every core busy.
  ///
  /// A helper is the same program with the same command line and
  /// ``init(count:executable:arguments:note:)``'s `arguments` that make it a helper: it calls
  /// ``SnapshotCheck/serveAsHelper(_:)``. The helpers start as soon as the check knows it has
  /// cases for them (`rowkit check` starts none for a single case), so that they load their
  /// fonts while the check builds itself and renders its first cases; each starts with no
  /// signal blocked, waits for the first line of its standard input, where the check sends
  /// what it worked out (the staged report folder, the environment decision, the render
  /// cache's environment), and only then builds the same check from its command line. It then
  /// reads one case per line and writes each case's result as one line of JSON to its
  /// standard output; its standard error is the check's. Cases go one at a time to whichever
  /// process is free, a helper's first once it says it is ready, and results keep the suite's
  /// order: the output, the report and every file written are the same as from one process.
  ///
  /// A helper that cannot start, or that stops before its cases are done (a crash, a signal,
  /// a line that is not a result), is reported through the `note` it was given, and its
  /// unfinished cases are checked in this process.
  package final class HelperProcesses: Sendable {
    let helpers: [CheckHelper]

    /// Starts `count` helpers running `executable` with `arguments`; `note` hears of any that
    /// fail. A helper that is never given cases ends when this object does, or at ``finish()``.
    public init(count: Int, executable: URL, arguments: [String], note: @escaping @Sendable (String) -> Void) {
      // A write to a helper that has died must fail with EPIPE, not end the check: every
      // write in RowKit handles a failure (the check's own output says so and exits 2).
      signal(SIGPIPE, SIG_IGN)
      helpers = (0..<max(0, count)).map { _ in CheckHelper(executable: executable, arguments: arguments, note: note) }
    }

    deinit {
      finish()
    }

    /// Ends every helper of the process at once, whatever it is doing, and waits until each
    /// has exited (2 s at most): for a check stopped by a signal, whose helpers would
    /// otherwise finish the cases they hold, writing into a report the check no longer makes.
    /// It may wait, so it is called off Swift's cooperative threads.
    package static func stopEveryHelper() {
      let running = CheckHelper.running.withLock { $0.values.compactMap(\.helper) }
      for helper in running { helper.terminate() }
      for _ in 0..<2000 where running.contains(where: { !$0.hasExited }) { usleep(1000) }
    }

    /// Ends every helper that has no case to finish: each reads the end of its input and exits.
    public func finish() {
      helpers.forEach { $0.finish() }
    }

    /// Ends every helper and waits until each has exited, so that the check's own exit leaves
    /// no process behind and its processor time counts theirs.
    public func finishAndWait() async {
      finish()
      for helper in helpers { await helper.exited() }
    }

    /// Tells the helpers a run of `caseCount` cases needs (one fewer than the cases, at most)
    /// its `setup`, ends the others, and returns those it told.
    func begin(_ setup: HelperSetup, caseCount: Int) -> [CheckHelper] {
      let setupLine = try? HelperMessages.line(setup)
      let used = setupLine == nil ? 0 : min(helpers.count, caseCount - 1)
      for helper in helpers.dropFirst(max(0, used)) { helper.finish() }
      guard let setupLine, used > 0 else { return [] }
      let begun = Array(helpers.prefix(used))
      for helper in begun { helper.begin(setup: setupLine) }
      return begun
    }
  }

  /// Serves as a helper process (`HelperProcesses`): reads the check's setup from standard
  /// input, builds the check with `makeCheck` (from the same command line as the check that
  /// started the helper; it also gives the standard font families), then reads cases, checks
  /// each as that check would, and writes each result to standard output, until standard
  /// input ends. Standard input that ends before the setup (the check needed no helper) ends
  /// the helper quietly.
  nonisolated(nonsending) public static func serveAsHelper(
    _ makeCheck: () throws -> (check: SnapshotCheck, fontFamilies: [String])
  ) async throws {
    try await serve(input: .standardInput, output: .standardOutput, makeCheck)
  }

  /// Serves as a helper process on `input` and `output`.
  nonisolated(nonsending) static func serve(
    input: FileHandle, output: FileHandle, _ makeCheck: () throws -> (check: SnapshotCheck, fontFamilies: [String])
  ) async throws {
    let (lines, delivery) = AsyncStream.makeStream(of: Data.self)
    try LineReader.start(reading: input, line: { delivery.yield($0) }, end: { delivery.finish() })
    var requests = lines.makeAsyncIterator()
    guard let first = await requests.next() else { return }
    let setup = try HelperMessages.decoder.decode(HelperSetup.self, from: first)
    let (check, fontFamilies) = try makeCheck()
    let checking = check.helping(setup)
    let cache = setup.cacheEnvironment.map { checking.renderCache(environment: $0) }
    let writer = LineWriter(output)
    writer.send(HelperReply(ready: true))
    await withTaskGroup(of: Void.self) { group in
      while let line = await requests.next() {
        // A line that is no case means the two ends disagree: stop, and the check runs the
        // rest itself.
        guard let request = try? HelperMessages.decoder.decode(HelperRequest.self, from: line) else { break }
        let testCase = request.testCase.testCase
        group.addTask {
          let (result, hasNoRecord) = await checking.check(testCase, fontFamilies: fontFamilies, cache: cache)
          writer.send(HelperReply(index: request.index, result: result, hasNoRecord: hasNoRecord))
        }
      }
    }
    // The process ends when this returns: the last results must be out first.
    await writer.drained()
  }

  /// This check as the check that sent `setup` runs its cases.
  private func helping(_ setup: HelperSetup) -> SnapshotCheck {
    var checking = self
    checking.stagedReportDirectory = setup.reportFolder.map { URL(fileURLWithPath: $0) }
    checking.store = store.withArtifactsRoot(URL(fileURLWithPath: setup.artifactsRoot))
    if setup.comparesInAnotherEnvironment { checking.store = checking.store.comparingInAnotherEnvironment() }
    return checking
  }
}

/// What a helper is told before its first case: what the check worked out once its command
/// line was read.
struct HelperSetup: Codable, Sendable {
  /// The folder the report is staged in, where the cases' images are copied.
  var reportFolder: String?
  /// Where failure artifacts go.
  var artifactsRoot: String
  /// Whether the references were recorded in another environment, and are compared anyway.
  var comparesInAnotherEnvironment: Bool
  /// The render cache's environment hash, or nil when the run uses no cache.
  var cacheEnvironment: String?
}

/// One case for a helper to check.
struct HelperRequest: Codable, Sendable {
  var index: Int
  var testCase: CaseMessage
}

/// A helper's line: that it is ready, or a case's result.
struct HelperReply: Codable, Sendable {
  var ready: Bool?
  var index: Int?
  var result: SnapshotCheck.CaseResult?
  var hasNoRecord: Bool?
}

/// A ``SnapshotCheck/Case`` as a helper reads it.
struct CaseMessage: Codable, Sendable {
  struct Preview: Codable, Sendable {
    var design: String
    var index: Int
    var selected: Bool
    var stylesheet: String?
    var assets: String
  }

  struct VariantAxes: Codable, Sendable {
    var width: Double?
    var textSize: String?
    var appearance: String?
    var direction: String?
    var locale: String?
  }

  var name: String
  var document: String
  var preview: Preview?
  var variant: VariantAxes?

  init(_ testCase: SnapshotCheck.Case) {
    name = testCase.name
    document = testCase.document.path
    preview = testCase.preview.map {
      Preview(
        design: $0.design, index: $0.index, selected: $0.selected, stylesheet: $0.stylesheet?.path, assets: $0.assets.path)
    }
    variant = testCase.variant.map {
      VariantAxes(
        width: $0.width, textSize: $0.textSize?.rawValue, appearance: $0.appearance?.rawValue,
        direction: $0.direction?.rawValue, locale: $0.locale?.rawValue)
    }
  }

  var testCase: SnapshotCheck.Case {
    SnapshotCheck.Case(
      name: name, document: URL(fileURLWithPath: document),
      preview: preview.map {
        SnapshotCheck.DesignPreview(
          design: $0.design, index: $0.index, selected: $0.selected,
          stylesheet: $0.stylesheet.map { URL(fileURLWithPath: $0) }, assets: URL(fileURLWithPath: $0.assets))
      },
      variant: variant.map {
        Variant(
          width: $0.width, textSize: $0.textSize.flatMap(ContentSizeCategory.init(rawValue:)),
          appearance: $0.appearance.flatMap(Appearance.init(rawValue:)),
          direction: $0.direction.flatMap(LayoutDirection.init(rawValue:)),
          locale: $0.locale.flatMap(PseudoLocale.init(rawValue:)))
      })
  }
}

/// How the check and its helpers write and read their lines.
enum HelperMessages {
  /// A comparison's numbers may be infinite; they cross as strings.
  static var encoder: JSONEncoder {
    let encoder = JSONEncoder()
    encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
    return encoder
  }

  static var decoder: JSONDecoder {
    let decoder = JSONDecoder()
    decoder.nonConformingFloatDecodingStrategy = .convertFromString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
    return decoder
  }

  /// `message` as one line: JSON escapes every newline inside strings.
  static func line(_ message: some Encodable) throws -> Data {
    var data = try encoder.encode(message)
    data.append(0x0A)
    return data
  }
}

/// Reads lines from a pipe as they arrive, on a thread of RowKit's own that waits in `read`
/// and hands each whole line on.
///
/// Not Dispatch's reading channel, which crashed checks and helpers now and then in
/// `_dispatch_event_loop_drain` (SIGSEGV on a `-qos.overcommit` thread: in the kernel log of
/// full test runs, once as a failed case of the suite, and in `Benchmarks/helper-stress.sh`).
/// A channel must keep its descriptor open until its cleanup handler has run; the check closed
/// its end of each helper's output with the channel's last reference, under the channel's
/// epoll registration. A helper kept its standard input open, but tore its channel down as
/// the process exited; how that crashed is not established, but its crashes stopped too.
///
/// The thread keeps a reference to the handle until the end of the input, so nothing closes
/// the descriptor under a waiting `read`, where a reused descriptor number would be read
/// instead. Reading therefore ends with the input (the other end closed, or its process
/// gone), or with a read error, not with its caller; `line` and `end` may be called until
/// then.
enum LineReader {
  /// Starts reading `handle`: `line` gets each line without its newline, `end` is called once
  /// at the end of the input or at a read error. A last line with no newline is dropped: a
  /// helper that died in the middle of a line did not finish it.
  static func start(
    reading handle: FileHandle, line: @escaping @Sendable (Data) -> Void, end: @escaping @Sendable () -> Void
  ) throws(ThreadStartError) {
    try startThreadIfPossible {
      nameCurrentThread("rowkit-lines")
      var pending: [UInt8] = []
      var chunk = [UInt8](repeating: 0, count: 64 * 1024)
      while true {
        let count = chunk.withUnsafeMutableBytes { read(handle.fileDescriptor, $0.baseAddress, $0.count) }
        if count < 0 && errno == EINTR { continue }
        guard count > 0 else { break }
        // Only the new bytes can hold the end of a line begun earlier.
        var searched = pending.count
        pending.append(contentsOf: chunk[..<count])
        var start = 0
        while let newline = pending[searched...].firstIndex(of: 0x0A) {
          line(Data(pending[start..<newline]))
          start = newline + 1
          searched = start
        }
        pending.removeFirst(start)
      }
      end()
    }
  }
}

/// Writes lines to a pipe in the order they are sent, on a queue of its own: a full pipe
/// holds up that queue, never a thread of Swift's cooperative pool.
final class LineWriter: Sendable {
  private let handle: FileHandle
  private let queue = DispatchQueue(label: "rowkit.helper-lines")
  private let failed = Locked(false)

  init(_ handle: FileHandle) {
    self.handle = handle
  }

  /// Sends `message` as one line; once a write has failed (the other end is gone), nothing more.
  func send(_ message: some Encodable & Sendable) {
    guard let line = try? HelperMessages.line(message) else { return }
    send(line: line)
  }

  func send(line: Data) {
    queue.async { [handle, failed] in
      guard !failed.withLock({ $0 }) else { return }
      do { try handle.write(contentsOf: line) } catch { failed.withLock { $0 = true } }
    }
  }

  /// Returns once every line sent so far is written (or has failed).
  func drained() async {
    await withCheckedContinuation { continuation in queue.async { continuation.resume() } }
  }

  /// Closes the pipe after the lines sent so far.
  func close() {
    queue.async { [handle] in try? handle.close() }
  }
}

/// One helper process, seen from the check that started it.
final class CheckHelper: Sendable {
  private enum Phase {
    case starting
    case ready
    /// Stopped, or never started: cases sent now come back unchecked.
    case stopped
  }

  private struct State {
    var phase = Phase.starting
    /// Set once the check has sent its setup: a helper never given one ends unremarked.
    var begun = false
    /// Why the helper stopped before the check began with it, said when it does.
    var unsaid: String?
    var readyWaiter: CheckedContinuation<Bool, Never>?
    var pending: [Int: CheckedContinuation<(SnapshotCheck.CaseResult, Bool)?, Never>] = [:]
    /// Set when the check itself ends the helper: its end of file then says nothing.
    var finished = false
    /// Set once the process has exited (or never started).
    var exited = false
    var exitWaiters: [CheckedContinuation<Void, Never>] = []
  }

  /// The helpers of the process whose processes started, for
  /// ``SnapshotCheck/HelperProcesses/stopEveryHelper()``.
  struct Running: Sendable {
    weak var helper: CheckHelper?
  }

  static let running = Locked<[ObjectIdentifier: Running]>([:])

  private let state = Locked(State())
  private let process: Process?
  private let requests: LineWriter?
  private let note: @Sendable (String) -> Void

  init(executable: URL, arguments: [String], note: @escaping @Sendable (String) -> Void) {
    self.note = note
    let input = Pipe()
    let output = Pipe()
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    process.standardInput = input
    process.standardOutput = output
    let state = self.state
    process.terminationHandler = { _ in
      let waiters = state.withLock { state in
        state.exited = true
        defer { state.exitWaiters = [] }
        return state.exitWaiters
      }
      for waiter in waiters { waiter.resume() }
    }
    do {
      try process.runWithNoSignalBlocked()
    } catch {
      state.withLock {
        $0.exited = true
        $0.phase = .stopped
        $0.unsaid = "cannot start a helper process (\(executable.path): \(Self.reason(error))); the cases are checked in this process"
      }
      self.process = nil
      requests = nil
      return
    }
    self.process = process
    // The check keeps only the ends it uses; the helper's ends close here, so that each side
    // sees the other's end of file.
    try? input.fileHandleForReading.close()
    try? output.fileHandleForWriting.close()
    requests = LineWriter(input.fileHandleForWriting)
    Self.running.withLock { $0[ObjectIdentifier(self)] = Running(helper: self) }
    do {
      try LineReader.start(
        reading: output.fileHandleForReading, line: { [weak self] in self?.receive($0) },
        end: { [weak self] in self?.stop(early: "a helper process stopped before its cases were done") })
    } catch {
      // Its results could not be read: it is stopped, and its cases are checked here.
      stop(early: "cannot read a helper process's results (\(error))")
      terminate()
    }
  }

  /// An error as a short phrase: the system's reason when there is one (`No such file or
  /// directory`), else Foundation's sentence.
  private static func reason(_ error: any Error) -> String {
    let error = error as NSError
    if let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
      return String(cString: strerror(Int32(underlying.code)))
    }
    return error.localizedDescription
  }

  /// Sends the check's setup line: the helper builds its check and says when it is ready.
  /// A helper that already stopped says why now.
  func begin(setup: Data) {
    let unsaid = state.withLock { state -> String? in
      state.begun = true
      defer { state.unsaid = nil }
      return state.unsaid
    }
    if let unsaid { note(unsaid) }
    requests?.send(line: setup)
  }

  /// Whether cases may go to the helper now.
  var isReady: Bool { state.withLock { $0.phase == .ready } }

  /// Waits until the helper is ready for cases: true, or false when it stopped first.
  func ready() async -> Bool {
    await withCheckedContinuation { continuation in
      let answer: Bool? = state.withLock { state in
        switch state.phase {
        case .ready: return true
        case .stopped: return false
        case .starting:
          state.readyWaiter = continuation
          return nil
        }
      }
      if let answer { continuation.resume(returning: answer) }
    }
  }

  /// Has the helper check `testCase` (the run's case `index`): its result and whether its
  /// reference has no layout record, or nil when the helper stopped before it was done.
  func check(_ index: Int, _ testCase: SnapshotCheck.Case) async -> (SnapshotCheck.CaseResult, Bool)? {
    guard let requests, let line = try? HelperMessages.line(HelperRequest(index: index, testCase: CaseMessage(testCase)))
    else { return nil }
    return await withCheckedContinuation { continuation in
      let accepted = state.withLock { state -> Bool in
        guard state.phase == .ready else { return false }
        state.pending[index] = continuation
        return true
      }
      if accepted { requests.send(line: line) } else { continuation.resume(returning: nil) }
    }
  }

  /// Ends the helper once it has nothing more to do (or is not needed): it reads the end of
  /// its input and exits.
  func finish() {
    // A helper that never became ready holds no case: it is stopped at once rather than
    // waited for while it starts up only to read the end of its input.
    let stopsNow = state.withLock { state in
      defer { state.finished = true }
      return !state.finished && state.phase != .ready && !state.exited
    }
    stop()
    requests?.close()
    if stopsNow { process?.terminate() }
  }

  deinit {
    Self.running.withLock { _ = $0.removeValue(forKey: ObjectIdentifier(self)) }
  }

  /// Whether the helper's process has exited (or never started).
  var hasExited: Bool { state.withLock { $0.exited } }

  /// Sends the helper's process SIGTERM unless it has exited. Its end is then the check's
  /// doing, and says nothing.
  func terminate() {
    let running = state.withLock { state in
      state.finished = true
      return !state.exited
    }
    if running { process?.terminate() }
  }

  /// Waits until the helper's process has exited: a check leaves no process behind it.
  func exited() async {
    await withCheckedContinuation { continuation in
      let exited = state.withLock { state in
        if !state.exited { state.exitWaiters.append(continuation) }
        return state.exited
      }
      if exited { continuation.resume() }
    }
  }

  private func receive(_ line: Data) {
    guard let reply = try? HelperMessages.decoder.decode(HelperReply.self, from: line) else {
      // Not a line of a helper: it cannot be trusted with more cases.
      stop(early: "a helper process wrote a line that is not a case's result")
      process?.terminate()
      return
    }
    if reply.ready == true {
      let waiter = state.withLock { state -> CheckedContinuation<Bool, Never>? in
        guard state.phase == .starting else { return nil }
        state.phase = .ready
        defer { state.readyWaiter = nil }
        return state.readyWaiter
      }
      waiter?.resume(returning: true)
    } else if let index = reply.index, let result = reply.result {
      state.withLock { $0.pending.removeValue(forKey: index) }?.resume(returning: (result, reply.hasNoRecord ?? false))
    }
  }

  /// Stops sending cases to the helper, and gives back those it has not answered. `early`
  /// says why, unless the check had finished with the helper: now when the check has begun
  /// with it, else when it does.
  private func stop(early: String? = nil) {
    let (waiter, pending, says) = state.withLock { state in
      var says: String?
      if let early, state.phase != .stopped, !state.finished {
        let reason = "\(early); its cases are checked in this process"
        if state.begun { says = reason } else { state.unsaid = reason }
      }
      state.phase = .stopped
      defer {
        state.readyWaiter = nil
        state.pending = [:]
      }
      return (state.readyWaiter, state.pending, says)
    }
    // Said before the cases come back: the check may end as soon as they are done.
    if let says { note(says) }
    waiter?.resume(returning: false)
    for continuation in pending.values { continuation.resume(returning: nil) }
  }
}

extension Process {
  /// Starts the process with no signal blocked in it. `Process` starts its child with the
  /// calling thread's signal mask, and Swift's cooperative threads (Dispatch's) block every
  /// asynchronous signal: a check's helper started from one held SIGTERM and Ctrl-C until its
  /// main thread first went idle, after its whole start-up, so that a check of one case
  /// waited about 18 ms for the helper it had no use for.
  package func runWithNoSignalBlocked() throws {
    var none = sigset_t()
    var previous = sigset_t()
    sigemptyset(&none)
    // A signal that arrives meanwhile may land on this thread: Dispatch's handler for the
    // signals it watches blocks them here again and raises them anew, and any other signal
    // has its usual effect on the process.
    pthread_sigmask(SIG_SETMASK, &none, &previous)
    defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
    try run()
  }
}
