internal import CCairo

/// Cairo's status codes, turned into errors in one place (as swift-system's `Errno` turns
/// `errno`), so that no status is dropped or worded twice.
///
/// Cairo's drawing calls return nothing: a failure (an impossible transform, no memory for a
/// surface) is kept in the context, sticky, and every later call does nothing. A canvas reads
/// it when its pixels are taken (``Canvas/bitmap()``), so a failed drawing is an error, never
/// a blank or half-drawn row.
enum CairoStatus {
  /// Throws an error of `kind` saying that `what` failed and why, unless `status` is success.
  static func check(_ status: cairo_status_t, _ kind: GraphicsError.Kind, _ what: @autoclosure () -> String) throws(GraphicsError) {
    guard status != CAIRO_STATUS_SUCCESS else { return }
    throw GraphicsError(kind, "\(what()): \(message(status))")
  }

  /// Cairo's own words for `status`.
  static func message(_ status: cairo_status_t) -> String {
    String(cString: cairo_status_to_string(status))
  }
}
