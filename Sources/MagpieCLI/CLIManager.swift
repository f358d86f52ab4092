import Foundation
import Magpie

/// The image manager `magpie fetch` and `magpie prefetch` load through:
/// the default data loader, a disk cache in `--cache-dir` (or the default
/// folder), or memory only with `--no-cache`.
enum CLIManager {
  static func make(cacheDirectory: String?, noCache: Bool, concurrency: Int = 6) throws(CLIError) -> ImageManager {
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
    let cache = ImageCache(diskCache: disk, trimsOnMemoryPressure: false)
    let downloader = ImageDownloader(
      configuration: .init(dataLoader: CurlDataLoader(), maximumConcurrentDownloads: concurrency))
    return ImageManager(
      configuration: .init(
        cache: cache, downloader: downloader,
        cacheWriteFailed: { error, key in
          MagpieCommand.report(.failure("cache \(key)", error))
        }))
  }
}
