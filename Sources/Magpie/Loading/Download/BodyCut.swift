/// The underlying error of a body that ended before its Content-Length:
/// marks the failure as a cut transfer, like a reset or a stall, whose
/// bytes so far are worth keeping for a resume (``PartialBody``).
struct BodyCut: Error, Sendable, CustomStringConvertible {
  var description: String { "cut short" }
}

extension MagpieError {
  /// Whether this failure cut a transfer part-way (a reset, a stall, a
  /// body shorter than announced), as opposed to refusing it: the bytes
  /// that arrived are kept, and the transfer is worth another attempt.
  var cutsTransfer: Bool {
    code == .network || code == .timedOut || underlying is BodyCut || underlying is PartialBody
  }
}
