import Foundation
import Testing

@testable import Magpie

/// ``ImageCache`` as a chain: memory, then tiers in order, each with its
/// read, fill and write policy; ``CacheType`` names any of them.
@Suite struct CacheTierTests {
  private func image(seed: Int = 0) -> Image {
    var bytes = [UInt8]()
    for y in 0..<16 {
      for x in 0..<24 { bytes += [UInt8((x * 9 + seed) % 256), UInt8((y * 13) % 256), UInt8(seed % 256), 255] }
    }
    return Image(pixels: PixelBuffer(width: 24, height: 16, straightRGBA: bytes), format: .png)
  }

  private func disk(_ dir: TemporaryDirectory, name: String = "disk") throws -> DiskCache {
    try DiskCache(configuration: .init(directory: dir.url.appendingPathComponent(name), name: name))
  }

  @Test func cacheTypesNameTheirTiers() throws {
    let dir = try TemporaryDirectory()
    #expect(CacheType.none.rawValue == "none")
    #expect(CacheType.memory.description == "memory")
    #expect(CacheType.disk == CacheType(rawValue: "disk"))
    #expect(CacheType.tier("remote").rawValue == "remote")
    #expect(CacheType.tier("remote") != .disk)
    #expect(CacheTier(InMemoryStorage()).cacheType == .tier("remote"))
    #expect(
      CacheTier(try DiskCache(configuration: .init(directory: dir.url.appendingPathComponent("a")))).cacheType
        == .disk)
    #expect(CacheTier(try disk(dir, name: "ssd")).cacheType == .tier("ssd"))
  }

  @Test func theDiskInitializerMakesOneDiskTierAndDiskCacheFindsTheFirstDiskTier() throws {
    let dir = try TemporaryDirectory()
    let ssd = try disk(dir, name: "ssd")
    #expect(ImageCache(diskCache: ssd, trimsOnMemoryPressure: false).tiers.count == 1)
    #expect(ImageCache(diskCache: nil, trimsOnMemoryPressure: false).tiers.isEmpty)
    let chain = ImageCache(
      memoryCache: .frozen(), tiers: [CacheTier(InMemoryStorage()), CacheTier(ssd)], trimsOnMemoryPressure: false)
    #expect(chain.diskCache === ssd)
    #expect(chain.tiers.map(\.cacheType) == [.tier("remote"), .tier("ssd")])
  }

  @Test func aHitInASlowerTierFillsMemoryAndTheFasterTiers() async throws {
    let dir = try TemporaryDirectory()
    let local = try disk(dir)
    let remote = InMemoryStorage()
    let key = ImageCacheKey(source: "https://example.com/a.png")
    let writer = ImageCache(memoryCache: .frozen(), tiers: [CacheTier(remote)], trimsOnMemoryPressure: false)
    try await writer.store(image(), forKey: key, in: .disk, metadata: Data("v1".utf8))

    let cache = ImageCache(
      memoryCache: .frozen(), tiers: [CacheTier(local), CacheTier(remote)], trimsOnMemoryPressure: false)
    #expect(cache.cachedType(forKey: key) == .none)
    #expect(await cache.containingTier(forKey: key) == .tier("remote"))
    let hit = try await cache.retrieveImage(forKey: key)
    #expect(hit.cacheType == .tier("remote"))
    #expect(hit.image?.pixels == image().pixels)
    #expect(local.contains(key.stringValue))
    #expect(local.metadata(forKey: key.stringValue) == Data("v1".utf8))
    #expect(try await cache.retrieveImage(forKey: key).cacheType == .memory)
    cache.clearMemory()
    #expect(try await cache.retrieveImage(forKey: key).cacheType == .disk)
  }

  @Test func aTierThatDoesNotFillLeavesTheFasterTiersAlone() async throws {
    let near = InMemoryStorage(name: "near")
    let far = InMemoryStorage(name: "far")
    let key = ImageCacheKey(source: "b")
    try await ImageCache(memoryCache: .frozen(), tiers: [CacheTier(far)], trimsOnMemoryPressure: false).store(
      image(), forKey: key, in: .disk)
    let cache = ImageCache(
      memoryCache: .frozen(), tiers: [CacheTier(near), CacheTier(far, fillsFasterTiers: false)],
      trimsOnMemoryPressure: false)
    #expect(try await cache.retrieveImage(forKey: key).cacheType == .tier("far"))
    #expect(near.stored(key.stringValue) == nil)
    #expect(try await cache.retrieveImage(forKey: key).cacheType == .tier("far"))
    #expect(near.reads == [key.stringValue, key.stringValue])
  }

  @Test func failedReadsAndMetadataReadsReachTheHookAsMisses() async throws {
    let broken = InMemoryStorage(name: "broken")
    let spare = InMemoryStorage(name: "spare")
    let key = ImageCacheKey(source: "c")
    try await ImageCache(
      memoryCache: .frozen(), tiers: [CacheTier(broken), CacheTier(spare)], trimsOnMemoryPressure: false
    )
    .store(image(), forKey: key, in: .disk, metadata: Data("m".utf8))
    broken.failReads(with: MagpieError(.fileSystem, "EIO"))
    let failures = Locked<[String]>([])
    let cache = ImageCache(
      memoryCache: .frozen(), tiers: [CacheTier(broken), CacheTier(spare)], trimsOnMemoryPressure: false
    ) { error, key, tier in
      failures.withLock { $0.append("\(tier) \(key) \(error.reason)") }
    }
    #expect(try await cache.retrieveImage(forKey: key).cacheType == .tier("spare"))
    #expect(await cache.metadata(forKey: key) == Data("m".utf8))
    #expect(failures.value == ["broken c EIO", "broken c EIO"])
  }
}
