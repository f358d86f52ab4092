import Foundation

extension ImageManager.Configuration {
  /// The configuration most programs want: a disk cache in the default
  /// folder for `namespace` (`~/.cache/magpie/NAMESPACE`), the memory budget
  /// of ``ImageCache/defaultMemoryCostLimit``, and the libcurl loader
  /// (``CurlDataLoader``: on Linux it is several times faster than
  /// URLSession and handles faults URLSession cannot) with 6 downloads at
  /// once and three attempts.
  public static func standard(
    namespace: String = "default", loader: DataLoaderConfiguration = DataLoaderConfiguration()
  ) throws(MagpieError) -> ImageManager.Configuration {
    let cache = ImageCache(diskCache: try DiskCache(namespace: namespace))
    let downloader = ImageDownloader(configuration: .init(dataLoader: CurlDataLoader(configuration: loader)))
    return ImageManager.Configuration(cache: cache, downloader: downloader)
  }
}
