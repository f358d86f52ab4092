#if canImport(MagpieRedis)
  import Foundation
  import Magpie
  import Testing

  @testable import MagpieRedis

  /// The Redis tier's state machines and value format, as values.
  @Suite struct RedisStateTests {
    private func allows(
      _ breaker: inout RedisCircuitBreaker<ContinuousClock.Instant>, _ now: ContinuousClock.Instant
    ) -> Bool {
      breaker.allowsCall(at: now)
    }

    @Test func breakerOpensAfterTheThresholdAndProbesWithBackoff() {
      var breaker = RedisCircuitBreaker<ContinuousClock.Instant>(
        threshold: 3, retryInterval: .seconds(1), maximumInterval: .seconds(3))
      let start = ContinuousClock.now
      #expect(allows(&breaker, start))
      #expect(breaker.recordFailure(at: start, reason: "refused") == nil)
      #expect(breaker.recordFailure(at: start, reason: "refused") == nil)
      // A success in between resets the count.
      #expect(breaker.recordSuccess() == nil)
      #expect(breaker.recordFailure(at: start, reason: "refused") == nil)
      #expect(breaker.recordFailure(at: start, reason: "refused") == nil)
      let opened = breaker.recordFailure(at: start, reason: "refused")
      #expect(opened?.contains("down (refused)") == true)
      #expect(!allows(&breaker, start + .milliseconds(999)))
      // One probe when due; the others still skip.
      #expect(allows(&breaker, start + .seconds(1)))
      #expect(!allows(&breaker, start + .seconds(1)))
      // A failed probe doubles the interval without a second log line.
      #expect(breaker.recordFailure(at: start + .seconds(1), reason: "refused") == nil)
      #expect(breaker.state == .open(retryAt: start + .seconds(3)))
      #expect(allows(&breaker, start + .seconds(3)))
      #expect(breaker.recordFailure(at: start + .seconds(3), reason: "refused") == nil)
      // Capped at the maximum.
      #expect(breaker.state == .open(retryAt: start + .seconds(6)))
      #expect(allows(&breaker, start + .seconds(6)))
      #expect(breaker.recordSuccess() == "the tier is back")
      #expect(breaker.state == .closed(failures: 0))
      #expect(breaker.interval == .seconds(1))
    }

    @Test func commandsGoToIdleConnectionsThenNewOnesThenTheLeastBusy() {
      // The first command opens slot 0; while it is busy, the next opens slot 1.
      #expect(RedisPoolRouting.route([nil, nil, nil]) == .open(0))
      #expect(RedisPoolRouting.route([1, nil, nil]) == .open(1))
      // An idle connection is preferred to opening one.
      #expect(RedisPoolRouting.route([1, 0, nil]) == .use(1))
      #expect(RedisPoolRouting.route([0, 0, 0]) == .use(0))
      // A broken slot (nil) is reopened before anything is pipelined.
      #expect(RedisPoolRouting.route([2, nil, 1]) == .open(1))
      // All busy: pipelined behind the fewest.
      #expect(RedisPoolRouting.route([3, 1, 2]) == .use(1))
      #expect(RedisPoolRouting.route([5]) == .use(0))
    }

    @Test func commandsSharePipelinedConnectionsUpToTheDepth() {
      // Two deep: the second command joins the first's connection, the
      // third opens the next, and a busy pool still takes the least busy.
      #expect(RedisPoolRouting.route([nil, nil, nil], depth: 2) == .open(0))
      #expect(RedisPoolRouting.route([1, nil, nil], depth: 2) == .use(0))
      #expect(RedisPoolRouting.route([2, nil, nil], depth: 2) == .open(1))
      #expect(RedisPoolRouting.route([2, 1, nil], depth: 2) == .use(1))
      // The lowest slot with room first, even when a later one is idle.
      #expect(RedisPoolRouting.route([1, 0, nil], depth: 2) == .use(0))
      #expect(RedisPoolRouting.route([2, 2, 2], depth: 2) == .use(0))
      #expect(RedisPoolRouting.route([4, 2, 3], depth: 2) == .use(1))
      // A depth under 1 is 1.
      #expect(RedisPoolRouting.route([1, nil], depth: 0) == .open(1))
      #expect(RedisConfiguration().pipelineDepth == 2)
    }

    @Test func entriesRoundTripAndAnyDamageIsNoEntry() throws {
      let payload = Data((0..<1000).map { UInt8($0 % 251) })
      let metadata = Data("etag".utf8)
      let value = RedisEntry.encode(payload, metadata: metadata)
      let decoded = try #require(RedisEntry.decode(value))
      #expect(decoded.payload == payload)
      #expect(decoded.metadata == metadata)
      #expect(RedisEntry.decode(RedisEntry.encode(payload, metadata: nil))?.metadata == nil)
      for index in stride(from: 0, to: value.count, by: 37) {
        var flipped = value
        flipped[index] ^= 0x10
        #expect(RedisEntry.decode(flipped) == nil, "a flip at \(index)")
      }
      for length in [0, 10, RedisEntry.headerSize, value.count - 1] {
        #expect(RedisEntry.decode(value.prefix(length)) == nil, "cut to \(length)")
      }
      #expect(RedisEntry.decode(value + Data([0])) == nil)
      #expect(RedisEntry.decode(Data("a plain string someone else stored".utf8)) == nil)
    }

    @Test func configurationReadsRedisURLs() throws {
      let plain = try RedisConfiguration(url: URL(string: "redis://cache.internal")!)
      #expect(plain.host == "cache.internal" && plain.port == 6379 && plain.database == 0 && plain.password == nil)
      let full = try RedisConfiguration(url: URL(string: "redis://app:s%40cret@10.0.0.5:6380/3")!)
      #expect(full.host == "10.0.0.5" && full.port == 6380 && full.database == 3)
      #expect(full.username == "app" && full.password == "s@cret")
      #expect(full.endpoint == "10.0.0.5:6380/3")
      let lone = try RedisConfiguration(url: URL(string: "redis://secret@127.0.0.1:7000")!)
      #expect(lone.password == "secret" && lone.username == nil)
      for bad in ["http://127.0.0.1:6379", "redis:///3", "redis://127.0.0.1/x"] {
        #expect(throws: MagpieError.self, "\(bad)") { try RedisConfiguration(url: URL(string: bad)!) }
      }
    }
  }
#endif
