import Foundation
import Magpie

/// Answers `magpie serve`'s requests: `/health`, `/metrics`, and transform
/// URLs in imgproxy's shape, through the result cache's tiers and, on a
/// miss, the pipeline (download, decode at the size needed, transform,
/// encode in the negotiated format).
public final class ImageService: Sendable {
  /// The configuration it was made with.
  public let configuration: ServeConfiguration
  /// What it counted.
  public let metrics = ServerMetrics()
  let parser: TransformURLParser
  /// Decodes into sRGB without metadata, as most results want.
  let manager: ImageManager
  /// Decodes keeping the colour profile and the metadata (`cc:keep`,
  /// `strip_metadata:false`).
  let preservingManager: ImageManager
  let cache: ResultCache
  let gate: AdmissionGate
  let work = SharedWork<CachedResult, ServeFailure>()
  /// Requests in flight, for `/metrics` (the HTTP server sets it).
  let inFlight: @Sendable () -> Int

  /// A service for `configuration`; fails when its presets do not parse.
  public init(configuration: ServeConfiguration, inFlight: @escaping @Sendable () -> Int = { 0 }) throws(ServeError) {
    self.configuration = configuration
    self.inFlight = inFlight
    do {
      parser = try TransformURLParser(presets: configuration.presets, signer: configuration.signer)
    } catch {
      throw ServeError("presets: \(error.reason)")
    }
    // One downloader for both: one set of loader threads, and a source
    // both managers want is downloaded once.
    let downloader = Self.downloader(for: configuration)
    manager = Self.manager(for: configuration, downloader: downloader, preserving: false)
    preservingManager = Self.manager(for: configuration, downloader: downloader, preserving: true)
    cache = ResultCache(memoryLimit: configuration.memoryCacheLimit, tiers: configuration.tiers)
    gate = AdmissionGate(concurrency: configuration.concurrency, capacity: configuration.queueCapacity)
  }

  /// The response to `request`: the one ``immediateResponse(to:)`` gives
  /// when there is one, else a transform through the tiers and the
  /// pipeline. The URL is parsed, checked and keyed once either way.
  public func respond(to request: HTTPRequest) async -> HTTPResponse {
    let start = ContinuousClock.now
    let (response, format): (HTTPResponse, String)
    switch route(request) {
    case .answered(let answer, let answerFormat): (response, format) = (answer, answerFormat)
    case .transform(let prepared):
      switch await transform(prepared) {
      case .success(let (result, negotiated)):
        (response, format) = (answer(result, to: request, negotiated: negotiated), result.format.rawValue)
      case .failure(let failure): (response, format) = (failure.response, "-")
      }
    }
    record(request, response, format: format, since: start)
    return response
  }

  /// The response when it needs no waiting, so the network thread can send
  /// it at once: `/health`, `/metrics`, a refused method, a malformed or
  /// unsigned URL, and a result in the memory tier. `nil` when it must
  /// wait (another tier, the pipeline).
  public func immediateResponse(to request: HTTPRequest) -> HTTPResponse? {
    let start = ContinuousClock.now
    guard case .answered(let response, let format) = route(request) else { return nil }
    record(request, response, format: format, since: start)
    return response
  }

  /// What a request needs: an answer now, or a transform of a URL
  /// already parsed and checked.
  enum Route {
    case answered(HTTPResponse, format: String)
    case transform(Prepared)
  }

  private func route(_ request: HTTPRequest) -> Route {
    guard request.method == "GET" || request.method == "HEAD" else {
      return .answered(.text(405, "only GET and HEAD", headers: [("Allow", "GET, HEAD")]), format: "-")
    }
    switch request.path {
    case "/health": return .answered(.text(200, "ok"), format: "-")
    case "/metrics":
      let text = metrics.render(inFlight: inFlight(), queued: gate.load.waiting)
      return .answered(
        HTTPResponse(
          status: 200, headers: [("Content-Type", "text/plain; version=0.0.4"), ("Cache-Control", "no-store")],
          body: Data(text.utf8)), format: "-")
    default:
      switch prepare(request) {
      case .failure(let failure): return .answered(failure.response, format: "-")
      case .success(let prepared):
        // A result in memory passed the source policy when it was made.
        guard let hit = cache.memory.value(forKey: prepared.key) else { return .transform(prepared) }
        metrics.countCacheLookup(hit: "memory")
        return .answered(answer(hit, to: request, negotiated: prepared.negotiated), format: hit.format.rawValue)
      }
    }
  }

  private func record(
    _ request: HTTPRequest, _ response: HTTPResponse, format: String, since start: ContinuousClock.Instant
  ) {
    let sent = request.method == "HEAD" ? 0 : response.body.count
    metrics.countRequest(status: response.status, format: format, bytesOut: sent)
    if let log = configuration.log {
      let ms = (ContinuousClock.now - start).components
      let millis = Double(ms.seconds) * 1000 + Double(ms.attoseconds) / 1e15
      log("\(request.method) \(request.path) \(response.status) \(format) \(sent) \(String(format: "%.1f", millis)) ms")
    }
  }

  /// 200 with the image, or 304 when the client's `If-None-Match` names
  /// its entity tag.
  private func answer(_ result: CachedResult, to request: HTTPRequest, negotiated: Bool) -> HTTPResponse {
    var headers: [(name: String, value: String)] = [
      ("ETag", result.etag), ("Cache-Control", "public, max-age=\(configuration.cacheTTL)"),
      ("Accept-Ranges", "none"),
    ]
    if negotiated { headers.append(("Vary", "Accept")) }
    if let tags = request.header("if-none-match"), Self.matches(tags, result.etag) {
      return HTTPResponse(status: 304, headers: headers)
    }
    return HTTPResponse(status: 200, headers: [("Content-Type", result.format.mimeType)] + headers, body: result.data)
  }

  /// Whether an `If-None-Match` list names `etag` (weak comparison, as
  /// RFC 9110 asks for it; `*` matches any).
  static func matches(_ list: String, _ etag: String) -> Bool {
    let bare = { (tag: Substring) in tag.hasPrefix("W/") ? tag.dropFirst(2) : tag }
    return list.split(separator: ",").contains { candidate in
      let tag = candidate.trimmingCharacters(in: .whitespaces)
      return tag == "*" || bare(Substring(tag)) == bare(Substring(etag))
    }
  }

  private static func downloader(for configuration: ServeConfiguration) -> ImageDownloader {
    let sources = configuration.sources
    var loading = DataLoaderConfiguration(
      timeout: configuration.downloadTimeout, resourceTimeout: configuration.downloadTimeout,
      maximumBodySize: Int64(configuration.maximumSourceBytes),
      redirectHandler: { redirect in
        guard let target = redirect.proposedRequest.url else { return .refuse }
        return await sources.check(target) == nil ? .follow : .refuse
      })
    if sources.checksAddresses {
      // Again at connect time, on the address curl connects to: the host
      // may resolve differently now than when the policy checked it.
      loading.addressFilter = { AddressClass(bytes: $0) == .publicAddress }
    }
    return ImageDownloader(
      configuration: ImageDownloader.Configuration(
        dataLoader: CurlDataLoader(configuration: loading),
        maximumConcurrentDownloads: max(6, configuration.concurrency * 2), retryPolicy: .never, rateLimit: nil))
  }

  private static func manager(
    for configuration: ServeConfiguration, downloader: ImageDownloader, preserving: Bool
  ) -> ImageManager {
    var limits = DecodeOptions()
    limits.maxPixelCount = configuration.maximumSourcePixels
    limits.maxFrameCount = configuration.maximumFrames
    if preserving {
      limits.colorManagement = .preserve
      limits.keepsMetadata = true
    }
    // The result cache holds encoded results; the manager keeps no images.
    let cache = ImageCache(
      memoryCache: MemoryCache(limits: .init(totalCost: 0)), tiers: [], trimsOnMemoryPressure: false)
    return ImageManager(
      configuration: ImageManager.Configuration(cache: cache, downloader: downloader, decodeLimits: limits))
  }
}
