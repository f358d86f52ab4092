import Foundation

/// Image bytes from a local file, read on a dispatch thread (not a
/// cooperative one), and only when it is a regular file.
public struct FileDataProvider: ImageDataProvider {
  /// The file.
  public let fileURL: URL
  /// The cache key; the file URL's absolute string unless given.
  public let cacheKey: String

  /// A provider for the file at `fileURL`.
  public init(fileURL: URL, cacheKey: String? = nil) {
    self.fileURL = fileURL
    self.cacheKey = cacheKey ?? fileURL.absoluteString
  }

  /// The file's bytes.
  public func data() async throws(MagpieError) -> Data {
    try await LocalURLSource.readFileOffPool(fileURL.path, maximumBytes: .max)
  }
}
