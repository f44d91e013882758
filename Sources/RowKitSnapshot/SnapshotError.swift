/// A snapshot check that could not run, with the reason.
public struct SnapshotError: Error, Hashable, Sendable, CustomStringConvertible {
  /// Why the check could not run.
  public var message: String
  /// An error explained by `message`.
  public init(_ message: String) { self.message = message }
  /// The ``message``.
  public var description: String { message }
}
