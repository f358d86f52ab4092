import Foundation

/// The bytes libheif's writer callback hands over while writing a file,
/// reached from the callback through its `userdata` pointer.
final class HEIFOutput {
  /// What has been written so far.
  var data = Data()

  /// The message of the `heif_error` the callback returns on success
  /// (static: libheif may read it after the callback returns).
  static let successText: StaticString = "Success"

  /// ``successText`` as the C string `heif_error.message` wants.
  static var success: UnsafePointer<CChar> {
    UnsafeRawPointer(successText.utf8Start).assumingMemoryBound(to: CChar.self)
  }
}
