import Foundation
import Magpie

/// How `magpie serve` answers: signatures, presets, which sources it
/// fetches, the limits an operator relies on, caching and negotiation.
/// Every default is documented in docs/serve.md.
public struct ServeConfiguration: Sendable {
  /// Checks each URL's signature; `nil` switches signatures off, and then
  /// only `unsafe` paths are served.
  public var signer: URLSigner?
  /// Option presets by name (`name` → `rs:fill:200:200/g:sm`); `default`
  /// applies to every URL.
  public var presets: [String: String] = [:]
  /// Which sources may be fetched.
  public var sources = SourcePolicy()
  /// Which formats are offered to clients that accept them.
  public var negotiation = FormatNegotiation()
  /// The largest source accepted, in bytes (413 when larger).
  public var maximumSourceBytes = 50 * 1024 * 1024
  /// The most pixels a source may declare (422 when more); decode-time
  /// downsampling counts, so a large JPEG shown small still passes.
  public var maximumSourcePixels = 50_000_000
  /// The most frames of an animation decoded (422 when more).
  public var maximumFrames = 500
  /// The most pixels a result may have (422 when more).
  public var maximumResultPixels = 50_000_000
  /// Transforms run at once.
  public var concurrency = max(1, ProcessInfo.processInfo.activeProcessorCount)
  /// Transforms that may wait for a slot; more get 503 with `Retry-After`.
  public var queueCapacity = 64
  /// The longest a request may take, waiting included (504 after).
  public var requestTimeout = Duration.seconds(30)
  /// The longest a source download may take (504 after).
  public var downloadTimeout = Duration.seconds(15)
  /// `Cache-Control: max-age` of results, in seconds.
  public var cacheTTL = 31_536_000
  /// Lossy quality when the URL gives none.
  public var defaultQuality = 80
  /// The memory tier's limit for encoded results, in bytes.
  public var memoryCacheLimit = 256 * 1024 * 1024
  /// Storage tiers behind the memory tier, fastest first (a disk cache, a
  /// shared Redis tier).
  public var tiers: [any ImageDataStoring] = []
  /// One line per request (`--verbose`); `nil` logs nothing.
  public var log: (@Sendable (String) -> Void)? = nil

  /// Signatures checked with `signer` (`nil`: `unsafe` paths only).
  public init(signer: URLSigner?) { self.signer = signer }
}
