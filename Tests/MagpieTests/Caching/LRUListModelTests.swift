import Testing

@testable import Magpie

/// The LRU bookkeeping against the simplest possible model: an array of
/// entries, most recent first, searched linearly.
@Suite struct LRUListModelTests {
  struct ModelEntry: Equatable {
    var key: Int
    var value: Int
    var cost: Int
    var expiresAt: Double
  }

  /// The reference: obviously correct, O(n) everything.
  struct Model {
    var entries: [ModelEntry] = []
    var costLimit: Int
    var countLimit: Int

    var totalCost: Int { entries.reduce(0) { $0 + $1.cost } }

    mutating func get(_ key: Int, now: Double, lifetime: Double) -> Int? {
      guard let i = entries.firstIndex(where: { $0.key == key }) else { return nil }
      var entry = entries.remove(at: i)
      if entry.expiresAt <= now { return nil }
      entry.expiresAt = now + lifetime
      entries.insert(entry, at: 0)
      return entry.value
    }

    mutating func set(_ key: Int, _ value: Int, cost: Int, now: Double, lifetime: Double) {
      if cost > costLimit {
        entries.removeAll { $0.key == key }
        return
      }
      entries.removeAll { $0.key == key }
      entries.insert(ModelEntry(key: key, value: value, cost: cost, expiresAt: now + lifetime), at: 0)
      while totalCost > costLimit || entries.count > countLimit { entries.removeLast() }
    }

    mutating func remove(_ key: Int) -> Int? {
      guard let i = entries.firstIndex(where: { $0.key == key }) else { return nil }
      return entries.remove(at: i).value
    }

    mutating func removeExpired(now: Double) { entries.removeAll { $0.expiresAt <= now } }

    mutating func trim(toCost cost: Int) {
      while totalCost > cost, !entries.isEmpty { entries.removeLast() }
    }
  }

  @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8])
  func randomOperationsMatchTheModel(seed: UInt64) {
    var rng = SplitMix64(seed: seed)
    let clock = ManualClock()
    let lifetime = 50.0
    let costLimit = 1000
    let countLimit = 12
    let cache = MemoryCache<Int, Int>(
      limits: .init(totalCost: costLimit, count: countLimit, expiration: .seconds(lifetime)), now: clock.monotonic)
    var model = Model(costLimit: costLimit, countLimit: countLimit)
    for step in 0..<4000 {
      let key = Int(rng.next() % 24)
      let now = clock.monotonic()
      switch rng.next() % 100 {
      case 0..<40:
        #expect(cache.value(forKey: key) == model.get(key, now: now, lifetime: lifetime), "step \(step)")
      case 40..<80:
        let cost = Int(rng.next() % 160)
        let value = Int(rng.next() % 1000)
        cache.setValue(value, forKey: key, cost: cost)
        model.set(key, value, cost: cost, now: now, lifetime: lifetime)
      case 80..<88:
        #expect(cache.removeValue(forKey: key) == model.remove(key), "step \(step)")
      case 88..<95:
        clock.advance(by: Double(rng.next() % 20))
      case 95..<98:
        cache.removeExpired()
        model.removeExpired(now: now)
      default:
        let target = Int(rng.next() % 800)
        cache.trim(toCost: target)
        model.trim(toCost: target)
      }
      #expect(cache.keysByRecency == model.entries.map(\.key), "order at step \(step)")
      #expect(cache.totalCost == model.totalCost, "cost at step \(step)")
    }
  }

  @Test func concurrentUseKeepsCostAccountingExact() async {
    let cache = MemoryCache<Int, Int>(limits: .init(totalCost: 5_000, count: 200, expiration: .never))
    await withTaskGroup(of: Void.self) { group in
      for worker in 0..<8 {
        group.addTask {
          var rng = SplitMix64(seed: UInt64(worker) + 100)
          for _ in 0..<5_000 {
            let key = Int(rng.next() % 300)
            switch rng.next() % 4 {
            case 0: cache.setValue(key, forKey: key, cost: key % 97 + 1)
            case 1: _ = cache.value(forKey: key)
            case 2: cache.removeValue(forKey: key)
            default: cache.setValue(key, forKey: key, cost: key % 97 + 1)
            }
          }
        }
      }
    }
    // Every value was stored with cost key % 97 + 1: the running total must
    // equal the sum over what is left, and the limits must hold.
    let keys = cache.keysByRecency
    #expect(Set(keys).count == keys.count)
    #expect(cache.totalCost == keys.reduce(0) { $0 + $1 % 97 + 1 })
    #expect(cache.totalCost <= 5_000)
    #expect(keys.count <= 200)
    for key in keys { #expect(cache.value(forKey: key) == key) }
  }

  @Test func anEntryCostlierThanTheWholeLimitIsNotStored() {
    let cache = MemoryCache<String, Int>(limits: .init(totalCost: 100))
    cache.setValue(1, forKey: "a", cost: 40)
    cache.setValue(2, forKey: "b", cost: 101)
    #expect(cache.value(forKey: "a") == 1)
    #expect(cache.value(forKey: "b") == nil)
    #expect(cache.totalCost == 40)
  }

  @Test func accessExtendsLifeAndExpiryEndsIt() {
    let clock = ManualClock()
    let cache = MemoryCache<String, Int>(
      limits: .init(totalCost: 100, expiration: .seconds(300)), now: clock.monotonic)
    cache.setValue(1, forKey: "kept", cost: 1)
    cache.setValue(2, forKey: "idle", cost: 1)
    clock.advance(by: 200)
    #expect(cache.value(forKey: "kept") == 1)
    clock.advance(by: 200)
    // 400 s after storing, 200 s after its last use: "kept" lives on.
    #expect(cache.value(forKey: "kept") == 1)
    #expect(cache.value(forKey: "idle") == nil)
    #expect(cache.count == 1)
  }

  @Test func neverExpiringEntriesStay() {
    let clock = ManualClock()
    let cache = MemoryCache<String, Int>(limits: .init(totalCost: 100, expiration: .never), now: clock.monotonic)
    cache.setValue(1, forKey: "a", cost: 1)
    clock.advance(by: 1e9)
    #expect(cache.removeExpired() == 0)
    #expect(cache.value(forKey: "a") == 1)
  }

  @Test func loweringLimitsEvictsAtOnce() {
    let cache = MemoryCache<Int, Int>(limits: .init(totalCost: 100))
    for key in 0..<10 { cache.setValue(key, forKey: key, cost: 10) }
    cache.setLimits(.init(totalCost: 35))
    #expect(cache.keysByRecency == [9, 8, 7])
    cache.trim(toCount: 1)
    #expect(cache.keysByRecency == [9])
  }
}

/// A small, fast, seedable generator so random tests replay exactly.
struct SplitMix64: RandomNumberGenerator {
  private var state: UInt64

  init(seed: UInt64) { state = seed }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
