import Foundation
import Magpie

/// The image manager `magpie fetch` and `magpie prefetch` load through:
/// the default data loader, a disk cache in `--cache-dir` (or the default
/// folder), or memory only with `--no-cache`, and the `--redis` tier
/// behind it. No rate limit (a list is loaded, nothing cancelled) and, unless
/// `resumes`, no resumed downloads (a retry starts over).
enum CLIManager {
  static func make(
    cacheDirectory: String?, noCache: Bool, concurrency: Int = 6, redis: RedisOption? = nil, resumes: Bool = false,
    httpCaching: HTTPCaching? = nil, tls: TLSConfiguration = TLSConfiguration()
  ) throws(CLIError) -> ImageManager {
    let disk: DiskCache?
    if noCache {
      disk = nil
    } else {
      let directory = cacheDirectory.map { URL(fileURLWithPath: $0) } ?? DiskCache.Configuration.defaultDirectory()
      do {
        disk = try DiskCache(configuration: .init(directory: directory))
      } catch {
        throw .failure("open cache \(directory.path)", error)
      }
    }
    let tiers = (disk.map { [CacheTier($0)] } ?? []) + (redis.map { [$0.tier] } ?? [])
    let cache = ImageCache(tiers: tiers, trimsOnMemoryPressure: false)
    var downloads = ImageDownloader.Configuration(
      dataLoader: CurlDataLoader(configuration: DataLoaderConfiguration(tls: tls)),
      maximumConcurrentDownloads: concurrency,
      rateLimit: nil)
    downloads.resumesDownloads = resumes
    let downloader = ImageDownloader(configuration: downloads)
    var configuration = ImageManager.Configuration(
      cache: cache, downloader: downloader,
      cacheWriteFailed: { error, key in
        MagpieCommand.report(.failure("cache \(key)", error))
      })
    configuration.httpCaching = httpCaching
    return ImageManager(configuration: configuration)
  }
}
