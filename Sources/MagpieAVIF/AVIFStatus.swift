import CAVIF
import Magpie

/// Turns libavif's result codes into ``MagpieError``s with the reason
/// libavif's diagnostics give.
enum AVIFStatus {
  /// Throws unless `result` is `AVIF_RESULT_OK`; `what` says what was being
  /// done, `diag` is libavif's detail for it (empty when there is none).
  static func check(_ result: avifResult, _ what: String, diag: String = "") throws(MagpieError) {
    guard result != AVIF_RESULT_OK else { return }
    let name = String(cString: avifResultToString(result))
    let detail = diag.isEmpty ? name : "\(name): \(diag)"
    switch result {
    case AVIF_RESULT_TRUNCATED_DATA, AVIF_RESULT_WAITING_ON_IO, AVIF_RESULT_IO_ERROR:
      throw MagpieError(.truncatedData, "avif data ends early while \(what) (\(detail))")
    case AVIF_RESULT_OUT_OF_MEMORY:
      throw MagpieError(.imageTooLarge, "libavif ran out of memory while \(what) (\(detail))")
    case AVIF_RESULT_NO_CODEC_AVAILABLE, AVIF_RESULT_NOT_IMPLEMENTED, AVIF_RESULT_UNSUPPORTED_DEPTH:
      throw MagpieError(.unsupportedFormat, "libavif cannot handle this avif while \(what) (\(detail))")
    default:
      // libavif refuses what is over its size, dimension or count limits
      // as a parse failure; only its diagnostic tells them apart.
      if diag.contains("limit") || diag.contains("too large") {
        throw MagpieError(.imageTooLarge, "avif is over a decoder limit while \(what) (\(detail))")
      }
      throw MagpieError(.corruptData, "avif is damaged while \(what) (\(detail))")
    }
  }

  /// The diagnostic text libavif left in `diag`.
  static func text(_ diag: inout avifDiagnostics) -> String {
    withUnsafeBytes(of: &diag.error) { raw in
      String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
    }
  }
}
