import Foundation
import Testing

@testable import Magpie

@Suite struct ImageCacheTests {
  /// An opaque image whose pixels encode their position, so variants differ.
  private func image(width: Int = 24, height: Int = 16, seed: Int = 0, format: ImageFormat = .png) -> Image {
    var bytes = [UInt8]()
    for y in 0..<height {
      for x in 0..<width {
        bytes += [UInt8((x * 9 + seed) % 256), UInt8((y * 13 + seed) % 256), UInt8(seed % 256), 255]
      }
    }
    return Image(pixels: PixelBuffer(width: width, height: height, straightRGBA: bytes), format: format)
  }

  /// A cache in `dir` whose memory and disk entries age only when `clock`
  /// is moved: on the real clock a test stalled for five minutes (the
  /// memory lifetime) between two lookups, as a loaded machine under
  /// ThreadSanitizer can stall it, finds its memory entry expired and reads
  /// disk instead.
  private func makeCache(
    _ dir: TemporaryDirectory, clock: ManualClock = ManualClock(),
    serializer: any CacheSerializer = DefaultCacheSerializer()
  ) throws -> ImageCache {
    ImageCache(
      memoryCache: MemoryCache(limits: .init(totalCost: ImageCache.defaultMemoryCostLimit), now: clock.monotonic),
      diskCache: try DiskCache(
        configuration: .init(directory: dir.url.appendingPathComponent("cache"), now: clock.date)),
      serializer: serializer, trimsOnMemoryPressure: false)
  }

  @Test func everyResultSaysWhereItCameFrom() async throws {
    let dir = try TemporaryDirectory()
    let cache = try makeCache(dir)
    let key = ImageCacheKey(source: "https://example.com/a.png")
    let original = image()

    #expect(try await cache.retrieveImage(forKey: key).cacheType == .none)
    try await cache.store(original, forKey: key)
    let fromMemory = try await cache.retrieveImage(forKey: key)
    #expect(fromMemory.cacheType == .memory)
    #expect(fromMemory.image?.pixels == original.pixels)

    cache.clearMemory()
    #expect(cache.cachedType(forKey: key) == .disk)
    let fromDisk = try await cache.retrieveImage(forKey: key)
    #expect(fromDisk.cacheType == .disk)
    #expect(fromDisk.image?.pixels == original.pixels)
    // The disk hit was promoted to memory.
    #expect(try await cache.retrieveImage(forKey: key).cacheType == .memory)
  }

  @Test func aMemoryEntryUnusedForItsLifetimeIsReadFromDisk() async throws {
    let dir = try TemporaryDirectory()
    let clock = ManualClock()
    let cache = try makeCache(dir, clock: clock)
    let key = ImageCacheKey(source: "https://example.com/a.png")
    try await cache.store(image(), forKey: key)
    clock.advance(by: 299)
    #expect(try await cache.retrieveImage(forKey: key).cacheType == .memory)
    // The hit extended its life; five minutes past it, memory has let go.
    clock.advance(by: 301)
    #expect(try await cache.retrieveImage(forKey: key).cacheType == .disk)
    #expect(try await cache.retrieveImage(forKey: key).cacheType == .memory)
  }

  @Test func targetsLimitWhereImagesGo() async throws {
    let dir = try TemporaryDirectory()
    let cache = try makeCache(dir)
    let memoryOnly = ImageCacheKey(source: "memory-only")
    let diskOnly = ImageCacheKey(source: "disk-only")
    try await cache.store(image(), forKey: memoryOnly, in: .memory)
    try await cache.store(image(), forKey: diskOnly, in: .disk)
    #expect(cache.cachedType(forKey: memoryOnly) == .memory)
    #expect(cache.diskCache?.contains(memoryOnly.stringValue) == false)
    #expect(cache.cachedType(forKey: diskOnly) == .disk)
    #expect(try await cache.retrieveImage(forKey: diskOnly, from: .memory).cacheType == .none)
    #expect(try await cache.retrieveImage(forKey: diskOnly, from: .disk).cacheType == .disk)
  }

  @Test func processedVariantsAndTheOriginalLiveApart() async throws {
    let dir = try TemporaryDirectory()
    let cache = try makeCache(dir)
    let source = "https://example.com/photo.png"
    let small = ImageCacheKey(source: source, processorIdentifier: "downsample(64x64)")
    let round = ImageCacheKey(source: source, processorIdentifier: "downsample(64x64)|round(8)")
    try await cache.store(image(seed: 1), forKey: small)
    try await cache.store(image(seed: 2), forKey: round)
    let originalBytes = try CoderRegistry.shared.encode(image(seed: 3), as: .png)
    try await cache.storeOriginalData(originalBytes, forSource: source)
    cache.clearMemory()
    #expect(try await cache.retrieveImage(forKey: small).image?.pixels == image(seed: 1).pixels)
    #expect(try await cache.retrieveImage(forKey: round).image?.pixels == image(seed: 2).pixels)
    #expect(try await cache.originalData(forSource: source) == originalBytes)
    #expect(Set([small.stringValue, round.stringValue, small.original.stringValue]).count == 3)
  }

  @Test func aDiskFileThatDoesNotDecodeIsAMissAndIsRemoved() async throws {
    let dir = try TemporaryDirectory()
    let cache = try makeCache(dir)
    let key = ImageCacheKey(source: "broken")
    try cache.diskCache?.store(Data("not an image".utf8), forKey: key.stringValue)
    let result = try await cache.retrieveImage(forKey: key)
    #expect(result.cacheType == .none)
    #expect(result.image == nil)
    #expect(cache.diskCache?.contains(key.stringValue) == false)
  }

  @Test func defaultSerializerKeepsOriginalBytesOfUnprocessedImages() throws {
    let encoded = try CoderRegistry.shared.encode(image(), as: .png, options: EncodeOptions(compressionLevel: 1))
    var decoded = try CoderRegistry.shared.decode(encoded, options: DecodeOptions(keepsOriginalData: true))
    let serializer = DefaultCacheSerializer()
    #expect(serializer.data(with: decoded, original: encoded) == encoded)
    // Once processed (the pixels no longer match the bytes) it re-encodes in
    // the original format.
    decoded.originalData = nil
    decoded.frames[0].pixels[0, 0] = SIMD4(1, 2, 3, 255)
    let reencoded = try #require(serializer.data(with: decoded, original: encoded))
    #expect(reencoded != encoded)
    #expect(ImageFormat.sniff(reencoded) == .png)
    #expect(serializer.image(with: reencoded, options: DecodeOptions())?.pixels == decoded.pixels)
    // preferCacheOriginalData stores what came in even for processed images.
    #expect(DefaultCacheSerializer(preferCacheOriginalData: true).data(with: decoded, original: encoded) == encoded)
  }

  @Test func formatSerializerStoresOneFormatWhateverCameIn() throws {
    let png = image(format: .png)
    let jpegSerializer = FormatCacheSerializer(.jpeg(quality: 90))
    let jpeg = try #require(jpegSerializer.data(with: png, original: nil))
    #expect(ImageFormat.sniff(jpeg) == .jpeg)
    let pngData = try #require(FormatCacheSerializer.png.data(with: png, original: nil))
    #expect(ImageFormat.sniff(pngData) == .png)
    #expect(FormatCacheSerializer.png.image(with: pngData, options: DecodeOptions())?.pixels == png.pixels)
    #expect(FormatCacheSerializer.png.image(with: Data("junk".utf8), options: DecodeOptions()) == nil)
  }

  @Test func cacheKeyFilterDropsSignatureQueryItems() throws {
    let filter = CacheKeyFilter.droppingQueryItems(["e", "token"])
    let a = try #require(URL(string: "https://cdn.example.com/p/1.jpg?w=200&e=1700000000&token=abc"))
    let b = try #require(URL(string: "https://cdn.example.com/p/1.jpg?w=200&e=1800000000&token=xyz"))
    let other = try #require(URL(string: "https://cdn.example.com/p/1.jpg?w=400&e=1700000000&token=abc"))
    #expect(filter.key(for: a) == "https://cdn.example.com/p/1.jpg?w=200")
    #expect(filter.key(for: a) == filter.key(for: b))
    #expect(filter.key(for: a) != filter.key(for: other))
    let bare = try #require(URL(string: "https://cdn.example.com/p/1.jpg?token=abc"))
    #expect(filter.key(for: bare) == "https://cdn.example.com/p/1.jpg")
    #expect(CacheKeyFilter.absoluteString.key(for: a) == a.absoluteString)
  }

  @Test func aSourceKeyCannotCollideWithAProcessedVariant() {
    let processed = ImageCacheKey(source: "https://a/b", processorIdentifier: "round(8)")
    let lookalike = ImageCacheKey(source: "https://a/b@round(8)")
    #expect(processed.stringValue != lookalike.stringValue)
    #expect(processed.original == ImageCacheKey(source: "https://a/b"))
    #expect(processed.isProcessed && !processed.original.isProcessed)
  }

  @Test func memoryPressureTrimsTheMemoryCache() throws {
    let level = LockedLevel()
    let monitor = MemoryPressureMonitor(
      sources: .init(pressure: { level.pressure }, cgroupUsage: { nil }))
    #expect(monitor.currentLevel() == .normal)
    level.pressure =
      "some avg10=12.00 avg60=3.00 avg300=1.00 total=100\nfull avg10=0.00 avg60=0.00 avg300=0.00 total=0\n"
    #expect(monitor.currentLevel() == .moderate)
    level.pressure =
      "some avg10=40.00 avg60=3.00 avg300=1.00 total=100\nfull avg10=9.50 avg60=0.00 avg300=0.00 total=0\n"
    #expect(monitor.currentLevel() == .critical)
    let cgroup = MemoryPressureMonitor(sources: .init(pressure: { nil }, cgroupUsage: { (96, 100) }))
    #expect(cgroup.currentLevel() == .critical)

    let cache = MemoryCache<String, Int>(limits: .init(totalCost: 1000))
    for index in 0..<10 { cache.setValue(index, forKey: "\(index)", cost: 100) }
    let token = monitor.subscribe { pressure in
      cache.trim(toCost: pressure == .critical ? 0 : cache.totalCost / 2)
    }
    defer { monitor.unsubscribe(token) }
    level.pressure =
      "some avg10=12.00 avg60=3.00 avg300=1.00 total=100\nfull avg10=0.00 avg60=0.00 avg300=0.00 total=0\n"
    monitor.poll()
    #expect(cache.totalCost == 500)
    level.pressure =
      "some avg10=0.00 avg60=3.00 avg300=1.00 total=100\nfull avg10=0.00 avg60=0.00 avg300=0.00 total=0\n"
    monitor.poll()
    #expect(cache.totalCost == 500)
  }
}

/// A pressure reading tests change between polls.
private final class LockedLevel: @unchecked Sendable {
  private let lock = NSLock()
  private var text: String? = "some avg10=0.00 avg60=0.00 avg300=0.00 total=0\n"
  var pressure: String? {
    get { lock.withLock { text } }
    set { lock.withLock { text = newValue } }
  }
}
