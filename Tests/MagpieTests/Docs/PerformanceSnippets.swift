import Foundation
import Magpie

/// The code the Performance article quotes, compiled with the tests.
enum PerformanceSnippets {
  /// The article's request for a 320-pixel cell: decoded small, then
  /// fitted.
  static func cellRequest(_ url: URL) -> ImageRequest {
    // snippet.begin display-size-request
    let cell = PixelSize(width: 320, height: 320)
    let request = ImageRequest(url: url, processors: [ImageProcessors.Downsampling(size: cell)])
    // snippet.end
    return request
  }

  /// The article's request that only tells the decoder the display size.
  static func targetSizeRequest(_ url: URL) -> ImageRequest {
    // snippet.begin target-size-request
    var request = ImageRequest(url: url, targetSize: PixelSize(width: 1280, height: 720))
    request.contentMode = .aspectFill
    // snippet.end
    return request
  }

  /// The article's one manager for a batch job: a memory budget of its
  /// own, no start-rate limit.
  static func batchManager() throws -> ImageManager {
    // snippet.begin batch-manager
    let downloader = ImageDownloader(
      configuration: .init(
        dataLoader: CurlDataLoader(configuration: DataLoaderConfiguration()), maximumConcurrentDownloads: 6,
        rateLimit: nil))
    let cache = ImageCache(
      memoryCache: MemoryCache(limits: .init(totalCost: 128 << 20)),
      diskCache: try DiskCache(namespace: "thumbnails"))
    let manager = ImageManager(
      configuration: .init(
        cache: cache, downloader: downloader,
        concurrency: ImageManager.Concurrency(downloads: 6, decodes: 2, processing: 2)))
    // snippet.end
    return manager
  }

  /// The article's prefetch of a list of thumbnails; returns its counts.
  static func prefetchThumbnails(_ manager: ImageManager, _ urls: [URL]) async -> ImagePrefetcher.Progress {
    // snippet.begin prefetch-thumbnails
    let thumbnail = ImageProcessors.Downsampling(size: PixelSize(width: 256, height: 256))
    let prefetcher = ImagePrefetcher(manager: manager, maximumConcurrentPrefetches: 6)
    let counts = await prefetcher.prefetch(urls.map { ImageRequest(url: $0, processors: [thumbnail]) })
    print("\(counts.finished) finished, \(counts.skipped) skipped, \(counts.failed) failed")
    // snippet.end
    return counts
  }
}
