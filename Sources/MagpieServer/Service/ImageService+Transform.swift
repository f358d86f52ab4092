import Foundation
import Magpie

extension ImageService {
  /// A transform URL parsed and checked, with its result's cache key.
  struct Prepared {
    let parsed: TransformRequest
    let preference: FormatNegotiation.Preference?
    let key: String
    /// Whether the format comes from the request's `Accept`.
    var negotiated: Bool { preference != nil }
  }

  /// `request`'s transform, parsed and its signature checked, or why not.
  func prepare(_ request: HTTPRequest) -> Result<Prepared, ServeFailure> {
    let parsed: TransformRequest
    do {
      parsed = try parser.parse(request.path)
    } catch {
      return .failure(ServeFailure(status: error.status, reason: error.reason))
    }
    let options = parsed.options
    let preference =
      options.format == nil ? configuration.negotiation.preference(accept: request.header("accept")) : nil
    let key = SHA256.hexDigest(ofParts: parsed.source.absoluteString, options.canonicalString, preference?.key ?? "-")
    return .success(Prepared(parsed: parsed, preference: preference, key: key))
  }

  /// The result for a prepared transform URL and whether its format was
  /// negotiated, from the result cache's slower tiers or made now.
  func transform(_ prepared: Prepared) async -> Result<(CachedResult, negotiated: Bool), ServeFailure> {
    let (parsed, preference, key) = (prepared.parsed, prepared.preference, prepared.key)
    if let refusal = await configuration.sources.check(parsed.source) {
      return .failure(ServeFailure(status: refusal.status, reason: refusal.reason))
    }
    let clock = ContinuousClock()
    let lookupStart = clock.now
    let hit = await cache.lookUp(key)
    metrics.record(.cacheLookup, clock.now - lookupStart)
    metrics.countCacheLookup(hit: hit?.tier)
    if let hit { return .success((hit.result, preference != nil)) }

    let (outcome, _) = await work.run(key) {
      await withDeadline(configuration.requestTimeout) {
        let queued = clock.now
        let made = await self.gate.run { () async -> Result<CachedResult, ServeFailure> in
          self.metrics.record(.queue, clock.now - queued)
          return await self.make(parsed, preference: preference)
        }
        guard let made else {
          if Task.isCancelled { return .failure(Self.timedOut) }
          return .failure(
            ServeFailure(status: 503, reason: "too many requests are waiting", headers: [("Retry-After", "1")]))
        }
        switch made {
        case .success(let result):
          let storeStart = clock.now
          await self.cache.store(result, forKey: key)
          self.metrics.record(.store, clock.now - storeStart)
        case .failure:
          // Other instances waiting for this result stop waiting now.
          await self.cache.abandon(key)
        }
        return made
      }
    }
    return outcome.map { ($0, preference != nil) }
  }

  private static let timedOut = ServeFailure(status: 504, reason: "the transform did not finish in time")

  /// `body`'s outcome, or a 504 when it runs past `limit` (then it is
  /// cancelled).
  private func withDeadline(
    _ limit: Duration, _ body: @escaping @Sendable () async -> Result<CachedResult, ServeFailure>
  ) async -> Result<CachedResult, ServeFailure> {
    await withTaskGroup(of: Result<CachedResult, ServeFailure>?.self) { group in
      group.addTask { await body() }
      group.addTask {
        try? await Task.sleep(for: limit)
        return nil
      }
      let first = await group.next() ?? nil
      group.cancelAll()
      return first ?? .failure(Self.timedOut)
    }
  }

  /// Downloads, decodes, transforms and encodes.
  private func make(
    _ parsed: TransformRequest, preference: FormatNegotiation.Preference?
  ) async -> Result<CachedResult, ServeFailure> {
    let clock = ContinuousClock()
    let options = parsed.options
    var request = ImageRequest(url: parsed.source)
    request.processors = [TransformProcessor(options: options, maximumResultPixels: configuration.maximumResultPixels)]
    // A source that failed may be there on the next request: no failure is remembered.
    request.options.formUnion([.disableMemoryCacheReads, .disableMemoryCacheWrites, .cacheMemoryOnly, .retryFailed])
    // Keeping the profile or the metadata needs a decode that keeps them.
    let preserving = options.colorProfile == .keep || !options.stripsMetadata
    let start = clock.now
    let result: ImageResult
    do {
      result = try await (preserving ? preservingManager : manager).image(for: request)
    } catch {
      return .failure(ServeFailure(error, maximumSourceBytes: configuration.maximumSourceBytes))
    }
    metrics.record(.transform, clock.now - start)
    metrics.countSourceBytes(result.metrics.bytesLoaded)
    var image = result.image
    let sourceFormat = result.data.map(ImageFormat.sniff) ?? image.format
    let format =
      options.format
      ?? configuration.negotiation.format(
        for: preference ?? .init(avif: false, webp: false), source: sourceFormat, isAnimated: image.isAnimated,
        hasAlpha: image.frames.contains { !$0.pixels.isOpaque })
    var encoding = EncodeOptions(quality: options.quality ?? configuration.defaultQuality)
    encoding.keepsMetadata = !options.stripsMetadata
    if options.stripsMetadata && options.keepsCopyright, let rights = Self.rights(in: result.data) {
      image.metadata = ImageMetadata(exif: rights)
      encoding.keepsMetadata = true
    }
    encoding.colorProfile =
      switch options.colorProfile {
      case .sRGB: preserving ? .sRGB : .none
      case .keep: .original
      case .tagged: .sRGB
      }
    if format == .avif { encoding.speed = 8 }  // a server's budget: libavif's fast presets
    let encodeStart = clock.now
    let data: Data
    do {
      let ready = OpaqueOutput.prepared(image, for: format, background: options.background)
      data = try CoderRegistry.shared.encode(ready, as: format, options: encoding)
    } catch {
      return .failure(ServeFailure(status: 500, reason: "encoding \(format.rawValue) failed: \(error.reason)"))
    }
    metrics.record(.encode, clock.now - encodeStart)
    // The source's bytes stand for its validator: a changed source is a
    // new tag, an unchanged one the same on every instance.
    let sourceTag = SHA256.hexDigest(ofParts: [result.data ?? Data(parsed.source.absoluteString.utf8)])
    let etag = "\"" + SHA256.hexDigest(ofParts: sourceTag, options.canonicalString, format.rawValue).prefix(32) + "\""
    return .success(CachedResult(data: data, format: format, etag: etag))
  }

  /// The copyright and artist of the source's EXIF (`keep_copyright` with
  /// `strip_metadata`), read from its container's headers.
  private static func rights(in source: Data?) -> Data? {
    guard let source, let exif = ImageMetadata.read(from: source).exif else { return nil }
    return EXIFRights.block(from: exif)
  }
}
