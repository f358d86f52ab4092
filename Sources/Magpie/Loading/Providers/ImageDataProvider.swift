import Foundation

/// A source of image bytes other than a URL download (Kingfisher's
/// ImageDataProvider): a local file, inline base64, bytes already in memory,
/// or your own.
public protocol ImageDataProvider: Sendable {
  /// The key the image is cached under; equal keys must mean equal bytes.
  var cacheKey: String { get }

  /// The encoded image bytes.
  func data() async throws(MagpieError) -> Data
}
