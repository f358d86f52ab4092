import Foundation

/// Turns images into the bytes a disk cache stores, and back (Kingfisher's
/// CacheSerializer). Return `nil` when a conversion is impossible: the image
/// is then not stored, or the stored file counts as a miss and is removed.
public protocol CacheSerializer: Sendable {
  /// The bytes to store for `image`. `original` is the encoded data the
  /// image was decoded from before any processing, when known.
  func data(with image: Image, original: Data?) -> Data?

  /// The image stored as `data`.
  func image(with data: Data, options: DecodeOptions) -> Image?
}
