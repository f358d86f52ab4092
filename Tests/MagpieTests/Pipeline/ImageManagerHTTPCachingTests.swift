import Foundation
import Testing

@testable import Magpie

/// HTTP caching rules (issue 35, item 4) at a real nginx whose locations
/// send `max-age=1`, `no-store`, `immutable`, `no-cache` and `s-maxage`,
/// on a wall clock the test moves by hand.
@Suite(.serialized, .timeLimit(Sanitizer.timeLimit(minutes: 2))) struct ImageManagerHTTPCachingTests {
  let directory: TemporaryDirectory
  let origin: NginxOrigin
  let clock = ManualClock(start: Date().timeIntervalSince1970)
  let remote = InMemoryStorage()
  private static let locations: [(String, String)] = [
    ("maxage", "max-age=1"), ("nostore", "no-store"), ("immutable", "max-age=3600, immutable"),
    ("nocache", "no-cache"), ("shared", "max-age=1, s-maxage=3600"),
  ]

  init() throws {
    directory = try TemporaryDirectory()
    let root = try directory.servingSamples(["cutout-01.png"])
    var config = ""
    for (folder, header) in Self.locations {
      try directory.copy("cutout-01.png", in: root, to: "\(folder)/a.png")
      config += "location ^~ /\(folder)/ { add_header Cache-Control \"\(header)\"; try_files $uri =404; }\n"
    }
    origin = try NginxOrigin(serving: root, extraConfig: config)
  }

  private func manager(
    _ caching: HTTPCaching? = .privateCache, disk name: String = "cache", remote: InMemoryStorage? = nil
  ) throws -> ImageManager {
    let remote = remote ?? self.remote
    let disk = try DiskCache(configuration: .init(directory: directory.url.appendingPathComponent(name)))
    var configuration = ImageManager.Configuration(
      cache: ImageCache(
        memoryCache: .frozen(), tiers: [CacheTier(disk), CacheTier(remote)], trimsOnMemoryPressure: false),
      downloader: ImageDownloader(
        configuration: .init(dataLoader: CurlDataLoader(), retryPolicy: .never, rateLimit: nil)))
    configuration.httpCaching = caching
    configuration.now = clock.date
    return ImageManager(configuration: configuration)
  }

  private func load(_ manager: ImageManager, _ path: String, _ options: ImageLoadingOptions = []) async throws
    -> ImageResult
  {
    try await manager.image(for: ImageRequest(url: origin.url(path), options: options))
  }

  @Test func maxAgeOneExpiresOnTheClockAndIsRevalidatedInEveryTier() async throws {
    defer { origin.stop() }
    let manager = try manager()
    #expect(try await load(manager, "/maxage/a.png").cacheType == .none)
    #expect(try await load(manager, "/maxage/a.png").cacheType == .memory)
    #expect(try origin.requestCount("/maxage/a.png") == 1)
    await manager.waitForPendingWrites()
    // Its expiry travels with the entry, to the disk and the remote tier.
    let key = origin.url("/maxage/a.png").absoluteString
    let stored = try #require(remote.storedMetadata(key).flatMap(ValidatorStore.Validators.init(encoded:)))
    #expect(abs((stored.expires ?? 0) - (clock.date().timeIntervalSince1970 + 1)) < 2)
    clock.advance(by: 2)
    let stale = try await load(manager, "/maxage/a.png")
    #expect(stale.metrics.revalidated)
    #expect(stale.cacheType == .memory)
    #expect(try origin.requestCount("/maxage/a.png") == 2)
    // A new process over the same disk: the stored expiry says stale.
    clock.advance(by: 2)
    let fromDisk = try await load(try self.manager(), "/maxage/a.png")
    #expect(fromDisk.metrics.revalidated)
    #expect(fromDisk.cacheType == .disk)
    #expect(try origin.requestCount("/maxage/a.png") == 3)
  }

  @Test func noStoreIsWrittenToNoTier() async throws {
    defer { origin.stop() }
    let manager = try manager()
    _ = try await load(manager, "/nostore/a.png")
    await manager.waitForPendingWrites()
    let url = origin.url("/nostore/a.png")
    #expect(manager.cachedImage(for: ImageRequest(url: url)) == nil)
    #expect(try manager.configuration.cache.diskCache?.data(forKey: url.absoluteString) == nil)
    #expect(remote.stored(url.absoluteString) == nil)
    #expect(try await load(manager, "/nostore/a.png").cacheType == .none)
    #expect(try origin.requestCount("/nostore/a.png") == 2)
  }

  @Test func immutableIsNeverRevalidatedWhileFreshEvenWhenAsked() async throws {
    defer { origin.stop() }
    let manager = try manager()
    _ = try await load(manager, "/immutable/a.png")
    await manager.waitForPendingWrites()
    #expect(try await load(manager, "/immutable/a.png", .refreshCached).cacheType == .memory)
    #expect(try await load(try self.manager(), "/immutable/a.png", .refreshCached).cacheType == .disk)
    #expect(try origin.requestCount("/immutable/a.png") == 1)
    // Without immutable, .refreshCached asks.
    _ = try await load(manager, "/maxage/a.png")
    #expect(try await load(manager, "/maxage/a.png", .refreshCached).metrics.revalidated)
    #expect(try origin.requestCount("/maxage/a.png") == 2)
  }

  @Test func noCacheIsRevalidatedBeforeEveryUse() async throws {
    defer { origin.stop() }
    let manager = try manager()
    _ = try await load(manager, "/nocache/a.png")
    for expected in 2...3 {
      let again = try await load(manager, "/nocache/a.png")
      #expect(again.metrics.revalidated)
      #expect(again.cacheType == .memory)
      #expect(try origin.requestCount("/nocache/a.png") == expected)
    }
  }

  @Test func aSharedCacheFollowsSMaxAgeAndThePrivateOneMaxAge() async throws {
    defer { origin.stop() }
    // Tiers of their own: an entry one stored under its rules must not
    // reach the other through a tier they share.
    let shared = try manager(.sharedCache, disk: "shared", remote: InMemoryStorage())
    let personal = try manager(.privateCache, disk: "private", remote: InMemoryStorage())
    _ = try await load(shared, "/shared/a.png")
    _ = try await load(personal, "/shared/a.png")
    clock.advance(by: 2)
    #expect(try await load(shared, "/shared/a.png").metrics.revalidated == false)
    #expect(try await load(personal, "/shared/a.png").metrics.revalidated)
  }

  @Test func offByDefaultTheOriginsLifetimeIsIgnored() async throws {
    defer { origin.stop() }
    let manager = try manager(nil)
    _ = try await load(manager, "/maxage/a.png")
    clock.advance(by: 60)
    #expect(try await load(manager, "/maxage/a.png").cacheType == .memory)
    #expect(try origin.requestCount("/maxage/a.png") == 1)
    // ... unless a request asks: its entry keeps the origin's rules, which
    // requests that do not ask ignore.
    _ = try await load(manager, "/nocache/a.png", .followHTTPCaching)
    #expect(try await load(manager, "/nocache/a.png", .followHTTPCaching).metrics.revalidated)
    #expect(try await load(manager, "/nocache/a.png").cacheType == .memory)
    #expect(try origin.requestCount("/nocache/a.png") == 2)
  }
}
