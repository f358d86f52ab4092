import Foundation

/// One place that sees and steers a manager's loads (Nuke's
/// `ImagePipeline.Delegate`, Kingfisher's and SDWebImage's manager
/// delegates): every task's events with its metrics, the cache key, the
/// cache policy and the downloader of each request, and the storage
/// errors that ``ImageManager/Configuration/cacheWriteFailed`` and
/// ``ImageCache/readFailed`` report one by one.
///
/// Set it as ``ImageManager/Configuration/delegate``. Every method has a
/// default that changes nothing, so implement only what you need. Methods
/// are called on the thread the work is on (a libcurl thread, a decode
/// thread, the caller's): keep them short and thread-safe. Unset (the
/// default), a load pays one `nil` check per step.
public protocol ImageManagerDelegate: AnyObject, Sendable {
  /// A task was made for a load (memory hits included).
  func imageTaskCreated(_ task: ImageTask)
  /// A task's progress, preview or outcome, in order; the outcome's
  /// ``ImageResult/metrics`` say where the time went.
  func imageTask(_ task: ImageTask, didReceive event: ImageTask.Event)
  /// The key `request`'s image is cached under; `proposed` is the one
  /// the manager would use (its ``CacheKeyFilter`` applied).
  func cacheKey(for request: ImageRequest, proposed: ImageCacheKey) -> ImageCacheKey
  /// The cache policy of `request`: the options it loads with (add
  /// ``ImageLoadingOptions/cacheMemoryOnly`` for some hosts, say).
  func cacheOptions(for request: ImageRequest) -> ImageLoadingOptions
  /// The downloader (and so the data loader) `request` goes through;
  /// `nil` for the manager's. A downloader of your own keeps its own
  /// limits and line.
  func downloader(for request: ImageRequest) -> ImageDownloader?
  /// Writing `key` to a cache tier failed; the load itself succeeded.
  func cacheWriteFailed(_ error: MagpieError, key: ImageCacheKey)
  /// Reading `key` from the tier named `tier` failed; it counted as a miss.
  func cacheReadFailed(_ error: MagpieError, key: ImageCacheKey, tier: String)
}

extension ImageManagerDelegate {
  /// Does nothing.
  public func imageTaskCreated(_ task: ImageTask) {}
  /// Does nothing.
  public func imageTask(_ task: ImageTask, didReceive event: ImageTask.Event) {}
  /// The proposed key.
  public func cacheKey(for request: ImageRequest, proposed: ImageCacheKey) -> ImageCacheKey { proposed }
  /// The request's own options.
  public func cacheOptions(for request: ImageRequest) -> ImageLoadingOptions { request.options }
  /// The manager's downloader.
  public func downloader(for request: ImageRequest) -> ImageDownloader? { nil }
  /// Does nothing.
  public func cacheWriteFailed(_ error: MagpieError, key: ImageCacheKey) {}
  /// Does nothing.
  public func cacheReadFailed(_ error: MagpieError, key: ImageCacheKey, tier: String) {}
}
