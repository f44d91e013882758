import Foundation

/// When references are written.
public enum RecordMode: String, Hashable, Sendable, CaseIterable, Codable {
  /// Never: a missing reference is a failure. The only mode under CI.
  case never
  /// Write references that do not exist yet (the test still fails, so each is looked at).
  case missing
  /// Write missing references and rewrite those that fail.
  case failed
  /// Rewrite every reference whose pixels changed; files with unchanged pixels are left
  /// untouched.
  case all

  /// The environment variable that chooses the mode: `ROWKIT_RECORD=missing|failed|all|never`.
  public static let environmentVariable = "ROWKIT_RECORD"

  /// Whether `CI` is set (to anything but empty, `0` or `false`).
  public static func isCI(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
    guard let value = environment["CI"]?.lowercased() else { return false }
    return !value.isEmpty && value != "0" && value != "false"
  }

  /// Why `ROWKIT_RECORD` cannot be used, or nil when it is unset or names a mode. An unknown
  /// value is refused rather than read as the default: a typo must not start recording.
  public static func environmentProblem(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
    guard let value = environment[environmentVariable], !value.isEmpty, RecordMode(rawValue: value.lowercased()) == nil else {
      return nil
    }
    let modes = allCases.map(\.rawValue).joined(separator: ", ")
    return "\(environmentVariable)=\(value) is not a record mode (\(modes))"
  }

  /// The mode in effect: `never` under CI whatever was asked, otherwise `explicit`, then
  /// `ROWKIT_RECORD`, then `missing`.
  public static func effective(
    _ explicit: RecordMode? = nil, environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> RecordMode {
    if isCI(environment) { return .never }
    if let explicit { return explicit }
    return environment[environmentVariable].flatMap { RecordMode(rawValue: $0.lowercased()) } ?? .missing
  }

  /// The note that recording was asked for (`--record MODE` as `explicit`, or
  /// `ROWKIT_RECORD`) and is ignored because CI is set; nil when nothing is ignored.
  public static func ignoredUnderCI(
    _ explicit: RecordMode? = nil, environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> String? {
    guard isCI(environment) else { return nil }
    let asked = explicit ?? environment[environmentVariable].flatMap { RecordMode(rawValue: $0.lowercased()) }
    guard let asked, asked != .never else { return nil }
    let source = explicit != nil ? "--record \(asked.rawValue)" : "\(environmentVariable)=\(asked.rawValue)"
    return "CI is set, so references are never recorded: \(source) is ignored"
  }
}
