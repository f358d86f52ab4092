import Foundation

/// `Data.withUnsafeBytes` for bodies with typed throws: the standard method
/// only rethrows untyped errors, so the result is carried out in a `Result`.
enum PinnedBytes {
  /// Runs `body` with `data`'s bytes, valid only during the call.
  static func with<R>(
    _ data: Data, _ body: (UnsafeRawBufferPointer) throws(MagpieError) -> R
  ) throws(MagpieError) -> R {
    var result: Result<R, MagpieError>?
    data.withUnsafeBytes { bytes in result = Result { () throws(MagpieError) -> R in try body(bytes) } }
    return try result!.get()
  }
}
