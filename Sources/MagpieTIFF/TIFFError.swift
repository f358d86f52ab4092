import Magpie

/// Turns what libtiff reported into ``MagpieError``. libtiff's errors are
/// formatted messages without codes, so the code comes from their words:
/// data that ends early (a short read, a codec out of input, a header cut
/// off) is ``MagpieError/Code/truncatedData``; an allocation over the limit
/// set at open ``MagpieError/Code/imageTooLarge``; what libtiff cannot
/// handle (a photometric or sample format TIFFRGBAImage lacks, a codec
/// not built in) ``MagpieError/Code/unsupportedFormat``; the rest
/// ``MagpieError/Code/corruptData``.
enum TIFFError {
  /// The error for `message`, reported while `doing`.
  static func make(doing: String, message: String) -> MagpieError {
    let reason = "tiff: \(doing): \(message)"
    let lowered = message.lowercased()
    if truncation.contains(where: lowered.contains) { return MagpieError(.truncatedData, reason) }
    if allocation.contains(where: lowered.contains) { return MagpieError(.imageTooLarge, reason) }
    if unsupported.contains(where: lowered.contains) { return MagpieError(.unsupportedFormat, reason) }
    return MagpieError(.corruptData, reason)
  }

  // libtiff 4.5's wording for input that ends before the data it needs.
  private static let truncation = [
    "read error", "not enough data", "cannot read tiff header", "seek error", "end of file", "premature end",
    "past end", "io error",
  ]
  // TIFFOpenOptionsSetMaxSingleMemAlloc's refusal, and libtiff's own caps.
  private static let allocation = ["byte limit", "requested memory size", "out of memory", "memory allocation"]
  // TIFFRGBAImageOK's "Sorry, can not handle ...", missing codecs.
  private static let unsupported = ["sorry", "not supported", "not configured", "not implemented", "can not handle"]
}
