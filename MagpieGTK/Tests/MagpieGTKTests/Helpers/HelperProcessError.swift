/// A helper process (nginx, Xvfb, the probe) failed to start or run.
struct HelperProcessError: Error, CustomStringConvertible {
  /// What went wrong.
  let reason: String

  var description: String { reason }
}
