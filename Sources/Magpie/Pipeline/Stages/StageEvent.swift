import Foundation

/// What a running stage passes on to its subscribers before its outcome:
/// how much of the source has arrived, and (for progressive loads) the
/// bytes so far.
enum StageEvent: Sendable {
  /// Bytes received and the total expected, when known.
  case progress(received: Int64, expected: Int64?)
  /// The source's bytes so far, for partial decoding.
  case data(Data)
}
