extension ImageRequest {
  /// A request's fields, shared by its copies until one changes
  /// (``ImageRequest`` copies it first then).
  ///
  /// `@unchecked Sendable`: a storage is changed only through a request
  /// that holds the only reference to it (`isKnownUniquelyReferenced`),
  /// so a shared one is never written: value semantics, as `Array`'s.
  final class Storage: @unchecked Sendable {
    var source: Source
    var urlString: String?
    var processors: [any ImageProcessor]
    var options: ImageLoadingOptions
    var priority: Priority
    var targetSize: PixelSize?
    var contentMode: DecodeOptions.ContentMode
    var scale: Double?
    var cacheKeyFilter: CacheKeyFilter?
    var alternativeSources: [Source] = []
    var skippedReads: Set<CacheType> = [] {
      didSet { skipsMemoryReads = skippedReads.contains(.memory) }
    }
    /// `skippedReads` names the memory cache: kept as a flag, so the
    /// memory-hit path reads no set.
    private(set) var skipsMemoryReads = false
    var skippedWrites: Set<CacheType> = []
    var responseModifiers: [ResponseModifier] = []
    var dataTransformers: [DataTransformer] = []
    var posterTime: Duration?

    init(
      source: Source, urlString: String?, processors: [any ImageProcessor], options: ImageLoadingOptions,
      priority: Priority, targetSize: PixelSize?, contentMode: DecodeOptions.ContentMode, scale: Double?,
      cacheKeyFilter: CacheKeyFilter?
    ) {
      self.source = source
      self.urlString = urlString
      self.processors = processors
      self.options = options
      self.priority = priority
      self.targetSize = targetSize
      self.contentMode = contentMode
      self.scale = scale
      self.cacheKeyFilter = cacheKeyFilter
    }

    /// An unshared copy.
    func copy() -> Storage {
      let copy = Storage(
        source: source, urlString: urlString, processors: processors, options: options, priority: priority,
        targetSize: targetSize, contentMode: contentMode, scale: scale, cacheKeyFilter: cacheKeyFilter)
      copy.alternativeSources = alternativeSources
      copy.skippedReads = skippedReads
      copy.skippedWrites = skippedWrites
      copy.responseModifiers = responseModifiers
      copy.dataTransformers = dataTransformers
      copy.posterTime = posterTime
      return copy
    }
  }
}
