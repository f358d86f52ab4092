import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// What to load and how: the source, the processors, the options, the size
/// it will be shown at, and the priority.
public struct ImageRequest: Sendable {
  /// Where the bytes come from.
  public enum Source: Sendable {
    /// A URL request, downloaded through the manager's ``ImageDownloader``.
    case network(URLRequest)
    /// A data provider (a file, base64 text, bytes in memory, your own).
    case provider(any ImageDataProvider)
  }

  /// The fields, in one reference: copying a request (into a task, a job,
  /// a result) costs one retain, not one per field, as Nuke's
  /// `ImageRequest` does. A shared one is copied before a change.
  private var storage: Storage

  /// Where the bytes come from.
  public var source: Source {
    get { storage.source }
    set {
      update { storage in
        storage.source = newValue
        storage.urlString = Self.urlString(of: newValue)
      }
    }
  }
  /// The source URL's absolute string, kept because every cache lookup
  /// needs it and Foundation takes about 100 ns to make it.
  private var urlString: String? { storage.urlString }
  /// Applied in order after decoding; their identifiers join the cache key.
  public var processors: [any ImageProcessor] {
    get { storage.processors }
    set { update { $0.processors = newValue } }
  }
  /// Cache and network switches.
  public var options: ImageLoadingOptions {
    get { storage.options }
    set { update { $0.options = newValue } }
  }
  /// How urgently to start; it orders every stage's queue, and an
  /// ``ImageTask``'s ``ImageTask/priority`` changes it while it waits.
  public var priority: Priority {
    get { storage.priority }
    set { update { $0.priority = newValue } }
  }
  /// The size the image will be shown at, in pixels: decoders that can
  /// shrink while decoding (JPEG, WebP) decode at the smallest size that
  /// covers it.
  public var targetSize: PixelSize? {
    get { storage.targetSize }
    set { update { $0.targetSize = newValue } }
  }
  /// How ``targetSize`` is matched.
  public var contentMode: DecodeOptions.ContentMode {
    get { storage.contentMode }
    set { update { $0.contentMode = newValue } }
  }
  /// The display scale given to the image (Kingfisher's scaleFactor); `nil`
  /// takes it from an `@2x`/`@3x` file name, else 1.
  public var scale: Double? {
    get { storage.scale }
    set { update { $0.scale = newValue } }
  }
  /// Overrides the manager's cache-key filter for this request.
  public var cacheKeyFilter: CacheKeyFilter? {
    get { storage.cacheKeyFilter }
    set { update { $0.cacheKeyFilter = newValue } }
  }
  /// Sources tried in order when `source` fails (Kingfisher's
  /// `alternativeSources`): each loads as a request of its own (its own
  /// cache keys) with this request's processors and options, and the first
  /// that succeeds is the result. A cancellation tries no further; when
  /// every source fails, the error lists each one's failure.
  public var alternativeSources: [Source] {
    get { storage.alternativeSources }
    set { update { $0.alternativeSources = newValue } }
  }
  /// Cache tiers this request does not read, by their ``CacheType``:
  /// `.memory`, `.disk`, or ``CacheType/tier(_:)`` for any other storage
  /// (SDWebImage's `queryCacheType`, per tier). ``ImageLoadingOptions``
  /// has shorthands for memory and for all storage tiers.
  public var skippedReads: Set<CacheType> {
    get { storage.skippedReads }
    set { update { $0.skippedReads = newValue } }
  }
  /// Whether ``skippedReads`` names the memory cache.
  var skipsMemoryReads: Bool { storage.skipsMemoryReads }
  /// Cache tiers this request does not write (SDWebImage's
  /// `storeCacheType`, per tier), named as in ``skippedReads``: neither
  /// with its result nor when a hit in a slower tier fills faster ones.
  public var skippedWrites: Set<CacheType> {
    get { storage.skippedWrites }
    set { update { $0.skippedWrites = newValue } }
  }
  /// Run on this request's HTTP response after the manager's
  /// ``ImageManager/Configuration/responseModifiers`` (see
  /// ``ResponseModifier``).
  public var responseModifiers: [ResponseModifier] {
    get { storage.responseModifiers }
    set { update { $0.responseModifiers = newValue } }
  }
  /// Run on this request's source bytes after the manager's
  /// ``ImageManager/Configuration/dataTransformers`` (see
  /// ``DataTransformer``).
  public var dataTransformers: [DataTransformer] {
    get { storage.dataTransformers }
    set { update { $0.dataTransformers = newValue } }
  }

  /// For a video source (MP4, MOV, WebM), the time of the frame to make the
  /// image of: the first frame at or after it. `nil`, the first frame.
  /// Part of the cache key.
  public var posterTime: Duration? {
    get { storage.posterTime }
    set { update { $0.posterTime = newValue } }
  }

  /// A request for `source`.
  public init(
    source: Source, processors: [any ImageProcessor] = [], options: ImageLoadingOptions = [],
    priority: Priority = .normal, targetSize: PixelSize? = nil,
    contentMode: DecodeOptions.ContentMode = .aspectFit, scale: Double? = nil, cacheKeyFilter: CacheKeyFilter? = nil
  ) {
    storage = Storage(
      source: source, urlString: Self.urlString(of: source), processors: processors, options: options,
      priority: priority, targetSize: targetSize, contentMode: contentMode, scale: scale,
      cacheKeyFilter: cacheKeyFilter)
  }

  /// Changes the fields, copying them first when another request shares them.
  private mutating func update(_ change: (Storage) -> Void) {
    if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
    change(storage)
  }

  /// A request for `url`.
  public init(
    url: URL, processors: [any ImageProcessor] = [], options: ImageLoadingOptions = [],
    priority: Priority = .normal, targetSize: PixelSize? = nil
  ) {
    self.init(
      source: .network(URLRequest(url: url)), processors: processors, options: options, priority: priority,
      targetSize: targetSize)
  }

  /// A request for the bytes `provider` gives.
  public init(
    provider: any ImageDataProvider, processors: [any ImageProcessor] = [], options: ImageLoadingOptions = [],
    targetSize: PixelSize? = nil
  ) {
    self.init(source: .provider(provider), processors: processors, options: options, targetSize: targetSize)
  }

  /// The URL, for network requests.
  public var url: URL? {
    if case .network(let request) = source { return request.url }
    return nil
  }

  /// Whether the source is a `file://` or `data:` URL, read where it is
  /// rather than downloaded (see ``ImageLoadingOptions/cacheLocalSources``).
  public var isLocalSource: Bool { LocalURLSource.isLocal(url) }

  private static func urlString(of source: Source) -> String? {
    if case .network(let request) = source { return request.url?.absoluteString }
    return nil
  }

  /// The source's cache key: the URL through the filter, or the provider's key.
  public func sourceKey(defaultFilter: CacheKeyFilter) -> String {
    switch source {
    case .network(let request):
      let filter = cacheKeyFilter ?? defaultFilter
      if filter.isIdentity, let urlString { return urlString }
      guard let url = request.url else { return "" }
      return filter.key(for: url)
    case .provider(let provider):
      return provider.cacheKey
    }
  }

  /// The part of the cache key that says how the image was made from its
  /// source: a video's poster time, decode-time size, first frame only or
  /// frames on demand, and the processors. Empty for the plain decoded
  /// original.
  public var processingIdentifier: String {
    let onDemand = options.contains(.decodeFramesOnDemand) && !options.contains(.onlyLoadFirstFrame)
    let poster = posterTime.flatMap { $0 > .zero ? $0 : nil }
    if targetSize == nil && processors.isEmpty && !options.contains(.onlyLoadFirstFrame) && !onDemand && poster == nil {
      return ""
    }
    var parts: [String] = []
    if let poster { parts.append("poster(\(poster.components.seconds)s\(poster.components.attoseconds)as)") }
    if let targetSize {
      parts.append("decode(\(targetSize),\(contentMode == .aspectFit ? "fit" : "fill"))")
    }
    if options.contains(.onlyLoadFirstFrame) { parts.append("firstFrame") }
    if onDemand { parts.append("framesOnDemand") }
    parts += processors.map(\.identifier)
    return parts.joined(separator: "|")
  }

  /// The key the processed image is cached under.
  public func cacheKey(defaultFilter: CacheKeyFilter) -> ImageCacheKey {
    ImageCacheKey(source: sourceKey(defaultFilter: defaultFilter), processorIdentifier: processingIdentifier)
  }

  /// The display scale: ``scale``, else from an `@2x`/`@3x` name in the URL
  /// or file path, else 1.
  public var effectiveScale: Double {
    if let scale { return scale }
    switch source {
    case .network(let request): return request.url.map { Image.scale(fromFileName: $0.path) } ?? 1
    case .provider(let provider):
      if let file = provider as? FileDataProvider { return Image.scale(fromFileName: file.fileURL.path) }
      return 1
    }
  }
}
