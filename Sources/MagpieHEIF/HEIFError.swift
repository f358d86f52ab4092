import CHEIF
import Magpie

/// Turns libheif's `heif_error` into ``MagpieError``: data that ends early
/// is ``MagpieError/Code/truncatedData``, a security limit (libheif refuses
/// a side over 32768 pixels) ``MagpieError/Code/imageTooLarge``, a file
/// that is not HEIF or uses what libheif lacks
/// ``MagpieError/Code/unsupportedFormat``, the rest
/// ``MagpieError/Code/corruptData``.
enum HEIFError {
  /// Throws for any `error` but `heif_error_Ok`; `doing` says what failed.
  static func check(_ error: heif_error, _ doing: String) throws(MagpieError) {
    guard error.code != heif_error_Ok else { return }
    let message = error.message.map { String(cString: $0) } ?? "no message"
    let reason = "heic: \(doing): \(message)"
    switch (error.code, error.subcode) {
    case (_, heif_suberror_End_of_data):
      throw MagpieError(.truncatedData, reason)
    case (_, heif_suberror_Security_limit_exceeded):
      throw MagpieError(.imageTooLarge, reason)
    case (heif_error_Unsupported_filetype, _), (heif_error_Unsupported_feature, _):
      throw MagpieError(.unsupportedFormat, reason)
    case (heif_error_Usage_error, _):
      throw MagpieError(.invalidArgument, reason)
    default:
      throw MagpieError(.corruptData, reason)
    }
  }
}
