import Foundation

extension ImageManager {
  /// The manager views load through unless given another: the
  /// ``Configuration/standard(namespace:loader:)`` configuration (disk cache
  /// in `~/.cache/magpie/default`), or memory only when that folder cannot
  /// be made.
  public static let shared: ImageManager = {
    if let standard = try? Configuration.standard() { return ImageManager(configuration: standard) }
    let downloader = ImageDownloader(configuration: .init(dataLoader: CurlDataLoader()))
    return ImageManager(configuration: Configuration(cache: ImageCache(tiers: []), downloader: downloader))
  }()
}
