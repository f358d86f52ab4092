import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

extension ImageManager {
  /// What the manager is built from and its limits.
  public struct Configuration: Sendable {
    /// Memory and disk caches.
    public var cache: ImageCache
    /// Downloads network sources.
    public var downloader: ImageDownloader
    /// Decodes.
    public var registry: CoderRegistry
    /// Turns URLs into cache keys (e.g. dropping signature query items).
    public var cacheKeyFilter: CacheKeyFilter
    /// Limits for every decode (pixel count, bytes of all frames).
    public var decodeLimits: DecodeOptions
    /// How many downloads, decodes and processor chains run at once.
    public var concurrency: Concurrency
    /// Called when storing to the disk cache fails (a full disk, a
    /// read-only folder): the load itself has already succeeded from memory.
    public var cacheWriteFailed: (@Sendable (MagpieError, ImageCacheKey) -> Void)?
    /// The most bytes a `file://` or `data:` source may hold (default
    /// 64 MiB, as the loaders' `maximumBodySize`): a larger file is
    /// refused from its size, before it is read.
    public var maximumLocalSourceBytes: Int64 = 64 << 20
    /// Run on every HTTP response from a source before its body is used,
    /// before each request's own (see ``ResponseModifier``). None by
    /// default.
    public var responseModifiers: [ResponseModifier] = []
    /// Run on every source's bytes before decoding and before the
    /// original is cached, before each request's own (see
    /// ``DataTransformer``). None by default.
    public var dataTransformers: [DataTransformer] = []
    /// Follow the origin's HTTP caching headers, as this kind of cache
    /// (see ``HTTPCaching``); `nil` (the default) keeps each tier's own
    /// fixed expiry. ``ImageLoadingOptions/followHTTPCaching`` asks for it
    /// per request.
    public var httpCaching: HTTPCaching?
    /// Sees every task's events and steers cache keys, cache policy and
    /// downloaders per request (see ``ImageManagerDelegate``); held
    /// strongly. `nil` by default.
    public var delegate: (any ImageManagerDelegate)?
    /// The wall clock HTTP lifetimes are measured on; tests move it by
    /// hand.
    var now: @Sendable () -> Date = { Date() }
    /// Gets the engine's ``EngineEvent``s (tests and diagnostics observe
    /// the shared work through it).
    var engineObserver: (@Sendable (EngineEvent) -> Void)?

    /// A configuration over the given cache and downloader. `concurrency`
    /// gives every stage's limit; without it, downloads keep the
    /// downloader's limit and decodes and processing run one per core.
    public init(
      cache: ImageCache, downloader: ImageDownloader, registry: CoderRegistry = .shared,
      cacheKeyFilter: CacheKeyFilter = .absoluteString, decodeLimits: DecodeOptions = DecodeOptions(),
      concurrency: Concurrency? = nil,
      cacheWriteFailed: (@Sendable (MagpieError, ImageCacheKey) -> Void)? = nil
    ) {
      self.cache = cache
      self.downloader = downloader
      self.registry = registry
      self.cacheKeyFilter = cacheKeyFilter
      self.decodeLimits = decodeLimits
      self.concurrency = concurrency ?? Concurrency(downloads: downloader.maximumConcurrentDownloads)
      self.cacheWriteFailed = cacheWriteFailed
    }
  }
}
