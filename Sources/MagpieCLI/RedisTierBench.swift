import Foundation
import Magpie

#if canImport(MagpieRedis)
  import MagpieRedis
#endif

/// `magpie cache-bench redis --redis URL --thumbnail FILE [--requests N]
/// [--concurrency C]`: shared-tier hits per second, ``RedisStorage`` reads
/// of the thumbnail's bytes (header checked) by C tasks at once, for
/// `make bench` to set beside `redis-benchmark` GETs of values of the same
/// size at the same concurrency. One JSON line.
enum RedisTierBench {
  static func run(url: String?, thumbnail: String?, requests: Int, concurrency: Int) async throws(CLIError) {
    guard let thumbnail else { throw .usage("cache-bench", "redis needs --thumbnail FILE") }
    guard let option = try RedisOption.parse(url, concurrency: concurrency) else {
      throw .usage("cache-bench", "redis needs --redis URL")
    }
    #if canImport(MagpieRedis)
      guard let storage = option.tier.storage as? RedisStorage else { return }
      let payload = try await InputFile.read(thumbnail)
      let keys = (0..<1_000).map { "bench/thumbnail/\($0)" }
      for key in keys {
        do { try await storage.storeData(payload, forKey: key, metadata: nil) } catch {}
      }
      let clock = ContinuousClock()
      var best = Duration.seconds(3600)
      var hits = 0
      // Three rounds, the fastest counts (as the other benchmarks do).
      for _ in 0..<3 {
        let start = clock.now
        hits = await withTaskGroup(of: Int.self) { group in
          for task in 0..<concurrency {
            group.addTask {
              var found = 0
              for index in stride(from: task, to: requests, by: concurrency) {
                let data = try? await storage.data(forKey: keys[index % keys.count])
                if data?.count == payload.count { found += 1 }
              }
              return found
            }
          }
          return await group.reduce(0, +)
        }
        best = min(best, clock.now - start)
      }
      do { try await storage.removeAll() } catch {}
      guard hits == requests else {
        throw .failure("cache-bench redis", "\(requests - hits) of \(requests) reads missed (is the server up?)")
      }
      print(
        JSONValue.object([
          ("bench", "redis-tier-hits"), ("concurrency", .int(concurrency)), ("bytes", .int(payload.count)),
          ("requests", .int(requests)), ("magpie_per_s", .double(Double(requests) * 1000 / best.milliseconds)),
        ]).text)
    #endif
  }
}
