import Foundation

/// Runs the built `rowkit` binary, as a user would.
public enum CommandRunner {
  public struct Result: Sendable {
    public var status: Int32
    public var stdout: String
    public var stderr: String
  }

  /// The `rowkit` binary next to the test bundle, or `ROWKIT_BINARY`.
  public static let binary: URL = {
    if let path = ProcessInfo.processInfo.environment["ROWKIT_BINARY"] { return URL(fileURLWithPath: path) }
    let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    var directory = executable.deletingLastPathComponent()
    while directory.path != "/" {
      let candidate = directory.appendingPathComponent("rowkit")
      var isDirectory: ObjCBool = false
      if FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDirectory), !isDirectory.boolValue {
        return candidate
      }
      directory.deleteLastPathComponent()
    }
    fatalError("the rowkit binary was not found next to \(executable.path); build it with swift build")
  }()

  public static func run(_ arguments: [String], in directory: URL? = nil, environment: [String: String] = [:]) throws -> Result {
    let process = Process()
    process.executableURL = binary
    process.arguments = arguments
    if let directory { process.currentDirectoryURL = directory }
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    // Read both pipes before waiting, so a large output cannot fill a pipe and stall.
    let group = DispatchGroup()
    nonisolated(unsafe) var outData = Data()
    nonisolated(unsafe) var errData = Data()
    DispatchQueue.global().async(group: group) { outData = out.fileHandleForReading.readDataToEndOfFile() }
    errData = err.fileHandleForReading.readDataToEndOfFile()
    group.wait()
    process.waitUntilExit()
    return Result(
      status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
      stderr: String(decoding: errData, as: UTF8.self))
  }
}
