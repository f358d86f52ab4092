import Dispatch
import Foundation
import Testing

@testable import Magpie

/// Where stores and removals run: one at a time without a flush (the
/// kernel serialises a folder's creates and renames anyway, and a waiting
/// writer spins), overlapping when each store flushes.
@Suite struct DiskCacheWriteQueueTests {
  private func makeCache(_ dir: TemporaryDirectory, _ durability: DiskCacheDurability) throws -> DiskCache {
    try DiskCache(configuration: .init(directory: dir.url.appendingPathComponent("cache"), durability: durability))
  }

  @Test func deferredWritesRunOnTheSerialQueue() async throws {
    let dir = try TemporaryDirectory()
    let cache = try makeCache(dir, .deferred)
    #expect(try await cache.performWrite { _ in DispatchQueue.getSpecific(key: DiskCache.onWriteQueue) } == true)
    #expect(try await cache.perform { _ in DispatchQueue.getSpecific(key: DiskCache.onWriteQueue) } == nil)
  }

  @Test func flushingWritesRunOnTheSharedQueue() async throws {
    let dir = try TemporaryDirectory()
    let cache = try makeCache(dir, .eachEntry)
    #expect(try await cache.performWrite { _ in DispatchQueue.getSpecific(key: DiskCache.onWriteQueue) } == nil)
  }

  /// The first write waits for the second to start: on a serial queue it
  /// would wait out its limit and the test would fail. The limit is long
  /// because the test's own task, among the whole suite on two cores, can
  /// wait many seconds for a thread before it submits the second (10 s
  /// once failed in CI that way).
  @Test func flushingWritesOverlap() async throws {
    let dir = try TemporaryDirectory()
    let cache = try makeCache(dir, .eachEntry)
    let secondStarted = DispatchSemaphore(value: 0)
    let firstStarted = DispatchSemaphore(value: 0)
    async let first: DispatchTimeoutResult = cache.performWrite { _ in
      _ = firstStarted.signal()
      return secondStarted.wait(timeout: .now() + 120)
    }
    // Only once the first runs, so the second cannot take its place.
    await Self.wait(for: firstStarted)
    try await cache.performWrite { _ in _ = secondStarted.signal() }
    #expect(try await first == .success)
  }

  @Test(arguments: [DiskCacheDurability.eachEntry, .deferred])
  func concurrentStoresAndRemovalsAllLand(_ durability: DiskCacheDurability) async throws {
    let dir = try TemporaryDirectory()
    let cache = try makeCache(dir, durability)
    let payload = Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7) })
    try await withThrowingTaskGroup(of: Void.self) { group in
      for index in 0..<48 {
        group.addTask { try await cache.storeData(payload + Data([UInt8(index)]), forKey: "k\(index)", metadata: nil) }
      }
      try await group.waitForAll()
    }
    try await withThrowingTaskGroup(of: Void.self) { group in
      for index in stride(from: 0, to: 48, by: 2) {
        group.addTask { try await cache.removeData(forKey: "k\(index)") }
      }
      try await group.waitForAll()
    }
    for index in 0..<48 {
      #expect(try cache.data(forKey: "k\(index)") == (index.isMultiple(of: 2) ? nil : payload + Data([UInt8(index)])))
    }
    let names = try FileManager.default.contentsOfDirectory(atPath: cache.configuration.directory.path)
    #expect(names.count == 24)
    #expect(!names.contains { $0.hasPrefix(DiskCache.temporaryPrefix) })
  }

  /// Waits for `semaphore` without blocking a cooperative thread.
  private static func wait(for semaphore: DispatchSemaphore) async {
    await withCheckedContinuation { continuation in
      DispatchQueue.global().async {
        semaphore.wait()
        continuation.resume()
      }
    }
  }
}
