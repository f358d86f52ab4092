import Dispatch
import Foundation
import Magpie
import Synchronization

/// `magpie cache-bench engine`: the measurement issue 34 asked for before
/// choosing who owns the pipeline's bookkeeping, one lock (swift-nio's
/// shape, what Magpie uses: ``EngineLock``) or a global actor (Nuke's).
/// Both run the same rules (``SharedWork``) over the same table for the
/// same load: three subscribers join one piece of work, a loader thread
/// (as libcurl's is) reports eight progress events and the outcome, and
/// every subscriber gets each event and then its outcome. Under the lock,
/// each step is applied on the thread it comes from; under the actor, the
/// subscribers' tasks run on it and each event from the loader thread
/// enters it as a task, as it must: a thread cannot wait on an actor.
enum EngineOwnershipBench {
  static let subscribers = 3
  static let events = 8

  /// One subscriber: counts the events it gets, resumes its waiter.
  struct Waiter: Sendable {
    let seen: Counter
    let resume: @Sendable () -> Void
  }

  final class Counter: Sendable {
    private let value = Atomic<Int>(0)
    func increment() { value.add(1, ordering: .relaxed) }
    var count: Int { value.load(ordering: .relaxed) }
  }

  struct Entry {
    var work = SharedWork<Int, Waiter>(priority: .normal)
    var joined = 0
  }

  /// Times `loads` loads, six at a time, each way, `rounds` times; prints
  /// the median of each and their ratio.
  static func run(loads: Int = 20_000, rounds: Int = 5) async {
    let loader = DispatchQueue(label: "magpie.bench.loader")
    var lockTimes: [Double] = []
    var actorTimes: [Double] = []
    for _ in 0..<rounds {
      lockTimes.append(await time(loads: loads) { key, seen in await lockLoad(key, seen: seen, loader: loader) })
      actorTimes.append(await time(loads: loads) { key, seen in await actorLoad(key, seen: seen, loader: loader) })
    }
    let lock = median(lockTimes) / Double(loads) * 1e6
    let actor = median(actorTimes) / Double(loads) * 1e6
    var lockEvents: [Double] = []
    var actorEvents: [Double] = []
    for _ in 0..<rounds {
      lockEvents.append(await eventCost(actor: false, loader: loader))
      actorEvents.append(await eventCost(actor: true, loader: loader))
    }
    print(
      JSONValue.object([
        ("bench", "engine-ownership"), ("loads", .int(loads)), ("rounds", .int(rounds)),
        ("subscribers", .int(subscribers)), ("events", .int(events)),
        ("lock_us_per_load", .double(lock)), ("actor_us_per_load", .double(actor)),
        ("lock_rounds_us", .array(lockTimes.map { .double($0 / Double(loads) * 1e6) })),
        ("actor_rounds_us", .array(actorTimes.map { .double($0 / Double(loads) * 1e6) })),
        ("actor_over_lock", .double(actor / lock)),
        ("lock_ns_per_event", .double(median(lockEvents))), ("actor_ns_per_event", .double(median(actorEvents))),
        ("event_actor_over_lock", .double(median(actorEvents) / median(lockEvents))),
      ]).text)
  }

  /// Nanoseconds per progress event, from the loader thread until all
  /// three subscribers have it: `eventCount` events of one piece of work.
  private static func eventCost(actor: Bool, loader: DispatchQueue, eventCount: Int = 200_000) async -> Double {
    let seen = Counter()
    let key = -1
    for _ in 0..<subscribers {
      let waiter = Waiter(seen: seen, resume: {})
      if actor {
        await actorJoinOnly(key, waiter)
      } else {
        _ = lockTable.join(key, waiter)
      }
    }
    let clock = ContinuousClock()
    let start = clock.now
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
      loader.async {
        for _ in 0..<eventCount {
          if actor {
            Task { @Engine in
              for waiter in actorEntries[key]?.work.subscribers ?? [] { waiter.seen.increment() }
            }
          } else {
            for waiter in lockTable.subscribers(key) { waiter.seen.increment() }
          }
        }
        if actor {
          Task { @Engine in
            actorEntries[key] = nil
            done.resume()
          }
        } else {
          _ = lockTable.finish(key)
          done.resume()
        }
      }
    }
    let elapsed = clock.now - start
    precondition(seen.count == eventCount * subscribers, "an engine model lost events")
    return elapsed.milliseconds * 1e6 / Double(eventCount)
  }

  private static func time(
    loads: Int, _ load: @escaping @Sendable (Int, Counter) async -> Void
  ) async -> Double {
    let seen = Counter()
    let clock = ContinuousClock()
    let start = clock.now
    await withTaskGroup(of: Void.self) { group in
      for key in 0..<loads {
        if key >= 6 { await group.next() }
        group.addTask { await load(key, seen) }
      }
    }
    let elapsed = (clock.now - start).milliseconds / 1000
    precondition(seen.count == loads * subscribers * events, "an engine model lost events")
    return elapsed
  }

  private static func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted[sorted.count / 2]
  }

  // MARK: One lock

  private static let lockTable = LockedTable()

  final class LockedTable: @unchecked Sendable {
    // Guarded by EngineLock.
    private var entries: [Int: Entry] = [:]

    /// Joins `key`'s work; the last subscriber to join starts it.
    func join(_ key: Int, _ waiter: Waiter) -> Bool {
      EngineLock.withLock {
        _ = entries[key, default: Entry()].work.join(waiter, priority: .normal, waiting: true)
        entries[key]!.joined += 1
        return entries[key]!.joined == EngineOwnershipBench.subscribers
      }
    }

    func subscribers(_ key: Int) -> [Waiter] { EngineLock.withLock { entries[key]!.work.subscribers } }

    func finish(_ key: Int) -> [Waiter] {
      EngineLock.withLock {
        var entry = entries.removeValue(forKey: key)!
        return entry.work.finish(.success(key))
      }
    }
  }

  private static func lockLoad(_ key: Int, seen: Counter, loader: DispatchQueue) async {
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<subscribers {
        group.addTask {
          await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            guard lockTable.join(key, Waiter(seen: seen, resume: { done.resume() })) else { return }
            loader.async {
              for _ in 0..<events {
                for waiter in lockTable.subscribers(key) { waiter.seen.increment() }
              }
              for waiter in lockTable.finish(key) { waiter.resume() }
            }
          }
        }
      }
    }
  }

  // MARK: A global actor

  @globalActor actor Engine {
    static let shared = Engine()
  }

  @Engine private static var actorEntries: [Int: Entry] = [:]

  private static func actorLoad(_ key: Int, seen: Counter, loader: DispatchQueue) async {
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<subscribers {
        group.addTask { await actorSubscribe(key, seen: seen, loader: loader) }
      }
    }
  }

  /// One subscriber's task, on the actor: joins, then waits.
  @Engine private static func actorSubscribe(_ key: Int, seen: Counter, loader: DispatchQueue) async {
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
      actorJoin(key, Waiter(seen: seen, resume: { done.resume() }), loader: loader)
    }
  }

  @Engine private static func actorJoinOnly(_ key: Int, _ waiter: Waiter) {
    _ = actorEntries[key, default: Entry()].work.join(waiter, priority: .normal, waiting: true)
  }

  /// Joins `key`'s work on the actor; the last subscriber to join starts
  /// it on the loader thread, whose events each enter the actor as a task.
  @Engine private static func actorJoin(_ key: Int, _ waiter: Waiter, loader: DispatchQueue) {
    _ = actorEntries[key, default: Entry()].work.join(waiter, priority: .normal, waiting: true)
    actorEntries[key]!.joined += 1
    guard actorEntries[key]!.joined == subscribers else { return }
    loader.async {
      for _ in 0..<events {
        Task { @Engine in
          for waiter in actorEntries[key]?.work.subscribers ?? [] { waiter.seen.increment() }
        }
      }
      Task { @Engine in
        var entry = actorEntries.removeValue(forKey: key)!
        for waiter in entry.work.finish(.success(key)) { waiter.resume() }
      }
    }
  }
}
