import Foundation
import Magpie

/// The whole pipeline (manager, downloader, one loader) with a disk cache in
/// a fresh folder and no retries: shows that a hostile answer ends in the
/// loader's typed error and leaves no cache entry behind.
struct HostilePipeline {
  let directory: TemporaryDirectory
  let manager: ImageManager
  private let baseline: [String]

  init(kind: LoaderKind, configuration: DataLoaderConfiguration) throws {
    directory = try TemporaryDirectory()
    let disk = try DiskCache(configuration: .init(directory: directory.url.appendingPathComponent("cache")))
    let downloader = ImageDownloader(
      configuration: .init(
        dataLoader: kind.make(configuration), retryPolicy: RetryPolicy(maximumAttempts: 1), rateLimit: nil,
        sleep: { _ in }))
    manager = ImageManager(
      configuration: .init(
        cache: ImageCache(memoryCache: .frozen(), diskCache: disk, trimsOnMemoryPressure: false), downloader: downloader
      ))
    baseline = Self.files(under: directory.url)
  }

  /// Loads `url` through the manager; the error it ended with, or `nil`
  /// when it produced an image.
  func error(loading url: URL) async -> MagpieError? {
    do {
      _ = try await manager.image(for: ImageRequest(url: url))
      await manager.waitForPendingWrites()
      return nil
    } catch {
      await manager.waitForPendingWrites()
      return error
    }
  }

  /// Files in the cache folder that were not there before the load.
  var newFiles: [String] {
    Self.files(under: directory.url).filter { !baseline.contains($0) }
  }

  private static func files(under folder: URL) -> [String] {
    let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey])
    var names: [String] = []
    while let url = enumerator?.nextObject() as? URL {
      if (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true { names.append(url.path) }
    }
    return names.sorted()
  }
}
