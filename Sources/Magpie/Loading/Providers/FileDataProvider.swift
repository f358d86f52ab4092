import Foundation

/// Image bytes from a local file, read off the caller's thread.
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
  @concurrent
  public func data() async throws(MagpieError) -> Data {
    do {
      return try Data(contentsOf: fileURL)
    } catch {
      throw MagpieError(.fileSystem, "read \(fileURL.path): \(error.localizedDescription)")
    }
  }
}
