import Foundation
import Magpie

/// The code the Getting Started article quotes, compiled with the tests
/// and run by `DocumentationSnippetTests`.
enum GettingStartedSnippets {
  /// The article's first load: `url`'s image, at most 256 pixels a side.
  static func firstLoad(_ url: URL) async throws -> ImageResult {
    // snippet.begin first-load
    let manager = try ImageManager(configuration: .standard(namespace: "photos"))
    let request = ImageRequest(
      url: url,
      processors: [ImageProcessors.Downsampling(size: PixelSize(width: 256, height: 256))])
    let result = try await manager.image(for: request)
    print(result.image.pixels.size, result.cacheType)  // e.g. 256x171 none
    // snippet.end
    return result
  }

  /// The landing page's load: the whole pipeline in two lines.
  static func shortestLoad(_ url: URL) async throws -> ImageResult {
    // snippet.begin landing-load
    let manager = try ImageManager(configuration: .standard())
    let result = try await manager.image(for: ImageRequest(url: url))
    // snippet.end
    return result
  }

  /// The article's second load of the same URL, answered from memory.
  static func secondLoad(_ manager: ImageManager, _ request: ImageRequest) async throws -> CacheType {
    // snippet.begin second-load
    let again = try await manager.image(for: request)
    assert(again.cacheType == .memory)  // no download, no decode
    // snippet.end
    return again.cacheType
  }
}
