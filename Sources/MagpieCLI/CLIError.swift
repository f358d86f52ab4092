/// Why a `magpie` command stopped: a usage mistake (exit 2) or failed work
/// (exit 1). Printed as `magpie: error: <what>: <why>`.
struct CLIError: Error {
  /// Whether this is a usage error or a failure of the work itself.
  enum Kind {
    case usage
    case failure
  }

  let kind: Kind
  /// What failed, e.g. `"decode photo.jpg"` or `"--quality"`.
  let what: String
  /// Why it failed.
  let why: String
  /// Set when the line was printed already (a command that reports each
  /// failed input as it goes), so it is not printed twice.
  var alreadyReported = false

  static func usage(_ what: String, _ why: String) -> CLIError {
    CLIError(kind: .usage, what: what, why: why)
  }

  static func failure(_ what: String, _ why: String) -> CLIError {
    CLIError(kind: .failure, what: what, why: why)
  }

  /// This error, marked as printed already.
  var silenced: CLIError {
    var copy = self
    copy.alreadyReported = true
    return copy
  }

  /// The process exit status for this error.
  var exitCode: Int32 { kind == .usage ? 2 : 1 }
}
