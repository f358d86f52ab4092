import Foundation

@testable import Magpie

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// What the ``ImageManager`` suites share: each suite holds its own
/// ``ImageManagerFixtureParts`` (a scripted loader, a cache folder, a
/// registry over a coder that counts its decodes); this builds managers,
/// URLs and PNGs over them.
protocol ImageManagerFixture {
  var parts: ImageManagerFixtureParts { get }
}

extension ImageManagerFixture {
  var loader: MockDataLoader { parts.loader }
  var directory: TemporaryDirectory { parts.directory }
  var coder: CountingCoder { parts.coder }
  var registry: CoderRegistry { parts.registry }
  var events: EngineEventLog { parts.events }

  func manager(
    maximumDownloads: Int = 6, writeFailures: WriteFailures? = nil, serializer: (any CacheSerializer)? = nil
  ) throws -> ImageManager {
    let disk = try DiskCache(configuration: .init(directory: directory.url.appendingPathComponent("cache")))
    let cache = ImageCache(
      memoryCache: .frozen(), diskCache: disk,
      serializer: serializer ?? DefaultCacheSerializer(registry: registry), trimsOnMemoryPressure: false)
    var downloads = ImageDownloader.Configuration(
      dataLoader: loader, maximumConcurrentDownloads: maximumDownloads, retryPolicy: .never, rateLimit: nil,
      sleep: { _ in })
    downloads.engineObserver = events.observer
    let downloader = ImageDownloader(configuration: downloads)
    var onWriteFailure: (@Sendable (MagpieError, ImageCacheKey) -> Void)?
    if let writeFailures {
      onWriteFailure = { error, _ in writeFailures.record(error) }
    }
    return ImageManager(
      configuration: ImageManager.Configuration(
        cache: cache, downloader: downloader, registry: registry, cacheWriteFailed: onWriteFailure))
  }

  func url(_ name: String) -> URL { URL(string: "https://images.example.com/\(name)")! }

  /// A PNG whose pixels encode their position.
  func png(width: Int = 40, height: Int = 30, seed: Int = 0) throws -> Data {
    try PositionPNG.make(width: width, height: height, seed: seed)
  }
}
