import Dispatch
import Foundation
import Magpie

/// `magpie cache-bench memory|manager|engine|disk|clean|redis [--files N]
/// [--thumbnail FILE] [--redis URL --requests N --concurrency C]`: the
/// caching micro-benchmarks `make bench` runs, each next to its baseline
/// measured in the same process (for redis, `redis-benchmark` in the same
/// run). One JSON object per line.
enum CacheBenchCommand {
  static func run(_ words: [String]) async throws(CLIError) {
    let arguments = try ParsedArguments(
      words, valued: ["--files", "--thumbnail", "--redis", "--requests", "--concurrency"])
    guard arguments.positionals.count == 1 else {
      throw .usage("cache-bench", "expected memory, manager, engine, disk, clean or redis")
    }
    switch arguments.positionals[0] {
    case "memory":
      memoryHits()
    case "manager":
      await managerHits()
    case "engine":
      await EngineOwnershipBench.run()
    case "disk":
      guard let path = arguments.value("--thumbnail") else {
        throw .usage("cache-bench", "disk needs --thumbnail FILE")
      }
      try await diskHits(thumbnailPath: path)
    case "clean":
      try clean(files: try arguments.integer("--files", in: 1...10_000_000, default: 100_000))
    case "redis":
      try await RedisTierBench.run(
        url: arguments.value("--redis"), thumbnail: arguments.value("--thumbnail"),
        requests: try arguments.integer("--requests", in: 1...100_000_000, default: 100_000),
        concurrency: try arguments.integer("--concurrency", in: 1...256, default: 6))
    default:
      throw .usage("cache-bench", "unknown benchmark '\(arguments.positionals[0])'")
    }
  }

  // MARK: Memory

  /// Hits per second through `MemoryCache` and through a plain
  /// `Lock<[String: Image]>`, on one thread and on two.
  static func memoryHits() {
    let keys = (0..<1_000).map { "https://images.example.com/gallery/\($0)/photo-\($0 * 7919).jpg" }
    let image = Image(pixels: PixelBuffer(width: 1, height: 1))
    let cache = MemoryCache<String, Image>(limits: .init(totalCost: 1 << 30))
    let dictionary = Lock<[String: Image]>([:])
    for key in keys {
      cache.setValue(image, forKey: key, cost: 4)
      dictionary.withLock { $0[key] = image }
    }
    let lookups = 4_000_000
    for threads in [1, 2] {
      let cacheRate = hitsPerSecond(threads: threads, lookups: lookups) { index in
        cache.value(forKey: keys[index % keys.count]) != nil
      }
      let dictionaryRate = hitsPerSecond(threads: threads, lookups: lookups) { index in
        dictionary.withLock { $0[keys[index % keys.count]] } != nil
      }
      print(
        JSONValue.object([
          ("bench", "memory-cache-hits"), ("threads", .int(threads)),
          ("magpie_per_s", .double(cacheRate)), ("locked_dictionary_per_s", .double(dictionaryRate)),
          ("ratio", .double(cacheRate / dictionaryRate)),
        ]).text)
    }
  }

  private static func hitsPerSecond(threads: Int, lookups: Int, _ lookup: @escaping @Sendable (Int) -> Bool) -> Double {
    let perThread = lookups / threads
    let clock = ContinuousClock()
    // Warm up, then time.
    for index in 0..<10_000 { _ = lookup(index) }
    let start = clock.now
    DispatchQueue.concurrentPerform(iterations: threads) { thread in
      var hits = 0
      for index in (thread * perThread)..<((thread + 1) * perThread) where lookup(index) { hits += 1 }
      precondition(hits == perThread, "a benchmark lookup missed")
    }
    return Double(perThread * threads) / (clock.now - start).seconds
  }

  // MARK: Manager

  /// Nanoseconds per memory-cache hit through the manager's front door
  /// (`imageTask(with:)`, then its image awaited), its async API and its
  /// completion API, next to the bare `MemoryCache` lookup.
  static func managerHits() async {
    let cache = ImageCache(diskCache: nil, trimsOnMemoryPressure: false)
    let downloader = ImageDownloader(configuration: .init(dataLoader: OfflineDataLoader(), rateLimit: nil))
    let manager = ImageManager(configuration: .init(cache: cache, downloader: downloader))
    let requests = (0..<100).map { ImageRequest(url: URL(string: "https://images.example.com/gallery/\($0).jpg")!) }
    let image = Image(pixels: PixelBuffer(width: 1, height: 1))
    let keys = requests.map { $0.cacheKey(defaultFilter: .absoluteString).stringValue }
    for key in keys { cache.memoryCache.setValue(image, forKey: key, cost: 4) }
    let rounds = 200_000
    let clock = ContinuousClock()

    var start = clock.now
    for index in 0..<rounds { precondition(cache.memoryCache.value(forKey: keys[index % keys.count]) != nil) }
    let bare = (clock.now - start).nanosecondsPerRound(rounds)

    start = clock.now
    for index in 0..<rounds {
      let result = try? await manager.image(for: requests[index % requests.count])
      precondition(result?.cacheType == .memory)
    }
    let async = (clock.now - start).nanosecondsPerRound(rounds)

    start = clock.now
    for index in 0..<rounds {
      let image = try? await manager.imageTask(with: requests[index % requests.count]).image
      precondition(image != nil)
    }
    let imageTask = (clock.now - start).nanosecondsPerRound(rounds)

    let hits = Lock(0)
    start = clock.now
    for index in 0..<rounds {
      manager.loadImage(with: requests[index % requests.count], callbackQueue: .immediate) { result in
        if case .success = result { hits.withLock { $0 += 1 } }
      }
    }
    let completion = (clock.now - start).nanosecondsPerRound(rounds)
    precondition(hits.withLock { $0 } == rounds)
    print(
      JSONValue.object([
        ("bench", "manager-memory-hits"), ("memory_cache_ns", .double(bare)), ("async_api_ns", .double(async)),
        ("completion_api_ns", .double(completion)), ("image_task_ns", .double(imageTask)),
      ]).text)
  }

  // MARK: Disk

  /// Median latency of a disk-cache hit (memory bypassed) for a thumbnail,
  /// next to reading the same bytes from a plain file and decoding them.
  static func diskHits(thumbnailPath: String) async throws(CLIError) {
    let data = try InputFile.readFile(thumbnailPath)
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("magpie-cache-bench-\(getpid())")
    defer { try? FileManager.default.removeItem(at: folder) }
    let key = ImageCacheKey(source: "https://images.example.com/thumb.jpg", processorIdentifier: "downsample(256x256)")
    let rawPath = folder.appendingPathComponent("raw-copy").path
    let result: (cache: Double, raw: Double)
    do {
      let disk = try DiskCache(configuration: .init(directory: folder.appendingPathComponent("cache")))
      try disk.store(data, forKey: key.stringValue)
      try data.write(to: URL(fileURLWithPath: rawPath))
      let cache = ImageCache(diskCache: disk, trimsOnMemoryPressure: false)
      result = try await {
        let clock = ContinuousClock()
        var cacheTimes: [Double] = []
        var rawTimes: [Double] = []
        for round in 0..<520 {
          let a = clock.now
          let hit = try await cache.retrieveImage(forKey: key, from: .disk)
          let b = clock.now
          let raw = try CoderRegistry.shared.decode(Data(contentsOf: URL(fileURLWithPath: rawPath)))
          let c = clock.now
          precondition(hit.cacheType == .disk && hit.image?.pixelSize == raw.pixelSize)
          if round >= 20 {
            cacheTimes.append((b - a).milliseconds)
            rawTimes.append((c - b).milliseconds)
          }
        }
        return (median(cacheTimes), median(rawTimes))
      }()
    } catch {
      throw .failure("cache-bench disk", "\(error)")
    }
    print(
      JSONValue.object([
        ("bench", "disk-cache-hit"), ("bytes", .int(data.count)),
        ("magpie_ms", .double(result.cache)), ("raw_read_decode_ms", .double(result.raw)),
        ("ratio", .double(result.raw / result.cache)),
      ]).text)
  }

  // MARK: Clean

  /// Time for `DiskCache.clean()` over `files` files, half of which must go
  /// for being old and a quarter more for the size limit.
  static func clean(files: Int) throws(CLIError) {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("magpie-clean-bench-\(getpid())")
    defer { try? FileManager.default.removeItem(at: folder) }
    let payload = Data(repeating: 0xAB, count: 512)
    let now = Date()
    do {
      let cache = try DiskCache(
        configuration: .init(
          directory: folder, expiration: .days(7), sizeLimit: files * payload.count / 2, now: { now }))
      // Files are made directly (no fsync), with access dates spread over two
      // weeks: setting up 100,000 entries must not dominate the run.
      for index in 0..<files {
        let path = cache.fileURL(forKey: "key-\(index)").path
        let fd = open(path, O_CREAT | O_WRONLY | O_TRUNC | O_CLOEXEC, 0o600)
        let written = payload.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        guard fd >= 0, written == payload.count, close(fd) == 0 else {
          throw CLIError.failure("cache-bench clean", "could not create \(path): \(String(cString: strerror(errno)))")
        }
        let age = TimeInterval(index % 14) * 86_400 + TimeInterval(index % 1000)
        var times = [timeval(now.addingTimeInterval(-age)), timeval(now.addingTimeInterval(-age))]
        utimes(path, &times)
      }
      let clock = ContinuousClock()
      let start = clock.now
      let report = try cache.clean()
      let elapsed = (clock.now - start).milliseconds
      print(
        JSONValue.object([
          ("bench", "disk-cache-clean"), ("files", .int(files)), ("ms", .double(elapsed)),
          ("expired", .int(report.expiredFiles)), ("evicted", .int(report.evictedFiles)),
          ("left", .int(try cache.count())),
        ]).text)
    } catch let error as CLIError {
      throw error
    } catch {
      throw .failure("cache-bench clean", "\(error)")
    }
  }

  private static func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted[sorted.count / 2]
  }
}

extension timeval {
  fileprivate init(_ date: Date) {
    let seconds = date.timeIntervalSince1970
    self.init(tv_sec: Int(seconds), tv_usec: Int((seconds - seconds.rounded(.down)) * 1e6))
  }
}

extension Duration {
  /// The duration in seconds, with fractions.
  fileprivate var seconds: Double { milliseconds / 1000 }

  fileprivate func nanosecondsPerRound(_ rounds: Int) -> Double { milliseconds * 1e6 / Double(rounds) }
}
