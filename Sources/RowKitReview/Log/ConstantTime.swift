/// Comparisons of secrets (a server's token, a log's seal) that take the same time wherever
/// the two first differ, so that the time of a refusal tells nothing of the secret.
enum ConstantTime {
  /// Whether `given` and `secret` are the same text, compared whole.
  static func equal(_ given: String, _ secret: String) -> Bool {
    let (a, b) = (Array(given.utf8), Array(secret.utf8))
    guard a.count == b.count else { return false }
    return zip(a, b).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
  }
}
